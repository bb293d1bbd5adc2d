/// Typing, pasting and deleting at the cursor, or over the selection.
///
/// Each edit returns what it did (also kept in `lastEdit`), or nil when it
/// changed nothing (backspace at the start, an empty paste).
extension EditorBuffer {
    /// Inserts typed or pasted text at the cursor, in place of the selection if there is one,
    /// and puts the cursor after it.
    ///
    /// Line breaks become "\n" ("\r\n" and "\r" included). A paste of
    /// megabytes is one pass over its bytes plus one copy of the text, and
    /// only the lines on screen are wrapped.
    @discardableResult
    mutating func insert(_ string: String) -> EditKind? {
        let inserted = NewlineNormalization.normalized(string)
        let replaced = selection ?? cursorOffset..<cursorOffset
        let start = replaced.lowerBound
        let end = start + inserted.utf8.count
        if inserted.isEmpty, !replaced.isEmpty { return deleteSelection() }
        guard end > start else { return nothing() }
        return edit(replacing: replaced, with: inserted, cursor: end, kind: .insert(start..<end))
    }

    /// Deletes the selection (Backspace, Delete, a cut); nil when nothing is selected.
    @discardableResult
    mutating func deleteSelection() -> EditKind? {
        guard let range = selection else { return nil }
        return edit(replacing: range, with: "", cursor: range.lowerBound, kind: .delete(range))
    }

    /// Inserts a line break at the cursor (Enter).
    @discardableResult
    mutating func insertNewline() -> EditKind? {
        insert("\n")
    }

    /// Deletes the grapheme before the cursor (Backspace): a whole emoji
    /// sequence, or a letter with its combining marks. This and the other deletions delete the
    /// selection instead when there is one.
    @discardableResult
    mutating func deleteBackward() -> EditKind? {
        if let deleted = deleteSelection() { return deleted }
        guard let start = layout.boundary(before: cursorOffset) else { return nothing() }
        let range = start..<cursorOffset
        return edit(replacing: range, with: "", cursor: start, kind: .delete(range))
    }

    /// Deletes the grapheme after the cursor (Delete).
    @discardableResult
    mutating func deleteForward() -> EditKind? {
        if let deleted = deleteSelection() { return deleted }
        guard let end = layout.boundary(after: cursorOffset) else { return nothing() }
        let range = cursorOffset..<end
        return edit(replacing: range, with: "", cursor: cursorOffset, kind: .delete(range))
    }

    /// Deletes the word before the cursor (Ctrl-Backspace, Alt-Backspace): the spaces and
    /// punctuation before it, then the word, as `moveWordLeft` moves (at a line's start, the
    /// line break alone).
    @discardableResult
    mutating func deleteWordBackward() -> EditKind? {
        if let deleted = deleteSelection() { return deleted }
        let start = startOfWordBefore
        guard start < cursorOffset else { return nothing() }
        let range = start..<cursorOffset
        return edit(replacing: range, with: "", cursor: start, kind: .delete(range))
    }

    /// Deletes the word after the cursor (Ctrl-Delete): the spaces and punctuation after it,
    /// then the word, as `moveWordRight` moves (at a line's end, the line break alone).
    @discardableResult
    mutating func deleteWordForward() -> EditKind? {
        if let deleted = deleteSelection() { return deleted }
        let end = endOfWordAfter
        guard end > cursorOffset else { return nothing() }
        let range = cursorOffset..<end
        return edit(replacing: range, with: "", cursor: cursorOffset, kind: .delete(range))
    }

    /// The cursor's line with its line break (the last line has none): what Ctrl-X cuts when
    /// nothing is selected.
    var cursorLine: Range<Int> {
        let line = layout.lines.line(containing: cursorOffset)
        let end = line + 1 < layout.lines.count ? layout.lines.starts[line + 1] : layout.length
        return layout.lines.starts[line]..<end
    }

    /// Records an edit that changed nothing: no edit, and no cursor jump either.
    private mutating func nothing() -> EditKind? {
        move(to: nil, goal: goalColumn)
        return nil
    }
}
