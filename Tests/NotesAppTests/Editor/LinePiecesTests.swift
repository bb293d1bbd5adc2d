import TerminalUI
import Testing

@testable import NotesApp

/// Lines longer than 16 KB are cut into pieces that wrap on their own.
@Suite struct LinePiecesTests {
    /// 25,000 bytes; the last space before byte 16,384 ends at 16,380.
    let words = String(repeating: "word ", count: 5_000)
    let fullRow = "word word word word word word word word "

    @Test func cutsFallAfterASpaceOrOnAGraphemeBoundary() {
        #expect(EditorBuffer(text: words).layout.layoutStarts == [0, 16_380])
        let letters = String(repeating: "x", count: 40_000)
        #expect(EditorBuffer(text: letters).layout.layoutStarts == [0, 16_384, 32_768])
        let ideographs = String(repeating: "漢字", count: 6_000)  // 3 bytes each
        #expect(EditorBuffer(text: ideographs).layout.layoutStarts == [0, 16_383, 32_766])
        let lines = "a\n" + words + "\nb"
        #expect(EditorBuffer(text: lines).layout.layoutStarts == [0, 2, 16_382, 25_003])
        #expect(
            EditorBuffer(text: String(repeating: "y", count: 16_384)).layout.layoutStarts == [0])
    }

    @Test func theRowBeforeACutEndsEarlyAndMovesCrossIt() {
        // Width 40 holds 8 words; the first piece's 3,276 words end with a row of 4.
        var buffer = EditorBuffer(
            text: words, cursorOffset: 16_380 - 20 + 2, viewport: Size(width: 40, height: 3))
        #expect(buffer.screen == fullRow + "\n" + fullRow + "\nwo|rd word word word ")
        #expect(buffer.cursorLocation.line == VisualLine(line: 0, row: 409))
        buffer.moveDown()
        #expect(buffer.screen == fullRow + "\nword word word word \nwo|" + fullRow.dropFirst(2))
        #expect(buffer.cursorLocation.line == VisualLine(line: 1, row: 0))
        #expect(buffer.cursorOffset == 16_382)
        buffer.moveLeft()
        buffer.moveLeft()
        buffer.moveLeft()
        #expect(buffer.cursorOffset == 16_379)
        #expect(buffer.screen == fullRow + "\nword word word word| \n" + fullRow)
        buffer.moveRight()
        #expect(buffer.screen == fullRow + "\nword word word word \n|" + fullRow)
        #expect(buffer.cursorPosition == Point(x: 0, y: 2))
        #expect(buffer.scrollIndicator == "L1/1 65%")
    }

    @Test func homeAndEndReachTheEndsOfTheWholeLogicalLine() {
        var buffer = EditorBuffer(
            text: "a\n" + words + "\nb", cursorOffset: 20_000, viewport: Size(width: 40, height: 3))
        buffer.moveToLineStart()
        #expect(buffer.cursorOffset == 20_000 - (20_000 - 16_382) % 40)
        buffer.moveToLineStart()
        #expect(buffer.cursorOffset == 2)
        #expect(buffer.screen == "|" + fullRow + "\n" + fullRow + "\n" + fullRow)
        buffer.moveToLineEnd()
        buffer.moveToLineEnd()
        #expect(buffer.cursorOffset == 25_002)
        // The second piece's 1,724 words end with a row of 4.
        #expect(buffer.screen == fullRow + "\n" + fullRow + "\nword word word word |")
        #expect(buffer.scrollIndicator == "L2/3 99%")
    }

    @Test func editsMoveTheCutsAfterThem() {
        var buffer = EditorBuffer(text: words, viewport: Size(width: 40, height: 3))
        buffer.insert("x")
        #expect(buffer.layout.layoutStarts == [0, 16_381])
        #expect(buffer.screen == "x|" + fullRow + "\n" + fullRow + "\n" + fullRow)
        buffer.moveToEnd()
        buffer.insert(words)
        #expect(buffer.layout.layoutStarts == [0, 16_381, 32_766, 49_151])
        #expect(buffer.replaceText("short") == 0..<5)
        #expect(buffer.layout.layoutStarts == [0])
        #expect(buffer.screen == "short|")
    }
}
