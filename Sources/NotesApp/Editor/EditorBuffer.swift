import TerminalUI

/// The text of one field (an article's title or body) being edited, with its
/// cursor and the part of it on screen.
///
/// A pure value: it knows no database and no terminal. Positions are UTF-8
/// offsets into `text` (as `String.Index` uses), and the cursor is always on
/// a grapheme boundary: no operation can put it inside a wide character, an
/// emoji sequence or a letter with combining marks.
///
/// The text is soft-wrapped to `viewport.width` and scrolled so the cursor
/// stays among the `viewport.height` rows shown. Lines are wrapped lazily,
/// one at a time (a very long line in 16 KB pieces), so a body of megabytes
/// opens, scrolls and edits quickly, even when it is one line.
///
/// Edits report what they did (`lastEdit`) and moves report whether the
/// cursor moved (a cursor jump), which is what the app needs to group typing
/// into undo runs. This file holds every change of state; the other files
/// build the operations on `edit`, `move` and `scroll`.
struct EditorBuffer: Equatable, Sendable {
    /// The text and its wrapped layout.
    private(set) var layout: WrappedText
    /// The cursor, as a UTF-8 offset into `text`; always a grapheme boundary.
    private(set) var cursorOffset: Int
    /// The edit made by the last operation; nil after a move, a replacement
    /// from outside, or an edit that changed nothing.
    private(set) var lastEdit: EditKind?
    /// The size of the area the text is shown in; the text wraps at its width.
    ///
    /// The app sets it before drawing (it is cheap when unchanged); a new width
    /// re-wraps lazily, and the view scrolls to keep the cursor visible.
    var viewport: Size {
        didSet {
            guard viewport != oldValue else { return }
            layout.setWidth(viewport.width)
            settle()
        }
    }
    /// Where the top row on screen starts, as a UTF-8 offset, so it follows edits above it.
    private(set) var scrollAnchor = 0
    /// The display column up and down aim for, kept while moving vertically.
    private(set) var goalColumn: Int?
    /// The end of the selection the cursor is not at (Shift with a move sets it), or nil when
    /// nothing is selected. Every edit and every move without Shift clears it.
    private(set) var selectionAnchor: Int?

    /// Creates a buffer showing `text` in `viewport`, with the cursor at `cursorOffset`.
    ///
    /// - Parameters:
    ///   - text: The field's text, kept as it is (line breaks are not rewritten).
    ///   - cursorOffset: A UTF-8 offset; it is clamped to the text and moved
    ///     back to a grapheme boundary.
    ///   - viewport: The area the text is shown in.
    init(text: String = "", cursorOffset: Int = 0, viewport: Size = Size(width: 80, height: 24)) {
        layout = WrappedText(text: text, width: viewport.width)
        self.viewport = viewport
        self.cursorOffset = layout.boundary(atOrBefore: cursorOffset)
        settle()
    }

    /// The text being edited.
    var text: String { layout.text }

    /// The cursor as an index into `text`.
    var cursor: String.Index { UTF8Offsets.index(cursorOffset, in: layout.text) }

    /// The first visual line on screen.
    var scrollTop: VisualLine { layout.visualLine(containing: scrollAnchor) }

    /// The selected bytes, in order (nil when nothing is selected).
    var selection: Range<Int>? {
        guard let anchor = selectionAnchor, anchor != cursorOffset else { return nil }
        return min(anchor, cursorOffset)..<max(anchor, cursorOffset)
    }

    /// The selected text, or nil when nothing is selected.
    var selectedText: String? {
        selection.map { String(layout.substring($0)) }
    }

    /// The rows on screen, counting an empty viewport as one row.
    var visibleRowCount: Int { max(1, viewport.height) }

    /// Replaces the bytes in `range` with `string` and records the edit.
    ///
    /// The primitive under `insert` and the deletions; the app calls those.
    ///
    /// - Parameters:
    ///   - range: UTF-8 offsets on grapheme boundaries.
    ///   - string: The new text, with line breaks already normalised.
    ///   - cursor: Where the cursor goes, in the new text; when the edit
    ///     joined graphemes around it, it moves to the end of the joined one
    ///     after an insertion and to its start after a deletion.
    ///   - kind: The edit to report.
    /// - Returns: `kind`.
    mutating func edit(
        replacing range: Range<Int>, with string: String, cursor: Int, kind: EditKind
    ) -> EditKind {
        layout.replace(range, with: string)
        scrollAnchor = Self.offset(scrollAnchor, replacing: range, count: string.utf8.count)
        cursorOffset =
            kind.isInsert ? layout.boundary(atOrAfter: cursor) : layout.boundary(atOrBefore: cursor)
        lastEdit = kind
        goalColumn = nil
        selectionAnchor = nil
        settle()
        return kind
    }

    /// Replaces the text with a version changed from outside (another pane, an undo).
    ///
    /// The cursor keeps its place in the text: it stays put before the
    /// change, shifts with the text after it, and inside the changed part
    /// keeps its offset, clamped to the end of the new part. Only the lines
    /// that differ are wrapped again.
    ///
    /// - Returns: The changed part, in UTF-8 offsets of the new text, or nil
    ///   when the text is the same (then nothing changes, `lastEdit` included).
    @discardableResult
    mutating func replaceText(_ newText: String) -> Range<Int>? {
        guard let change = layout.setText(newText) else { return nil }
        return followChange(change)
    }

    /// Replaces the bytes in `range` with `string`, a change from outside whose place is known
    /// (an undo's chunks): as `replaceText`, without comparing the whole text. An insertion or
    /// a deletion in repeated text is placed where it ends or starts at the cursor, when it can
    /// stand there (`RepeatedTextPlace`).
    @discardableResult
    mutating func replaceBytes(_ range: Range<Int>, with string: String) -> Range<Int>? {
        let (range, string) = RepeatedTextPlace.nearest(
            range, of: layout.text, replacedWith: string, cursor: cursorOffset)
        layout.replace(range, with: string)
        return followChange((range, range.lowerBound..<(range.lowerBound + string.utf8.count)))
    }

