import TerminalUI
import Testing

@testable import NotesApp

@Suite struct EditingTests {
    @Test func typingAroundWideCharacters() {
        var buffer = EditorBuffer(marked: "漢|字")
        #expect(buffer.insert("😀") == .insert(3..<7))
        #expect(buffer.marked == "漢😀|字")
        #expect(buffer.cursorPosition == Point(x: 4, y: 0))
        #expect(buffer.insert("e\u{301}") == .insert(7..<10))
        #expect(buffer.marked == "漢😀e\u{301}|字")
        #expect(buffer.cursorPosition == Point(x: 5, y: 0))
        #expect(buffer.insert("👩‍👩‍👧") == .insert(10..<28))
        #expect(buffer.marked == "漢😀e\u{301}👩‍👩‍👧|字")
        #expect(buffer.cursorPosition == Point(x: 7, y: 0))
        #expect(buffer.lastEdit == .insert(10..<28))
        #expect(buffer.screen == "漢😀e\u{301}👩‍👩‍👧|字")
    }

    @Test func backspaceDeletesWholeGraphemes() {
        var buffer = EditorBuffer(marked: "a漢😀👩‍👩‍👧e\u{301}|z")
        #expect(buffer.deleteBackward() == .delete(26..<29))
        #expect(buffer.marked == "a漢😀👩‍👩‍👧|z")
        #expect(buffer.cursorPosition == Point(x: 7, y: 0))
        #expect(buffer.deleteBackward() == .delete(8..<26))
        #expect(buffer.marked == "a漢😀|z")
        #expect(buffer.cursorPosition == Point(x: 5, y: 0))
        #expect(buffer.deleteBackward() == .delete(4..<8))
        #expect(buffer.marked == "a漢|z")
        #expect(buffer.deleteBackward() == .delete(1..<4))
        #expect(buffer.marked == "a|z")
        #expect(buffer.deleteBackward() == .delete(0..<1))
        #expect(buffer.marked == "|z")
        #expect(buffer.deleteBackward() == nil)
        #expect(buffer.lastEdit == nil)
        #expect(buffer.marked == "|z")
        #expect(buffer.cursorPosition == Point(x: 0, y: 0))
    }

    @Test func deleteForwardDeletesWholeGraphemes() {
        var buffer = EditorBuffer(marked: "a|e\u{301}👩‍👩‍👧漢😀")
        #expect(buffer.deleteForward() == .delete(1..<4))
        #expect(buffer.marked == "a|👩‍👩‍👧漢😀")
        #expect(buffer.deleteForward() == .delete(1..<19))
        #expect(buffer.marked == "a|漢😀")
        #expect(buffer.deleteForward() == .delete(1..<4))
        #expect(buffer.marked == "a|😀")
        #expect(buffer.deleteForward() == .delete(1..<5))
        #expect(buffer.marked == "a|")
        #expect(buffer.deleteForward() == nil)
        #expect(buffer.marked == "a|")
        #expect(buffer.cursorPosition == Point(x: 1, y: 0))
    }

    @Test func aCombiningMarkTypedAfterALetterJoinsIt() {
        var buffer = EditorBuffer(marked: "e|x")
        buffer.insert("\u{301}")
        #expect(buffer.marked == "e\u{301}|x")
        #expect(buffer.cursorPosition == Point(x: 1, y: 0))
        buffer.moveLeft()
        #expect(buffer.marked == "|e\u{301}x")
    }

    @Test func textThatJoinsTheNextGraphemePutsTheCursorAfterTheJoinedOne() {
        // A zero-width joiner typed between two emoji makes one family emoji.
        var buffer = EditorBuffer(marked: "👩|👧!")
        #expect(buffer.insert("\u{200D}") == .insert(4..<7))
        #expect(buffer.marked == "👩‍👧|!")
        #expect(buffer.cursorPosition == Point(x: 2, y: 0))
        // A letter typed before a lone combining mark takes the mark.
        buffer = EditorBuffer(marked: "x\n|\u{301}y")
        buffer.insert("e")
        #expect(buffer.marked == "x\ne\u{301}|y")
        #expect(buffer.screen == "x\ne\u{301}|y")
    }

    @Test func deletingALineBreakThatJoinsGraphemesPutsTheCursorBeforeTheJoinedOne() {
        var buffer = EditorBuffer(marked: "e\n|\u{301}x")
        #expect(buffer.deleteBackward() == .delete(1..<2))
        #expect(buffer.marked == "|e\u{301}x")
        #expect(buffer.cursorPosition == Point(x: 0, y: 0))
    }

    @Test func newlinesAreNormalisedAndSplitLines() {
        var buffer = EditorBuffer(marked: "a|z")
        #expect(buffer.insert("1\r\n2\r3\n") == .insert(1..<7))
        #expect(buffer.marked == "a1\n2\n3\n|z")
        #expect(buffer.screen == "a1\n2\n3\n|z")
        #expect(buffer.cursorPosition == Point(x: 0, y: 3))
        #expect(buffer.insertNewline() == .insert(7..<8))
        #expect(buffer.marked == "a1\n2\n3\n\n|z")
        #expect(buffer.deleteBackward() == .delete(7..<8))
        #expect(buffer.deleteBackward() == .delete(6..<7))
        #expect(buffer.marked == "a1\n2\n3|z")
        #expect(buffer.screen == "a1\n2\n3|z")
    }

    @Test func crlfInTheTextIsOneLineBreak() {
        var buffer = EditorBuffer(marked: "ab|\r\ncd")
        #expect(buffer.screen == "ab|\ncd")
        buffer.moveRight()
        #expect(buffer.marked == "ab\r\n|cd")
        #expect(buffer.deleteBackward() == .delete(2..<4))
        #expect(buffer.marked == "ab|cd")
    }

    @Test func emptyEditsChangeNothing() {
        var buffer = EditorBuffer(marked: "|")
        #expect(buffer.insert("") == nil)
        #expect(buffer.deleteBackward() == nil)
        #expect(buffer.deleteForward() == nil)
        #expect(buffer == EditorBuffer(marked: "|"))
    }

    @Test func movesEndTheEditButEditsDoNot() {
        var buffer = EditorBuffer(marked: "ab|")
        buffer.insert("c")
        #expect(buffer.lastEdit == .insert(2..<3))
        let moved = buffer.moveLeft()
        #expect(moved)
        #expect(buffer.lastEdit == nil)
        #expect(buffer.deleteBackward() == .delete(1..<2))
        #expect(buffer.lastEdit?.isInsert == false)
        #expect(buffer.lastEdit?.offset == 1)
        let movedToStart = buffer.moveToStart()
        let movedAgain = buffer.moveToStart()
        #expect(movedToStart && !movedAgain)
        #expect(buffer.marked == "|ac")
    }
}
