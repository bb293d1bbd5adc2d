/// Where a very long logical line is cut into pieces that wrap on their own.
///
/// Soft wrapping is greedy from the start of a line, so where a row of a
/// megabyte-long line starts depends on everything before it. Cutting such
/// a line into pieces of about 16 KB, each wrapped from its own start, keeps
/// every wrap (and so every keystroke) small. A cut is a forced row break:
/// the row before it may end early, once every few hundred rows. Lines
/// shorter than a piece, which is nearly every line, are never cut.
enum LinePieces {
    /// The UTF-8 length a line may reach before it is cut.
    static let length = 16_384
    /// How far back from a cut position a space is looked for, so cuts fall between words.
    static let spaceSearch = 256

    /// Where the pieces of a logical line start: its start, then each cut.
    ///
    /// Cuts are aimed at fixed distances from the line's start, so an edit
    /// moves only the cuts after it, and each moves back to just after a
    /// space when one is near, and always to a grapheme boundary.
    ///
    /// - Parameter content: The line's UTF-8 range, without its line break.
    static func starts(ofLine content: Range<Int>, in text: String) -> [Int] {
        var starts = [content.lowerBound]
        guard content.count > length else { return starts }
        var previous = content.lowerBound
        var aim = content.lowerBound + length
        while aim < content.upperBound {
            let cut = UTF8Offsets.characterStart(
                atOrBefore: afterSpace(near: aim, after: previous, in: text) ?? aim, in: text)
            if cut > previous, cut < content.upperBound {
                starts.append(cut)
                previous = cut
            }
            aim += length
        }
        return starts
    }

    /// The offset just after the last space in the few bytes up to `aim`, if there is one.
    private static func afterSpace(near aim: Int, after previous: Int, in text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes in
            var offset = aim
            while offset > previous + 1, offset > aim - spaceSearch {
                if bytes[offset - 1] == UInt8(ascii: " ") { return offset }
                offset -= 1
            }
            return nil
        }
    }
}
