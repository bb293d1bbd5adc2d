import NoteStore
import TerminalUI

/// An open article: the title on top, a line about it, then the body, both editable.
@MainActor
enum ArticleView {
    /// What stands for an empty title (a new article's), dimmed, in the editor and the lists:
    /// typing replaces it.
    static let untitled = "Untitled"

    /// Where the title and the body go in a pane's content.
    static func areas(in rect: Rect) -> (title: Rect, about: Rect, body: Rect) {
        let width = max(0, rect.width - 2)
        return (
            Rect(x: rect.x + 1, y: rect.y, width: width, height: min(1, rect.height)),
            Rect(
                x: rect.x + 1, y: rect.y + 1, width: width, height: min(1, max(0, rect.height - 1))),
            Rect(x: rect.x + 1, y: rect.y + 3, width: width, height: max(0, rect.height - 3))
        )
    }

    /// What an article deleted while open shows instead of its text.
    static let goneLines = [
        "This article was deleted while open here.",
        "Ctrl-Z or Ctrl-Y brings it back when it is yours to undo or redo;",
        "Esc goes back to the list.",
    ]

    /// Draws the notice of an article deleted while open (`Pane.Mode.gone`), each line wrapped
    /// to the pane's width.
    static func drawGone(on canvas: inout Canvas, in rect: Rect) {
        let width = max(0, rect.width - 2)
        let rows = goneLines.enumerated().flatMap { index, line in
            SoftWrap.lines(of: line, width: width).map { (line[$0], index == 0) }
        }
        for (row, (text, isFirst)) in rows.enumerated() where row + 1 < rect.height {
            canvas.put(
                text, at: Point(x: rect.x + 1, y: rect.y + row + 1),
                style: isFirst ? Theme.articleTitle : Theme.secondary, maxWidth: width)
        }
    }

    /// The selection of `buffer`, marked.
    private static func selectionMarks(of buffer: EditorBuffer) -> [TextMark] {
        buffer.selection.map { [TextMark(range: $0, style: Theme.selectedText)] } ?? []
    }

    /// The body's marks: what the find matched on screen (the match at the cursor set apart),
    /// then the selection over them.
    private static func bodyMarks(of editor: ArticleEditor) -> [TextMark] {
        var marks: [TextMark] = []
        if let text = editor.find?.text, !text.isEmpty {
            let body = editor.body
            // A match that starts above the top row and ends on it is marked too.
            let shown = body.visibleRange
            let from = body.layout.boundary(atOrBefore: shown.lowerBound - text.utf8.count * 4)
            marks = TextFinder.matches(of: text, in: body.text, startingIn: from..<shown.upperBound)
                .map { match in
                    let isCurrent = match.lowerBound == body.cursorOffset
                    return TextMark(
                        range: match, style: isCurrent ? Theme.currentMatch : Theme.match)
                }
        }
        return marks + selectionMarks(of: editor.body)
    }

    /// Draws the editor (fitted by `Pane.fitEditor(to:)`); returns the cursor's cell when the
    /// pane has the focus.
    static func draw(_ pane: PaneState, focused: Bool, on canvas: inout Canvas, in rect: Rect)
        -> Point?
    {
        guard let editor = pane.editor, rect.height > 3, rect.width > 2 else { return nil }
        let area = areas(in: rect)
        if editor.title.text.isEmpty {
            canvas.put(
                untitled, at: area.title.origin, style: Theme.placeholderTitle,
                maxWidth: area.title.width)
        } else if editor.field != .title {
            // Not being edited, a title longer than the pane shows its start, cut with "…" (its
            // view keeps the row of its cursor, which may be its last).
            canvas.put(
                DisplayWidth.fitting(editor.title.text, in: area.title.width),
                at: area.title.origin, style: Theme.articleTitle, maxWidth: area.title.width)
        } else {
            editor.title.draw(
                into: &canvas, rect: area.title, style: Theme.articleTitle,
                marks: selectionMarks(of: editor.title))
        }
        let article = editor.article
        // The stars as the list shows them, then the place in the body, which a narrow pane
        // keeps before the date.
        let about =
            "\(RatingStars.text(for: article.rating)) · \(editor.body.scrollIndicator)"
            + " · updated \(article.updatedAt.prefix(16))"
        canvas.put(about, at: area.about.origin, style: Theme.secondary, maxWidth: area.about.width)
        editor.body.draw(into: &canvas, rect: area.body, marks: bodyMarks(of: editor))
        guard focused, pane.searchInput == nil, editor.find?.isTyping != true else { return nil }
        let active = editor.field == .title ? area.title : area.body
        let cursor = editor.buffer.cursorPosition
        return Point(x: active.x + cursor.x, y: active.y + cursor.y)
    }
}
