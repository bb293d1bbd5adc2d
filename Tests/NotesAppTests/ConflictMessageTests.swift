import Foundation
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import Testing

@testable import NotesApp

/// What the status line says when an undo keeps someone else's change: what was kept and who
/// made it, and "Nothing undone" when all of the step was kept (the step then leaves the list:
/// nothing of it is left to take back).
@MainActor @Suite struct ConflictMessageTests {
    let fixture: AppFixture

    init() throws {
        fixture = try AppFixture(articles: 3, panes: 3)
        fixture.press(.character("4"))  // pane 1 rates Article 3
    }

    func rating() throws -> Int? {
        try fixture.db.read {
            try $0.fetchOne(Int.self, "SELECT rating FROM articles WHERE id = 3")
        }
    }

    @Test func aDeletionByAnotherPaneIsCalledOne() throws {
        fixture.press(.tab, .delete, .backTab, .control("z"))
        #expect(fixture.app.message == "Nothing undone: pane 2 deleted the article since")
        #expect(fixture.app.focusedPane.stack?.state == UndoStackState(undo: [], redo: []))
    }

    @Test func aClosedPanesChangeNamesAClosedPane() throws {
        fixture.press(.tab, .character("2"), .control("x"), .backTab, .control("z"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-3"])
        #expect(fixture.app.message == "Nothing undone: a closed pane changed Rating since")
        #expect(try rating() == 2)
    }

    /// Named by its pane and its window (by process id), which its title bar shows.
    @Test func anotherNotesWindowsChangeNamesIt() throws {
        // Process 1 (init) is always running: a notes there holds pane-9.
        let initLease = try #require(ProcessIdentity.running(1)).leaseKey
        try fixture.db.write {
            try $0.execute(
                "INSERT INTO settings(key, value) VALUES (?, 'pane-9')", [.text(initLease)])
        }
        fixture.app.lookForOtherWindows()
        let other = try #require(try fixture.engine?.stack(id: "pane-9"))
        try withUndoStack(other) {
            try undoable("Set Rating") {
                try fixture.db.write {
                    try $0.execute("UPDATE articles SET rating = 1 WHERE id = 3")
                }
            }
        }
        fixture.press(.control("z"))
        #expect(fixture.app.message == "Nothing undone: pane 1 of window 1 changed Rating since")
        #expect(try rating() == 1)
    }

    /// Another window's lease lists its open panes left to right, then its closed ones: each is
    /// named by its place, and the title bar names this window once another runs.
    @Test func anotherWindowsPanesAreNamedByTheirPlace() throws {
        let initLease = try #require(ProcessIdentity.running(1)).leaseKey
        try fixture.db.write {
            try $0.execute(
                "INSERT INTO settings(key, value) VALUES (?, 'pane-8\npane-9\n\npane-7')",
                [.text(initLease)])
        }
        #expect(!fixture.screen.contains("· window"))
        // As the app does when another program commits (its poll).
        fixture.app.lookForOtherWindows()
        #expect(fixture.app.paneName(ofStack: "pane-9") == "pane 2 of window 1")
        #expect(fixture.app.paneName(ofStack: "pane-7") == "a closed pane of window 1")
        #expect(fixture.app.paneName(ofStack: "pane-6") == "a closed pane")
        fixture.app.render()
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(fixture.screen.hasPrefix(" notes  test.db  · window \(pid)\n"))
    }

    @Test func anotherProgramsChangeIsSomeoneElses() throws {
        try fixture.db.write { try $0.execute("UPDATE articles SET rating = 0 WHERE id = 3") }
        fixture.press(.control("z"))
        #expect(fixture.app.message == "Nothing undone: someone else changed Rating since")
    }
}
