import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import TestSupport
import Testing

@testable import NotesApp

/// Data another program wrote into a notebook file: invalid UTF-8, control characters and escape
/// sequences display safely and can be edited; a 10 MB body opens and scrolls quickly.
@MainActor @Suite(.serialized) final class BadDataTests {
    let folder: TemporaryFolder
    var path: String { folder.path("notes.db") }

    init() throws {
        folder = try TemporaryFolder(prefix: "notes-bad-data")
    }

    /// Runs SQL with the `sqlite3` shell, as another program would.
    func shell(_ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 failed on \(sql)")
    }

    /// The app, as `notes --db path --panes 1` opens it, on a headless terminal.
    func openApp(size: Size = Size(width: 80, height: 24)) throws -> (
        NotesApp, HeadlessBackend, DatabaseQueue
    ) {
        let (database, engine) = try NotebookOpener.open(path: path, seed: .welcome, undo: true)
        let backend = HeadlessBackend(size: size)
        let app = try NotesApp(
            database: database, engine: engine, backend: backend, notebookName: "notes.db",
            paneCount: 1)
        app.processPendingEvents()
        return (app, backend, database)
    }

    func press(_ app: NotesApp, _ backend: HeadlessBackend, _ keys: Key...) {
        backend.enqueue(contentsOf: keys.map { .key($0) })
        app.processPendingEvents()
    }

    @Test func invalidUTF8AndEscapeSequencesShowSafelyAndCanBeEdited() throws {
        _ = try NotebookOpener.open(path: path, seed: .welcome, undo: false)
        // Written by another program: bytes that are not UTF-8 (a lone continuation byte, an
        // overlong encoding, a cut-off sequence), a NUL, and escape sequences that would clear
        // the screen, change the title of the terminal window, ring the bell or move the cursor.
        let title = "X'4261642000FF20' || X'C0AF' || ' ' || char(27) || '[2J' || X'E282'"
        let body =
            "'Body ' || char(27) || ']0;pwned' || char(7) || ' ' || char(27) || '[31mred'"
            + " || char(13) || char(10) || char(155) || 'csi ' || X'EDA080' || ' end'"
        try shell(
            """
            UPDATE articles SET title = CAST(\(title) AS TEXT), body = CAST(\(body) AS TEXT),
                updatedAt = '2999-01-01T00:00:00.000Z'
            WHERE id = (SELECT min(id) FROM articles)
            """)
        let (app, backend, database) = try openApp()
        let storedBytes = try database.read {
            try $0.fetchOne(String.self, "SELECT hex(title) FROM articles WHERE title LIKE 'Bad%'")
        }
        let shownTitle = try #require(
            try database.read {
                try $0.fetchOne(String.self, "SELECT title FROM articles WHERE title LIKE 'Bad%'")
            })

        // The list: the bad title is on top, with replacement marks and stand-ins.
        var screen = backend.screenText
        #expect(screen.contains(" Bad ^@\u{FFFD} \u{FFFD}\u{FFFD} ^[[2J\u{FFFD}"), "\(screen)")
        #expect(FuzzSession.controlCharacter(on: try #require(backend.lastCanvas)) == nil)

        // The editor: the same for the body; every cell is safe.
        press(app, backend, .enter)
        screen = backend.screenText
        #expect(screen.contains("Body ^[]0;pwned^G ^[[31mred"), "\(screen)")
        #expect(screen.contains("\u{FFFD}csi \u{FFFD}\u{FFFD}\u{FFFD} end"), "\(screen)")
        #expect(FuzzSession.controlCharacter(on: try #require(backend.lastCanvas)) == nil)

        // Editing works and writes valid text; undo brings the title back byte for byte.
        press(app, backend, .backTab, .end, .character("!"))
        let edited = try database.read {
            try $0.fetchOne(String.self, "SELECT title FROM articles WHERE title LIKE 'Bad%'")
        }
        #expect(edited?.hasSuffix("\u{FFFD}!") == true)
        #expect(app.message == nil)
        // Every byte the edit did not touch is kept, those that are not UTF-8 included.
        let editedBytes = try database.read {
            try $0.fetchOne(String.self, "SELECT hex(title) FROM articles WHERE title LIKE 'Bad%'")
        }
        #expect(editedBytes == storedBytes.map { $0 + "21" })
        press(app, backend, .control("z"))
        let undone = try database.read {
            try $0.fetchOne(String.self, "SELECT title FROM articles WHERE title LIKE 'Bad%'")
        }
        #expect(undone == shownTitle)
        let undoneBytes = try database.read {
            try $0.fetchOne(String.self, "SELECT hex(title) FROM articles WHERE title LIKE 'Bad%'")
        }
        #expect(undoneBytes == storedBytes)

