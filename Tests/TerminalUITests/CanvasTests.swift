import Testing

@testable import TerminalUI

@Suite struct CanvasTests {
    @Test func newCanvasIsBlank() {
        let canvas = Canvas(size: Size(width: 4, height: 2))
        #expect(canvas.text == "\n")
        #expect(canvas.cell(at: Point(x: 3, y: 1)) == .blank)
        #expect(canvas.cell(at: Point(x: 4, y: 0)) == nil)
        #expect(canvas.cell(at: Point(x: 0, y: -1)) == nil)
    }

    @Test func putWritesTextAndReturnsColumns() {
        var canvas = Canvas(size: Size(width: 12, height: 3))
        #expect(canvas.put("hello", at: Point(x: 1, y: 0)) == 5)
        #expect(canvas.put("漢字😀", at: Point(x: 0, y: 1)) == 6)
        #expect(canvas.put("e\u{301}!", at: Point(x: 2, y: 2)) == 2)
        #expect(
            canvas.text == """
                 hello
                漢字😀
                  é!
                """)
        #expect(canvas.cell(at: Point(x: 0, y: 1))?.content == .character("漢"))
        #expect(canvas.cell(at: Point(x: 1, y: 1))?.content == .continuation)
    }

    @Test func wideCharacterAtTheEdgeBecomesASpace() {
        var canvas = Canvas(size: Size(width: 7, height: 3))
        #expect(canvas.put("ab漢字漢", at: Point(x: 0, y: 0)) == 7)
        #expect(canvas.put("xx漢字", at: Point(x: 4, y: 1)) == 3)
        #expect(canvas.put("😀😀", at: Point(x: 0, y: 2), maxWidth: 3) == 3)
        canvas.put("|", at: Point(x: 6, y: 2))
        #expect(
            canvas.text == """
                ab漢字
                    xx
                😀    |
                """)
        #expect(canvas.cell(at: Point(x: 6, y: 0))?.content == .character(" "))
        #expect(canvas.cell(at: Point(x: 2, y: 2))?.content == .character(" "))
    }

    @Test func textClipsAtMaxWidthAndTheCanvasEdge() {
        var canvas = Canvas(size: Size(width: 8, height: 3))
        #expect(canvas.put("truncated text", at: Point(x: 2, y: 0), maxWidth: 4) == 4)
        #expect(canvas.put("overflowing", at: Point(x: 3, y: 1)) == 5)
        #expect(canvas.put("left edge", at: Point(x: -5, y: 2)) == 9)
        #expect(canvas.put("below", at: Point(x: 0, y: 3)) == 0)
        #expect(
            canvas.text == """
                  trun
                   overf
                edge
                """)
    }

    @Test func wideCharacterCutByTheLeftEdgeLeavesASpace() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        canvas.put("漢字ab", at: Point(x: -1, y: 0))
        #expect(canvas.text == " 字a")
        #expect(canvas.cell(at: Point(x: 0, y: 0))?.content == .character(" "))
    }

    /// A tab is four spaces wide (not a tab stop: the text wraps and the cursor moves the same
    /// wherever it is).
    @Test func controlCharactersAreDrawnAsStandIns() {
        var canvas = Canvas(size: Size(width: 30, height: 2))
        #expect(canvas.put("red\u{1B}[31m\tbell\u{07}\r\nend", at: .zero) == 26)
        canvas.put("c1:\u{9B}2J del:\u{7F}", at: Point(x: 0, y: 1))
        #expect(
            canvas.text == """
                red^[[31m    bell^G^M^Jend
                c1:\u{FFFD}2J del:^?
                """)
        for y in 0..<2 {
            for x in 0..<30 {
                if case .character(let shown) = canvas.cell(at: Point(x: x, y: y))?.content {
                    #expect(
                        !shown.unicodeScalars.contains {
                            $0.value < 0x20 || (0x7F..<0xA0).contains($0.value)
                        })
                }
            }
        }
    }

    @Test func overwritingHalfAWideCharacterClearsTheOtherHalf() {
        var canvas = Canvas(size: Size(width: 6, height: 2))
        canvas.put("漢字漢", at: .zero)
        canvas.put("x", at: Point(x: 1, y: 0))
        canvas.put("y", at: Point(x: 2, y: 0))
        canvas.put("字字", at: Point(x: 0, y: 1))
        canvas.put("漢", at: Point(x: 1, y: 1))
        #expect(
            canvas.text == """
                 xy 漢
                 漢
                """)
    }

    @Test func stylesAreSetPerCell() {
        var canvas = Canvas(size: Size(width: 6, height: 2))
        let title = CellStyle(foreground: .yellow, bold: true)
        let selected = CellStyle(foreground: .black, background: .cyan, reverse: true)
        canvas.put("ab", at: .zero, style: title)
        canvas.fill(Rect(x: 0, y: 1, width: 6, height: 1), with: selected)
        canvas.setStyle(in: Rect(x: 1, y: 0, width: 10, height: 1), .plain)
        canvas.put("漢", at: Point(x: 2, y: 1), style: title)
        #expect(
            canvas.cell(at: Point(x: 0, y: 0))
                == Canvas.Cell(content: .character("a"), style: title))
        #expect(
            canvas.cell(at: Point(x: 1, y: 0))
                == Canvas.Cell(content: .character("b"), style: .plain))
        #expect(
            canvas.cell(at: Point(x: 1, y: 1))
                == Canvas.Cell(content: .character(" "), style: selected))
        #expect(
            canvas.cell(at: Point(x: 2, y: 1))
                == Canvas.Cell(content: .character("漢"), style: title))
        #expect(
            canvas.cell(at: Point(x: 3, y: 1)) == Canvas.Cell(content: .continuation, style: title))
        #expect(canvas.text == "ab\n  漢")
    }

    @Test func fillClearsText() {
        var canvas = Canvas(size: Size(width: 5, height: 2))
        canvas.put("hello", at: .zero)
        canvas.put("world", at: Point(x: 0, y: 1))
        canvas.fill(Rect(x: 1, y: 0, width: 3, height: 1))
        canvas.fill(Rect(x: 3, y: 1, width: 9, height: 9))
        #expect(canvas.text == "h   o\nwor")
    }
}
