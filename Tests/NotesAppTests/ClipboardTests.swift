import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// Selection, Ctrl-C, Ctrl-X and Ctrl-V in an open article: one clipboard for the window (and the
/// terminal's, by OSC 52), each cut and paste one undo step, and undo puts the selection back.
@MainActor @Suite struct ClipboardTests {
    func body(_ fixture: AppFixture, _ id: Int64 = 3) throws -> String? {
        try fixture.db.read {
            try $0.fetchOne(String.self, "SELECT body FROM articles WHERE id = ?", [.integer(id)])
        }
    }

    func undoNames(_ fixture: AppFixture, pane: Int = 0) -> [String] {
        fixture.app.panes[pane].stack?.state.undo ?? []
    }

    func selected(_ fixture: AppFixture, pane: Int = 0) -> String? {
        fixture.app.panes[pane].editor?.buffer.selectedText
    }

    @Test func copyCutAndPasteAreUndoStepsAndUndoSelectsWhatCameBack() throws {
        let fixture = try AppFixture.openingArticle(withBody: "Body of article 3")
        fixture.press(.shift(.right), .shift(.right), .shift(.right), .shift(.right))
        #expect(selected(fixture) == "Body")
        fixture.press(.control("c"))
        #expect(fixture.app.message == "Copied 4 characters")
        #expect(fixture.backend.clipboard == "Body")
        #expect(undoNames(fixture) == [])

        fixture.press(.end, .control("v"))
        #expect(try body(fixture) == "Body of article 3Body")
        fixture.press(.shift(.controlLeft))
        #expect(selected(fixture) == "3Body")
        fixture.press(.control("x"))
        #expect(try body(fixture) == "Body of article ")
        #expect(fixture.backend.clipboard == "3Body")
        #expect(fixture.app.message == "Cut 5 characters")
        #expect(undoNames(fixture) == ["Cut", "Paste"])

        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3Body")
        #expect(selected(fixture) == "3Body")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "Body of article 3")
        #expect(selected(fixture) == nil)
        fixture.press(.control("y"), .control("y"))
        #expect(try body(fixture) == "Body of article ")
    }

    /// Pasting over a selection replaces it in one step, and its undo selects the text the paste
    /// replaced.
    @Test func pastingOverASelectionIsOneStepThatUndoSelectsAgain() throws {
        let fixture = try AppFixture.openingArticle(withBody: "red green blue")
        fixture.press(.shift(.controlRight), .control("c"), .controlRight, .controlRight)
        fixture.press(.shift(.controlLeft), .control("v"))
        #expect(try body(fixture) == "red green red")
        #expect(undoNames(fixture) == ["Paste"])
        fixture.press(.control("z"))
        #expect(try body(fixture) == "red green blue")
        #expect(selected(fixture) == "blue")
    }

    /// Undo of a cut or a paste puts the cursor and the selection back as they were: a selection
    /// made leftwards has the cursor at its start again (Shift-Right then shrinks it), a line
    /// cut from its middle puts the cursor back there with nothing selected; after a redo, the
    /// undo does the same again.
    @Test func undoPutsTheCursorAndTheSelectionBackAsTheyWere() throws {
        let fixture = try AppFixture.openingArticle(withBody: "one two three\nfour")
        let cursor = { fixture.app.panes[0].editor?.body.cursorOffset }
        for _ in 0..<7 { fixture.press(.right) }
        fixture.press(.shift(.left), .shift(.left), .shift(.left), .control("x"))
        #expect(try body(fixture) == "one  three\nfour")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "one two three\nfour")
        #expect(selected(fixture) == "two")
        #expect(cursor() == 4)
        fixture.press(.shift(.right))
        #expect(selected(fixture) == "wo")

        fixture.press(.controlEnd, .home, .right, .right, .control("x"))
        #expect(try body(fixture) == "one two three\n")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "one two three\nfour")
        #expect(selected(fixture) == nil)
        #expect(cursor() == 16)
        fixture.press(.control("y"), .control("z"))
        #expect(selected(fixture) == nil)
        #expect(cursor() == 16)

        // A paste over a selection made leftwards.
        fixture.press(.shift(.left), .shift(.left), .control("v"))
        #expect(try body(fixture) == "one two three\nfourur")
        #expect(undoNames(fixture).first == "Paste")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "one two three\nfour")
        #expect(selected(fixture) == "fo")
        #expect(cursor() == 14)
    }

