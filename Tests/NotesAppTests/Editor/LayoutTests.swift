import TerminalUI
import Testing

@testable import NotesApp

@Suite struct LayoutTests {
    /// Wraps at width 10 into "Hi 世界😀 " / "ok 漢字漢" / "字漢字 " / "émojis👩‍👩‍👧!".
    let paragraph = "Hi 世界😀 ok 漢字漢字漢字 e\u{301}mojis👩‍👩‍👧!"

    @Test func wrapsAMixedParagraphAtWidthTen() {
        let buffer = EditorBuffer(text: paragraph, viewport: Size(width: 10, height: 6))
        #expect(buffer.visibleLines == ["Hi 世界😀 ", "ok 漢字漢", "字漢字 ", "e\u{301}mojis👩‍👩‍👧!"])
        #expect(buffer.screen == "|Hi 世界😀 \nok 漢字漢\n字漢字 \ne\u{301}mojis👩‍👩‍👧!")
    }

    @Test func cursorPositionAfterEachStepThroughTheWrappedParagraph() {
        var buffer = EditorBuffer(text: paragraph, viewport: Size(width: 10, height: 6))
        var positions = [buffer.cursorPosition]
        while buffer.moveRight() {
            positions.append(buffer.cursorPosition)
        }
        let expected: [(Int, Int)] = [
            (0, 0), (1, 0), (2, 0), (3, 0), (5, 0), (7, 0), (9, 0),
            (0, 1), (1, 1), (2, 1), (3, 1), (5, 1), (7, 1),
            (0, 2), (2, 2), (4, 2), (6, 2),
            (0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (8, 3), (9, 3),
        ]
        #expect(positions == expected.map { Point(x: $0.0, y: $0.1) })
        #expect(buffer.cursorLocation.line == VisualLine(line: 0, row: 3))
        #expect(buffer.cursorLocation.column == 9)
    }

    /// A line that exactly fills the width takes no blank row below it: the cursor at its end
    /// shows in the last column, and what is typed there wraps.
    @Test func aLineThatFillsTheWidthTakesNoExtraRow() {
        var buffer = EditorBuffer(marked: "abcdefghij|\n漢字漢字漢", width: 10)
        #expect(buffer.visibleLines == ["abcdefghij", "漢字漢字漢"])
        #expect(buffer.screen == "abcdefghij|\n漢字漢字漢")
        #expect(buffer.cursorPosition == Point(x: 9, y: 0))
        buffer.moveToEnd()
        #expect(buffer.screen == "abcdefghij\n漢字漢字漢|")
        #expect(buffer.cursorPosition == Point(x: 9, y: 1))
        buffer.insert("x")
        #expect(buffer.visibleLines == ["abcdefghij", "漢字漢字漢", "x"])
        #expect(buffer.cursorPosition == Point(x: 1, y: 2))
        buffer.deleteBackward()
        buffer.deleteBackward()
        #expect(buffer.screen == "abcdefghij\n漢字漢字|")
        #expect(buffer.cursorPosition == Point(x: 8, y: 1))
        buffer.moveToStart()
        buffer.moveToLineEnd()
        #expect(buffer.screen == "abcdefghij|\n漢字漢字")
        buffer.moveDown()
        #expect(buffer.screen == "abcdefghij\n漢字漢字|")
    }

    @Test func hangingSpacesKeepTheCursorInsideTheWidth() {
        var buffer = EditorBuffer(marked: "abcdefgh    |xyz", width: 10)
        #expect(buffer.screen == "abcdefgh    \n|xyz")
        buffer.moveLeft()
        #expect(buffer.screen == "abcdefgh   | \nxyz")
        #expect(buffer.cursorLocation.column == 11)
        #expect(buffer.cursorPosition == Point(x: 9, y: 0))
    }

    @Test func scrollingKeepsTheCursorVisible() {
        let text = (1...30).map { "line \($0)" }.joined(separator: "\n")
        var buffer = EditorBuffer(text: text, viewport: Size(width: 20, height: 4))
        var seen: [(VisualLine, Point)] = []
        for _ in 0..<6 {
            buffer.moveDown()
            seen.append((buffer.scrollTop, buffer.cursorPosition))
        }
        #expect(seen.map(\.0.line) == [0, 0, 0, 1, 2, 3])
        #expect(seen.map(\.1.y) == [1, 2, 3, 3, 3, 3])
        #expect(buffer.screen == "line 4\nline 5\nline 6\n|line 7")
        for _ in 0..<5 {
            buffer.moveUp()
        }
        #expect(buffer.screen == "|line 2\nline 3\nline 4\nline 5")
        buffer.moveToEnd()
        #expect(buffer.scrollTop == VisualLine(line: 26, row: 0))
        #expect(buffer.screen == "line 27\nline 28\nline 29\nline 30|")
        #expect(buffer.scrollIndicator == "L30/30 100%")
        buffer.moveToStart()
        #expect(buffer.screen == "|line 1\nline 2\nline 3\nline 4")
        #expect(buffer.scrollIndicator == "L1/30 0%")
    }

    @Test func scrollingFollowsWrappedRows() {
        var buffer = EditorBuffer(text: paragraph + "\nend", viewport: Size(width: 10, height: 2))
        buffer.moveToEnd()
        #expect(buffer.scrollTop == VisualLine(line: 0, row: 3))
        #expect(buffer.screen == "e\u{301}mojis👩‍👩‍👧!\nend|")
        buffer.moveUp()
        buffer.moveUp()
        #expect(buffer.scrollTop == VisualLine(line: 0, row: 2))
        #expect(buffer.screen == "字|漢字 \ne\u{301}mojis👩‍👩‍👧!")
        #expect(buffer.cursorOffset == 29)
        #expect(buffer.scrollIndicator == "L1/2 43%")
    }

    @Test func typingAtTheBottomScrollsOnlyAsFarAsNeeded() {
        var buffer = EditorBuffer(marked: "one\ntwo|", width: 10, height: 2)
        buffer.insertNewline()
        #expect(buffer.screen == "two\n|")
        buffer.insert("three")
        #expect(buffer.screen == "two\nthree|")
        buffer.insert(" four five six")
        #expect(buffer.screen == "three four \nfive six|")
        #expect(buffer.scrollTop == VisualLine(line: 2, row: 0))
    }

    @Test func clicksPlaceTheCursorByDisplayColumn() {
        var buffer = EditorBuffer(text: paragraph, viewport: Size(width: 10, height: 6))
        buffer.setCursor(toScreenRow: 0, column: 4)  // the right half of 世
        #expect(buffer.screen == "Hi |世界😀 \nok 漢字漢\n字漢字 \ne\u{301}mojis👩‍👩‍👧!")
        buffer.setCursor(toScreenRow: 0, column: 3)  // its left half
        #expect(buffer.cursorPosition == Point(x: 3, y: 0))
        buffer.setCursor(toScreenRow: 3, column: 7)  // the right half of the family emoji
        #expect(buffer.screen == "Hi 世界😀 \nok 漢字漢\n字漢字 \ne\u{301}mojis|👩‍👩‍👧!")
        buffer.setCursor(toScreenRow: 2, column: 9)  // past a wrapped row: before its last space
        #expect(buffer.screen == "Hi 世界😀 \nok 漢字漢\n字漢字| \ne\u{301}mojis👩‍👩‍👧!")
        buffer.setCursor(toScreenRow: 5, column: 9)  // below the text: its last row
        #expect(buffer.screen == "Hi 世界😀 \nok 漢字漢\n字漢字 \ne\u{301}mojis👩‍👩‍👧!|")
        let moved = buffer.setCursor(toScreenRow: 3, column: 99)
        #expect(!moved)
    }

    @Test func clicksCountFromTheTopOfTheView() {
        let text = (1...30).map { "line \($0)" }.joined(separator: "\n")
        var buffer = EditorBuffer(text: text, viewport: Size(width: 20, height: 4))
        buffer.pageDown()
        buffer.setCursor(toScreenRow: 2, column: 6)
        #expect(buffer.screen == "line 5\nline 6\nline 7|\nline 8")
    }

    @Test func theWheelScrollsAndDragsTheCursorAlong() {
        let text = (1...10).map { "line \($0)" }.joined(separator: "\n")
        var buffer = EditorBuffer(text: text, cursorOffset: 3, viewport: Size(width: 20, height: 4))
        var moved = buffer.scroll(by: 2)
        #expect(moved)
        #expect(buffer.screen == "lin|e 3\nline 4\nline 5\nline 6")
        moved = buffer.scroll(by: 1)
        #expect(buffer.screen == "lin|e 4\nline 5\nline 6\nline 7")
        moved = buffer.scroll(by: 50)
        #expect(buffer.screen == "lin|e 7\nline 8\nline 9\nline 10")
        moved = buffer.scroll(by: -1)
        #expect(!moved)
        #expect(buffer.screen == "line 6\nlin|e 7\nline 8\nline 9")
        moved = buffer.scroll(by: -50)
        #expect(moved)
        #expect(buffer.screen == "line 1\nline 2\nline 3\nlin|e 4")
    }

    @Test func aNewWidthRewrapsAndKeepsTheCursor() {
        var buffer = EditorBuffer(text: paragraph, viewport: Size(width: 10, height: 6))
        buffer.setCursor(toScreenRow: 1, column: 5)
        #expect(buffer.marked == "Hi 世界😀 ok 漢|字漢字漢字 e\u{301}mojis👩‍👩‍👧!")
        buffer.viewport = Size(width: 16, height: 6)
        #expect(buffer.screen == "Hi 世界😀 ok 漢\n|字漢字漢字 \ne\u{301}mojis👩‍👩‍👧!")
        #expect(buffer.cursorPosition == Point(x: 0, y: 1))
        buffer.viewport = Size(width: 16, height: 1)
        #expect(buffer.screen == "|字漢字漢字 ")
        buffer.viewport = Size(width: 4, height: 2)
        #expect(buffer.screen == "漢|字\n漢字")
    }

    @Test func drawsTheVisibleRowsIntoItsRectangle() {
        var buffer = EditorBuffer(text: paragraph + "\nlast", viewport: Size(width: 10, height: 3))
        buffer.moveDown()
        buffer.moveDown()
        buffer.moveDown()
        var canvas = Canvas(size: Size(width: 14, height: 5))
        canvas.put("##############", at: Point(x: 0, y: 4))
        buffer.draw(into: &canvas, rect: Rect(x: 2, y: 1, width: 10, height: 3))
        #expect(
            canvas.text == """

                  ok 漢字漢
                  字漢字
                  émojis👩‍👩‍👧!
                ##############
                """)
        #expect(buffer.cursorPosition == Point(x: 0, y: 2))
    }
}
