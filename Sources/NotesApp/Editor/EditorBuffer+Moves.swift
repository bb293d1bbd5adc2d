/// Cursor moves by the keyboard and the mouse.
///
/// Every move returns whether the cursor moved; a move that did is a cursor
/// jump, which ends the current typing run.
extension EditorBuffer {
    /// Moves one grapheme left (across a line break too); with a selection, to its start.
    @discardableResult
    mutating func moveLeft() -> Bool {
        move(to: selection?.lowerBound ?? layout.boundary(before: cursorOffset))
    }

    /// Moves one grapheme right (across a line break too); with a selection, to its end.
    @discardableResult
    mutating func moveRight() -> Bool {
        move(to: selection?.upperBound ?? layout.boundary(after: cursorOffset))
    }

    /// Moves to the start of the word before the cursor: skips spaces and
    /// punctuation, then the word (letters, digits, "_"; a run of CJK is one word).
    /// A line break is a step of its own, as in micro: at a line's start the cursor
    /// goes to the end of the line before, and the spaces at a line's start end there.
    @discardableResult
    mutating func moveWordLeft() -> Bool {
        move(to: startOfWordBefore)
    }

    /// Where the word before the cursor starts (see `moveWordLeft`).
    var startOfWordBefore: Int {
        if let previous = layout.boundary(before: cursorOffset),
            layout.character(at: previous)?.isNewline == true
        {
            return previous
        }
        let pastGap = offset(skippingBackward: Self.isGapInLine, from: cursorOffset)
        return offset(skippingBackward: Self.isWordCharacter, from: pastGap)
    }

    /// Moves to the end of the word after the cursor: skips spaces and
    /// punctuation, then the word. At a line's end the cursor goes to the start of
    /// the next line.
    @discardableResult
    mutating func moveWordRight() -> Bool {
        move(to: endOfWordAfter)
    }

    /// Where the word after the cursor ends (see `moveWordRight`).
    var endOfWordAfter: Int {
        if let character = layout.character(at: cursorOffset), character.isNewline {
            return cursorOffset + character.utf8.count
        }
        let pastGap = offset(skippingForward: Self.isGapInLine, from: cursorOffset)
        return offset(skippingForward: Self.isWordCharacter, from: pastGap)
    }

    /// Moves to the start of the visual line (Home); when already there, to
    /// the start of the logical line.
    @discardableResult
    mutating func moveToLineStart() -> Bool {
        let rowStart = layout.range(of: layout.visualLine(containing: cursorOffset)).lowerBound
        let lineStart = layout.lines.starts[layout.lines.line(containing: cursorOffset)]
        return move(to: cursorOffset == rowStart ? lineStart : rowStart)
    }

    /// Moves to the end of the visual line (End); when already there, to the
    /// end of the logical line.
    ///
    /// The end of a row that wraps is before its last grapheme (usually the
    /// space it broke after), as the offset after it starts the next row.
    @discardableResult
    mutating func moveToLineEnd() -> Bool {
        let rowEnd = layout.cursorRange(of: layout.visualLine(containing: cursorOffset)).upperBound
        let line = layout.lines.line(containing: cursorOffset)
        let lineEnd = layout.lines.content(ofLine: line, in: text).upperBound
        return move(to: cursorOffset == rowEnd ? lineEnd : rowEnd)
    }

    /// Moves up one visual line, aiming for the goal column; on the first line, to the start.
    @discardableResult
    mutating func moveUp() -> Bool {
        moveVertically(by: -1)
    }

    /// Moves down one visual line, aiming for the goal column; on the last line, to the end.
    @discardableResult
    mutating func moveDown() -> Bool {
        moveVertically(by: 1)
    }

    /// Moves up by the viewport's height and scrolls the view with the cursor.
    @discardableResult
    mutating func pageUp() -> Bool {
        moveVertically(by: -visibleRowCount)
    }

    /// Moves down by the viewport's height and scrolls the view with the cursor.
    @discardableResult
    mutating func pageDown() -> Bool {
        moveVertically(by: visibleRowCount)
    }

    /// Moves to the start of the text.
    @discardableResult
    mutating func moveToStart() -> Bool {
        move(to: 0)
    }

    /// Moves to the end of the text.
    @discardableResult
    mutating func moveToEnd() -> Bool {
        move(to: layout.length)
    }

    /// Moves to a UTF-8 offset, such as where an undone change was.
    ///
    /// The offset is clamped to the text and moved back to a grapheme boundary.
    @discardableResult
    mutating func moveCursor(toOffset offset: Int) -> Bool {
        move(to: offset)
    }

    /// Moves to the cell the user clicked, relative to the viewport's top-left.
    ///
    /// A click on the right half of a wide character lands before it; a
    /// click past the end of a line lands at its end, and below the text on
    /// its last line.
    @discardableResult
    mutating func setCursor(toScreenRow row: Int, column: Int) -> Bool {
        let visual = layout.visualLine(row, from: scrollTop).line
        return move(to: layout.offset(in: visual, column: max(0, column)))
    }

    /// Moves `count` visual lines (up when negative) keeping the goal column.
    ///
    /// A page move (more than one line) scrolls the view by as many lines as
    /// the cursor moved, so the cursor keeps its row on screen.
    private mutating func moveVertically(by count: Int) -> Bool {
        let (visual, column) = layout.location(of: cursorOffset)
        let goal = goalColumn ?? column
        let top = scrollTop
        let target = layout.visualLine(count, from: visual)
        guard target.moved > 0 else {
            return move(to: count < 0 ? 0 : layout.length, goal: goal)
        }
        let moved = move(to: layout.offset(in: target.line, column: goal), goal: goal)
        if abs(count) > 1 {
            // A page down near the end stops with the last line at the bottom.
            let last = layout.visualLine(containing: layout.length)
            let lowestTop = layout.visualLine(-(visibleRowCount - 1), from: last).line
            let paged = layout.visualLine(count.signum() * target.moved, from: top).line
            scroll(toTop: count > 0 ? max(top, min(paged, lowestTop)) : paged)
        }
        return moved
    }

    /// The offset reached going forward from `offset` over graphemes that match.
    private func offset(skippingForward matches: (Character) -> Bool, from offset: Int) -> Int {
        var offset = offset
        while let character = layout.character(at: offset), matches(character) {
            offset += character.utf8.count
        }
        return offset
    }

    /// The offset reached going back from `offset` over graphemes that match.
    private func offset(skippingBackward matches: (Character) -> Bool, from offset: Int) -> Int {
        var offset = offset
        while let previous = layout.boundary(before: offset),
            let character = layout.character(at: previous), matches(character)
        {
            offset = previous
        }
        return offset
    }

    /// Whether a grapheme is between words on one line: a space or punctuation, not a
    /// line break.
    private static func isGapInLine(_ character: Character) -> Bool {
        !isWordCharacter(character) && !character.isNewline
    }

    /// Whether a grapheme belongs to a word: letters (any script), digits and "_".
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
