import Foundation
import NoteStore
import NotesApp
import SQLiteDatabase
import SQLiteUndo
import Synchronization
import TerminalUI
import TestSupport
import Testing

/// SIGKILL at random moments while the app edits, undoes and redoes: after each kill the file is
/// intact, holds every committed change, and its undo history is whole and still undoes.
///
/// The writer is the app itself (`NotesApp` on a headless terminal, opened by `NotebookOpener`
/// like `notes` does), in a child process that is this test binary again
/// (`crashHarnessChild`), fed random keys. It reports on stdout, before it goes on:
/// - `ROW id hash` / `GONE id` from TEMP triggers on `article_rows` and `article_chunks`, for
///   each change of an article's row or of its body's chunks (the whole article read back), while the
///   transaction is still open (a replay's savepoint may still roll some of them back);
/// - `FINAL id hash` / `FINAL id` for each article touched, read back once a transaction
///   committed, then `COMMIT` (from the database observer);
/// - `DONE n` after each key.
///
/// So the parent knows every committed state, and at a kill the file must hold the last
/// reported one, except that an article touched since may hold a value it took then, when the
/// kill came between a transaction's commit and its report. 10 kills by default, 100 with
/// `NOTES_LONG_TESTS=1`; `NOTES_CRASH_SEED` replays a run.
@Suite struct CrashHarnessTests {
    static let pathVariable = "NOTES_CRASH_HARNESS_DB"
    static let seedVariable = "NOTES_CRASH_HARNESS_SEED"

    // MARK: The child

