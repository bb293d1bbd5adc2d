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
    /// that hang past the right edge at a wrap put the cursor in the last
    /// column while it is among them.
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
        var lines: [Substring] = []
        var visual: VisualLine? = scrollTop
        while let current = visual, lines.count < viewport.height {
            lines.append(layout.substring(layout.range(of: current)))
            visual = layout.visualLine(after: current)
        }
        return lines
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

    /// Draws the visible rows into `rect` of `canvas`, clipped to it, and nothing else.
    ///
    /// `rect` should have the viewport's size; the app sets `viewport` first.
    func draw(into canvas: inout Canvas, rect: Rect, style: CellStyle = .plain) {
        for (row, line) in visibleLines.prefix(rect.height).enumerated() {
            canvas.put(
                line, at: Point(x: rect.x, y: rect.y + row), style: style, maxWidth: rect.width)
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
        if line < top {
            moved = move(to: layout.offset(in: top, column: goal), goal: goal)
        } else if line > bottom {
            moved = move(to: layout.offset(in: bottom, column: goal), goal: goal)
        }
        scroll(toTop: top)
        return moved
    }
}
