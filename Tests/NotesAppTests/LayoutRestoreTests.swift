import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import Testing

@testable import NotesApp

/// The pane layout comes back on restart: panes with their undo stacks, widths, focus, and the
/// layout changes Alt-Z undoes (a closed pane with its history). See also
/// `NotesEndToEndTests.layoutAndHistoryComeBackAfterARestart` (the real program in tmux).
@MainActor @Suite struct LayoutRestoreTests {
    /// The app opened again on the fixture's notebook, as a new run would: `panes` as given by
    /// `--panes` (nil: not given).
    func reopen(_ fixture: AppFixture, panes: Int? = nil) throws -> (NotesApp, HeadlessBackend) {
        let backend = HeadlessBackend(size: fixture.backend.size)
        let app = try NotesApp(
            database: fixture.db, engine: fixture.engine, backend: backend,
            notebookName: "test.db", paneCount: panes)
        app.clock = fixture.clock.now
        app.processPendingEvents()
        return (app, backend)
    }

    func widths(_ app: NotesApp) -> [Int] { app.screenLayout.panes.map(\.width) }

    @Test func panesWidthsFocusAndHistoryComeBack() throws {
        let fixture = try AppFixture(articles: 3, size: Size(width: 90, height: 12), panes: 3)
        fixture.press(.tab, .tab, .character("4"))  // pane 3 rates Article 3
        fixture.press(.alt(">"))
        let before = widths(fixture.app)
        #expect(before == [28, 27, 33])
        let (app, backend) = try reopen(fixture)
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2", "pane-3"])
        #expect(widths(app) == before)
        #expect(app.focus == 2)
        #expect(app.focusedPane.stack?.undoActionName == "Set Rating")
        backend.enqueue(.key(.control("z")))
        app.processPendingEvents()
        #expect(backend.screenText.contains("Undid Set Rating"))
        // The resize is a layout change Alt-Z undoes after the restart too.
        backend.enqueue(.key(.alt("z")))
        app.processPendingEvents()
        #expect(widths(app) == [30, 29, 29])
    }

    @Test func aClosedPaneComesBackWithAltZAfterARestart() throws {
        let fixture = try AppFixture(articles: 3, panes: 3)
        fixture.press(.tab, .delete)  // pane 2 deletes Article 3
        fixture.press(.control("x"))
        let (app, backend) = try reopen(fixture)
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-3"])
        backend.enqueue(.key(.alt("z")))
        app.processPendingEvents()
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2", "pane-3"])
        #expect(app.panes[1].stack?.undoActionName == "Delete Article")
    }

    @Test func fewerPanesCloseTheOthersAsAltZBringsBack() throws {
        let fixture = try AppFixture(articles: 3, panes: 3)
        let (app, backend) = try reopen(fixture, panes: 1)
        #expect(app.panes.map(\.stackID) == ["pane-1"])
        backend.enqueue(.key(.alt("z")), .key(.alt("z")))
        app.processPendingEvents()
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2", "pane-3"])
    }

    @Test func morePanesReuseStacksWithHistoryBeforeNewOnes() throws {
        let fixture = try AppFixture(articles: 3, panes: 2)
        // A stack with history that no layout names (a pane of a notes that ran beside).
        let orphan = try #require(try fixture.engine?.stack(id: "pane-7"))
        try withUndoStack(orphan) {
            try undoable("Set Rating") {
                try fixture.db.write { try $0.execute("UPDATE articles SET rating = 5") }
            }
        }
        let (app, _) = try reopen(fixture, panes: 4)
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2", "pane-7", "pane-3"])
        #expect(app.panes[2].stack?.undoActionName == "Set Rating")
    }

    @Test func aDamagedSavedLayoutFallsBackToTheSavedPanes() throws {
        let fixture = try AppFixture(articles: 3, panes: 3)
        fixture.press(.alt(">"))
        #expect(widths(fixture.app) == [30, 24, 24])
        try fixture.db.write {
            try $0.execute(
                "UPDATE settings SET value = '{\"present\": 1}' WHERE key = 'layout'")
        }
        let (app, _) = try reopen(fixture)
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2", "pane-3"])
        #expect(widths(app) == [26, 26, 26])
    }
}
