import NoteStore
import TerminalUI

/// Draws the whole screen from the frame's value (`ScreenState`): reads nothing else and
/// writes nothing.
@MainActor
struct ScreenRenderer {
    let state: ScreenState
    let layout: ScreenLayout

    func draw() -> (Canvas, Point?) {
        var canvas = Canvas(size: layout.size)
        guard !layout.isTooSmall else {
            let minimum = ScreenLayout.minimumSize
            let panesNeed = ScreenLayout.widthNeeded(byPanes: layout.paneCount)
            let text =
                layout.size.width >= minimum.width && layout.size.height >= minimum.height
                ? "\(counted(layout.paneCount, "pane")) need \(panesNeed) columns: Ctrl-X closes "
                    + "one, Alt-Z undoes the last layout change. Keys typed wait until they fit."
                : "Terminal too small: notes needs at least \(minimum.width)x\(minimum.height)"
            // Wrapped, so that even a tiny terminal shows the words "too small".
            for (row, line) in SoftWrap.lines(of: text, width: layout.size.width).enumerated() {
                canvas.put(text[line], at: Point(x: 0, y: row), maxWidth: layout.size.width)
            }
            return (canvas, nil)
        }
        canvas.fill(layout.titleBar, with: Theme.titleBar)
        let window = state.windowName.map { "  · \($0)" } ?? ""
        canvas.put(" notes  \(state.notebookName)\(window)", at: .zero, style: Theme.titleBar)
        var cursor: Point?
        for (index, pane) in state.panes.enumerated() {
            if let point = drawPane(pane, index: index, on: &canvas) { cursor = point }
            if index > 0 {
                let rect = layout.panes[index]
                for y in rect.y..<rect.maxY {
                    canvas.put("│", at: Point(x: rect.x - 1, y: y), style: Theme.separator)
                }
            }
        }
        if let point = drawStatus(on: &canvas) { cursor = point }
        drawShortcuts(on: &canvas)
        switch state.overlay {
        case .help(let firstLine): HelpView.draw(from: firstLine, on: &canvas, in: layout)
        case .authorPicker(let picker): AuthorPickerView.draw(picker, on: &canvas, in: layout)
        case nil: break
        }
        return (canvas, cursor)
    }

    /// Draws one pane; returns where the cursor goes when it is typing a search.
    private func drawPane(_ pane: PaneState, index: Int, on canvas: inout Canvas) -> Point? {
        let focused = index == state.focus
        let header = layout.header(index)
        let headerStyle = focused ? Theme.focusedHeader : Theme.header
        canvas.fill(header, with: headerStyle)
        var title = " \(index + 1) "
        var cursor: Point?
        if let history = pane.history {
            title += HistoryView.title(history.panel)
            canvas.put(title, at: header.origin, style: headerStyle, maxWidth: header.width)
            HistoryView.draw(history, focused: focused, on: &canvas, in: layout.content(index))
            return nil
        } else if let input = pane.searchInput {
            title += "Search: \(input)"
            // How many articles it finds: the list below shows them.
            let count = input.isEmpty ? "" : " · \(pane.total)"
            let width = canvas.put(
                title, at: header.origin, style: headerStyle, maxWidth: header.width)
            canvas.put(
                count, at: Point(x: header.x + width, y: header.y), style: headerStyle,
                maxWidth: max(0, header.width - width))
            if focused { cursor = Point(x: header.x + min(width, header.width - 1), y: header.y) }
        } else {
            switch pane.mode {
            case .list:
                title += pane.query.search.isEmpty ? "All articles" : "Search: \(pane.query.search)"
                title += " · \(pane.total)"
            case .article:
                title += pane.editor?.field == .title ? "Editing the title" : "Editing"
            case .gone:
                title += "Deleted"
            }
            canvas.put(title, at: header.origin, style: headerStyle, maxWidth: header.width)
        }
        let content = layout.content(index)
        switch pane.mode {
        case .list: ArticleListView.draw(pane, focused: focused, on: &canvas, in: content)
        case .article:
            if let point = ArticleView.draw(pane, focused: focused, on: &canvas, in: content) {
                cursor = point
            }
        case .gone: ArticleView.drawGone(on: &canvas, in: content)
        }
        return cursor
    }

    /// "Pane 1 │ Undo … │ Redo … │ message". The answer to a key that does nothing, when it
    /// does not fit whole, takes the place of what redo, then undo, would do: it names F1.
    /// While the focused pane finds in its article, the find prompt: "Find: text │ message",
    /// with the cursor; returns where the cursor goes then.
    private func drawStatus(on canvas: inout Canvas) -> Point? {
        let pane = state.focusedPane
        let width = layout.statusLine.width
        if let find = pane.editor?.find, find.isTyping {
            let prompt = " Find: \(find.text)"
            let line = ([prompt] + [state.message].compactMap { $0 }).joined(separator: " │ ")
            StatusLine.draw(line, on: &canvas, in: layout.statusLine)
            let x = min(DisplayWidth.of(prompt), width - 1)
            return Point(x: layout.statusLine.x + x, y: layout.statusLine.y)
        }
        var undoRedo: [String]
        if pane.hasStack {
            undoRedo = [
                pane.undoActionName.map { "Undo \($0)" } ?? "Nothing to undo",
                pane.redoActionName.map { "Redo \($0)" } ?? "Nothing to redo",
            ]
        } else {
            undoRedo = ["Undo off"]
        }
        let line = { (undoRedo: [String]) in
            StatusLine.text(pane: state.focus + 1, undoRedo + [state.message].compactMap { $0 })
        }
        while state.messageAnswersAKey, !undoRedo.isEmpty, DisplayWidth.of(line(undoRedo)) > width {
            undoRedo.removeLast()
        }
        StatusLine.draw(line(undoRedo), on: &canvas, in: layout.statusLine)
        return nil
    }

    /// The focused pane's keys: those of what it shows (a search being typed, the list, an
    /// article), then those that work everywhere, in two rows. A key the mode takes for itself
    /// (Esc clears a search) is shown once, with the mode's meaning.
    static func shortcuts(of pane: PaneState) -> [Shortcut] {
        let own: [Shortcut]
        if pane.history != nil {
            own = Keymaps.history.shortcuts
        } else if pane.searchInput != nil {
            own = Keymaps.search.shortcuts
        } else if pane.editor?.find?.isTyping == true {
            own = Keymaps.find.shortcuts
        } else {
            switch pane.mode {
            case .list: own = Keymaps.list.shortcuts
            case .article: own = Keymaps.editor.shortcuts
            case .gone: own = []
            }
        }
        var taken = Set(own.map(\.key))
        // The find prompt passes the article's other keys on: Ctrl-X cuts there.
        if pane.editor?.find?.isTyping == true {
            taken.formUnion(Keymaps.editor.shortcuts.map(\.key))
        }
        return own + Keymaps.everywhere.shortcuts.filter { !taken.contains($0.key) }
    }

    private func drawShortcuts(on canvas: inout Canvas) {
        let shortcuts = Self.shortcuts(of: state.focusedPane)
        for row in 0..<layout.shortcutBar.height {
            var x = 0
            let y = layout.shortcutBar.y + row
            for item in shortcuts where item.row == row {
                // Whole items only: one cut at the edge would read as another key.
                guard x + DisplayWidth.of("\(item.key) \(item.label)") <= layout.size.width
                else { break }
                x += canvas.put(item.key, at: Point(x: x, y: y), style: Theme.shortcutKey)
                x += canvas.put(" \(item.label)  ", at: Point(x: x, y: y))
            }
        }
    }
}
