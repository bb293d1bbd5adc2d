import TerminalUI
import TestSupport
import Testing

@testable import NotesApp

/// Random edits, moves and outside replacements, checked after every step
/// against a buffer laid out from scratch: the cached layout never goes stale,
/// and the cursor is always on a grapheme boundary and on screen.
@Suite struct IncrementalLayoutTests {
    /// Pieces of text that join, split and widen graphemes when combined.
    let tokens = [
        "a", "b", " ", "  ", "漢", "字", "😀", "e\u{301}", "\u{301}", "\u{200D}", "👩‍👩‍👧",
        "🇫", "🇷", "\n", "\r\n", "\r", "word ", "x",
    ]

    @Test(arguments: [1, 2, 3, 4])
    func randomEditsKeepTheLayoutExact(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var buffer = EditorBuffer(text: "", viewport: Size(width: 7, height: 3))
        for step in 0..<400 {
            apply(randomOperation(&random, buffer), to: &buffer, &random)
            check(buffer, step: step)
        }
    }

    @Test func randomEditsInLinesLongerThanAPieceKeepTheLayoutExact() {
        var random = SeededRandom(seed: 9)
        // 36 KB each: one is cut after spaces, the other has no space to cut after.
        let words = String(repeating: "word 漢字 e\u{301}😀 ", count: 1_800)
        let ideographs = String(repeating: "漢字", count: 6_000)
        var buffer = EditorBuffer(
            text: "top\n" + words + "\n" + ideographs, viewport: Size(width: 23, height: 4))
        #expect(buffer.layout.layoutLineCount == 7)
        for step in 0..<40 {
            // Jump near a cut or anywhere, then edit or move there.
            let cuts = buffer.layout.layoutStarts
            let near = cuts[Int.random(in: 0..<cuts.count, using: &random)]
            let offset =
                step.isMultiple(of: 2)
                ? near + Int.random(in: -40...40, using: &random)
                : Int.random(in: 0...buffer.layout.length, using: &random)
            buffer.moveCursor(toOffset: offset)
            apply(randomOperation(&random, buffer), to: &buffer, &random)
            // Wrapping 108 KB from scratch is slow in debug builds: compare every
            // line now and then, and otherwise the lines around the cursor.
            check(buffer, step: step, onlyNearCursor: !step.isMultiple(of: 10))
        }
    }

    /// One operation on a buffer.
    enum Operation {
        case insert(String), deleteBackward, deleteForward, newline
        case left, right, wordLeft, wordRight, home, end, up, down, pageUp, pageDown
        case click(row: Int, column: Int), wheel(Int), resize(Size), replaceText
    }

    func randomOperation(_ random: inout SeededRandom, _ buffer: EditorBuffer) -> Operation {
        switch Int.random(in: 0..<22, using: &random) {
        case 0..<6:
            let count = Int.random(in: 1...4, using: &random)
            return .insert(
                (0..<count).map { _ in tokens.randomElement(using: &random) ?? "" }.joined())
        case 6, 7: return .deleteBackward
        case 8: return .deleteForward
        case 9: return .newline
        case 10: return .left
        case 11: return .right
        case 12: return [.wordLeft, .wordRight].randomElement(using: &random) ?? .left
        case 13: return [.home, .end].randomElement(using: &random) ?? .left
        case 14: return .up
        case 15: return .down
        case 16: return [.pageUp, .pageDown].randomElement(using: &random) ?? .left
        case 17:
            return .click(
                row: Int.random(in: 0...5, using: &random),
                column: Int.random(in: 0...9, using: &random))
        case 18: return .wheel(Int.random(in: -4...4, using: &random))
        case 19:
            return .resize(
                Size(
                    width: Int.random(in: 1...12, using: &random),
                    height: Int.random(in: 1...5, using: &random)))
        default: return .replaceText
        }
    }

    func apply(
        _ operation: Operation, to buffer: inout EditorBuffer, _ random: inout SeededRandom
    ) {
        switch operation {
        case .insert(let text): buffer.insert(text)
        case .deleteBackward: buffer.deleteBackward()
        case .deleteForward: buffer.deleteForward()
        case .newline: buffer.insertNewline()
        case .left: buffer.moveLeft()
        case .right: buffer.moveRight()
        case .wordLeft: buffer.moveWordLeft()
        case .wordRight: buffer.moveWordRight()
        case .home: buffer.moveToLineStart()
        case .end: buffer.moveToLineEnd()
        case .up: buffer.moveUp()
        case .down: buffer.moveDown()
        case .pageUp: buffer.pageUp()
        case .pageDown: buffer.pageDown()
        case .click(let row, let column): buffer.setCursor(toScreenRow: row, column: column)
        case .wheel(let rows): buffer.scroll(by: rows)
        case .resize(let size): buffer.viewport = size
        case .replaceText:
            // Another pane splices scalars anywhere, even inside a grapheme.
            var scalars = Array(buffer.text.unicodeScalars)
            let start = Int.random(in: 0...scalars.count, using: &random)
            let end = min(scalars.count, start + Int.random(in: 0...3, using: &random))
            let inserted = tokens.randomElement(using: &random) ?? ""
            scalars.replaceSubrange(start..<end, with: inserted.unicodeScalars)
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            buffer.replaceText(text)
        }
    }

    /// Checks `buffer` against a buffer laid out from scratch, and its cursor.
    func check(_ buffer: EditorBuffer, step: Int, onlyNearCursor: Bool = false) {
        let fresh = EditorBuffer(text: buffer.text, viewport: buffer.viewport)
        #expect(buffer.layout.lines == fresh.layout.lines, "step \(step)")
        #expect(buffer.layout.layoutStarts == fresh.layout.layoutStarts, "step \(step)")
        let lineCount = fresh.layout.layoutLineCount
        let cursorLine = buffer.cursorLocation.line.line
        let compared =
            onlyNearCursor ? max(0, cursorLine - 2)..<min(lineCount, cursorLine + 3) : 0..<lineCount
        for line in compared {
            let same = buffer.layout.rows(ofLine: line) == fresh.layout.rows(ofLine: line)
            #expect(same, "step \(step): the rows of layout line \(line) are stale")
        }
        var boundaries: Set<Int> = [0]
        var offset = 0
        for character in buffer.text {
            offset += character.utf8.count
            boundaries.insert(offset)
        }
        #expect(
            boundaries.contains(buffer.cursorOffset),
            "step \(step): \(buffer.marked.debugDescription)")
        let position = buffer.cursorPosition
        #expect(position.y >= 0 && position.y < max(1, buffer.viewport.height), "step \(step)")
        #expect(position.x >= 0 && position.x < max(1, buffer.viewport.width), "step \(step)")
        #expect(buffer.visibleLines.count <= buffer.viewport.height, "step \(step)")
    }
}
