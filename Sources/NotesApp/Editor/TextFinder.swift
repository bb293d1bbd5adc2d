import Foundation

/// Where a piece of text occurs in a field, ignoring case, in any script: a word in Chinese or
/// Japanese is found inside a run of text as readily as a word between spaces.
///
/// Offsets are UTF-8 offsets into the text, as `EditorBuffer` keeps them. What is looked for in
/// plain ASCII (most finds) is matched on the text's bytes, ASCII letters folded, without a
/// copy: a body of megabytes costs a pass over the bytes up to the match, and the marks on
/// screen a pass over the screen's bytes. Other text is looked for by Foundation's search,
/// which folds every script's case.
enum TextFinder {
    /// The first match that starts at `offset` or after, or nil.
    static func next(_ needle: String, in text: String, from offset: Int) -> Range<Int>? {
        let count = text.utf8.count
        return matches(
            of: needle, in: text, startingIn: min(max(0, offset), count)..<count, first: true
        )
        .first
    }

    /// The last match that starts before `offset`, or nil.
    static func previous(_ needle: String, in text: String, before offset: Int) -> Range<Int>? {
        guard !needle.isEmpty, offset > 0 else { return nil }
        let end = min(offset, text.utf8.count)
        if let folded = asciiFolded(needle) {
            var text = text
            return text.withUTF8 { bytes in
                var start = end - 1
                while start >= 0 {
                    if matchesAt(start, folded, bytes) { return start..<(start + folded.count) }
                    start -= 1
                }
                return nil
            }
        }
        return matches(of: needle, in: text, startingIn: 0..<end).last
    }

    /// The first match at or after `offset`, else the first from the start (`wrapped`).
    static func next(
        _ needle: String, in text: String, wrappingFrom offset: Int
    ) -> (range: Range<Int>, wrapped: Bool)? {
        if let match = next(needle, in: text, from: offset) { return (match, false) }
        return matches(
            of: needle, in: text, startingIn: 0..<min(max(0, offset), text.utf8.count), first: true
        )
        .first.map { ($0, true) }
    }

    /// The last match before `offset`, else the last in the text (`wrapped`).
    static func previous(
        _ needle: String, in text: String, wrappingBefore offset: Int
    ) -> (range: Range<Int>, wrapped: Bool)? {
        if let match = previous(needle, in: text, before: offset) { return (match, false) }
        return previous(needle, in: text, before: text.utf8.count).map { ($0, true) }
    }

    /// Every match that starts in `bytes` (the rows on screen, say), or only the first; no
    /// search reads further than a match starting in them may reach.
    static func matches(
        of needle: String, in text: String, startingIn bytes: Range<Int>, first: Bool = false
    ) -> [Range<Int>] {
        guard !needle.isEmpty, !bytes.isEmpty else { return [] }
        if let folded = asciiFolded(needle) {
            var text = text
            return text.withUTF8 { all in
                var found: [Range<Int>] = []
                var start = bytes.lowerBound
                while start < bytes.upperBound {
                    if matchesAt(start, folded, all) {
                        found.append(start..<(start + folded.count))
                        if first { break }
                        start += folded.count
                    } else {
                        start += 1
                    }
                }
                return found
            }
        }
        // A letter's case may take more bytes than the needle's.
        let limit = UTF8Offsets.index(
            UTF8Offsets.characterStart(
                atOrBefore: bytes.upperBound + needle.utf8.count * 4, in: text), in: text)
        var found: [Range<Int>] = []
        var from = UTF8Offsets.index(
            UTF8Offsets.characterStart(atOrBefore: bytes.lowerBound, in: text), in: text)
        while from < limit,
            let match = text.range(of: needle, options: .caseInsensitive, range: from..<limit)
        {
            let lower = UTF8Offsets.offset(of: match.lowerBound, in: text)
            guard lower < bytes.upperBound else { break }
            if lower >= bytes.lowerBound {
                found.append(lower..<UTF8Offsets.offset(of: match.upperBound, in: text))
                if first { break }
            }
            from = match.upperBound
        }
        return found
    }

    /// The needle's bytes with ASCII letters in lower case, or nil when it is not all ASCII.
    private static func asciiFolded(_ needle: String) -> [UInt8]? {
        guard needle.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        return needle.utf8.map(lowered)
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether the folded needle is at `start` of `bytes`, ASCII letters in any case.
    private static func matchesAt(
        _ start: Int, _ folded: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard start + folded.count <= bytes.count else { return false }
        for index in folded.indices where lowered(bytes[start + index]) != folded[index] {
            return false
        }
        return true
    }
}
