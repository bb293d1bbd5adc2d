import SQLiteUndo
import TerminalUI

/// A text and its layout in screen rows of one width.
///
/// The text is laid out in *layout lines*: its logical lines (split at
/// "\n"), except that a very long one is cut into pieces (`LinePieces`).
/// Each layout line is soft-wrapped with `SoftWrap` when it is first needed,
/// and the rows are cached until it changes or the width does, so a huge
/// text opens, scrolls and takes edits without wrapping all of it. Reading
/// a layout line that is not cached wraps it on the spot, so reads never
/// need to mutate.
///
/// A logical line whose last row fills the width takes no extra row: the
/// cursor at its end shows in the last column (`EditorBuffer.cursorPosition`).
struct WrappedText: Sendable {
    /// The text.
    private(set) var text: String
    /// The columns the rows wrap at; at least 1.
    private(set) var width: Int
    /// Where the logical lines start.
    private(set) var lines: LineIndex
    /// Where the layout lines start, as UTF-8 offsets.
    private(set) var layoutStarts: [Int]
    /// Per layout line, the UTF-8 offsets from its start where its rows start.
    private var cachedRows: [[Int]?]

    /// Lays out `text` for `width` columns; nothing is wrapped yet.
    init(text: String, width: Int) {
        var text = text
        text.makeContiguousUTF8()
        self.text = text
        self.width = max(1, width)
        lines = LineIndex(text)
        layoutStarts = []
        cachedRows = []
        layoutStarts = pieces(ofLines: 0..<lines.count)
        cachedRows = Array(repeating: nil, count: layoutStarts.count)
    }

    /// The text's length in UTF-8 bytes.
    var length: Int { lines.length }

    /// The number of layout lines.
    var layoutLineCount: Int { layoutStarts.count }

    /// Changes the width rows wrap at, dropping every cached row.
    mutating func setWidth(_ newWidth: Int) {
        let newWidth = max(1, newWidth)
        guard newWidth != width else { return }
        width = newWidth
        cachedRows = Array(repeating: nil, count: layoutStarts.count)
    }

    /// Replaces the bytes in `range` (which must lie on grapheme boundaries) with `string`.
    mutating func replace(_ range: Range<Int>, with string: String) {
        let start = UTF8Offsets.index(range.lowerBound, in: text)
        let end = UTF8Offsets.index(range.upperBound, in: text)
        text.replaceSubrange(start..<end, with: string)
        let inserted = range.lowerBound..<(range.lowerBound + string.utf8.count)
        reindex(replacing: range, with: inserted)
    }

    /// Replaces the whole text, re-wrapping only the lines that differ.
    ///
    /// - Returns: The changed bytes in the old text and in the new one, or
    ///   nil when the texts are equal.
    mutating func setText(_ newText: String) -> (old: Range<Int>, new: Range<Int>)? {
        var newText = newText
        newText.makeContiguousUTF8()
        guard let change = TextSplice.changedBytes(from: text, to: newText) else { return nil }
        text = newText
        reindex(replacing: change.old, with: change.new)
        return change
    }

    /// Brings the indexes and the cache up to date after the bytes `old` became `new`.
    ///
    /// The logical lines the change touched are cut into pieces again; the
    /// pieces before the change keep their rows.
    private mutating func reindex(replacing old: Range<Int>, with new: Range<Int>) {
        let delta = new.count - old.count
        let newlines = UTF8Offsets.newlines(in: text, range: new)
        let touched = lines.replace(old, insertedLength: new.count, newlines: newlines)
        let newLines = touched.lines.lowerBound..<(touched.lines.lowerBound + touched.newCount)
        let first = layoutLine(containing: lines.starts[newLines.lowerBound])
        let end =
            newLines.upperBound < lines.count
            ? layoutLine(containing: lines.starts[newLines.upperBound] - delta) : layoutStarts.count
        let fresh = pieces(ofLines: newLines)
        var rows: [[Int]?] = Array(repeating: nil, count: fresh.count)
        // A piece that ends before the change, where it ended before, has the same text.
        for index in 0..<(fresh.count - 1) where first + index + 1 < end {
            let same =
                fresh[index] == layoutStarts[first + index]
                && fresh[index + 1] == layoutStarts[first + index + 1]
            guard same, fresh[index + 1] <= old.lowerBound else { break }
            rows[index] = cachedRows[first + index]
        }
        layoutStarts.replaceSubrange(first..<end, with: fresh)
        cachedRows.replaceSubrange(first..<end, with: rows)
        for index in (first + fresh.count)..<layoutStarts.count {
            layoutStarts[index] += delta
        }
    }

