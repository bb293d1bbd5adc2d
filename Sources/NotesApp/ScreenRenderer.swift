import NoteStore
import TerminalUI

/// Draws the whole screen from the app's state. Reads no data itself: panes load their rows
/// before a draw.
@MainActor
struct ScreenRenderer {
    let app: NotesApp
    let layout: ScreenLayout

    func draw() -> (Canvas, Point?) {
        var canvas = Canvas(size: layout.size)
        guard !layout.isTooSmall else {
            let text =
                "Terminal too small: notes needs at least \(ScreenLayout.minimumSize.width)"
                + "x\(ScreenLayout.minimumSize.height)"
            // Wrapped, so that even a tiny terminal shows the words "too small".
            for (row, line) in SoftWrap.lines(of: text, width: layout.size.width).enumerated() {
                canvas.put(text[line], at: Point(x: 0, y: row), maxWidth: layout.size.width)
            }
            return (canvas, nil)
        }
        canvas.fill(layout.titleBar, with: Theme.titleBar)
        canvas.put(" notes  \(app.notebookName)", at: .zero, style: Theme.titleBar)
        var cursor: Point?
        for (index, pane) in app.panes.enumerated() {
            if let point = drawPane(pane, index: index, on: &canvas) { cursor = point }
            if index > 0 {
                let rect = layout.panes[index]
                for y in rect.y..<rect.maxY {
                    canvas.put("│", at: Point(x: rect.x - 1, y: y), style: Theme.separator)
                }
            }
        }
        drawStatus(on: &canvas)
        drawShortcuts(on: &canvas)
        switch app.overlay {
        case .help(let firstLine): HelpView.draw(from: firstLine, on: &canvas, in: layout)
        case .authorPicker(let picker): AuthorPickerView.draw(picker, on: &canvas, in: layout)
        case nil: break
        }
        return (canvas, cursor)
    }

    /// Draws one pane; returns where the cursor goes when it is typing a search.
    private func drawPane(_ pane: Pane, index: Int, on canvas: inout Canvas) -> Point? {
        let focused = index == app.focus
        let header = layout.header(index)
        let headerStyle = focused ? Theme.focusedHeader : Theme.header
        canvas.fill(header, with: headerStyle)
        var title = " \(index + 1) "
        var cursor: Point?
        if let input = pane.searchInput {
            title += "Search: \(input)"
            let width = canvas.put(
                title, at: header.origin, style: headerStyle, maxWidth: header.width)
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

    private func drawStatus(on canvas: inout Canvas) {
        let pane = app.focusedPane
        var parts = ["Pane \(app.focus + 1)"]
        if let stack = pane.stack {
            parts.append(stack.undoActionName.map { "Undo \($0)" } ?? "Nothing to undo")
            parts.append(stack.redoActionName.map { "Redo \($0)" } ?? "Nothing to redo")
        } else {
            parts.append("Undo off")
        }
        if let message = app.message { parts.append(message) }
        let width = layout.statusLine.width
        canvas.put(
            DisplayWidth.fitting(" " + parts.joined(separator: " │ "), in: width),
            at: layout.statusLine.origin, style: Theme.status, maxWidth: width)
    }

    /// The keys of a list, where letters, digits and Delete are commands.
    static let listShortcuts: [[(key: String, label: String)]] = [
        [
            ("^Z", "Undo"), ("^Y", "Redo"), ("^N", "New"), ("Del", "Delete"), ("0-5", "Rate"),
            ("a", "Author"), ("/", "Search"),
        ],
        [
            ("^W", "Next pane"), ("^T", "New pane"), ("^X", "Close pane"), ("Enter", "Open"),
            ("Esc", "Back"), ("F1", "Help"), ("^Q", "Quit"),
        ],
    ]

    /// The keys of an open article, where letters, digits and Delete edit the text.
    static let editorShortcuts: [[(key: String, label: String)]] = [
        [
            ("^Z", "Undo"), ("^Y", "Redo"), ("^N", "New"), ("S-Tab", "Title/Body"),
            ("M-B", "Word left"), ("M-F", "Word right"),
        ],
        [
            ("^W", "Next pane"), ("^T", "New pane"), ("^X", "Close pane"), ("Esc", "Back"),
            ("F1", "Help"), ("^Q", "Quit"),
        ],
    ]

    /// The focused pane's keys.
    private func drawShortcuts(on canvas: inout Canvas) {
        let editing = app.focusedPane.mode != .list
        for (row, items) in (editing ? Self.editorShortcuts : Self.listShortcuts).enumerated() {
            var x = 0
            let y = layout.shortcutBar.y + row
            for item in items {
                guard x < layout.size.width else { break }
                x += canvas.put(item.key, at: Point(x: x, y: y), style: Theme.shortcutKey)
                x += canvas.put(" \(item.label)  ", at: Point(x: x, y: y))
            }
        }
    }
}
