/// How an article's body is cut into the rows of `article_chunks`, so that an edit writes (and
/// indexes, and keeps in undo history) about a kilobyte whatever the body's length.
///
/// A body is cut after a newline where it can be, so that a word never spans two chunks and a
/// search finds it; a line longer than a chunk is cut after a space or tab, and text without
/// either (a long run of Chinese, say) between two characters. Cuts work on the UTF-8 bytes,
/// never inside a character, so the chunks joined give back the body byte for byte, even text
/// that is not valid UTF-8.
enum BodyChunks {
    /// The size chunks are cut to.
    static let targetBytes = 1024
    /// An edited chunk longer than this is cut again.
    static let maxBytes = 2 * targetBytes
    /// The space between the positions of chunks cut at once, so that chunks cut later fit
    /// between them without renumbering the others.
    static let positionStep: Int64 = 1 << 20

    /// The pieces of `bytes`, as ranges, in order; none for an empty body.
    static func cut(_ bytes: [UInt8]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            let end = cutPoint(bytes, from: start)
            pieces.append(start..<end)
            start = end
        }
        return pieces
    }

    /// Whether a chunk ending with `byte` may be followed by another: it ends a line or a word.
    static func endsWord(_ byte: UInt8?) -> Bool {
        byte == newline || byte == space || byte == tab
    }

    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// Where the piece starting at `start` ends: after the last newline within `targetBytes`,
    /// else after the last space or tab, else before the last character that starts there.
    private static func cutPoint(_ bytes: [UInt8], from start: Int) -> Int {
        let limit = start + targetBytes
        guard limit < bytes.count else { return bytes.count }
        let window = (start + 1)...limit
        if let last = window.last(where: { bytes[$0 - 1] == newline }) { return last }
        if let last = window.last(where: { bytes[$0 - 1] == space || bytes[$0 - 1] == tab }) {
            return last
        }
        // Not inside a character: a UTF-8 continuation byte is 10xxxxxx.
        return window.last(where: { bytes[$0] & 0xC0 != 0x80 }) ?? limit
    }
}
