import Foundation
import NoteStore
import TerminalUI

/// A pane's list: one article a row, title on the left, author and rating on the right.
@MainActor
enum ArticleListView {
    static func draw(_ pane: PaneState, focused: Bool, on canvas: inout Canvas, in rect: Rect) {
        if pane.total == 0 {
            let text = pane.query.search.isEmpty ? " No articles: Ctrl-N writes one" : " No match"
            canvas.put(text, at: rect.origin, style: Theme.secondary, maxWidth: rect.width)
            return
        }
        for (offset, summary) in pane.rows.enumerated() where offset < rect.height {
            let y = rect.y + offset
            let index = pane.top + offset
            var style = CellStyle.plain
            let restored = pane.highlighted.contains(summary.id)
            if restored { style = Theme.highlighted }
            if index == pane.selected { style = focused ? Theme.selectedFocused : Theme.selected }
            let line = Rect(x: rect.x, y: y, width: rect.width, height: 1)
            canvas.fill(line, with: style)
            let right = rightColumn(summary, width: rect.width)
            let rightWidth = DisplayWidth.of(right)
            drawTitle(
                summary.title, matching: pane.query.search, at: Point(x: rect.x, y: y),
                style: style, width: max(0, rect.width - rightWidth - 1),
                marker: restored ? restoredMarker : " ", on: &canvas)
            canvas.put(right, at: Point(x: rect.maxX - rightWidth, y: y), style: style)
        }
    }

    /// Marks the rows an undo or redo just brought back, in the margin: seen without color too.
    static let restoredMarker = "+"

    /// Draws a title after its one-column `marker`, with the words that match the search
    /// underlined in bold; an empty title as a dimmed "Untitled".
    static func drawTitle(
        _ title: String, matching search: String, at point: Point, style: CellStyle, width: Int,
        marker: String = " ", on canvas: inout Canvas
    ) {
        var x = point.x + canvas.put(marker, at: point, style: style, maxWidth: width)
        guard !title.isEmpty else {
            var placeholder = style
            placeholder.dim = true
            canvas.put(
                ArticleView.untitled, at: Point(x: x, y: point.y), style: placeholder,
                maxWidth: max(0, point.x + width - x))
            return
        }
        var matched = style
        matched.bold = true
        matched.underline = true
        var start = title.startIndex
        for range in matches(of: search, in: title) {
            for (text, look) in [(title[start..<range.lowerBound], style), (title[range], matched)]
            {
                x += canvas.put(
                    text, at: Point(x: x, y: point.y), style: look,
                    maxWidth: max(0, point.x + width - x))
            }
            start = range.upperBound
        }
        canvas.put(
            title[start...], at: Point(x: x, y: point.y), style: style,
            maxWidth: max(0, point.x + width - x))
    }

    /// Where the search's words start words of the title (the search matches prefixes),
    /// ignoring case and accents, in order.
    static func matches(of search: String, in title: String) -> [Range<String.Index>] {
        let words = search.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return [] }
        var ranges: [Range<String.Index>] = []
        var index = title.startIndex
        var atWordStart = true
        while index < title.endIndex {
            let character = title[index]
            if atWordStart, character.isLetter || character.isNumber,
                let found = words.lazy.compactMap({
                    title[index...].range(
                        of: $0, options: [.anchored, .caseInsensitive, .diacriticInsensitive])
                }).first
            {
                ranges.append(found)
                index = found.upperBound
                atWordStart = false
                continue
            }
            atWordStart = !(character.isLetter || character.isNumber)
            index = title.index(after: index)
        }
        return ranges
    }

    /// "Author ★★★☆☆", shortened to fit narrow panes.
    static func rightColumn(_ summary: ArticleSummary, width: Int) -> String {
        let stars = RatingStars.text(for: summary.rating)
        guard width >= 36, let author = summary.authorName else { return stars + " " }
        return DisplayWidth.fitting(author, in: 14) + " " + stars + " "
    }
}
