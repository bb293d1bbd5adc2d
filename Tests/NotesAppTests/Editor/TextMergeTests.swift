import Testing

@testable import NotesApp

/// One edit merged into a text someone else changed since (issue 19, item 1).
@Suite struct TextMergeTests {
    static let cases: [(base: String, mine: String, theirs: String, merged: String?)] = [
        // Apart: both apply, in either order of places.
        ("hello world", "Xhello world", "hello world EXT", "Xhello world EXT"),
        ("hello world", "hello world!", "EXT hello world", "EXT hello world!"),
        ("hello world", "hello, world", "hello wide world", "hello, wide world"),
        ("hello world", "hello", "hi hello world", "hi hello"),
        // Two insertions at one point: theirs first.
        ("abc", "abcX", "abc EXT", "abc EXTX"),
        ("", "x", "y", "yx"),
        // Touching: a replacement ending where the other begins.
        ("abcdef", "xyzdef", "abcQQQ", "xyzQQQ"),
        ("abc", "Xabc", "bc", "Xbc"),
        // The same bytes changed: no merge.
        ("hello world", "hello there", "hello earth", nil),
        ("abc", "aXc", "aYc", nil),
        // Nothing changed on one side.
        ("same", "same", "changed", "changed"),
        ("same", "mine", "same", "mine"),
        // Wide characters and emoji keep whole.
        ("東京 🗼 trip", "東京 🗼 great trip", "東京 🗼 trip 🎉", "東京 🗼 great trip 🎉"),
        ("e\u{301}x", "e\u{301}xy", "ze\u{301}x", "ze\u{301}xy"),
    ]

    @Test(arguments: cases)
    func editsInDifferentPlacesBothApply(
        base: String, mine: String, theirs: String, merged: String?
    ) {
        #expect(TextMerge.merge(base: base, mine: mine, theirs: theirs) == merged)
    }
}
