import NoteStore
import TerminalUI

/// A pane's list: one article a row, title on the left, author and rating on the right.
@MainActor
enum ArticleListView {
    static func draw(_ pane: Pane, focused: Bool, on canvas: inout Canvas, in rect: Rect) {
        if pane.total == 0 {
            let text = pane.query.search.isEmpty ? " No articles: Ctrl-N writes one" : " No match"
            canvas.put(text, at: rect.origin, style: Theme.secondary, maxWidth: rect.width)
            return
        }
        for (offset, summary) in pane.rows.enumerated() where offset < rect.height {
            let y = rect.y + offset
            let index = pane.top + offset
            var style = CellStyle.plain
            if pane.highlighted.contains(summary.id) { style = Theme.highlighted }
            if index == pane.selected { style = focused ? Theme.selectedFocused : Theme.selected }
            let line = Rect(x: rect.x, y: y, width: rect.width, height: 1)
            canvas.fill(line, with: style)
            let right = rightColumn(summary, width: rect.width)
            let rightWidth = DisplayWidth.of(right)
            canvas.put(
                " " + summary.title, at: Point(x: rect.x, y: y), style: style,
                maxWidth: max(0, rect.width - rightWidth - 1))
            canvas.put(right, at: Point(x: rect.maxX - rightWidth, y: y), style: style)
        }
    }

    /// "Author ★★★☆☆", shortened to fit narrow panes.
    static func rightColumn(_ summary: ArticleSummary, width: Int) -> String {
        let stars =
            String(repeating: "★", count: summary.rating)
            + String(repeating: "☆", count: 5 - summary.rating)
        guard width >= 36, let author = summary.authorName else { return stars + " " }
        return truncated(author, to: 14) + " " + stars + " "
    }

    static func truncated(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var result = ""
        for character in text {
            if DisplayWidth.of(result) + DisplayWidth.of(character) > width - 1 { break }
            result.append(character)
        }
        return result + "…"
    }
}