    /// The layout line starts of the logical lines in `range`.
    private func pieces(ofLines range: Range<Int>) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(range.count)
        for line in range {
            let lineStart = lines.starts[line]
            let nextStart = line + 1 < lines.count ? lines.starts[line + 1] : length
            if nextStart - lineStart <= LinePieces.length {
                starts.append(lineStart)
            } else {
                starts += LinePieces.starts(ofLine: lines.content(ofLine: line, in: text), in: text)
            }
        }
        return starts
    }

    /// The layout line holding `offset`; the offset of a cut belongs to the piece it starts.
    func layoutLine(containing offset: Int) -> Int {
        var low = 0
        var high = layoutStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if layoutStarts[middle] <= offset {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }

    /// Whether layout line `line` is the last (or only) piece of its logical line.
    func endsLogicalLine(_ line: Int) -> Bool {
        line + 1 == layoutStarts.count
            || UTF8Offsets.byte(at: layoutStarts[line + 1] - 1, in: text) == UInt8(ascii: "\n")
    }

    /// The UTF-8 range of a layout line's text, without a line break.
    func content(ofLayoutLine line: Int) -> Range<Int> {
        let start = layoutStarts[line]
        guard endsLogicalLine(line) else { return start..<layoutStarts[line + 1] }
        return start..<lines.content(ofLine: lines.line(containing: start), in: text).upperBound
    }

    /// The row starts of layout line `line`, from the cache or wrapped now.
    func rows(ofLine line: Int) -> [Int] {
        cachedRows[line] ?? wrap(line: line)
    }

    /// Wraps layout line `line` and keeps the result, unless it is already cached.
    mutating func cacheRows(ofLine line: Int) {
        if cachedRows[line] == nil {
            cachedRows[line] = wrap(line: line)
        }
    }

    /// The UTF-8 offsets, from the layout line's start, where its rows start.
    ///
    /// A line that exactly fills the width takes no extra row: the cursor at its end shows in
    /// its last column, as among spaces that hang past the edge.
    private func wrap(line: Int) -> [Int] {
        let string = String(substring(content(ofLayoutLine: line)))
        return SoftWrap.lines(of: string, width: width).map {
            string.utf8.distance(from: string.startIndex, to: $0.lowerBound)
        }
    }

    /// The text of a UTF-8 range, which must lie on grapheme boundaries.
    func substring(_ range: Range<Int>) -> Substring {
        text[
            UTF8Offsets.index(
                range.lowerBound, in: text)..<UTF8Offsets.index(
                    range.upperBound, in: text)]
    }

    /// `offset` moved back to the start of the grapheme it falls in (itself on a boundary).
    func boundary(atOrBefore offset: Int) -> Int {
        UTF8Offsets.characterStart(atOrBefore: offset, in: text)
    }

    /// `offset` moved on to the end of the grapheme it falls in (itself on a boundary).
    func boundary(atOrAfter offset: Int) -> Int {
        UTF8Offsets.characterEnd(atOrAfter: offset, in: text)
    }

    /// The boundary one grapheme before `offset`, or nil at the start.
    func boundary(before offset: Int) -> Int? {
        guard offset > 0 else { return nil }
        return UTF8Offsets.offset(
            of: text.index(before: UTF8Offsets.index(offset, in: text)), in: text)
    }

    /// The boundary one grapheme after `offset`, or nil at the end.
    func boundary(after offset: Int) -> Int? {
        guard offset < length else { return nil }
        return UTF8Offsets.offset(
            of: text.index(after: UTF8Offsets.index(offset, in: text)), in: text)
    }

    /// The grapheme starting at `offset`, or nil at the end.
    func character(at offset: Int) -> Character? {
        offset < length ? text[UTF8Offsets.index(offset, in: text)] : nil
    }
}

extension WrappedText: Equatable {
    /// Layouts are equal when they lay out the same text at the same width;
    /// what happens to be cached does not matter.
    static func == (lhs: WrappedText, rhs: WrappedText) -> Bool {
        lhs.width == rhs.width && lhs.text == rhs.text
    }
}
