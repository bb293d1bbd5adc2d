import NoteStore
import TerminalUI

/// The F1 screen: the keys, from `Resources/help.txt`.
enum HelpView {
    static let text = String(decoding: PackageResources.help_txt, as: UTF8.self)

    static func draw(on canvas: inout Canvas, in layout: ScreenLayout) {
        let rect = Rect(x: 0, y: 1, width: layout.size.width, height: layout.size.height - 1)
        canvas.fill(rect, with: .plain)
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(rect.height).enumerated()
        {
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
            let question = " Delete \(pending.author.name) and \(pending.articles) articles? y/n"
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
            " Enter choose · Del delete · Esc cancel", at: Point(x: box.x, y: box.maxY - 1),
            style: Theme.overlay, maxWidth: width)
    }
}