    /// Keeps the cursor and the view on their text after the bytes `change.old` became
    /// `change.new`; returns `change.new`.
    private mutating func followChange(_ change: (old: Range<Int>, new: Range<Int>)) -> Range<Int> {
        let count = change.new.count
        let cursor = Self.offset(cursorOffset, replacing: change.old, count: count)
        cursorOffset = layout.boundary(atOrBefore: cursor)
        selectionAnchor = selectionAnchor.map {
            layout.boundary(atOrBefore: Self.offset($0, replacing: change.old, count: count))
        }
        scrollAnchor = Self.offset(scrollAnchor, replacing: change.old, count: count)
        lastEdit = nil
        goalColumn = nil
        settle()
        return change.new
    }

    /// Moves the cursor to `offset` and sets the goal column; the selection is cleared.
    ///
    /// The offset is clamped to the text and moved back to a grapheme
    /// boundary. Every move ends a typing run, so `lastEdit` becomes nil.
    ///
    /// - Returns: Whether the cursor moved: a cursor jump.
    @discardableResult
    mutating func move(to offset: Int?, goal: Int? = nil) -> Bool {
        lastEdit = nil
        goalColumn = goal
        selectionAnchor = nil
        guard let offset else { return false }
        let target = layout.boundary(atOrBefore: offset)
        guard target != cursorOffset else { return false }
        cursorOffset = target
        settle()
        return true
    }

    /// Makes `motion` (any move) select: the selection runs from where it started, or from the
    /// cursor, to where the motion puts the cursor (Shift with a move key).
    ///
    /// - Returns: Whether the cursor moved.
    @discardableResult
    mutating func select(_ motion: (inout EditorBuffer) -> Bool) -> Bool {
        if selectionAnchor == nil { selectionAnchor = cursorOffset }
        return keepingSelection(motion)
    }

    /// Makes `motion` keep the selection there is, if any, from its anchor to where the motion
    /// puts the cursor (the mouse wheel moving the cursor into the view).
    @discardableResult
    mutating func keepingSelection(_ motion: (inout EditorBuffer) -> Bool) -> Bool {
        let anchor = selectionAnchor
        selectionAnchor = nil
        let moved = motion(&self)
        selectionAnchor = anchor == cursorOffset ? nil : anchor
        return moved
    }

    /// Selects `range` (clamped to grapheme boundaries), with the cursor at its end, or at its
    /// start with `cursorAtStart`.
    mutating func select(_ range: Range<Int>, cursorAtStart: Bool = false) {
        let ends = (
            cursor: cursorAtStart ? range.lowerBound : range.upperBound,
            anchor: cursorAtStart ? range.upperBound : range.lowerBound
        )
        move(to: ends.cursor)
        let anchor = layout.boundary(atOrBefore: ends.anchor)
        selectionAnchor = anchor == cursorOffset ? nil : anchor
    }

    /// Puts `visual` (clamped to the text) at the top of the view, then
    /// scrolls back as far as needed to keep the cursor on screen.
    mutating func scroll(toTop visual: VisualLine) {
        let line = min(max(0, visual.line), layout.layoutLineCount - 1)
        let row = min(max(0, visual.row), layout.rows(ofLine: line).count - 1)
        scrollAnchor = layout.range(of: VisualLine(line: line, row: row)).lowerBound
        settle()
    }

    /// Scrolls so the cursor is on screen, and wraps what is on screen ahead of drawing.
    ///
    /// Every change of state ends here: the view moves only as far as it
    /// must, and only the lines between the old view and the cursor are wrapped.
    /// Rows past the text's end stay empty only when the whole text fits: after
    /// the end shrank (an undone paste), the view comes back up to fill them.
    private mutating func settle() {
        let cursorLine = layout.visualLine(containing: cursorOffset)
        let lowest = layout.visualLine(-(visibleRowCount - 1), from: cursorLine).line
        var top = min(max(scrollTop, lowest), cursorLine)
        let shown = wrapRowsOnScreen(from: top)
        if shown < visibleRowCount {
            top = layout.visualLine(-(visibleRowCount - shown), from: top).line
            wrapRowsOnScreen(from: top)
        }
        scrollAnchor = layout.range(of: top).lowerBound
    }

    /// Wraps the lines of the rows on screen from `top` down; returns how many rows the text
    /// has there, at most `visibleRowCount`.
    @discardableResult
    private mutating func wrapRowsOnScreen(from top: VisualLine) -> Int {
        var visual = top
        for row in 1...max(1, visibleRowCount) {
            layout.cacheRows(ofLine: visual.line)
            guard let next = layout.visualLine(after: visual) else { return row }
            visual = next
        }
        return visibleRowCount
    }

    /// Puts the cursor and the top row back where a saved place had them (offsets clamped to
    /// the text, which may have changed since), the cursor kept on screen.
    mutating func restore(cursor: Int, scrollAnchor anchor: Int) {
        cursorOffset = layout.boundary(atOrBefore: cursor)
        scrollAnchor = min(max(0, anchor), layout.text.utf8.count)
        goalColumn = nil
        selectionAnchor = nil
        settle()
    }

    /// Where `offset` ends up after the bytes in `range` are replaced by `count` bytes.
    private static func offset(_ offset: Int, replacing range: Range<Int>, count: Int) -> Int {
        if offset <= range.lowerBound { return offset }
        if offset >= range.upperBound { return offset + count - range.count }
        return min(offset, range.lowerBound + count)
    }
}
