import TerminalUI
import Testing

@testable import NotesApp

/// Shift with a move selects; typing, pasting and the deletions replace or delete the
/// selection; a move without Shift clears it, and Left and Right go to its ends.
@Suite struct TextSelectionTests {
    /// The text with "[" and "]" around the selection and "|" at the cursor.
    func shown(_ buffer: EditorBuffer) -> String {
        let bytes = Array(buffer.text.utf8)
        var shown: [UInt8] = []
        for offset in 0...bytes.count {
            if buffer.selection?.lowerBound == offset { shown.append(UInt8(ascii: "[")) }
            if buffer.cursorOffset == offset { shown.append(UInt8(ascii: "|")) }
            if buffer.selection?.upperBound == offset { shown.append(UInt8(ascii: "]")) }
            if offset < bytes.count { shown.append(bytes[offset]) }
        }
        return String(decoding: shown, as: UTF8.self)
    }

    @Test func shiftWithMovesSelectsFromWhereTheCursorWas() {
        var buffer = EditorBuffer(marked: "one |two three\nfour")
        buffer.select { $0.moveRight() }
        buffer.select { $0.moveWordRight() }
        #expect(shown(buffer) == "one [two|] three\nfour")
        buffer.select { $0.moveDown() }
        #expect(shown(buffer) == "one [two three\nfour|]")
        // Back past where it started: the selection turns around its anchor.
        buffer.select { $0.moveToStart() }
        #expect(shown(buffer) == "[|one ]two three\nfour")
        #expect(buffer.selectedText == "one ")
    }

    @Test func aMoveWithoutShiftClearsTheSelectionLeftAndRightGoToItsEnds() {
        var buffer = EditorBuffer(marked: "ab|cdef")
        buffer.select { $0.moveRight() }
        buffer.select { $0.moveRight() }
        buffer.moveLeft()
        #expect(shown(buffer) == "ab|cdef")
        buffer.select { $0.moveRight() }
        buffer.moveRight()
        #expect(shown(buffer) == "abc|def")
        buffer.select { $0.moveWordLeft() }
        buffer.moveToEnd()
        #expect(buffer.selection == nil)
    }

    @Test func typingAndPastingReplaceTheSelection() {
        var buffer = EditorBuffer(marked: "one |two three")
        buffer.select { $0.moveWordRight() }
        #expect(buffer.insert("2") == .insert(4..<5))
        #expect(shown(buffer) == "one 2| three")
        buffer.select { $0.moveToLineEnd() }
        buffer.insert("\r\nand 3")
        #expect(shown(buffer) == "one 2\nand 3|")
        // An empty paste over a selection deletes it.
        buffer.select { $0.moveWordLeft() }
        #expect(buffer.insert("") == .delete(10..<11))
        #expect(shown(buffer) == "one 2\nand |")
    }

    @Test(
        arguments: [
            { (buffer: inout EditorBuffer) in buffer.deleteBackward() },
            { (buffer: inout EditorBuffer) in buffer.deleteForward() },
            { (buffer: inout EditorBuffer) in buffer.deleteWordBackward() },
            { (buffer: inout EditorBuffer) in buffer.deleteWordForward() },
        ] as [@Sendable (inout EditorBuffer) -> EditKind?])
    func everyDeletionDeletesTheSelectionOnly(delete: @Sendable (inout EditorBuffer) -> EditKind?) {
        var buffer = EditorBuffer(marked: "alpha |beta gamma")
        buffer.select { $0.moveRight() }
        buffer.select { $0.moveRight() }
        #expect(delete(&buffer) == .delete(6..<8))
        #expect(shown(buffer) == "alpha |ta gamma")
    }

    @Test func wideCharactersAndEmojiAreSelectedWhole() {
        var buffer = EditorBuffer(marked: "|東京👩‍👩‍👧é")
        buffer.select { $0.moveRight() }
        buffer.select { $0.moveRight() }
        buffer.select { $0.moveRight() }
        #expect(buffer.selectedText == "東京👩‍👩‍👧")
        buffer.deleteBackward()
        #expect(buffer.text == "é")
    }

    /// A change from outside moves the selection with its text.
    @Test func theSelectionFollowsAChangeFromOutside() {
        var buffer = EditorBuffer(marked: "one two |three")
        buffer.select { $0.moveToLineEnd() }
        buffer.replaceText("zero one two three")
        #expect(shown(buffer) == "zero one two [three|]")
    }

    @Test func theCursorsLineIsWhatACutTakesWithNothingSelected() {
        #expect(EditorBuffer(marked: "a\nb|c\nd").cursorLine == 2..<5)
        #expect(EditorBuffer(marked: "a\nb\n|d").cursorLine == 4..<5)
        #expect(EditorBuffer(marked: "|").cursorLine == 0..<0)
    }

    /// The selection is drawn reversed, the line breaks inside it as one cell; the find's
    /// matches in their own style.
    @Test func marksAreDrawnOverTheirCells() {
        var buffer = EditorBuffer(marked: "ab|cd\n\nef", width: 10, height: 3)
        buffer.select { $0.moveDown() }
        buffer.select { $0.moveDown() }
        var canvas = Canvas(size: Size(width: 10, height: 3))
        let selected = CellStyle(reverse: true)
        let found = CellStyle(underline: true)
        buffer.draw(
            into: &canvas, rect: canvas.bounds,
            marks: [
                TextMark(range: 0..<1, style: found),
                TextMark(range: buffer.selection!, style: selected),
            ])
        let rows = (0..<3).map { y in
            String(
                (0..<5).map { x in
                    let style = canvas.cell(at: Point(x: x, y: y))?.style
                    return style == selected ? "s" : style == found ? "f" : "."
                })
        }
        #expect(rows == ["f.sss", "s....", "ss..."])
    }

    /// The wheel moves the cursor into the view: a selection stays, from its anchor; none is made.
    @Test func theWheelKeepsASelectionAndMakesNone() throws {
        let text = (1...30).map { "line \($0)" }.joined(separator: "\n")
        var buffer = EditorBuffer(marked: "|" + text, width: 20, height: 5)
        buffer.scroll(by: 10)
        #expect(buffer.selection == nil)
        buffer.select { $0.moveDown() }
        let selected = try #require(buffer.selection)
        buffer.scroll(by: 10)
        #expect(buffer.selection?.lowerBound == selected.lowerBound)
        #expect(buffer.selection?.upperBound == buffer.cursorOffset)
        #expect(buffer.cursorOffset > selected.upperBound)
    }
}
