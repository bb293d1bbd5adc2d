import NoteStore
import TerminalUI

/// The F1 screen: the keys, written from the keymaps (`KeyHelp`), scrolled when the terminal
/// is shorter.
enum HelpView {
    /// The help's lines on a screen `width` columns wide (each drawn after a space).
    static func lines(width: Int) -> [String] { KeyHelp.lines(width: width - 1) }

    /// Where the help goes: everything below the title bar.
    static func area(in layout: ScreenLayout) -> Rect {
        Rect(x: 0, y: 1, width: layout.size.width, height: max(0, layout.size.height - 1))
    }

    /// The first line shown: `firstLine`, kept where the `count` lines of the help still fill
    /// `height` rows.
    static func clamped(_ firstLine: Int, height: Int, count: Int) -> Int {
        min(max(0, firstLine), max(0, count - height))
    }

    /// The first line shown after `action`: scrolled, or nil when the help closes.
    static func scroll(from firstLine: Int, by action: HelpAction, in layout: ScreenLayout)
        -> Int?
    {
        let height = area(in: layout).height
        let lines = lines(width: layout.size.width)
        let moved: Int
        switch action {
        case .lineUp: moved = firstLine - 1
        case .lineDown: moved = firstLine + 1
        case .pageUp: moved = firstLine - max(1, height - 1)
        case .pageDown: moved = firstLine + max(1, height - 1)
        case .top: moved = 0
        case .bottom: moved = lines.count
        case .close: return nil
        }
        return clamped(moved, height: height, count: lines.count)
    }

    /// Draws the help from `firstLine` on; the last row says what is left below.
    static func draw(from firstLine: Int, on canvas: inout Canvas, in layout: ScreenLayout) {
        let rect = area(in: layout)
        canvas.fill(rect, with: .plain)
        let lines = lines(width: rect.width)
        let first = clamped(firstLine, height: rect.height, count: lines.count)
        var shown = lines.dropFirst(first).prefix(rect.height)
        if first + shown.count < lines.count {
            shown = shown.dropLast()
            canvas.put(
                " ↓ \(lines.count - first - shown.count) more lines: Down, PgDn (any other key closes)",
                at: Point(x: 0, y: rect.maxY - 1), style: Theme.secondary, maxWidth: rect.width)
        }
        for (offset, line) in shown.enumerated() {
            canvas.put(" " + line, at: Point(x: 0, y: rect.y + offset), maxWidth: rect.width)
        }
    }
}

/// The author picker drawn as a box over the panes.
enum AuthorPickerView {
    static func draw(_ picker: AuthorPicker, on canvas: inout Canvas, in layout: ScreenLayout) {
        let width = min(48, layout.size.width - 4)
        let height = min(14, layout.size.height - 4)
        let box = Rect(x: (layout.size.width - width) / 2, y: 2, width: width, height: height)
        canvas.fill(box, with: Theme.overlay)
        canvas.put(
            " Author: " + picker.filter, at: box.origin, style: Theme.overlay, maxWidth: width)
        if let pending = picker.confirmingDeletion {
            let question =
                " Delete \(pending.author.name) and \(counted(pending.articles, "article"))? y/n"
            canvas.put(
                question, at: Point(x: box.x, y: box.y + 2), style: Theme.overlay, maxWidth: width)
            return
        }
        var choices = picker.matches.map(\.name)
        if picker.createsNewAuthor { choices.append("Create “\(picker.filter)”") }
        let visible = height - 3
        let first = max(0, picker.selected - visible + 1)
        for (offset, choice) in choices.dropFirst(first).prefix(visible).enumerated() {
            let style = first + offset == picker.selected ? Theme.overlaySelected : Theme.overlay
            let line = Rect(x: box.x, y: box.y + 2 + offset, width: width, height: 1)
            canvas.fill(line, with: style)
            canvas.put("  " + choice, at: line.origin, style: style, maxWidth: width)
        }
        canvas.put(
            " " + KeyHelp.hint(Keymaps.picker.shortcuts, separator: " · "),
            at: Point(x: box.x, y: box.maxY - 1),
            style: Theme.overlay, maxWidth: width)
    }
}
