import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import Synchronization
import TerminalUI

@testable import NotesApp

/// A notebook in memory with `articles` articles by Alice (Article 1 is the oldest, so the list,
/// newest first, shows Article N on top), an engine, and the app on a headless terminal.
@MainActor
struct AppFixture {
    let db: DatabaseQueue
    let engine: UndoEngine?
    let backend: HeadlessBackend
    let app: NotesApp
    /// The time of the app's edits and the engine's barriers: a millisecond later at each read.
    let clock = TickingClock()

    /// - Parameter path: a file for the notebook (another connection may open it), or nil for
    ///   one in memory.
    init(
        articles: Int = 3, size: Size = Size(width: 80, height: 12), panes: Int = 2,
        undo: Bool = true, path: String? = nil
    )
        throws
    {
        db = try path.map(DatabaseQueue.init(path:)) ?? DatabaseQueue()
        try NoteStoreSchema.migrate(db)
        // No articles: a notebook another fixture made, opened again.
        if articles > 0 { try Self.addArticles(articles, to: db) }
        engine =
            undo
            ? try UndoEngine(for: db, tables: Article.self, ArticleChunk.self, Author.self) : nil
        engine?.clock = clock.now
        backend = HeadlessBackend(size: size)
        app = try NotesApp(
            database: db, engine: engine, backend: backend, notebookName: "test.db",
            paneCount: panes)
        app.clock = clock.now
        app.processPendingEvents()
    }

    /// Adds Alice and `count` articles, "Article 1" ... with bodies "Body of article 1" ...
    private static func addArticles(_ count: Int, to db: DatabaseQueue) throws {
        try db.write { db in
            let alice = try Notebook.insertAuthor(db, name: "Alice")
            try db.execute(
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO articles(title, body, authorId, rating, createdAt, updatedAt)
                SELECT 'Article ' || x, 'Body of article ' || x, ?, x % 6,
                       printf('2026-01-01T00:00:00.%03dZ', x), printf('2026-01-01T%02d:%02d:%02d.000Z', x / 3600, x / 60 % 60, x % 60)
                FROM n
                """, [.integer(Int64(count)), .integer(alice)])
        }
    }

    /// Article 3 open in the one pane of an 80x16 app, its body set to `body`, the cursor at the
    /// body's start.
    static func openingArticle(withBody body: String) throws -> AppFixture {
        let fixture = try AppFixture(size: Size(width: 80, height: 16), panes: 1)
        try fixture.db.write {
            try $0.execute("UPDATE articles SET body = ? WHERE id = 3", [.text(body)])
        }
        fixture.app.processPendingEvents()
        fixture.press(.enter)
        return fixture
    }

    func press(_ keys: Key...) {
        for key in keys { backend.enqueue(.key(key)) }
        app.processPendingEvents()
    }

    func type(_ text: String) {
        for character in text { backend.enqueue(.key(.character(character))) }
        app.processPendingEvents()
    }

    var screen: String { backend.screenText }

    func titles() throws -> [String] {
        try db.read { try $0.fetchAll(String.self, "SELECT title FROM articles ORDER BY id") }
    }
}

/// A clock that a test owns: each read is a millisecond after the one before, from
/// 2026-06-01, and `advance(by:)` jumps (a pause). Edits are stamped in the order they are made
/// and typing runs coalesce, however fast or slow the machine runs the test.
final class TickingClock: Sendable {
    private let milliseconds = Mutex<Int64>(1_780_272_000_000)

    var now: @Sendable () -> Date {
        { [self] in
            Date(
                timeIntervalSince1970: Double(
                    milliseconds.withLock {
                        $0 += 1; return $0
                    }) / 1000)
        }
    }

    func advance(by seconds: TimeInterval) {
        milliseconds.withLock { $0 += Int64(seconds * 1000) }
    }
}
