import TerminalUI

/// Moving between UTF-8 offsets and screen positions (visual line and display column).
///
/// An offset where a row wraps belongs to the row it starts, so a row that
/// wraps holds the cursor only up to its last grapheme: End on such a row
/// stops before that grapheme (usually the space the row broke after).
/// Visual lines count layout lines (`WrappedText`), not logical lines.
extension WrappedText {
    /// The visual line holding `offset`.
    func visualLine(containing offset: Int) -> VisualLine {
        let line = layoutLine(containing: offset)
        let rows = rows(ofLine: line)
        let relative = offset - layoutStarts[line]
        var low = 0
        var high = rows.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if rows[middle] <= relative {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return VisualLine(line: line, row: low)
    }

    /// The visual line holding `offset`, and the display column of `offset` in it.
    func location(of offset: Int) -> (line: VisualLine, column: Int) {
        let visual = visualLine(containing: offset)
        let start = range(of: visual).lowerBound
        return (visual, DisplayWidth.of(substring(start..<offset)))
    }

    /// The UTF-8 range of a visual line's text: spaces hanging past the
    /// width are included, the line break is not.
    func range(of visual: VisualLine) -> Range<Int> {
        let rows = rows(ofLine: visual.line)
        let lineStart = layoutStarts[visual.line]
        let end =
            visual.row + 1 < rows.count
            ? lineStart + rows[visual.row + 1] : content(ofLayoutLine: visual.line).upperBound
        return (lineStart + rows[visual.row])..<end
    }

    /// The offsets the cursor can take on a visual line, first and last.
    ///
    /// Only the last row of a logical line holds the offset at its end.
    func cursorRange(of visual: VisualLine) -> ClosedRange<Int> {
        let bounds = range(of: visual)
        let isLastRow = visual.row + 1 == rows(ofLine: visual.line).count
        if isLastRow, endsLogicalLine(visual.line) {
            return bounds.lowerBound...bounds.upperBound
        }
        let last = boundary(before: bounds.upperBound) ?? bounds.lowerBound
        return bounds.lowerBound...max(bounds.lowerBound, last)
    }

    /// The offset on `visual` nearest to display column `column` without passing it.
    ///
    /// A column in the middle of a wide grapheme gives the offset before it;
    /// a column past the line's end gives its last cursor offset.
    func offset(in visual: VisualLine, column: Int) -> Int {
        let bounds = cursorRange(of: visual)
        var offset = bounds.lowerBound
        var used = 0
        for character in substring(bounds.lowerBound..<bounds.upperBound) {
            let width = DisplayWidth.of(character)
            guard used + width <= column else { break }
            used += width
            offset += character.utf8.count
        }
        return offset
    }

    /// The visual line below `visual`, or nil on the last one.
    func visualLine(after visual: VisualLine) -> VisualLine? {
        if visual.row + 1 < rows(ofLine: visual.line).count {
            return VisualLine(line: visual.line, row: visual.row + 1)
        }
        guard visual.line + 1 < layoutLineCount else { return nil }
        return VisualLine(line: visual.line + 1, row: 0)
    }

    /// The visual line above `visual`, or nil on the first one.
    func visualLine(before visual: VisualLine) -> VisualLine? {
        if visual.row > 0 {
            return VisualLine(line: visual.line, row: visual.row - 1)
        }
        guard visual.line > 0 else { return nil }
        return VisualLine(line: visual.line - 1, row: rows(ofLine: visual.line - 1).count - 1)
    }

    /// The visual line `count` lines from `visual` (up when negative), stopping at either end.
    ///
    /// - Returns: The line reached, and how many lines were moved (never more than `|count|`).
    func visualLine(_ count: Int, from visual: VisualLine) -> (line: VisualLine, moved: Int) {
        var current = visual
        var moved = 0
        while moved < abs(count),
            let next = count > 0 ? visualLine(after: current) : visualLine(before: current)
        {
            current = next
            moved += 1
        }
        return (current, moved)
    }

    /// The last visual line of the text.
    var lastVisualLine: VisualLine {
        let line = layoutLineCount - 1
        return VisualLine(line: line, row: rows(ofLine: line).count - 1)
    }
}
