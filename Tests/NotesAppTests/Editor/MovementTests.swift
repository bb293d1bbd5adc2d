import TerminalUI
import Testing

@testable import NotesApp

@Suite struct MovementTests {
    @Test func leftAndRightStepOverWholeGraphemes() {
        var buffer = EditorBuffer(marked: "|a漢😀👩‍👩‍👧e\u{301}")
        var visited: [(String, Point)] = []
        while buffer.moveRight() {
            visited.append((buffer.marked, buffer.cursorPosition))
        }
        #expect(
            visited.map(\.0) == [
                "a|漢😀👩‍👩‍👧e\u{301}",
                "a漢|😀👩‍👩‍👧e\u{301}",
                "a漢😀|👩‍👩‍👧e\u{301}",
                "a漢😀👩‍👩‍👧|e\u{301}",
                "a漢😀👩‍👩‍👧e\u{301}|",
            ])
        #expect(visited.map(\.1.x) == [1, 3, 5, 7, 8])
        #expect(buffer.cursorOffset == 29)
        var offsets: [Int] = []
        while buffer.moveLeft() {
            offsets.append(buffer.cursorOffset)
        }
        #expect(offsets == [26, 8, 4, 1, 0])
        #expect(buffer.marked == "|a漢😀👩‍👩‍👧e\u{301}")
    }

    @Test func leftAndRightCrossLineBreaks() {
        var buffer = EditorBuffer(marked: "ab|\n漢")
        buffer.moveRight()
        #expect(buffer.marked == "ab\n|漢")
        #expect(buffer.cursorPosition == Point(x: 0, y: 1))
        buffer.moveLeft()
        buffer.moveLeft()
        #expect(buffer.marked == "a|b\n漢")
    }

    @Test func wordMovesSkipPunctuationThenAWord() {
        let text = "hello, 世界! foo_bar 😀 e\u{301}te."
        var buffer = EditorBuffer(text: text)
        var rightStops: [String] = []
        while buffer.moveWordRight() {
            rightStops.append(buffer.marked)
        }
        #expect(
            rightStops == [
                "hello|, 世界! foo_bar 😀 e\u{301}te.",
                "hello, 世界|! foo_bar 😀 e\u{301}te.",
                "hello, 世界! foo_bar| 😀 e\u{301}te.",
                "hello, 世界! foo_bar 😀 e\u{301}te|.",
                "hello, 世界! foo_bar 😀 e\u{301}te.|",
            ])
        var leftStops: [String] = []
        while buffer.moveWordLeft() {
            leftStops.append(buffer.marked)
        }
        #expect(
            leftStops == [
                "hello, 世界! foo_bar 😀 |e\u{301}te.",
                "hello, 世界! |foo_bar 😀 e\u{301}te.",
                "hello, |世界! foo_bar 😀 e\u{301}te.",
                "|hello, 世界! foo_bar 😀 e\u{301}te.",
            ])
    }

    /// A line break is a step of its own, as in micro: the spaces at a line's start end a move
    /// there, and at a line's edge a word move or delete takes the line break alone.
    @Test func wordMovesAndDeletesStopAtLineBreaks() {
        var buffer = EditorBuffer(marked: "one|\n  two")
        var rightStops: [String] = []
        while buffer.moveWordRight() { rightStops.append(buffer.marked) }
        #expect(rightStops == ["one\n|  two", "one\n  two|"])
        var leftStops: [String] = []
        while buffer.moveWordLeft() { leftStops.append(buffer.marked) }
        #expect(leftStops == ["one\n  |two", "one\n|  two", "one|\n  two", "|one\n  two"])

        var deleting = EditorBuffer(marked: "one|\n  two")
        deleting.deleteWordForward()
        #expect(deleting.marked == "one|  two")
        deleting = EditorBuffer(marked: "one\n|  two")
        deleting.deleteWordBackward()
        #expect(deleting.marked == "one|  two")
        deleting = EditorBuffer(marked: "one\n  |two")
        deleting.deleteWordBackward()
        #expect(deleting.marked == "one\n|two")
    }

    @Test func upAndDownKeepTheGoalColumnAcrossWideCharacters() {
        var buffer = EditorBuffer(marked: "abc|def\n漢字漢字\nx😀yz\nab")
        var stops: [(String, Point)] = []
        func record(_ moved: Bool) {
            #expect(moved)
            stops.append((buffer.marked, buffer.cursorPosition))
        }
        record(buffer.moveDown())
        record(buffer.moveDown())
        record(buffer.moveDown())
        record(buffer.moveUp())
        record(buffer.moveUp())
        record(buffer.moveUp())
        #expect(
            stops.map(\.0) == [
                "abcdef\n漢|字漢字\nx😀yz\nab",  // column 3 is inside 字: before it
                "abcdef\n漢字漢字\nx😀|yz\nab",
                "abcdef\n漢字漢字\nx😀yz\nab|",  // a shorter line: its end
                "abcdef\n漢字漢字\nx😀|yz\nab",  // the goal is kept
                "abcdef\n漢|字漢字\nx😀yz\nab",
                "abc|def\n漢字漢字\nx😀yz\nab",
            ])
        #expect(
            stops.map(\.1) == [
                Point(x: 2, y: 1), Point(x: 3, y: 2), Point(x: 2, y: 3),
                Point(x: 3, y: 2), Point(x: 2, y: 1), Point(x: 3, y: 0),
            ])
        // Up on the first line goes to its start, and down comes back to the goal.
        record(buffer.moveUp())
        #expect(buffer.marked == "|abcdef\n漢字漢字\nx😀yz\nab")
        record(buffer.moveDown())
        #expect(buffer.marked == "abcdef\n漢|字漢字\nx😀yz\nab")
        // Any other move forgets the goal.
        buffer.moveRight()
        buffer.moveUp()
        #expect(buffer.marked == "abcd|ef\n漢字漢字\nx😀yz\nab")
    }

    @Test func downOnTheLastLineGoesToTheEnd() {
        var buffer = EditorBuffer(marked: "ab\nc|de")
        let moved = buffer.moveDown()
        let movedAgain = buffer.moveDown()
        #expect(moved && !movedAgain)
        #expect(buffer.marked == "ab\ncde|")
    }

    @Test func upAndDownFollowWrappedRows() {
        // CJK breaks anywhere: width 10 wraps into "hello 漢字" / "漢字漢字 " / "world".
        var buffer = EditorBuffer(marked: "hel|lo 漢字漢字漢字 world", width: 10)
        #expect(buffer.screen == "hel|lo 漢字\n漢字漢字 \nworld")
        buffer.moveDown()
        #expect(buffer.screen == "hello 漢字\n漢|字漢字 \nworld")
        #expect(buffer.cursorPosition == Point(x: 2, y: 1))
        buffer.moveDown()
        #expect(buffer.screen == "hello 漢字\n漢字漢字 \nwor|ld")
        #expect(buffer.cursorPosition == Point(x: 3, y: 2))
        buffer.moveUp()
        buffer.moveUp()
        #expect(buffer.screen == "hel|lo 漢字\n漢字漢字 \nworld")
    }

    @Test func homeAndEndUseTheWrappedRowThenTheLogicalLine() {
        // Width 10 wraps into "hello " / "world " / "again".
        var buffer = EditorBuffer(marked: "hello wor|ld again\nnext", width: 10)
        #expect(buffer.screen == "hello \nwor|ld \nagain\nnext")
        var stops: [(String, Point, Bool)] = []
        func record(_ moved: Bool) {
            stops.append((buffer.marked, buffer.cursorPosition, moved))
        }
        record(buffer.moveToLineStart())
        record(buffer.moveToLineStart())
        record(buffer.moveToLineEnd())
        record(buffer.moveToLineEnd())
        record(buffer.moveToLineEnd())
        record(buffer.moveToLineStart())
        #expect(
            stops.map(\.0) == [
                "hello |world again\nnext",
                "|hello world again\nnext",
                "hello| world again\nnext",  // before the space the row broke after
                "hello world again|\nnext",
                "hello world again|\nnext",
                "hello world |again\nnext",
            ])
        #expect(
            stops.map(\.1) == [
                Point(x: 0, y: 1), Point(x: 0, y: 0), Point(x: 5, y: 0),
                Point(x: 5, y: 2), Point(x: 5, y: 2), Point(x: 0, y: 2),
            ])
        #expect(stops.map(\.2) == [true, true, true, true, false, true])
    }

    @Test func pageMovesGoByTheViewportHeightAndScrollWithTheCursor() {
        let text = (1...30).map { "line \($0)" }.joined(separator: "\n")
        var buffer = EditorBuffer(text: text, cursorOffset: 5, viewport: Size(width: 20, height: 5))
        #expect(buffer.screen == "line |1\nline 2\nline 3\nline 4\nline 5")
        buffer.pageDown()
        #expect(buffer.screen == "line |6\nline 7\nline 8\nline 9\nline 10")
        buffer.pageDown()
        #expect(buffer.screen == "line |11\nline 12\nline 13\nline 14\nline 15")
        #expect(buffer.scrollTop == VisualLine(line: 10, row: 0))
        buffer.moveDown()
        buffer.moveDown()
        buffer.pageUp()
        #expect(buffer.screen == "line 6\nline 7\nline |8\nline 9\nline 10")
        #expect(buffer.cursorPosition == Point(x: 5, y: 2))
        buffer.pageUp()
        buffer.pageUp()
        #expect(buffer.screen == "line |1\nline 2\nline 3\nline 4\nline 5")
        let moved = buffer.pageUp()
        #expect(moved)
        #expect(buffer.screen == "|line 1\nline 2\nline 3\nline 4\nline 5")
        buffer.moveToEnd()
        #expect(buffer.screen == "line 26\nline 27\nline 28\nline 29\nline 30|")
        buffer.moveToLineStart()
        buffer.pageUp()
        #expect(buffer.screen == "line 21\nline 22\nline 23\nline 24\n|line 25")
    }
}
