import TerminalUI
import Testing

@testable import NotesApp

@Suite struct ReplaceTextTests {
    @Test func aChangeBeforeTheCursorShiftsIt() {
        var buffer = EditorBuffer(marked: "hello wor|ld")
        #expect(buffer.replaceText("hello brave new world") == 6..<16)
        #expect(buffer.marked == "hello brave new wor|ld")
        #expect(buffer.screen == "hello brave new \nwor|ld")
        #expect(buffer.lastEdit == nil)
    }

    @Test func aChangeAfterTheCursorLeavesIt() {
        var buffer = EditorBuffer(marked: "漢|字 one")
        buffer.insert("x")
        #expect(buffer.replaceText("漢x字 two") == 8..<11)
        #expect(buffer.marked == "漢x|字 two")
        #expect(buffer.lastEdit == nil)
    }

    @Test func theCursorIsClampedToAShorterText() {
        var buffer = EditorBuffer(marked: "abc漢字def|")
        #expect(buffer.replaceText("ab") == 2..<2)
        #expect(buffer.marked == "ab|")
        #expect(buffer.cursorPosition == Point(x: 2, y: 0))
        #expect(buffer.replaceText("") == 0..<0)
        #expect(buffer.marked == "|")
    }

    @Test func aCursorInsideTheChangeIsClampedToAGraphemeBoundary() {
        var buffer = EditorBuffer(marked: "ab|cd")
        // The old offset 2 falls inside 漢 (bytes 1..<4): the cursor goes before it.
        #expect(buffer.replaceText("a漢") == 1..<4)
        #expect(buffer.marked == "a|漢")
        #expect(buffer.cursorPosition == Point(x: 1, y: 0))
        buffer = EditorBuffer(marked: "e|xyz")
        #expect(buffer.replaceText("e\u{301}") == 1..<3)
        #expect(buffer.marked == "|e\u{301}")
    }

    @Test func theSameTextChangesNothing() {
        var buffer = EditorBuffer(marked: "ab|c")
        buffer.insert("x")
        let before = buffer
        #expect(buffer.replaceText("abxc") == nil)
        #expect(buffer == before)
        #expect(buffer.lastEdit == .insert(2..<3))
    }

    @Test func replacedLinesAreWrappedAgainAndTheViewFollows() {
        let text = (1...10).map { "line \($0)" }.joined(separator: "\n")
        var buffer = EditorBuffer(text: text, viewport: Size(width: 8, height: 3))
        buffer.moveToEnd()
        #expect(buffer.screen == "line 8\nline 9\nline 10|")
        var changed = text.replacing("line 9", with: "line nine is long")
        #expect(buffer.replaceText(changed) == 61..<73)
        #expect(buffer.screen == "nine is \nlong\nline 10|")
        changed = "only\n" + changed
        buffer.replaceText(changed)
        #expect(buffer.marked == changed + "|")
        #expect(buffer.scrollIndicator == "L11/11 100%")
    }
    /// An undone paste at the end: the text shrinks back under the view, which comes back up to
    /// show it whole instead of its last line alone at the top.
    @Test func theViewComesBackUpWhenTheEndShrinks() {
        var buffer = EditorBuffer(marked: "one\ntwo\nthree|")
        buffer.insert((1...20).map { "\nline \($0)" }.joined())
        #expect(buffer.screen == "line 16\nline 17\nline 18\nline 19\nline 20|")
        #expect(buffer.replaceText("one\ntwo\nthree") == 13..<13)
        #expect(buffer.screen == "one\ntwo\nthree|")
        buffer.insert((1...20).map { "\nline \($0)" }.joined())
        buffer.replaceText("one\ntwo\nthree\nfour\nfive\nsix\nseven")
        #expect(buffer.screen == "three\nfour\nfive\nsix\nseven|")
    }
}
