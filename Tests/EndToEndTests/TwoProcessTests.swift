import Foundation
import NoteStore
import NotesApp
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import Testing

/// Two processes on one notebook at the same time.
///
/// - Two writers on the app's code paths (`NotesApp` on a headless terminal, opened by
///   `NotebookOpener`, in child processes that are this test binary again) each type, undo and
///   redo in their own article: nothing is lost, no error reaches the status line, and each
///   undo takes back only that process's own typing. 100 edits each by default, 1,000 with
///   `NOTES_LONG_TESTS=1`.
/// - Two real `notes` in tmux: a change made by one, or by the `sqlite3` shell, shows in the
///   other within a second, and the second does not get the first's undo history.
@Suite(.serialized) final class TwoProcessTests {
    static let pathVariable = "NOTES_TWO_PROCESS_DB"
    static let tagVariable = "NOTES_TWO_PROCESS_TAG"
    static let editsVariable = "NOTES_TWO_PROCESS_EDITS"
    static let seedVariable = "NOTES_TWO_PROCESS_SEED"
    static let goVariable = "NOTES_TWO_PROCESS_GO"

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notes-two-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var notebook: String { folder.appendingPathComponent("notes.db").path }

    // MARK: The writer child

    /// Opens its own article in pane 1 (found by searching for its tag), waits for the go file,
    /// then makes its edits: type a token at the start of the body, undo, or redo, keeping a
    /// model of what the body must be. Reports `ERROR <status line>` for any error shown, and
    /// `FINAL <tokens>` at the end.
    @Test @MainActor func twoProcessChild() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.pathVariable], let tag = environment[Self.tagVariable],
            let edits = environment[Self.editsVariable].flatMap(Int.init),
            let seed = environment[Self.seedVariable].flatMap(UInt64.init),
            let go = environment[Self.goVariable]
        else { return }
        let (database, engine) = try NotebookOpener.open(path: path, seed: .welcome, undo: true)
        let backend = HeadlessBackend(size: Size(width: 120, height: 30))
        let app = try NotesApp(
            database: database, engine: engine, backend: backend, notebookName: path,
            paneCount: 2)
        // Each token is one undo step: the run ends with the cursor move after it, whatever the
        // time between two keys of one token (the panes' stacks are among the first twenty).
        for number in 1...20 { try engine?.stack(id: "pane-\(number)").mergeInterval = 3600 }
        func press(_ events: [InputEvent]) {
            backend.enqueue(contentsOf: events)
            app.processPendingEvents()
            let lines = backend.screenText.split(separator: "\n", omittingEmptySubsequences: false)
            let status = lines.count >= 3 ? String(lines[lines.count - 3]) : ""
            let alarming = ["fail", "cannot", "locked", "busy", "error", "kept", "could not"]
            if alarming.contains(where: { status.lowercased().contains($0) }) {
                ArticleReport.say("ERROR \(status)")
            }
        }
        press([.key(.character("/"))] + tag.map { .key(.character($0)) })
        press([.key(.enter), .key(.enter)])
        guard backend.screenText.contains(" 1 Editing") else {
            ArticleReport.say("ERROR could not open the article:\n\(backend.screenText)")
            return
        }
        ArticleReport.say("READY")
        while !FileManager.default.fileExists(atPath: go) { usleep(5_000) }

        var random = SplitMix64(seed: seed)
        var done: [String] = []
        var undone: [String] = []
        let start = InputEvent.key(.home)
        for edit in 1...edits {
            let roll = random.next() % 100
            if roll < 70 {
                let token = "\(tag)\(edit) "
                press(token.map { .key(.character($0)) })
                done.append(token)
                undone = []
            } else if roll < 85 {
                press([.key(.control("z"))])
                if let token = done.popLast() { undone.append(token) }
            } else {
                press([.key(.control("y"))])
                if let token = undone.popLast() { done.append(token) }
            }
            // Back to the start of the body (Home twice: row start, then line start).
            press([start, start])
        }
        ArticleReport.say("FINAL " + done.joined(separator: "|"))
        withExtendedLifetime(app) {}
    }

    // MARK: Two writers

    @Test func twoWritersLoseNothingAndUndoOnlyTheirOwn() throws {
        let environment = ProcessInfo.processInfo.environment
        let edits = environment["NOTES_LONG_TESTS"] == "1" ? 1000 : 100
        let seed =
            environment["NOTES_TWO_PROCESS_SEED"].flatMap(UInt64.init) ?? .random(in: 1...1_000_000)
        print("TwoProcessTests: NOTES_TWO_PROCESS_SEED=\(seed)")
        let (database, _) = try NotebookOpener.open(path: notebook, seed: .welcome, undo: false)
        var ids: [String: Int64] = [:]
        for tag in ["alpha", "bravo"] {
            ids[tag] = try database.write { db in
                try Notebook.insertArticle(db, title: "Process \(tag)")
            }
        }
        let go = folder.appendingPathComponent("go").path
        var children: [String: ChildProcess] = [:]
        for (index, tag) in ["alpha", "bravo"].enumerated() {
            children[tag] = try ChildProcess(
                test: "twoProcessChild",
                environment: [
                    Self.pathVariable: notebook, Self.tagVariable: tag,
                    Self.editsVariable: "\(edits)", Self.seedVariable: "\(seed + UInt64(index))",
                    Self.goVariable: go,
                ])
        }
        for (tag, child) in children {
            try #require(child.waitForLine { $0 == "READY" || $0.hasPrefix("ERROR") }, "\(tag)")
        }
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        for (tag, child) in children {
            #expect(child.waitForLine(timeout: 600) { $0.hasPrefix("FINAL") }, "\(tag)")
            child.waitUntilExit()
            #expect(child.lines.filter { $0.hasPrefix("ERROR") } == [], "\(tag)")
            let final = child.lines.first { $0.hasPrefix("FINAL") } ?? ""
            let tokens = final.dropFirst("FINAL ".count).split(separator: "|").map(String.init)
            let body = try database.read {
                try $0.fetchOne(
                    String.self, "SELECT body FROM articles WHERE id = ?",
                    [.integer(ids[tag] ?? 0)])
            }
            #expect(body == tokens.reversed().joined(), "\(tag)'s article")
        }
        let integrity = try database.read { try $0.fetchOne(String.self, "PRAGMA integrity_check") }
        #expect(integrity == "ok")
    }

    // MARK: Two notes in tmux

    /// A change by one `notes`, and one by the `sqlite3` shell, shows in another running `notes`
    /// within a second; the second `notes` does not undo what the first one did.
    @Test func changesShowInTheOtherNotesWithinASecond() throws {
        let first = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try first.waitFor("Welcome to notes")
        try first.send("C-n")
        try first.waitFor("Editing the title")
        try first.sendLiteral("Written by the first")
        try first.send("Escape")
        try first.waitFor("Undo Typing")

        let second = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        let screen = try second.waitFor("Written by the first")
        // The first notes' history is its own while it runs.
        #expect(screen.contains(" Pane 1 │ Nothing to undo │ Nothing to redo"))
        try second.send("C-z")
        try second.waitFor("Pane 1: nothing to undo")

        var start = Date()
        try first.send("C-n")
        try first.sendLiteral("Second article by the first")
        try first.waitFor("Second article by the first")
        try second.waitFor("Second article by the first", timeout: 1)
        #expect(Date().timeIntervalSince(start) < 1.5)

        start = Date()
        try sqlite3("UPDATE articles SET title = 'Renamed by sqlite3' WHERE title = 'Panes'")
        try second.waitFor("Renamed by sqlite3", timeout: 1)
        try first.waitFor("Renamed by sqlite3", timeout: 1)

        // The first undoes its own last change; the second sees the article go.
        try first.send("Escape", "C-z")
        try first.waitFor("Undid Typing")
        try first.send("C-z")
        try first.waitFor("Undid New Article")
        let deadline = Date().addingTimeInterval(1)
        while try second.screen().contains("Second article by the first"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try !second.screen().contains("Second article by the first"))
        try first.send("C-q")
        try second.send("C-q")
        try first.waitFor("EXIT=0")
        try second.waitFor("EXIT=0")
    }

    /// An undo in one notes window that finds its change overwritten by the other window, or by
    /// another program, keeps that change and names who made it.
    @Test func anUndoNamesTheOtherWindowOrProgramThatChangedItsRow() throws {
        let (database, _) = try NotebookOpener.open(path: notebook, seed: .welcome, undo: false)
        try database.write { try $0.execute("UPDATE articles SET rating = 0") }
        database.close()
        let first = try TmuxSession(arguments: ["--db", notebook, "--panes", "1"], folder: folder)
        try first.waitFor("Welcome to notes")
        let second = try TmuxSession(arguments: ["--db", notebook, "--panes", "1"], folder: folder)
        try second.waitFor("Welcome to notes")
        // Both select the newest article; the first rates it 3, then the second 5.
        try first.send("3")
        try first.waitFor("Undo Set Rating")
        try second.waitFor("★★★☆☆")
        try second.send("5")
        try second.waitFor("Undo Set Rating")
        try first.waitFor("★★★★★")
        try first.send("C-z")
        try first.waitFor("Nothing undone: another notes window changed Rating since")
        // The first rates it again; another program changes the rating behind both.
        try first.send("2")
        try first.waitFor("★★☆☆☆")
        try sqlite3(
            "UPDATE articles SET rating = 4 WHERE id = (SELECT id FROM articles WHERE rating = 2)")
        try first.waitFor("★★★★☆")
        try first.send("C-z")
        try first.waitFor("Nothing undone: someone else changed Rating since")
        try first.send("C-q")
        try second.send("C-q")
        try first.waitFor("EXIT=0")
        try second.waitFor("EXIT=0")
    }

    /// Issue 19, item 8: another program's `REPLACE` deletes the row in its way without the
    /// delete trigger that keeps the number of articles; notes puts the number right.
    @Test func theCountStaysRightAfterAnotherProgramsReplace() throws {
        let session = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "1"], folder: folder)
        try session.waitFor("All articles · 5")
        try sqlite3(
            """
            REPLACE INTO articles(id, title, body, createdAt, updatedAt)
            VALUES (1, 'Replaced by sqlite3', '', '2030-01-01T00:00:00.000Z',
                '2030-01-01T00:00:00.000Z')
            """)
        let screen = try session.waitFor("Replaced by sqlite3")
        #expect(screen.contains("All articles · 5"), "\(screen)")
        #expect(!screen.contains("Welcome to notes"))
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    /// Runs SQL in the sqlite3 shell, as another program writes (foreign keys off: its default).
    func sqlite3(_ sql: String) throws {
        try TmuxSession.sqlite3(notebook, sql)
    }

    /// Issue 19, item 2: what another program wrote with the checks off (an article whose author
    /// it deleted, a rating of 99) never blocks an undo: each Ctrl-Z makes progress and says
    /// what it kept, in words.
    @Test func anUndoMakesProgressPastWhatAnotherProgramBroke() throws {
        let (database, _) = try NotebookOpener.open(path: notebook, seed: .welcome, undo: false)
        try database.write { try $0.execute("UPDATE articles SET rating = 0") }
        database.close()
        let session = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "1"], width: 160, height: 30, folder: folder)
        try session.waitFor("Welcome to notes")
        try session.send("2")
        try session.waitFor("Undo Set Rating")
        // The selected article's author goes, with foreign keys off: the article stays.
        try sqlite3(
            "DELETE FROM authors WHERE id = (SELECT authorId FROM articles WHERE rating = 2)")
        try session.send("3")
        try session.waitFor("★★★☆☆")
        try session.send("C-z")
        try session.waitFor("Undid Set Rating")
        try session.waitFor("★★☆☆☆")
        try session.send("C-z")
        try session.waitFor("Undid Set Rating")
        // A rating the schema forbids, written with CHECK constraints off.
        try session.send("C-y")
        try session.waitFor("Redid Set Rating")
        try sqlite3("PRAGMA ignore_check_constraints = ON; UPDATE articles SET rating = 99")
        try session.waitFor("★★★★★")
        try session.send("1")
        try session.waitFor("Undo Set Rating")
        try session.send("C-z")
        // The rating stays; the step's bookkeeping (when the article changed) is undone.
        try session.waitFor(
            "Undid Set Rating; kept Rating: the earlier one would break a rule of the notebook")
        // The steps below undo in turn, until the list is empty.
        try session.send("C-z")
        try session.waitFor("Nothing undone")
        try session.send("C-z")
        try session.waitFor("Pane 1: nothing to undo")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    /// Issue 19, item 1: a key typed right after another program changed the open article (well
    /// before notes looks for others' changes, every half second) keeps their change: both are
    /// in the body, whichever notes saw first.
    @Test func aKeyTypedRightAfterAnotherProgramsEditKeepsBoth() throws {
        let (session, id, before) = try openTheNewestArticle()
        try sqlite3("UPDATE articles SET body = body || ' EXT' WHERE id = \(id ?? 0)")
        try session.sendLiteral("Q")
        let deadline = Date().addingTimeInterval(5)
        while try body(of: id) == before + " EXT", Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try body(of: id) == "Q" + before + " EXT")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    /// Issue 19, item 9: while another program holds the notebook's write lock (the sqlite3
    /// shell inside `BEGIN IMMEDIATE`), keys typed show at once, the status line says the typing
    /// waits, and it is saved, merged with that program's change, once the lock is free.
    @Test func typingWhileTheSqlite3ShellHoldsTheLockShowsAndIsSavedAfter() throws {
        let (session, id, before) = try openTheNewestArticle()
        let shell = try TmuxSession.sqlite3Shell(notebook, folder: folder)
        try shell.waitFor("sqlite>")
        // (A space after the last ";": tmux reads an argument ending in ";" as its own separator.)
        try shell.sendLiteral(
            "BEGIN IMMEDIATE; UPDATE articles SET body = body || ' EXT' WHERE id = \(id ?? 0); ")
        try shell.send("Enter")
        Thread.sleep(forTimeInterval: 0.3)
        let typed = Date()
        try session.sendLiteral("Held ")
        try session.waitFor("Typing kept, not saved yet: another program is writing")
        let screen = try session.waitFor(" Held " + before.prefix(20))
        // Shown well before SQLite's 5 s busy timeout would have let the write through.
        #expect(Date().timeIntervalSince(typed) < 3, "\(screen)")
        #expect(try body(of: id) == before)
        try shell.sendLiteral("COMMIT; ")
        try shell.send("Enter")
        try session.waitFor("Saved the typing that waited")
        #expect(try body(of: id) == "Held " + before + " EXT")
        try session.send("C-z")
        try session.waitFor("Undid Typing")
        #expect(try body(of: id) == before + " EXT")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    /// Starts notes with one pane on the welcome notebook and opens its newest article; returns
    /// the session, the article's id and its body.
    func openTheNewestArticle() throws -> (TmuxSession, Int64?, String) {
        let session = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "1"], folder: folder)
        try session.waitFor("Welcome to notes")
        try session.send("Enter")
        try session.waitFor("Editing")
        let id = try DatabaseQueue(path: notebook).read {
            try $0.fetchOne(Int64.self, "SELECT id FROM articles ORDER BY updatedAt DESC LIMIT 1")
        }
        return (session, id, try body(of: id))
    }

    func body(of id: Int64?) throws -> String {
        try DatabaseQueue(path: notebook).read {
            try $0.fetchOne(
                String.self, "SELECT body FROM articles WHERE id = ?", [.integer(id ?? 0)])
        } ?? ""
    }
}
