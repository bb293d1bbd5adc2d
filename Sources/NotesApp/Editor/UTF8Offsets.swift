/// Conversions between a string's indices and UTF-8 offsets, and byte scans.
///
/// The editor keeps positions as UTF-8 offsets: they survive edits by plain
/// arithmetic, and for native strings both conversions take constant time.
enum UTF8Offsets {
    /// The index `offset` UTF-8 bytes into `text`.
    static func index(_ offset: Int, in text: String) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: offset)
    }

    /// The UTF-8 offset of `index` in `text`.
    static func offset(of index: String.Index, in text: String) -> Int {
        text.utf8.distance(from: text.utf8.startIndex, to: index)
    }

    /// The offsets of every "\n" byte of `text` within `range`, relative to `range.lowerBound`.
    static func newlines(in text: String, range: Range<Int>) -> [Int] {
        let newline = UInt8(ascii: "\n")
        var text = text
        return text.withUTF8 { bytes in
            var found: [Int] = []
            for offset in range where bytes[offset] == newline {
                found.append(offset - range.lowerBound)
            }
            return found
        }
    }

    /// The start of the grapheme that `offset` falls in (`offset` itself on a boundary).
    ///
    /// `offset` is clamped to the text first.
    static func characterStart(atOrBefore offset: Int, in text: String) -> Int {
        guard offset > 0, offset < text.utf8.count else {
            return min(max(offset, 0), text.utf8.count)
        }
        // The stdlib rounds an index inside a grapheme down before stepping.
        let after = text.index(after: index(offset, in: text))
        return self.offset(of: text.index(before: after), in: text)
    }

    /// The end of the grapheme that `offset` falls in (`offset` itself on a boundary).
    ///
    /// `offset` is clamped to the text first.
    static func characterEnd(atOrAfter offset: Int, in text: String) -> Int {
        let start = characterStart(atOrBefore: offset, in: text)
        guard start != offset, start < text.utf8.count else { return start }
        return self.offset(of: text.index(after: index(start, in: text)), in: text)
    }

    /// The byte `offset` bytes into `text`.
    static func byte(at offset: Int, in text: String) -> UInt8 {
        text.utf8[index(offset, in: text)]
    }
}
