/// Where an article's body is cut into chunks (`BodyChunks`), as `Notebook.updateBody` last read
/// or wrote it: the chunks' ids and lengths in order.
///
/// An editor keeps it between keystrokes, so that an edit finds the chunk it falls in without
/// reading the others: a keystroke in a body of megabytes reads and writes about a kilobyte.
/// It is only a guide: the chunks an edit rewrites are read and checked against the text the
/// edit started from, and the layout is read again when they do not match.
public struct BodyLayout: Sendable, Equatable {
    struct Piece: Sendable, Equatable {
        let id: Int64
        let length: Int
    }

    private(set) var pieces: [Piece]
    /// The body's length in bytes.
    private(set) var byteCount: Int

    init(_ pieces: [Piece]) {
        self.pieces = pieces
        byteCount = pieces.reduce(0) { $0 + $1.length }
    }

    /// The pieces an edit rewrites, and where the first starts: the one holding byte `prefix`
    /// (the later one when it is where two meet, so text typed there joins the word after it;
    /// the last one at the end), through the one holding the last changed byte of the old text
    /// (`changedEnd` is the end of the changed bytes), then the next ones while the new text
    /// would end inside a word before them (`new`, the body after the edit, `delta` bytes
    /// longer).
    func touched(
        prefix: Int, changedEnd: Int, delta: Int, new: UnsafeBufferPointer<UInt8>
    ) -> (pieces: ClosedRange<Int>, start: Int) {
        var first = 0
        var start = 0
        while first + 1 < pieces.count, start + pieces[first].length <= prefix {
            start += pieces[first].length
            first += 1
        }
        var last = first
        var end = start + pieces[first].length
        while last + 1 < pieces.count {
            let endInNew = end + delta
            let endsInsideWord = endInNew > 0 && !BodyChunks.endsWord(new[endInNew - 1])
            guard end < changedEnd || endsInsideWord else { break }
            last += 1
            end += pieces[last].length
        }
        return (first...last, start)
    }

    /// The pieces after `range`'s are `replacement`.
    mutating func replace(_ range: ClosedRange<Int>, with replacement: [Piece]) {
        byteCount += replacement.reduce(0) { $0 + $1.length }
        byteCount -= pieces[range].reduce(0) { $0 + $1.length }
        pieces.replaceSubrange(range, with: replacement)
    }
}
