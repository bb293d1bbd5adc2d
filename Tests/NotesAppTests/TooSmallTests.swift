import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// A pane that would not fit is refused, the keys that fix the layout
/// work while the panes cannot be shown, and text typed meanwhile is kept.
@MainActor @Suite struct TooSmallTests {
    @Test func aPaneThatWouldNotFitIsRefused() throws {
        let fixture = try AppFixture(size: Size(width: 120, height: 40))
        for _ in 1...6 { fixture.press(.control("t")) }
        #expect(fixture.app.panes.count == 7)
        let lines = fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines[37].hasSuffix(
                "No room for another pane: 7 panes fit in 120 columns (Ctrl-X closes one)"))
        #expect(lines[1].hasPrefix(" 1 All articles ·│ 2 All articles ·│ 3 All articles │"))
    }

    @Test func theLayoutKeysWorkWhileThePanesDoNotFit() throws {
        let fixture = try AppFixture(size: Size(width: 60, height: 20), panes: 3)
        fixture.backend.size = Size(width: 45, height: 20)
        fixture.app.processPendingEvents()
        #expect(
            fixture.screen.hasPrefix(
                """
                3 panes need 51 columns: Ctrl-X closes one,
                Alt-Z undoes the last layout change. Keys
                typed wait until they fit.
                """))
        fixture.press(.control("x"))
        #expect(fixture.app.panes.count == 2)
        #expect(fixture.screen.split(separator: "\n")[1].hasPrefix(" 1 All articles · 3"))
        // Alt-Z brings the pane back, and with it the message; Ctrl-Q always quits.
        fixture.press(.alt("z"))
        #expect(fixture.screen.hasPrefix("3 panes need 51 columns"))
        fixture.press(.control("q"))
        #expect(fixture.app.quitRequested)
    }

    /// A resize storm while typing: what is typed while the terminal is too small is kept and
    /// typed, in order, once it is big enough again.
    @Test func textTypedWhileTheTerminalIsTooSmallIsKept() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 12))
        fixture.press(.enter)
        fixture.press(.controlEnd)
        fixture.type(" one")
        fixture.backend.size = Size(width: 30, height: 8)
        fixture.app.processPendingEvents()
        #expect(fixture.screen.hasPrefix("Terminal too small"))
        fixture.type(" two")
        fixture.press(.backspace)
        fixture.type("o three")
        // A click points at nothing on this screen: dropped, not replayed later.
        fixture.backend.enqueue(
            .mouse(MouseEvent(kind: .press(.left), position: Point(x: 2, y: 3))))
        fixture.backend.size = Size(width: 80, height: 12)
        fixture.app.processPendingEvents()
        let body = try fixture.db.read { try Notebook.article($0, id: 3)?.body }
        #expect(body == "Body of article 3 one two three")
        #expect(fixture.app.focusedPane.editor?.buffer.text == "Body of article 3 one two three")
    }
}
