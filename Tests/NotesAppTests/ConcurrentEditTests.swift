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
}
