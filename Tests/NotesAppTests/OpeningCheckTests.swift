import Dispatch
import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import TestSupport
import Testing

@testable import NotesApp

/// The app on a notebook whose check for damage is still running (`NotebookOpener` leaves it
/// running beside the first frame): the first frame shows the notebook without waiting, nothing
/// is written before the check has passed, and a damaged notebook ends the app, unchanged.
///
/// The check here is the test's: it ends when the test says, passing or failing.
@MainActor @Suite final class OpeningCheckTests {
    let folder: TemporaryFolder
    let path: String
    let db: DatabaseQueue
    let engine: UndoEngine
    let backend = HeadlessBackend(size: Size(width: 80, height: 12))
    /// Signalled to let the check end.
    let release = DispatchSemaphore(value: 0)

    struct Damaged: Error {}

    init() throws {
        folder = try TemporaryFolder(prefix: "notes-opening-check")
        path = folder.path("notes.db")
        db = try DatabaseQueue(path: path)
        try NoteStoreSchema.migrate(db)
        try db.write { db in
            for index in 1...3 { _ = try Notebook.insertArticle(db, title: "Article \(index)") }
        }
        engine = try UndoEngine(for: db, tables: Article.self, ArticleChunk.self, Author.self)
    }

    /// Holds the notebook's commits until the test's check ends, and opens the app on it.
    func openApp(checkFails: Bool) throws -> NotesApp {
        let release = release
        db.holdCommits(
            until: BackgroundCheck(path: path) { _ in
                release.wait()
                if checkFails { throw Damaged() }
            })
        let app = try NotesApp(
            database: db, engine: engine, backend: backend, notebookName: "test.db",
            paneCount: 2)
        app.processPendingEvents()
        return app
    }

    /// The notebook's files, byte for byte (its writes so far are in the WAL).
    func files() throws -> [Data] {
        try ["", "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: path + $0)) }
    }

    func lease() throws -> String? {
        try db.read {
            try $0.fetchOne(
                String.self, "SELECT value FROM settings WHERE key = ?",
                [.text(try #require(ProcessIdentity.current).leaseKey)])
        }
    }

    func ratings() throws -> [Int] {
        try db.read { try $0.fetchAll(Int.self, "SELECT rating FROM articles ORDER BY id") }
    }

    /// Lets the check end a moment from now, while the app waits for it.
    func releaseSoon() {
        let release = release
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
    }

    @Test func theFirstFrameDoesNotWaitAndThePanesAreLeasedOnceTheCheckPassed() throws {
        let app = try openApp(checkFails: false)
        #expect(backend.screenText.contains("Article 3"))
        #expect(try lease() == nil)
        let check = try #require(db.pendingCheck)
        release.signal()
        try check.wait()
        app.processPendingEvents()
        #expect(try lease() == "pane-1\npane-2")
        #expect(app.failure == nil)
    }

    @Test func aKeyThatWritesWaitsForTheCheck() throws {
        let app = try openApp(checkFails: false)
        releaseSoon()
        backend.enqueue(.key(.character("5")))
        app.processPendingEvents()
        #expect(try ratings() == [0, 0, 5])
        #expect(try lease() == "pane-1\npane-2")
        #expect(backend.screenText.contains("Undo Set Rating"))
    }

    @Test func aDamagedNotebookEndsTheAppUnchanged() throws {
        let before = try files()
        let app = try openApp(checkFails: true)
        releaseSoon()
        backend.enqueue(contentsOf: [.key(.character("5")), .key(.control("n"))])
        app.processPendingEvents()
        #expect(app.failure is Damaged)
        #expect(try ratings() == [0, 0, 0])
        #expect(try lease() == nil)
        #expect(try files() == before)
    }

    /// The run loop notices the failed check without a key, and ends with its error once the
    /// terminal is restored.
    @Test func theRunLoopEndsWithTheChecksError() throws {
        let app = try openApp(checkFails: true)
        release.signal()
        #expect(throws: Damaged.self) { try app.run() }
        #expect(backend.isShutDown)
    }
}
