import TerminalUI

/// What the buffer shows: the visible rows, the cursor's cell, the scroll
/// position, and the mouse wheel.
extension EditorBuffer {
    /// The visual line of the cursor and its display column in that line.
    var cursorLocation: (line: VisualLine, column: Int) {
        layout.location(of: cursorOffset)
    }

    /// The cursor's cell relative to the viewport's top-left.
    ///
    /// The column counts display columns (a wide character takes 2). Spaces
    /// that hang past the right edge at a wrap, and the end of a line that
    /// fills the width, put the cursor in the last column.
    var cursorPosition: Point {
        let (line, column) = cursorLocation
        var row = 0
        var visual = scrollTop
        while visual < line, let next = layout.visualLine(after: visual) {
            visual = next
            row += 1
        }
        return Point(x: min(column, max(0, viewport.width - 1)), y: row)
    }

    /// The text of the rows on screen, top to bottom, at most `viewport.height`.
    ///
    /// Each is one visual line without its line break; spaces that hang
    /// past the width at a wrap are included (drawing clips them).
    var visibleLines: [Substring] {
        rowsOnScreen(viewport.height).map { layout.substring(layout.range(of: $0)) }
    }

    /// The visual lines from the top row down, at most `count`.
    private func rowsOnScreen(_ count: Int) -> [VisualLine] {
        var rows: [VisualLine] = []
        var visual: VisualLine? = scrollTop
        while let current = visual, rows.count < count {
            rows.append(current)
            visual = layout.visualLine(after: current)
        }
        return rows
    }

    /// Where the cursor is, for the status line: "L12/340 35%".
    ///
    /// The cursor's logical line (from 1), the number of lines, and how far
    /// into the text the cursor is.
    var scrollIndicator: String {
        let line = layout.lines.line(containing: cursorOffset) + 1
        let percent = layout.length == 0 ? 100 : cursorOffset * 100 / layout.length
        return "L\(line)/\(layout.lines.count) \(percent)%"
    }

    /// The bytes of the rows on screen, from the top row's start to the bottom row's end.
    var visibleRange: Range<Int> {
        let bottom = rowsOnScreen(visibleRowCount).last ?? scrollTop
        return layout.range(of: scrollTop).lowerBound..<layout.range(of: bottom).upperBound
    }

    /// Draws the visible rows into `rect` of `canvas`, clipped to it, and nothing else; the
    /// bytes of each mark (the selection, what a find matched) take its style, and a line break
    /// inside one shows as a marked cell at the end of its row.
    ///
    /// `rect` should have the viewport's size; the app sets `viewport` first.
    func draw(
        into canvas: inout Canvas, rect: Rect, style: CellStyle = .plain, marks: [TextMark] = []
    ) {
        for (row, current) in rowsOnScreen(min(rect.height, viewport.height)).enumerated() {
            let bytes = layout.range(of: current)
            let y = rect.y + row
            canvas.put(
                layout.substring(bytes), at: Point(x: rect.x, y: y), style: style,
                maxWidth: rect.width)
            // The line break after the row's last byte, when the row ends a line before another.
            let breaksLine =
                current.row + 1 == layout.rows(ofLine: current.line).count
                && current.line + 1 < layout.layoutLineCount && layout.endsLogicalLine(current.line)
            let span = bytes.lowerBound..<(bytes.upperBound + (breaksLine ? 1 : 0))
            for mark in marks where mark.range.overlaps(span) {
                let start = max(mark.range.lowerBound, bytes.lowerBound)
                let end = max(start, min(mark.range.upperBound, bytes.upperBound))
                let x = DisplayWidth.of(layout.substring(bytes.lowerBound..<start))
                var width = DisplayWidth.of(layout.substring(start..<end))
                if mark.range.upperBound > bytes.upperBound, breaksLine { width += 1 }
                canvas.setStyle(
                    in: Rect(x: rect.x + x, y: y, width: min(width, rect.width - x), height: 1),
                    mark.style)
            }
        }
    }

    /// Scrolls the view by `count` rows (down when positive), as the mouse wheel does.
    ///
    /// The view stops when the last line reaches the bottom (or the first the
    /// top). A cursor that would leave the view moves into it, keeping its
    /// goal column.
    ///
    /// - Returns: Whether the cursor moved (a cursor jump).
    @discardableResult
    mutating func scroll(by count: Int) -> Bool {
        let lastTop = layout.visualLine(-(visibleRowCount - 1), from: layout.lastVisualLine).line
        var top = layout.visualLine(count, from: scrollTop).line
        if count > 0 {
            top = min(top, max(lastTop, scrollTop))
        }
        let bottom = layout.visualLine(visibleRowCount - 1, from: top).line
        let (line, column) = cursorLocation
        let goal = goalColumn ?? column
        var moved = false
        // The cursor follows the view; a selection stays, from its anchor to the cursor.
        if line < top {
            moved = keepingSelection {
                $0.move(to: $0.layout.offset(in: top, column: goal), goal: goal)
            }
        } else if line > bottom {
            moved = keepingSelection {
                $0.move(to: $0.layout.offset(in: bottom, column: goal), goal: goal)
            }
        }
        scroll(toTop: top)
        return moved
    }
}
