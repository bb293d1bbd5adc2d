/// Typing, pasting and deleting at the cursor.
///
/// Each edit returns what it did (also kept in `lastEdit`), or nil when it
/// changed nothing (backspace at the start, an empty paste).
extension EditorBuffer {
    /// Inserts typed or pasted text at the cursor and puts the cursor after it.
    ///
    /// Line breaks become "\n" ("\r\n" and "\r" included). A paste of
    /// megabytes is one pass over its bytes plus one copy of the text, and
    /// only the lines on screen are wrapped.
    @discardableResult
    mutating func insert(_ string: String) -> EditKind? {
        let inserted = NewlineNormalization.normalized(string)
        let start = cursorOffset
        let end = start + inserted.utf8.count
        guard end > start else { return nothing() }
        return edit(
            replacing: start..<start, with: inserted, cursor: end, kind: .insert(start..<end))
    }

    /// Inserts a line break at the cursor (Enter).
    @discardableResult
    mutating func insertNewline() -> EditKind? {
        insert("\n")
    }

    /// Deletes the grapheme before the cursor (Backspace): a whole emoji
    /// sequence, or a letter with its combining marks.
    @discardableResult
    mutating func deleteBackward() -> EditKind? {
        guard let start = layout.boundary(before: cursorOffset) else { return nothing() }
        let range = start..<cursorOffset
        return edit(replacing: range, with: "", cursor: start, kind: .delete(range))
    }

    /// Deletes the grapheme after the cursor (Delete).
    @discardableResult
    mutating func deleteForward() -> EditKind? {
        guard let end = layout.boundary(after: cursorOffset) else { return nothing() }
        let range = cursorOffset..<end
        return edit(replacing: range, with: "", cursor: cursorOffset, kind: .delete(range))
    }

    /// Deletes the word before the cursor (Ctrl-Backspace, Alt-Backspace): the spaces and
    /// punctuation before it, then the word, as `moveWordLeft` moves.
    @discardableResult
    mutating func deleteWordBackward() -> EditKind? {
        let start = startOfWordBefore
        guard start < cursorOffset else { return nothing() }
        let range = start..<cursorOffset
        return edit(replacing: range, with: "", cursor: start, kind: .delete(range))
    }

    /// Deletes the word after the cursor (Ctrl-Delete): the spaces and punctuation after it,
    /// then the word, as `moveWordRight` moves.
    @discardableResult
    mutating func deleteWordForward() -> EditKind? {
        let end = endOfWordAfter
        guard end > cursorOffset else { return nothing() }
        let range = cursorOffset..<end
        return edit(replacing: range, with: "", cursor: cursorOffset, kind: .delete(range))
    }

    /// Records an edit that changed nothing: no edit, and no cursor jump either.
    private mutating func nothing() -> EditKind? {
        move(to: nil, goal: goalColumn)
        return nil
    }
}
