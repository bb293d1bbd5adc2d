import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// What shows without color, tabs, and the keys terminals send for word and
/// text moves.
@MainActor @Suite struct TerminalDetailTests {
    /// A style as a terminal without color (`NO_COLOR`) shows it: its attributes only.
    func withoutColor(_ style: CellStyle?) -> CellStyle? {
        style.map {
            CellStyle(bold: $0.bold, reverse: $0.reverse, underline: $0.underline, dim: $0.dim)
        }
    }

    func style(_ fixture: AppFixture, _ x: Int, _ y: Int) -> CellStyle? {
        withoutColor(fixture.backend.lastCanvas?.cell(at: Point(x: x, y: y))?.style)
    }

    func body(_ fixture: AppFixture) -> String { fixture.app.focusedPane.editor?.buffer.text ?? "" }

    @Test func withoutColorTheFocusedHeaderAndThePickersChoiceStandOut() throws {
        let fixture = try AppFixture()
        let headers = (0..<2).map { fixture.app.screenLayout.header($0) }
        #expect(style(fixture, headers[0].x + 2, headers[0].y)?.reverse == true)
        #expect(style(fixture, headers[1].x + 2, headers[1].y)?.reverse == false)
        fixture.press(.tab)
        #expect(style(fixture, headers[0].x + 2, headers[0].y)?.reverse == false)
        #expect(style(fixture, headers[1].x + 2, headers[1].y)?.reverse == true)

        try fixture.db.write { _ = try Notebook.insertAuthor($0, name: "Bob") }
        fixture.press(.character("a"))
        let rows = fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)
        let alice = try #require(rows.firstIndex { $0.contains("Alice") })
        let bob = try #require(rows.firstIndex { $0.contains("Bob") })
        let aliceColumn = rows[alice].distance(
            from: rows[alice].startIndex,
            to: try #require(rows[alice].firstRange(of: "Alice")).lowerBound)
        let bobColumn = rows[bob].distance(
            from: rows[bob].startIndex, to: try #require(rows[bob].firstRange(of: "Bob")).lowerBound
        )
        let selected = [style(fixture, aliceColumn, alice), style(fixture, bobColumn, bob)]
        #expect(selected.filter { $0?.reverse == true }.count == 1)
    }

    @Test func aTabIsTypedInTheBodyAndShownAsFourSpaces() throws {
        let fixture = try AppFixture()
        fixture.press(.enter)  // Article 3's body
        fixture.press(.control("a"))
        fixture.press(.tab)
        fixture.type("x")
        #expect(body(fixture) == "\txBody of article 3")
        #expect(fixture.screen.contains("    xBody of article 3"))
        #expect(!fixture.screen.contains("^I"))
        fixture.press(.backTab)  // to the title
        #expect(fixture.app.focusedPane.editor?.field == .title)
        fixture.press(.tab)  // back to the body
        #expect(fixture.app.focusedPane.editor?.field == .body)
    }

    @Test func altBackspaceDeletesTheWordBeforeTheCursor() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .end)
        fixture.press(.altBackspace)
        #expect(body(fixture) == "Body of article ")
        fixture.press(.altBackspace)
        #expect(body(fixture) == "Body of ")
        #expect(fixture.app.focusedPane.mode == .article(3))
        fixture.press(.control("z"))
        #expect(body(fixture) == "Body of article 3")
    }

    /// Ctrl-Left and Ctrl-Right move by words, as Alt-B and Alt-F do; Ctrl-Backspace and
    /// Ctrl-Delete delete the word before and after the cursor: one run of deletes, which
    /// Ctrl-Z undoes as it undoes a run of Backspaces.
    @Test func controlArrowsMoveByWordsAndControlBackspaceAndDeleteDeleteWords() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .home)
        fixture.press(.controlRight)
        #expect(fixture.app.focusedPane.editor?.buffer.cursorOffset == 4)
        fixture.press(.controlRight, .controlRight)
        #expect(fixture.app.focusedPane.editor?.buffer.cursorOffset == 15)
        fixture.press(.controlLeft)
        #expect(fixture.app.focusedPane.editor?.buffer.cursorOffset == 8)
        fixture.press(.controlDelete)
        #expect(body(fixture) == "Body of  3")
        fixture.press(.controlBackspace)
        #expect(body(fixture) == "Body  3")
        #expect(fixture.app.focusedPane.editor?.buffer.cursorOffset == 5)
        fixture.press(.control("z"))
        #expect(body(fixture) == "Body of article 3")
    }

    @Test func controlHomeAndEndGoToTheStartAndEndOfTheText() throws {
        let fixture = try AppFixture()
        try fixture.db.write {
            try $0.execute("UPDATE articles SET body = 'one\ntwo\nthree' WHERE id = 3")
        }
        fixture.press(.enter, .down)
        fixture.press(.controlEnd)
        #expect(fixture.app.focusedPane.editor?.buffer.cursorOffset == 13)
        fixture.press(.controlHome)
        #expect(fixture.app.focusedPane.editor?.buffer.cursorOffset == 0)
        fixture.press(.escape, .controlEnd)
        #expect(fixture.app.focusedPane.selectedID == 1)
        fixture.press(.controlHome)
        #expect(fixture.app.focusedPane.selectedID == 3)
    }

    @Test func pageDownAtTheEndKeepsTheLastLineAtTheBottom() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 16))
        let lines = (1...14).map { "line \($0)" }
        try fixture.db.write {
            try $0.execute(
                "UPDATE articles SET body = ? WHERE id = 3",
                [.text(lines.joined(separator: "\n"))])
        }
        fixture.press(.enter)
        for _ in 0..<3 { fixture.press(.pageDown) }
        // The last page: line 14 on the editor's last row, the lines before it above.
        #expect(fixture.screen.contains("line 14"))
        #expect(fixture.screen.contains("line 9 "), "\(fixture.screen)")
    }

    @Test func aStatusTooLongForTheLineEndsWithAnEllipsis() throws {
        let fixture = try AppFixture(size: Size(width: 60, height: 12))
        fixture.app.message = String(repeating: "long message ", count: 10)
        fixture.app.render()
        let status = fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)[
            fixture.app.screenLayout.statusLine.y]
        #expect(status.hasSuffix("…"))
        #expect(DisplayWidth.of(status) == 60)
    }
}
