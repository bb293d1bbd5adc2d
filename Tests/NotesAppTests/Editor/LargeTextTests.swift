import TerminalUI
import Testing

@testable import NotesApp

@Suite struct LargeTextTests {
    /// One pasted line: wide characters, an emoji sequence, a combining mark, "\r\n".
    let pastedLine = "Paste 漢字 😀 👩‍👩‍👧 cafe\u{301} line of text that wraps at forty columns.\r\n"

    @Test func aTenMegabytePasteIsOneEditAndStaysResponsive() {
        let lineCount = 10_000_000 / pastedLine.utf8.count + 1
        let paste = String(repeating: pastedLine, count: lineCount)
        #expect(paste.utf8.count >= 10_000_000)
        let line = pastedLine.replacing("\r\n", with: "\n")
        let pastedBytes = line.utf8.count * lineCount
        // Width 40 wraps each pasted line into these two rows.
        let rows = "Paste 漢字 😀 👩‍👩‍👧 cafe\u{301} line of text that \nwraps at forty columns."

        var buffer = EditorBuffer(marked: "start|end", width: 40, height: 4)
        #expect(buffer.insert(paste) == .insert(5..<(5 + pastedBytes)))
        #expect(buffer.text.utf8.count == 8 + pastedBytes)
        #expect(buffer.text == "start" + String(repeating: line, count: lineCount) + "end")
        #expect(buffer.cursorOffset == 5 + pastedBytes)
        #expect(buffer.screen == "wraps at forty columns.\n" + rows + "\n|end")
        #expect(buffer.cursorPosition == Point(x: 0, y: 3))
        #expect(buffer.scrollIndicator == "L\(lineCount + 1)/\(lineCount + 1) 99%")

        // Typing, moving and scrolling afterwards touch only the lines around the cursor.
        buffer.insert("!")
        buffer.deleteBackward()
        #expect(buffer.lastEdit == .delete((5 + pastedBytes)..<(6 + pastedBytes)))
        buffer.moveToStart()
        #expect(
            buffer.screen == "|startPaste 漢字 😀 👩‍👩‍👧 cafe\u{301} line of text \n"
                + "that wraps at forty columns.\n" + rows)
        buffer.pageDown()
        buffer.pageDown()
        #expect(buffer.cursorLocation.line == VisualLine(line: 4, row: 0))
        let middle = lineCount / 2
        // 7 bytes into the line is inside 漢: the cursor goes before it.
        buffer.moveCursor(toOffset: 5 + line.utf8.count * middle + 7)
        #expect(buffer.cursorLocation.line == VisualLine(line: middle, row: 0))
        #expect(buffer.cursorLocation.column == 6)
        #expect(
            buffer.screen == "wraps at forty columns.\n" + rows + "\n"
                + "Paste |漢字 😀 👩‍👩‍👧 cafe\u{301} line of text that ")
        buffer.replaceText("tail")
        #expect(buffer.marked == "tail|")
        #expect(buffer.screen == "tail|")
    }
}
