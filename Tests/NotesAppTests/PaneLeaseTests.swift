import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import Testing

@testable import NotesApp

/// Two notes on one notebook never share a pane's undo stack: the stacks a running notes holds
/// are leased in the notebook under its process id (see `TwoProcessTests` for real processes).
@MainActor @Suite struct PaneLeaseTests {
    let db: DatabaseQueue
    let engine: UndoEngine

    init() throws {
        db = try DatabaseQueue()
        try NoteStoreSchema.migrate(db)
        engine = try UndoEngine(for: db, tables: Article.self, Author.self)
    }

    func setting(_ key: String) throws -> String? {
        try db.read {
            try $0.fetchOne(String.self, "SELECT value FROM settings WHERE key = ?", [.text(key)])
        }
    }

    func store(_ key: String, _ value: String) throws {
        try db.write {
            try $0.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?)", [.text(key), .text(value)])
        }
    }

    func openApp() throws -> NotesApp {
        try NotesApp(
            database: db, engine: engine, backend: HeadlessBackend(), notebookName: "test.db",
            paneCount: 2)
    }

    @Test func stacksHeldByARunningProcessGoToNobodyElse() throws {
        try store("panes", "pane-1\npane-2")
        // Process 1 (init) is always running: it holds the saved panes.
        try store("lease.1", "pane-1\npane-2")
        let app = try openApp()
        #expect(app.panes.map(\.stackID) == ["pane-3", "pane-4"])
        #expect(try setting("lease.\(getpid())") == "pane-3\npane-4")
        // The saved layout is the other notes' to keep.
        #expect(try setting("panes") == "pane-1\npane-2")
        app.handle(.key(.control("t")))
        #expect(app.panes.map(\.stackID) == ["pane-3", "pane-5", "pane-4"])
    }

    @Test func leasesOfProcessesThatAreGoneAreDropped() throws {
        try store("panes", "pane-1\npane-2")
        // No process has this id (above the kernel's limit).
        try store("lease.2147483647", "pane-1\npane-2")
        let app = try openApp()
        #expect(app.panes.map(\.stackID) == ["pane-1", "pane-2"])
        #expect(try setting("lease.2147483647") == nil)
        #expect(try setting("lease.\(getpid())") == "pane-1\npane-2")
    }
}