        // The same in the body: typing '¡' (C2 A1) keeps its bytes that are not UTF-8.
        let bodyHex = { (database: DatabaseQueue) in
            try database.read {
                try $0.fetchOne(
                    String.self, "SELECT hex(body) FROM articles WHERE title LIKE 'Bad%'")
            }
        }
        let bodyBefore = try #require(try bodyHex(database))
        press(app, backend, .backTab, .character("¡"))
        let bodyAfter = try #require(try bodyHex(database))
        #expect(bodyAfter.count == bodyBefore.count + 4)
        #expect(bodyAfter.replacingOccurrences(of: "C2A1", with: "") == bodyBefore)
        #expect(bodyBefore.contains("EDA080"))
        #expect(FuzzSession.controlCharacter(on: try #require(backend.lastCanvas)) == nil)
        let integrity = try database.read { try $0.fetchOne(String.self, "PRAGMA integrity_check") }
        #expect(integrity == "ok")
    }

    /// Values of the wrong type or out of range: a blob and a number where the notebook expects
    /// text, a fraction and a 9 for a rating, an author that does not exist.
    @Test func valuesOfTheWrongTypeDoNotCrash() throws {
        _ = try NotebookOpener.open(path: path, seed: .welcome, undo: false)
        try shell(
            """
            UPDATE articles SET title = X'00FF1B5B324A', updatedAt = '2999-01-01T00:00:00.000Z'
            WHERE id = 1;
            UPDATE articles SET body = 12345, rating = 2.5 WHERE id = 2;
            INSERT INTO authors(name) VALUES (X'1B5D303B78');
            UPDATE articles SET authorId = last_insert_rowid() WHERE id = 3;
            UPDATE articles SET authorId = 999, rating = 4.0 WHERE id = 4;
            PRAGMA ignore_check_constraints = ON;
            UPDATE articles SET rating = 9 WHERE id = 5;
            """)
        let (app, backend, _) = try openApp()
        #expect(FuzzSession.controlCharacter(on: try #require(backend.lastCanvas)) == nil)
        #expect(backend.screenText.contains("★★★★★"))
        for _ in 0..<5 {
            press(app, backend, .enter)
            #expect(FuzzSession.controlCharacter(on: try #require(backend.lastCanvas)) == nil)
            press(app, backend, .character("x"), .escape, .down)
        }
        #expect(!backend.screenText.contains("Cannot read"), "\(backend.screenText)")
    }

    /// A long text pasted into the search (the same words many times) finds what its words find,
    /// and the panes refresh as fast as with the words once: every key refreshes them.
    @Test func longPastedSearchStaysFast() throws {
        let session = try FuzzSession()
        let backend = session.backend
        backend.enqueue(.key(.character("/")), .paste("the and"), .key(.enter), .key(.tab))
        backend.enqueue(.key(.character("/")), .paste(String(repeating: "the and ", count: 300)))
        backend.enqueue(.key(.enter))
        session.app.processPendingEvents()
        let panes = session.app.panes
        #expect(panes[0].total > 0)
        #expect(panes[1].total == panes[0].total)
        // Timed against the same search typed once, so that a busy machine slows both alike
        // (without repeated words removed, the long one took 80 times as long; now about 5).
        let clock = ContinuousClock()
        var times = [Duration.zero, Duration.zero]
        for _ in 0..<10 {
            for (index, pane) in panes.enumerated() {
                pane.invalidate()
                times[index] += try clock.measure {
                    try session.db.read { try pane.load(height: 10, commits: -1, $0) }
                }
            }
        }
        #expect(times[1] < times[0] * 20, "short search \(times[0]), long one \(times[1])")
        #expect(try session.violation(checkingDatabase: true) == nil)
    }

    /// 10 MB in one body: it opens, and PgDn goes through it to the end, in reasonable time.
    @Test func tenMegabyteBodyOpensAndScrollsToTheEnd() throws {
        _ = try NotebookOpener.open(path: path, seed: .welcome, undo: false)
        // 10,240 paragraphs of 1 KB: each wraps over many rows.
        try shell(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10240)
            INSERT INTO articles(title, body, createdAt, updatedAt)
            SELECT 'Huge', group_concat(printf('%05d %s', i, printf('%.1017c', 'w')), char(10)) ||
                char(10) || 'THE END', '2999-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z'
            FROM n
            """)
        let size = Size(width: 120, height: 200)
        let (app, backend, database) = try openApp(size: size)
        let length = try database.read {
            try $0.fetchOne(Int.self, "SELECT length(body) FROM articles WHERE title = 'Huge'")
        }
        #expect((length ?? 0) > 10_000_000)

        let clock = ContinuousClock()
        let opening = clock.measure {
            press(app, backend, .enter)
            #expect(backend.screenText.contains("00001\n"))
        }

        // PgDn until the cursor stops on the last line.
        var times: [Duration] = []
        var cursor = -1
        while let offset = app.panes[0].editor?.body.cursorOffset, offset != cursor,
            times.count < 20_000
        {
            cursor = offset
            times.append(clock.measure { press(app, backend, .pageDown) })
        }
        let total = times.reduce(.zero, +)
        print("BadDataTests: 10 MB body opened in \(opening), \(times.count) PgDn in \(total)")
        #expect(backend.screenText.contains("THE END"))
        // Bounds for a debug build on a busy machine; the shape matters more: a PgDn at the end
        // costs what one at the start does (nothing walks the text before the screen).
        #expect(opening < .seconds(10), "opening took \(opening)")
        #expect(times.max() ?? .zero < .seconds(2), "the slowest PgDn took \(times.max() ?? .zero)")
        let first = times.prefix(50).reduce(.zero, +)
        let last = times.suffix(50).reduce(.zero, +)
        #expect(last < first * 3, "the first 50 PgDn took \(first), the last 50 \(last)")
    }
}
