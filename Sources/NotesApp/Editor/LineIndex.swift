/// Where each logical line of a text starts, kept up to date as the text changes.
///
/// A logical line ends at "\n" (or "\r\n"); the break belongs to no line.
/// Updating after an edit touches only the edited lines and shifts the
/// offsets after them, so opening or editing a huge text never splits it.
struct LineIndex: Hashable, Sendable {
    /// The UTF-8 offset where each line starts; the first is 0.
    private(set) var starts: [Int]
    /// The text's length in UTF-8 bytes.
    private(set) var length: Int

    /// Indexes the lines of `text`.
    init(_ text: String) {
        length = text.utf8.count
        starts = [0] + UTF8Offsets.newlines(in: text, range: 0..<length).map { $0 + 1 }
    }

    /// The number of lines; empty text has one.
    var count: Int { starts.count }

    /// The line holding `offset`; the offset of a line break belongs to the line it ends.
    func line(containing offset: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }

    /// The UTF-8 range of a line's text, without its "\n" or "\r\n".
    func content(ofLine line: Int, in text: String) -> Range<Int> {
        let start = starts[line]
        guard line + 1 < starts.count else { return start..<length }
        var end = starts[line + 1] - 1
        if end > start, UTF8Offsets.byte(at: end - 1, in: text) == UInt8(ascii: "\r") {
            end -= 1
        }
        return start..<end
    }

    /// Updates the index after the bytes in `range` were replaced.
    ///
    /// - Parameters:
    ///   - range: The replaced bytes, in offsets of the old text.
    ///   - insertedLength: The number of bytes that replaced them.
    ///   - newlines: The offsets of "\n" in the inserted bytes, from their start.
    /// - Returns: The old lines the edit touched, and how many lines replace them.
    @discardableResult
    mutating func replace(
        _ range: Range<Int>, insertedLength: Int, newlines: [Int]
    ) -> (lines: Range<Int>, newCount: Int) {
        let first = line(containing: range.lowerBound)
        // Lines that started after a removed "\n" are gone.
        let end = line(containing: range.upperBound) + 1
        let delta = insertedLength - range.count
        let inserted = newlines.map { range.lowerBound + $0 + 1 }
        starts.replaceSubrange((first + 1)..<end, with: inserted)
        for index in (first + 1 + inserted.count)..<starts.count {
            starts[index] += delta
        }
        length += delta
        return (first..<end, inserted.count + 1)
    }
}
