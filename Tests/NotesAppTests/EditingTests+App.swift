import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// Editing an article in the app: what reaches the notebook, and how typing groups into undo
/// steps.
@MainActor @Suite struct AppEditingTests {
    func article(_ fixture: AppFixture, _ id: Int64 = 3) throws -> [SQLiteValue] {
        try fixture.db.read {
            try $0.fetchOne(
                Row.self, "SELECT title, body FROM articles WHERE id = ?", [.integer(id)])?.values
                ?? []
        }
    }

    func undoNames(_ fixture: AppFixture, pane: Int = 0) -> [String] {
        fixture.app.panes[pane].stack?.state.undo ?? []
    }

    @Test func typingWithWideCharactersGoesToTheNotebookAsOneRun() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .end)  // article 3, body, end of its line
        fixture.type(" 漢字😀 é")
        #expect(try article(fixture) == ["Article 3", "Body of article 3 漢字😀 é"])
        #expect(undoNames(fixture) == ["Typing"])
        fixture.press(.backspace, .backspace)
        #expect(try article(fixture) == ["Article 3", "Body of article 3 漢字😀"])
        #expect(undoNames(fixture) == ["Delete Text", "Typing"])
        fixture.press(.control("z"))
        #expect(try article(fixture) == ["Article 3", "Body of article 3 漢字😀 é"])
        fixture.press(.control("z"))
        #expect(try article(fixture) == ["Article 3", "Body of article 3"])
        // The cursor is back where the change was: typing continues at the end of the body.
        fixture.type("!")
        #expect(try article(fixture) == ["Article 3", "Body of article 3!"])
    }

    /// The undo of Delete and Ctrl-Delete puts the cursor back where the delete was, before
    /// what comes back (nano's and micro's place), and selects again a selection Delete took;
    /// the undo of Backspace leaves it after, where it was too.
    @Test func undoOfAForwardDeletePutsTheCursorWhereItWas() throws {
        let fixture = try AppFixture.openingArticle(withBody: "line one\nline two")
        let cursor = { fixture.app.panes[0].editor?.body.cursorOffset }
        fixture.press(.down, .right, .right, .delete, .delete, .delete)
        #expect(try article(fixture)[1] == "line one\nlitwo")
        fixture.press(.control("z"))
        #expect(try article(fixture)[1] == "line one\nline two")
        #expect(cursor() == 11)
        fixture.press(.up, .end, .delete, .control("z"))  // joins the lines, and back
        #expect(cursor() == 8)
        fixture.press(.down, .home, .controlDelete)
        #expect(try article(fixture)[1] == "line one\n two")
        fixture.press(.control("z"))
        #expect(cursor() == 9)
        fixture.press(.right, .shift(.right), .shift(.right), .delete, .control("z"))
        #expect(fixture.app.panes[0].editor?.body.selection == 10..<12)
        fixture.press(.end, .backspace, .backspace, .control("z"))
        #expect(try article(fixture)[1] == "line one\nline two")
        #expect(cursor() == 17)
    }

    /// Typing " XYZ" after "hello" in "hello world" reads back as "XYZ " after "hello " too: the
    /// undo puts the cursor where the typing began, and the redo after what it typed, as nano
    /// and micro do (they went one character further).
    @Test func undoAndRedoOfTypingPutTheCursorAtItsEndsWhereTheTextRepeats() throws {
        let fixture = try AppFixture.openingArticle(withBody: "hello world")
        let cursor = { fixture.app.panes[0].editor?.body.cursorOffset }
        fixture.press(.controlRight)
        fixture.type(" XYZ")
        #expect(try article(fixture)[1] == "hello XYZ world")
        fixture.press(.control("z"))
        #expect(try article(fixture)[1] == "hello world")
        #expect(cursor() == 5)
        fixture.press(.control("y"))
        #expect(try article(fixture)[1] == "hello XYZ world")
        #expect(cursor() == 9)
    }

    /// The undo of typing or Backspace over a selection selects again what comes back, as
    /// micro's does, also when the typing went on after it.
    @Test func undoOfTypingOverASelectionSelectsItAgain() throws {
        let fixture = try AppFixture.openingArticle(withBody: "line one\nline two")
        let selection = { fixture.app.panes[0].editor?.body.selection }
        fixture.press(.down, .right, .right, .shift(.right), .shift(.right))
        fixture.type("zz")
        #expect(try article(fixture)[1] == "line one\nlizz two")
        fixture.press(.control("z"))
        #expect(try article(fixture)[1] == "line one\nline two")
        #expect(selection() == 11..<13)
        fixture.press(.backspace, .control("z"))
        #expect(try article(fixture)[1] == "line one\nline two")
        #expect(selection() == 11..<13)
    }

    @Test func cursorJumpEndsTheRun() throws {
        let fixture = try AppFixture()
        fixture.press(.enter)
        fixture.type("ab")
        fixture.press(.end)
        fixture.type("cd")
        #expect(undoNames(fixture) == ["Typing", "Typing"])
        fixture.press(.control("z"))
        #expect(try article(fixture) == ["Article 3", "abBody of article 3"])
    }

    @Test func ctrlAAndCtrlEGoToTheLineStartAndEnd() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .control("e"))
        fixture.type("!")
        fixture.press(.control("a"))
        fixture.type("> ")
        #expect(try article(fixture) == ["Article 3", "> Body of article 3!"])
    }

    @Test func pauseEndsTheRun() throws {
        let fixture = try AppFixture()
        fixture.press(.enter)
        fixture.type("a")
        fixture.clock.advance(by: 1.5)
        fixture.type("b")
        #expect(undoNames(fixture) == ["Typing", "Typing"])
    }

    @Test func titleTakesNoLineBreaksAndShiftTabSwitchesFields() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .backTab, .end)
        fixture.type("!")
        fixture.backend.enqueue(.paste("x\ny"))
        fixture.app.processPendingEvents()
        #expect(try article(fixture) == ["Article 3!x y", "Body of article 3"])
        fixture.press(.enter)  // from the title to the body
        fixture.type("Z")
        #expect(try article(fixture) == ["Article 3!x y", "ZBody of article 3"])
    }

    @Test func pasteOfTenMegabytesIsOneUndoStep() throws {
        let fixture = try AppFixture()
        let line = String(repeating: "0123456789abcdef漢字😀\n", count: 1)
        let big = String(repeating: line, count: 10_000_000 / line.utf8.count)
        fixture.press(.enter)
        fixture.backend.enqueue(.paste(big))
        fixture.app.processPendingEvents()
        let stored = try article(fixture)
        #expect(stored[1] == .text(big + "Body of article 3"))
        #expect(undoNames(fixture) == ["Paste"])
        fixture.press(.control("z"))
        #expect(try article(fixture) == ["Article 3", "Body of article 3"])
    }

    @Test func twoPanesOnOneArticleSeeEachOtherAndEachUndoesOnlyItsTyping() throws {
        let fixture = try AppFixture()
        fixture.press(.enter, .backTab)  // pane 1 edits the title of article 3
        fixture.press(.end)
        fixture.type(" one")
        // Pane 2 opens the same article's title.
        fixture.press(.control("w"), .enter, .backTab, .end)
        #expect(fixture.app.panes[1].editor?.title.text == "Article 3 one")
        fixture.type(" two")
        // Pane 1 shows pane 2's typing live.
        #expect(fixture.app.panes[0].editor?.title.text == "Article 3 one two")
        // Pane 1's undo takes back " one" and keeps pane 2's " two" (the title is merged).
        fixture.press(.control("w"), .control("z"))
        #expect(try article(fixture) == ["Article 3 two", "Body of article 3"])
        #expect(fixture.app.message == "Undid Typing")
        #expect(fixture.app.panes[0].editor?.title.text == "Article 3 two")
        fixture.press(.control("w"), .control("z"))
        #expect(try article(fixture) == ["Article 3", "Body of article 3"])
        // And the redos put both back.
        fixture.press(.control("w"), .control("y"))
        #expect(try article(fixture) == ["Article 3 one", "Body of article 3"])
        fixture.press(.control("w"), .control("y"))
        #expect(try article(fixture) == ["Article 3 one two", "Body of article 3"])
    }
}