    @Test @MainActor func crashHarnessChild() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.pathVariable],
            let seed = environment[Self.seedVariable].flatMap(UInt64.init)
        else { return }
        let (database, engine) = try NotebookOpener.open(path: path, seed: .welcome, undo: true)
        try ArticleReport.install(on: database)
        let observation = database.observe { change in
            guard !change.isExternal else { return }
            ArticleReport.reportCommitted(database)
        }
        let backend = HeadlessBackend(size: Size(width: 100, height: 30))
        let app = try NotesApp(
            database: database, engine: engine, backend: backend, notebookName: path,
            paneCount: 2)
        app.processPendingEvents()
        ArticleReport.say("READY")
        var random = SeededRandom(seed: seed)
        // Bounded, in case the parent is gone: about a minute of keys.
        for step in 1...50_000 {
            backend.enqueue(RandomKeys.next(&random))
            app.processPendingEvents()
            ArticleReport.say("DONE \(step)")
        }
        withExtendedLifetime(observation) {}
    }

    // MARK: The harness

    @Test func killedAtRandomMomentsLosesNothingCommitted() throws {
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["NOTES_LONG_TESTS"] == "1" ? 100 : 10
        let seed =
            environment["NOTES_CRASH_SEED"].flatMap(UInt64.init) ?? .random(in: 1...1_000_000)
        print("CrashHarnessTests: NOTES_CRASH_SEED=\(seed)")
        var random = SeededRandom(seed: seed)
        let folder = try TemporaryFolder(prefix: "notes-crash")
        let path = folder.path("notes.db")
        _ = try NotebookOpener.open(path: path, seed: .welcome, undo: false)

        var committedKeys = 0
        for round in 1...rounds {
            let context = "round \(round), NOTES_CRASH_SEED=\(seed)"
            var model = try ArticleReport.rows(path)
            let child = try ChildProcess(
                test: "crashHarnessChild",
                environment: [Self.pathVariable: path, Self.seedVariable: "\(random.next())"])
            try #require(child.waitForLine { $0 == "READY" }, "\(context)")
            let delay = Double(random.next() % 400 + 10) / 1000
            Thread.sleep(forTimeInterval: delay)
            child.kill()

            // Values each article took in transactions not known to be committed or rolled back
            // (a replay tries in savepoints and may roll part of its work back), and the values
            // read after the last commit, not yet confirmed by its COMMIT line.
            var candidates: [Int64: Set<UInt64?>] = [:]
            var committed: [Int64: UInt64?] = [:]
            for line in child.lines {
                let words = line.split(separator: " ")
                let id = words.count > 1 ? Int64(words[1]) : nil
                let value = words.count > 2 ? UInt64(words[2]) : nil
                switch words.first {
                case "ROW", "GONE":
                    guard let id else { continue }
                    candidates[id, default: []].insert(value)
                case "FINAL":
                    guard let id else { continue }
                    committed[id] = value
                case "COMMIT":
                    for (id, value) in committed { model[id] = value }
                    committed = [:]
                    candidates = [:]
                case "DONE":
                    // Changes reported but not committed: the transaction rolled back.
                    candidates = [:]
                    committed = [:]
                    committedKeys += 1
                default:
                    continue
                }
            }
            // Killed after a commit but before its report: a touched article holds the value
            // it had, or one it took in that transaction.
            for (id, value) in committed { candidates[id, default: []].insert(value) }
            let actual = try ArticleReport.rows(path)
            let lost = Set(model.keys).union(actual.keys).filter { id in
                actual[id] != model[id] && !(candidates[id]?.contains(actual[id]) ?? false)
            }
            #expect(lost.isEmpty, "the notebook lost a committed change to \(lost); \(context)")
            try checkAfterKill(path, "\(context)")
        }
        #expect(committedKeys > rounds, "the children hardly ran")
        print("CrashHarnessTests: \(rounds) kills, \(committedKeys) keys reported done")
    }

    /// The checks after a kill: integrity, the undo log whole (every committed change filed with
    /// its barrier: the two commit together), and undo on reopen.
    func checkAfterKill(_ path: String, _ context: String) throws {
        do {
            let database = try DatabaseQueue(path: path)
            let integrity = try database.read {
                try $0.fetchAll(String.self, "PRAGMA integrity_check")
            }
            #expect(integrity == ["ok"], "\(context)")
            try expectLogRowsHaveBarriers(database, "\(context)")
            try expectRegisteredBarriersHaveLogs(database, "\(context)")
        }
        // Reopened as notes does: every stack undoes.
        let (database, opened) = try NotebookOpener.open(path: path, seed: .welcome, undo: true)
        let engine = try #require(opened)
        for id in try engine.storedStackIDs() {
            let stack = try engine.stack(id: id)
            let names = try database.read { db in
                try [0, 1].map { list in
                    try db.fetchAll(
                        String.self,
                        """
                        SELECT name FROM sqliteundo_barriers
                        WHERE stackId = ? AND list = ? AND supersededBy IS NULL
                        ORDER BY position DESC
                        """, [.text(id), .integer(Int64(list))])
                }
            }
            #expect(stack.state == UndoStackState(undo: names[0], redo: names[1]), "\(context)")
            guard stack.canUndo else { continue }
            let before = try ArticleReport.rows(database)
            let redoCount = stack.state.redo.count
            let undone = try stack.undo()
            #expect(undone != nil, "\(context)")
            if stack.state.redo.count == redoCount {
                // Nothing was still this barrier's to take back (another pane's later edit was
                // kept): nothing changed.
                #expect(try ArticleReport.rows(database) == before, "\(context)")
                continue
            }
            #expect(try stack.redo() != nil, "\(context)")
            #expect(
                try ArticleReport.rows(database) == before, "undo then redo changed; \(context)")
        }
        try expectRegisteredBarriersHaveLogs(database, "\(context)")
    }

    /// Every log row belongs to a registered barrier, inside the span its undo reads: no
    /// change committed without its undo.
    func expectLogRowsHaveBarriers(_ database: DatabaseQueue, _ context: String) throws {
        let unfiled = try database.read {
            try $0.fetchOne(
                Int.self,
                """
                SELECT count(*) FROM sqliteundo_log AS l WHERE l.barrier != 0 AND NOT EXISTS (
                    SELECT 1 FROM sqliteundo_barriers AS b
                    WHERE b.id = l.barrier AND l.seq BETWEEN b.firstSeq AND b.lastSeq)
                """)
        }
        #expect(unfiled == 0, "a committed change without its undo entry; \(context)")
    }

    func expectRegisteredBarriersHaveLogs(_ database: DatabaseQueue, _ context: String) throws {
        let empty = try database.read {
            try $0.fetchAll(
                String.self,
                """
                SELECT name FROM sqliteundo_barriers
                WHERE id NOT IN (SELECT barrier FROM sqliteundo_log)
                """)
        }
        #expect(empty == [], "barriers registered without their log; \(context)")
    }
}

/// What the crash child tells its parent, and the same view of the articles read from a file.
enum ArticleReport {
    /// One article as the reports see it: title, body, rating and author, in SQL over `row`.
    static func content(_ row: String) -> String {
        "hex(\(row).title) || ' ' || hex(\(row).body) || ' ' || \(row).rating || ' ' || "
            + "ifnull(\(row).authorId, '-')"
    }

    /// A stable 64-bit hash (FNV-1a), the same in every process.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }

