/// Soft wrapping: where text breaks into screen lines of a given display width.
///
/// Lines break at hard newlines, and otherwise after spaces when a word would
/// not fit; a word longer than the line breaks between graphemes. Between two
/// graphemes of which one is wide (CJK, emoji) a break is also allowed, as CJK
/// text has no spaces. A grapheme is never split.
public enum SoftWrap {
    /// The screen lines of `text` when wrapped to `width` columns.
    ///
    /// The ranges cover the text in order. A newline ("\n" or "\r\n") ends
    /// its line and belongs to no range, so text ending with a newline has a
    /// last, empty line; empty text is one empty line. Spaces at a break stay
    /// at the end of their line and may pass `width` (they "hang", as in
    /// browsers): drawing clips them, and the next line starts with a word.
    /// A grapheme wider than `width` gets a line of its own.
    ///
    /// - Parameters:
    ///   - text: The text to wrap.
    ///   - width: The columns available; values below 1 count as 1.
    /// - Returns: One range of `text` per screen line.
    public static func lines(of text: String, width: Int) -> [Range<String.Index>] {
        let width = max(1, width)
        var lines: [Range<String.Index>] = []
        var lineStart = text.startIndex
        // Where the line would end if it broke at the last break opportunity.
        var breakIndex: String.Index?
        var column = 0
        var columnAtBreak = 0
        var previousWasWide = false
        var index = text.startIndex

        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\n" || character == "\r\n" {
                lines.append(lineStart..<index)
                lineStart = next
                breakIndex = nil
                column = 0
                previousWasWide = false
                index = next
                continue
            }
            let characterWidth = DisplayWidth.of(character)
            if character == " " {
                // Spaces hang past the edge; a break comes after them.
                column += characterWidth
                breakIndex = next
                columnAtBreak = column
                previousWasWide = false
                index = next
                continue
            }
            let isWide = characterWidth >= 2
            if index > lineStart, isWide || previousWasWide, breakIndex != index {
                breakIndex = index
                columnAtBreak = column
            }
            if column + characterWidth > width, index > lineStart {
                if let breakAt = breakIndex, breakAt > lineStart {
                    lines.append(lineStart..<breakAt)
                    lineStart = breakAt
                    column -= columnAtBreak
                } else {
                    lines.append(lineStart..<index)
                    lineStart = index
                    column = 0
                }
                breakIndex = nil
                // Re-measure this grapheme on the new line.
                continue
            }
            column += characterWidth
            previousWasWide = isWide
            index = next
        }
        lines.append(lineStart..<text.endIndex)
        return lines
    }
}