    /// The place a cut's undo put back is not used again: typing then undoing it puts the
    /// cursor at the change, with nothing selected.
    @Test func anUndoAfterACutsUndoPutsTheCursorAtItsOwnChange() throws {
        let fixture = try AppFixture.openingArticle(withBody: "one two three")
        fixture.press(.end, .shift(.left), .shift(.left), .control("x"), .control("z"))
        #expect(selected(fixture) == "ee")
        fixture.press(.end)
        fixture.type("!")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "one two three")
        #expect(selected(fixture) == nil)
        #expect(fixture.app.panes[0].editor?.body.cursorOffset == 13)
    }

    /// Another program wrote before a paste since: the paste's undo puts the cursor where the
    /// pasted text is now, not where it was.
    @Test func aPastesUndoFollowsAnotherProgramsEditBeforeIt() throws {
        let fixture = try AppFixture.openingArticle(withBody: "one two")
        fixture.press(.shift(.right), .shift(.right), .shift(.right), .control("c"), .end)
        fixture.press(.control("v"))
        #expect(try body(fixture) == "one twoone")
        try fixture.db.write {
            try $0.execute("UPDATE articles SET body = 'AB' || body WHERE id = 3")
        }
        fixture.app.processPendingEvents()
        #expect(fixture.app.panes[0].editor?.body.text == "ABone twoone")
        fixture.press(.control("z"))
        #expect(try body(fixture) == "ABone two")
        #expect(fixture.app.panes[0].editor?.body.cursorOffset == 9)
    }

    /// With nothing selected, Ctrl-X cuts the cursor's line; cuts in a row add up, as nano's and
    /// micro's do, and a key in between starts again.
    @Test func ctrlXCutsTheLineAndCutsInARowAddUp() throws {
        let fixture = try AppFixture.openingArticle(withBody: "one\ntwo\nthree\nfour")
        fixture.press(.control("x"))
        #expect(fixture.app.message == "Cut 1 line")
        fixture.press(.control("x"))
        #expect(try body(fixture) == "three\nfour")
        #expect(fixture.app.message == "Cut 1 line (2 lines on the clipboard)")
        #expect(fixture.backend.clipboard == "one\ntwo\n")
        fixture.press(.down, .control("v"))
        #expect(try body(fixture) == "three\none\ntwo\nfour")
        #expect(undoNames(fixture) == ["Paste", "Cut", "Cut"])
        fixture.press(.up, .control("x"))
        #expect(fixture.backend.clipboard == "two\n")
        // The last line has no line break to take.
        fixture.press(.controlEnd, .control("x"))
        #expect(try body(fixture) == "three\none\n")
        #expect(fixture.backend.clipboard == "four")
    }

    /// A click between two line cuts starts the clipboard again, as a key does.
    @Test func aClickBetweenLineCutsStartsAgain() throws {
        let fixture = try AppFixture.openingArticle(withBody: "one\ntwo\nthree")
        fixture.press(.control("x"))
        fixture.backend.enqueue(
            .mouse(MouseEvent(kind: .press(.left), position: Point(x: 1, y: 6))),
            .key(.control("x")))
        fixture.app.processPendingEvents()
        #expect(fixture.backend.clipboard == "three")
        #expect(try body(fixture) == "two\n")
    }

    /// More than the terminal's clipboard takes stays in notes' clipboard only, and says so.
    @Test func aLongCopyStaysInNotes() throws {
        let long = String(repeating: "word ", count: NotesApp.terminalClipboardLimit / 5 + 1)
        let fixture = try AppFixture.openingArticle(withBody: long)
        fixture.press(.shift(.controlEnd), .control("c"))
        #expect(fixture.backend.clipboard == nil)
        #expect(
            fixture.app.message
                == "Copied \(long.count) characters (in notes only: too long for the terminal's "
                + "clipboard)")
        fixture.press(.controlEnd, .control("v"))
        #expect(try body(fixture) == long + long)
    }

    @Test func ctrlCWithNothingSelectedCopiesTheLine() throws {
        let fixture = try AppFixture.openingArticle(withBody: "first line\nsecond")
        fixture.press(.control("c"))
        #expect(fixture.backend.clipboard == "first line\n")
        #expect(fixture.app.message == "Copied 1 line")
        #expect(try body(fixture) == "first line\nsecond")
    }

    @Test func typingAndDeletingReplaceTheSelectionAsStepsOfTheirOwn() throws {
        let fixture = try AppFixture.openingArticle(withBody: "cat dog")
        fixture.press(.end)
        fixture.type("!")
        fixture.press(.home, .shift(.controlRight))
        fixture.type("cow")
        #expect(try body(fixture) == "cow dog!")
        fixture.press(.shift(.end), .backspace)
        #expect(try body(fixture) == "cow")
        #expect(undoNames(fixture) == ["Delete Text", "Typing", "Typing"])
        fixture.press(.control("z"), .control("z"))
        #expect(try body(fixture) == "cat dog!")
    }

    /// The clipboard is the window's: what pane 1 copies, pane 2 pastes into another article.
    @Test func everyPaneOfTheWindowSharesTheClipboard() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 16), panes: 2)
        fixture.press(.enter, .shift(.controlRight), .control("c"))
        fixture.press(.control("w"), .down, .enter, .control("v"))
        #expect(try body(fixture, 2) == "BodyBody of article 2")
        #expect(undoNames(fixture, pane: 1) == ["Paste"])
        #expect(undoNames(fixture, pane: 0) == [])
    }

    @Test func nothingToPasteOrCutSaysWhatToDo() throws {
        let fixture = try AppFixture.openingArticle(withBody: "")
        fixture.press(.control("v"))
        #expect(
            fixture.app.message == "Nothing to paste: Ctrl-C copies the selection, Ctrl-X cuts it")
        fixture.press(.control("x"))
        #expect(fixture.app.message == "Nothing to cut: Shift with the arrows selects")
        #expect(fixture.app.panes.count == 1)
        #expect(fixture.app.panes[0].editor != nil)
    }

    /// In the list, Ctrl-X still closes the pane; Alt-X closes it from an open article.
    @Test func ctrlXClosesThePaneFromTheListAndAltXFromAnArticle() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 16), panes: 3)
        fixture.press(.control("x"))
        #expect(fixture.app.panes.count == 2)
        fixture.press(.enter, .control("x"))
        #expect(fixture.app.panes.count == 2)
        fixture.press(.alt("x"))
        #expect(fixture.app.panes.count == 1)
    }

    /// The selection is drawn reversed, so it shows without color too; the shortcut bar names
    /// the keys.
    @Test func theSelectionIsDrawnReversed() throws {
        let fixture = try AppFixture.openingArticle(withBody: "Body of article 3")
        fixture.press(.right, .shift(.right), .shift(.right))
        let canvas = try #require(fixture.backend.lastCanvas)
        let bodyRow = 5  // title bar, header, title, about line, blank
        let reversed = (1...5).map { canvas.cell(at: Point(x: $0, y: bodyRow))?.style.reverse }
        #expect(reversed == [false, true, true, false, false])
        #expect(fixture.screen.contains("^C Copy"))
        #expect(fixture.screen.contains("^V Paste"))
        #expect(fixture.screen.contains("^X Cut"))
        #expect(!fixture.screen.contains("Close pane"))
    }

    /// With the mouse, a drag from a press selects.
    @Test func draggingSelects() throws {
        let fixture = try AppFixture.openingArticle(withBody: "Body of article 3")
        fixture.backend.enqueue(
            .mouse(MouseEvent(kind: .press(.left), position: Point(x: 6, y: 5))),
            .mouse(MouseEvent(kind: .drag, position: Point(x: 9, y: 5))),
            .mouse(MouseEvent(kind: .release, position: Point(x: 9, y: 5))))
        fixture.app.processPendingEvents()
        #expect(selected(fixture) == "of ")
    }
}
