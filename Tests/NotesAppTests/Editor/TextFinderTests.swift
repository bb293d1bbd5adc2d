import Testing

@testable import NotesApp

/// Find ignores case in any script and finds words inside runs of CJK text; offsets are UTF-8.
@Suite struct TextFinderTests {
    let text = "Tokyo: 東京タワーは高い. TOKYO again, tokyo."

    func offset(of piece: String, from start: Int = 0) -> Int {
        let range = text.utf8.dropFirst(start)
        let bytes = Array(range)
        let needle = Array(piece.utf8)
        let found = (0...(bytes.count - needle.count)).first {
            Array(bytes[$0..<($0 + needle.count)]) == needle
        }!
        return start + found
    }

    @Test func nextIgnoresCaseAndFindsInsideRunsOfText() {
        #expect(
            TextFinder.next("tokyo", in: text, from: 1) == offset(
                of: "TOKYO")..<(offset(of: "TOKYO") + 5))
        #expect(
            TextFinder.next("タワー", in: text, from: 0) == offset(of: "タワー")..<(offset(of: "タワー") + 9)
        )
        #expect(TextFinder.next("osaka", in: text, from: 0) == nil)
        #expect(TextFinder.next("", in: text, from: 0) == nil)
    }

    @Test func previousFindsTheLastMatchBeforeTheOffset() {
        let last = offset(of: "tokyo.")
        #expect(
            TextFinder.previous("TOKYO", in: text, before: last)?.lowerBound == offset(of: "TOKYO"))
        #expect(TextFinder.previous("TOKYO", in: text, before: last + 1)?.lowerBound == last)
        #expect(TextFinder.previous("tokyo", in: text, before: 0) == nil)
    }

    @Test func findingWrapsAtTheEnds() {
        let last = offset(of: "tokyo.")
        let wrapped = TextFinder.next("tokyo", in: text, wrappingFrom: last + 1)
        #expect(wrapped?.range.lowerBound == 0)
        #expect(wrapped?.wrapped == true)
        let back = TextFinder.previous("tokyo", in: text, wrappingBefore: 0)
        #expect(back?.range.lowerBound == last)
        #expect(back?.wrapped == true)
    }

    @Test func everyMatchStartingInTheRangeIsListed() {
        let starts = TextFinder.matches(of: "tokyo", in: text, startingIn: 1..<text.utf8.count)
            .map(\.lowerBound)
        #expect(starts == [offset(of: "TOKYO"), offset(of: "tokyo.")])
    }

    /// Far into a long text, in both directions, next to a wide character; and text other than
    /// ASCII in any case (Foundation's search).
    @Test func matchesFarIntoALongTextAreFound() {
        let edge = 16_384
        let text =
            String(repeating: "x", count: edge - 3) + "東Needle"
            + String(repeating: "y", count: edge * 2)
        let start = edge - 3 + "東".utf8.count
        #expect(TextFinder.next("needle", in: text, from: 0) == start..<(start + 6))
        #expect(TextFinder.next("東n", in: text, from: 0)?.lowerBound == edge - 3)
        #expect(
            TextFinder.previous("NEEDLE", in: text, before: text.utf8.count) == start..<(start + 6))
        #expect(TextFinder.next("needle", in: text, from: start + 1) == nil)
        #expect(TextFinder.previous("needle", in: text, before: start) == nil)
        let french = "Une école, une ÉCOLE."
        let second = french.utf8.count - "ÉCOLE.".utf8.count
        #expect(TextFinder.next("école", in: french, from: 5)?.lowerBound == second)
        #expect(TextFinder.previous("École", in: french, before: second)?.lowerBound == 4)
    }
}
