import Foundation

/// Where a piece of text occurs in a field, ignoring case, in any script: a word in Chinese or
/// Japanese is found inside a run of text as readily as a word between spaces.
///
/// Offsets are UTF-8 offsets into the text, as `EditorBuffer` keeps them. A body of megabytes is
/// searched from the offset asked, and no further than the first match.
enum TextFinder {
    /// The first match that starts at `offset` or after, or nil.
    static func next(_ needle: String, in text: String, from offset: Int) -> Range<Int>? {
        guard !needle.isEmpty else { return nil }
        let start = UTF8Offsets.index(min(max(0, offset), text.utf8.count), in: text)
        return text.range(of: needle, options: .caseInsensitive, range: start..<text.endIndex)
            .map { offsets($0, in: text) }
    }

    /// The last match that starts before `offset`, or nil.
    static func previous(_ needle: String, in text: String, before offset: Int) -> Range<Int>? {
        guard !needle.isEmpty, offset > 0 else { return nil }
        // A match that starts before `offset` may end after it.
        let end = UTF8Offsets.index(
            min(text.utf8.count, offset + needle.utf8.count * 4 - 1), in: text)
        var found = text.range(
            of: needle, options: [.caseInsensitive, .backwards], range: text.startIndex..<end)
        while let match = found, offsets(match, in: text).lowerBound >= offset {
            found = text.range(
                of: needle, options: [.caseInsensitive, .backwards],
                range: text.startIndex..<text.index(before: match.upperBound))
        }
        return found.map { offsets($0, in: text) }
    }

    /// The first match at or after `offset`, else the first from the start (`wrapped`).
    static func next(
        _ needle: String, in text: String, wrappingFrom offset: Int
    ) -> (range: Range<Int>, wrapped: Bool)? {
        if let match = next(needle, in: text, from: offset) { return (match, false) }
        return next(needle, in: text, from: 0).map { ($0, true) }
    }

    /// The last match before `offset`, else the last in the text (`wrapped`).
    static func previous(
        _ needle: String, in text: String, wrappingBefore offset: Int
    ) -> (range: Range<Int>, wrapped: Bool)? {
        if let match = previous(needle, in: text, before: offset) { return (match, false) }
        return previous(needle, in: text, before: text.utf8.count + 1).map { ($0, true) }
    }

    /// Every match that starts in `bytes` (the rows on screen, say).
    static func matches(of needle: String, in text: String, startingIn bytes: Range<Int>)
        -> [Range<Int>]
    {
        var found: [Range<Int>] = []
        var offset = bytes.lowerBound
        while offset < bytes.upperBound, let match = next(needle, in: text, from: offset),
            match.lowerBound < bytes.upperBound
        {
            found.append(match)
            offset = max(match.upperBound, match.lowerBound + 1)
        }
        return found
    }

    private static func offsets(_ range: Range<String.Index>, in text: String) -> Range<Int> {
        let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
        return start..<(start + text.utf8.distance(from: range.lowerBound, to: range.upperBound))
    }
}
