import Testing

@testable import NotesApp

/// An insertion or a deletion read from two texts stands at the place nearest the cursor that
/// gives the same text, in ASCII only.
@Suite struct RepeatedTextPlaceTests {
    func place(_ range: Range<Int>, _ text: String, _ inserted: String, cursor: Int)
        -> (Range<Int>, String)
    {
        let placed = RepeatedTextPlace.nearest(
            range, of: text, replacedWith: inserted, cursor: cursor)
        return (placed.range, placed.inserted)
    }

    @Test func aDeletionEndsAtTheCursorWhenItCan() {
        // "hello XYZ world" without "XYZ " (as read) or " XYZ" (as typed: the cursor after it).
        #expect(place(6..<10, "hello XYZ world", "", cursor: 9) == (5..<9, ""))
        #expect(place(6..<10, "hello XYZ world", "", cursor: 10) == (6..<10, ""))
        // Out of reach: as read.
        #expect(place(6..<10, "hello XYZ world", "", cursor: 2) == (6..<10, ""))
        #expect(place(0..<1, "aaaa", "", cursor: 4) == (3..<4, ""))
    }

    @Test func anInsertionStartsAtTheCursorWhenItCan() {
        #expect(place(6..<6, "hello world", "XYZ ", cursor: 5) == (5..<5, " XYZ"))
        #expect(place(0..<0, "aaa", "a", cursor: 3) == (3..<3, "a"))
        #expect(place(6..<6, "hello world", "XYZ ", cursor: 0) == (6..<6, "XYZ "))
    }

    @Test func aReplacementAndTextBeyondASCIIStayAsRead() {
        #expect(place(1..<2, "abc", "x", cursor: 0) == (1..<2, "x"))
        // "é" twice: moving by bytes would cut a character.
        #expect(place(2..<4, "éé", "", cursor: 2) == (2..<4, ""))
    }
}
