import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// The editor never writes over a change it has not seen. A key typed after
/// another program changed the text, before notes saw it, is merged into their text; at the
/// same place, it is refused and said so, and their text kept.
@MainActor @Suite struct ConcurrentEditTests {
    func body(_ fixture: AppFixture) throws -> String? {
        try fixture.db.read { try Notebook.article($0, id: 3)?.body }
    }

    /// Keys typed, then another program's write lands before the app handles them (it has not
    /// drawn since, so it has not seen the change).
    func type(_ keys: [Key], after write: String, _ fixture: AppFixture) throws {
        for key in keys { fixture.backend.enqueue(.key(key)) }
        try fixture.db.write { try $0.execute(write) }
        fixture.app.processPendingEvents()
    }

    @Test func aKeyTypedAfterAnotherProgramsChangeKeepsBoth() throws {
        let fixture = try AppFixture()
        fixture.press(.enter)  // article 3, the newest, with the cursor at the start of its body
        try type(
            [.character("X"), .character("Y")],
            after: "UPDATE articles SET body = body || ' EXT' WHERE id = 3", fixture)
        #expect(try body(fixture) == "XYBody of article 3 EXT")
        #expect(fixture.app.focusedPane.editor?.buffer.text == "XYBody of article 3 EXT")
        #expect(fixture.app.focusedPane.editor?.buffer.cursorOffset == 2)
        // Undo takes back only the typing: their text stays.
        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3 EXT")
    }

    @Test func twoInsertionsAtOnePointKeepBothTheirsFirst() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .controlEnd)
        try type(
            [.character("!")], after: "UPDATE articles SET body = body || ' EXT' WHERE id = 3",
            fixture)
        #expect(try body(fixture) == "Body of article 3 EXT!")
    }

    @Test func anEditAtThePlaceTheyChangedIsRefusedAndTheirsKept() throws {
        let fixture = try AppFixture(size: Size(width: 140, height: 12))
        fixture.press(.enter, .controlEnd, .backspace)
        #expect(try body(fixture) == "Body of article ")
        try type(
            [.backspace], after: "UPDATE articles SET body = 'Body of thing' WHERE id = 3", fixture)
        #expect(try body(fixture) == "Body of thing")
        #expect(fixture.app.focusedPane.editor?.buffer.text == "Body of thing")
        #expect(
            fixture.screen.contains(
                " │ Delete Text failed: another window or program changed the text there; nothing "
                    + "was saved\n"))
    }

    /// Another program deletes the lines around the cursor (a piece of the body as stored,
    /// lines 21 to 40) between two keys: the second key is not lost, it lands where their lines
    /// were, the status line says so, and undo takes back the key and keeps their deletion.
    @Test func typingWhereAnotherProgramDeletedTheLinesIsKeptThere() throws {
        let lines = (1...100).map { "Line \($0) of a body long enough for several pieces." }
        let fixture = try AppFixture.openingArticle(withBody: lines.joined(separator: "\n"))
        for _ in 0..<25 { fixture.press(.down) }
        let pieces = try fixture.db.read { db throws in
            try db.fetchAll(
                String.self,
                "SELECT text FROM article_chunks WHERE articleId = 3 ORDER BY position")
        }
        #expect(pieces.count > 3)
        let deleted = try #require(pieces.dropFirst().first)
        #expect(
            deleted.hasPrefix("Line 21 ")
                && deleted.hasSuffix("Line 40 " + lines[39].dropFirst(8) + "\n"))
        try type(
            [.character("B")],
            after: "DELETE FROM article_chunks WHERE articleId = 3 AND text LIKE 'Line 21 %'",
            fixture)
        let kept = lines[..<20] + ["B" + lines[40]] + lines[41...]
        #expect(try body(fixture) == kept.joined(separator: "\n"))
        #expect(fixture.app.focusedPane.editor?.buffer.text == kept.joined(separator: "\n"))
        #expect(
            fixture.screen.contains(
                " Line 20 of a body long enough for several pieces.\n"
                    + " BLine 41 of a body long enough for several pieces.\n"))
        #expect(fixture.app.message == "Typing kept: the text around it was deleted elsewhere")
        fixture.press(.control("z"))
        let theirs = lines[..<20] + lines[40...]
        #expect(try body(fixture) == theirs.joined(separator: "\n"))
    }

    /// Two panes typing into one body: each pane's Ctrl-Z takes back only its own typing, the
    /// other's stays (the engine merges the text column, `UndoEngine.mergeText`).
    @Test func eachPaneUndoesOnlyItsOwnTypingInASharedBody() throws {
        let fixture = try AppFixture()
        fixture.press(.enter)  // pane 1: article 3, cursor at the start of its body
        fixture.type("One ")
        fixture.press(.control("w"), .enter, .controlEnd)  // pane 2: the same article, at its end
        fixture.type(" two")
        #expect(try body(fixture) == "One Body of article 3 two")
        fixture.press(.control("w"))  // back to pane 1
        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3 two")
        fixture.press(.control("w"), .control("z"))
        #expect(try body(fixture) == "Body of article 3")
    }

    /// Pane 1 types a line, pane 2 a word after it, pane 1 another word after that; both panes
    /// undo and redo all of it, then pane 2 undoes its word: only its word goes, as it does
    /// straight after the typing (found by a session in tmux: "Nothing undone: pane 1 changed
    /// Body since", and pane 2's step was lost).
    @Test func aPanesWordUndoesAfterBothPanesUndidAndRedidAroundIt() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .controlEnd, .enter)  // pane 1
        fixture.type("AAA")
        fixture.clock.advance(by: 5)
        fixture.press(.control("w"), .enter, .controlEnd)  // pane 2
        fixture.type(" BBB")
        fixture.clock.advance(by: 5)
        fixture.press(.control("w"), .controlEnd)
        fixture.type(" CCC")
        fixture.clock.advance(by: 5)
        #expect(try body(fixture) == "Body of article 3\nAAA BBB CCC")
        fixture.press(.control("z"), .control("z"))
        fixture.press(.control("w"), .control("z"), .control("y"))
        fixture.press(.control("w"), .control("y"), .control("y"))
        #expect(try body(fixture) == "Body of article 3\nAAA BBB CCC")
        fixture.press(.control("w"), .control("z"))
        #expect(fixture.app.message == "Undid Typing")
        #expect(try body(fixture) == "Body of article 3\nAAA CCC")
    }
    /// Pane 2 deletes a letter of pane 1's word; pane 1 deletes another, then undoes that: the
    /// word's undo keeps pane 2's change, and does not blame pane 1, whose own later step it
    /// undid (it said "this pane changed Body since").
    @Test func anUndoKeepingAnothersChangeNeverBlamesItsOwnPane() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .controlEnd)  // pane 1
        fixture.type("ghijkl")
        fixture.clock.advance(by: 5)
        fixture.press(.control("w"), .enter, .controlEnd, .backspace)  // pane 2 deletes "l"
        fixture.clock.advance(by: 5)
        fixture.press(.control("w"), .controlEnd, .backspace)  // pane 1 deletes "k"
        fixture.clock.advance(by: 5)
        #expect(try body(fixture) == "Body of article 3ghij")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3ghijk")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3ghijk")
        #expect(fixture.app.message == "Nothing undone: Body was changed since")
    }
}