    /// Writes a line to stdout at once (no buffering: the process may be killed next).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Articles reported by the triggers since the last commit.
    private static let touched = Mutex<Set<Int64>>([])

    /// After a commit: the committed value of every article touched since the last one
    /// (`FINAL id hash`, or `FINAL id` for one that is gone), then `COMMIT`.
    static func reportCommitted(_ database: DatabaseQueue) {
        let ids = touched.withLock { ids in
            defer { ids = [] }
            return ids.sorted()
        }
        let current = (try? rows(database)) ?? [:]
        for id in ids {
            say(current[id].map { "FINAL \(id) \($0)" } ?? "FINAL \(id)")
        }
        say("COMMIT")
    }

    /// Installs, on the app's own connection, the function and TEMP triggers that report every
    /// change to an article while its transaction is open.
    static func install(on database: DatabaseQueue) throws {
        try database.write { db in
            try db.createFunction("crash_report", argumentCount: 3) { arguments in
                guard case .text(let kind) = arguments[0], case .integer(let id) = arguments[1]
                else { return .null }
                _ = touched.withLock { $0.insert(id) }
                if case .text(let content) = arguments[2] {
                    say("\(kind) \(id) \(hash(content))")
                } else {
                    say("\(kind) \(id)")
                }
                return .null
            }
            try db.execute(
                """
                CREATE TEMP TRIGGER crash_report_insert AFTER INSERT ON main.article_rows BEGIN
                    \(reportArticle("NEW.id"))
                END;
                CREATE TEMP TRIGGER crash_report_update AFTER UPDATE ON main.article_rows BEGIN
                    SELECT crash_report('GONE', OLD.id, NULL) WHERE OLD.id <> NEW.id;
                    \(reportArticle("NEW.id"))
                END;
                CREATE TEMP TRIGGER crash_report_delete AFTER DELETE ON main.article_rows BEGIN
                    SELECT crash_report('GONE', OLD.id, NULL);
                END;
                CREATE TEMP TRIGGER crash_report_chunk_insert AFTER INSERT ON main.article_chunks
                BEGIN
                    \(reportArticle("NEW.articleId"))
                END;
                CREATE TEMP TRIGGER crash_report_chunk_update AFTER UPDATE ON main.article_chunks
                BEGIN
                    \(reportArticle("OLD.articleId"))
                    \(reportArticle("NEW.articleId"))
                END;
                CREATE TEMP TRIGGER crash_report_chunk_delete AFTER DELETE ON main.article_chunks
                BEGIN
                    \(reportArticle("OLD.articleId"))
                END;
                """)
        }
    }

    /// SQL reporting the whole article `id` as it is now (its row or one of its body's chunks
    /// changed), when it exists.
    private static func reportArticle(_ id: String) -> String {
        "SELECT crash_report('ROW', a.id, \(content("a"))) FROM main.articles a WHERE a.id = \(id);"
    }

    /// Every article's hash, by id.
    static func rows(_ database: DatabaseQueue) throws -> [Int64: UInt64] {
        let rows = try database.read {
            try $0.fetchAll(Row.self, "SELECT id, \(content("articles")) FROM articles")
        }
        var hashes: [Int64: UInt64] = [:]
        for row in rows { hashes[try row.decode(at: 0)] = hash(try row.decode(at: 1)) }
        return hashes
    }

    static func rows(_ path: String) throws -> [Int64: UInt64] {
        try rows(try DatabaseQueue(path: path))
    }
}

/// Random keys that edit, move, open, close, pick authors ("a" in a list), undo and redo; never
/// quit or suspend.
enum RandomKeys {
    static let text: [Character] = ["o", "b", "e", "x", "a", " ", "é", "漢", "😀", "1", "3", "0"]

    static func next(_ random: inout SeededRandom) -> InputEvent {
        let roll = random.next() % 100
        switch roll {
        case 0..<35: return .key(.character(text[Int(random.next() % UInt64(text.count))]))
        case 35..<43: return .key(.backspace)
        case 43..<46: return .key(.delete)
        case 46..<54: return .key([.up, .down, .left, .right][Int(random.next() % 4)])
        case 54..<62: return .key(.enter)
        case 62..<67: return .key(.escape)
        case 67..<77: return .key(.control("z"))
        case 77..<83: return .key(.control("y"))
        case 83..<88: return .key(.tab)
        case 88..<90: return .key(.control("w"))
        case 90..<92: return .key(.control("n"))
        case 92..<95: return .paste("pasted\ntext ")
        default: return .key(.alt("u"))
        }
    }
}
