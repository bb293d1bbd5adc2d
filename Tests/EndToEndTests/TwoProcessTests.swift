import Foundation
import NoteStore
import NotesApp
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import TestSupport
import Testing

/// Two processes on one notebook at the same time.
///
/// - Two writers on the app's code paths (`NotesApp` on a headless terminal, opened by
///   `NotebookOpener`, in child processes that are this test binary again) each type, undo and
///   redo in their own article: nothing is lost, no error reaches the status line, and each
///   undo takes back only that process's own typing. Then the same two in one article, with
///   a third program writing into its body too. 100 edits each by default, 1,000 with
///   `NOTES_LONG_TESTS=1`.
/// - Two real `notes` in tmux: a change made by one, or by the `sqlite3` shell, shows in the
///   other within a second, and the second does not get the first's undo history.
@Suite(.serialized) final class TwoProcessTests {
    static let pathVariable = "NOTES_TWO_PROCESS_DB"
    static let tagVariable = "NOTES_TWO_PROCESS_TAG"
    static let editsVariable = "NOTES_TWO_PROCESS_EDITS"
    static let seedVariable = "NOTES_TWO_PROCESS_SEED"
    static let goVariable = "NOTES_TWO_PROCESS_GO"

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder(prefix: "notes-two")
    }

    var notebook: String { folder.path("notes.db") }

    // MARK: The writer child

    static let searchVariable = "NOTES_TWO_PROCESS_SEARCH"
    static let atEndVariable = "NOTES_TWO_PROCESS_AT_END"
    static let undoAllVariable = "NOTES_TWO_PROCESS_UNDO_ALL"

    /// Opens an article in pane 1 (found by searching for its tag, or for
    /// `NOTES_TWO_PROCESS_SEARCH`), waits for the go file, then makes its edits: type a token at
    /// the start of the body (at its end with `NOTES_TWO_PROCESS_AT_END`), undo, or redo,
    /// keeping a model of its own tokens in the body. Typing the notebook could not take at once
    /// is waited for, as a person reading the status line would. Reports `ERROR <status line>`
    /// for any error shown, and `FINAL <tokens>` at the end. Then, when the parent creates the
    /// `NOTES_TWO_PROCESS_UNDO_ALL` file, undoes every step of its pane and reports `UNDONE`.
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
        // Every step stays for the undos at the end.
        for number in 1...20 {
            let stack = try engine?.stack(id: "pane-\(number)")
            stack?.mergeInterval = 3600
            stack?.levelsOfUndo = 100_000
        }
        var status: String {
            let lines = backend.screenText.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 3 ? String(lines[lines.count - 3]) : ""
        }
        func press(_ events: [InputEvent]) {
            backend.enqueue(contentsOf: events)
            app.processPendingEvents()
            // Typing that waited for another writer's lock is saved by a later tick.
            while status.contains("not saved yet") {
                usleep(5_000)
                app.processPendingEvents()
            }
            let alarming = ["fail", "cannot", "locked", "busy", "error", "kept", "could not"]
            if alarming.contains(where: { status.lowercased().contains($0) }) {
                ArticleReport.say("ERROR \(status)")
            }
        }
        let search = environment[Self.searchVariable] ?? tag
        press([.key(.character("/"))] + search.map { .key(.character($0)) })
        press([.key(.enter), .key(.enter)])
        guard backend.screenText.contains(" 1 Editing") else {
            ArticleReport.say("ERROR could not open the article:\n\(backend.screenText)")
            return
        }
        ArticleReport.say("READY")
        while !FileManager.default.fileExists(atPath: go) { usleep(5_000) }

        var random = SeededRandom(seed: seed)
        var done: [String] = []
        var undone: [String] = []
        // To the start of the body or to its end: a cursor move, which ends the typing run
        // (at the end already, Ctrl-End alone would not move).
        let atEnd = environment[Self.atEndVariable] != nil
        let place: [InputEvent] = atEnd ? [.key(.left), .key(.controlEnd)] : [.key(.controlHome)]
        press(place)
        // This writer's part of the body, as stored, and as its model says.
        var mine: String {
            let body = try? database.read {
                try $0.fetchOne(
                    String.self, "SELECT body FROM articles WHERE title LIKE '%' || ? || '%'",
                    [.text(search)])
            }
            return Self.part(of: body ?? "", atEnd: atEnd)
        }
        var expected: String { atEnd ? done.joined() : done.reversed().joined() }
        for edit in 1...edits {
            let roll = random.next() % 100
            if roll < 70 {
                let token = "\(tag)\(edit) "
                press(token.map { .key(.character($0)) })
                done.append(token)
                undone = []
            } else {
                let undoing = roll < 85
                if undoing, let token = done.popLast() { undone.append(token) }
                if !undoing, let token = undone.popLast() { done.append(token) }
                press([.key(.control(undoing ? "z" : "y"))])
            }
            if mine != expected {
                ArticleReport.say("ERROR after edit \(edit): \(mine) EXPECTED \(expected)")
            }
            press(place)
        }
        ArticleReport.say("FINAL " + done.joined(separator: "|"))
        if let undoAll = environment[Self.undoAllVariable] {
            while !FileManager.default.fileExists(atPath: undoAll) { usleep(5_000) }
            while !status.contains("nothing to undo") { press([.key(.control("z"))]) }
            ArticleReport.say("UNDONE")
        }
        withExtendedLifetime(app) {}
    }

    /// A writer's part of a body several write (see `twoWindowsAndAnotherProgramInOneBody...`):
    /// before the `|W|` marker (typed at the start), or after the other program's `w<n> `
    /// tokens that follow it (typed at the end); the whole body when there is no marker.
    static func part(of body: String, atEnd: Bool) -> String {
        guard let marker = body.range(of: "|W|") else { return body }
        guard atEnd else { return String(body[..<marker.lowerBound]) }
        var rest = body[marker.upperBound...]
        while let token = rest.prefixMatch(of: #/w\d+ /#) { rest = rest[token.range.upperBound...] }
        return String(rest)
    }

    // MARK: Two writers

    /// How many edits each writer makes: 100, or 1,000 with `NOTES_LONG_TESTS=1`.
    var editCount: Int {
        ProcessInfo.processInfo.environment["NOTES_LONG_TESTS"] == "1" ? 1000 : 100
    }

    /// The seed of this run's random edits (printed, and read from `NOTES_TWO_PROCESS_SEED`).
    func runSeed() -> UInt64 {
        let seed =
            ProcessInfo.processInfo.environment[Self.seedVariable].flatMap(UInt64.init)
            ?? .random(in: 1...1_000_000)
        print("TwoProcessTests: NOTES_TWO_PROCESS_SEED=\(seed)")
        return seed
    }

    /// Starts one writer child per tag, each with `environment` added, and waits until each has
    /// its article open. The children start editing when the `go` file appears.
    func startWriters(
        _ environments: [(tag: String, environment: [String: String])], seed: UInt64, go: String
    ) throws -> [String: ChildProcess] {
        var children: [String: ChildProcess] = [:]
        for (index, (tag, environment)) in environments.enumerated() {
            children[tag] = try ChildProcess(
                test: "twoProcessChild",
                environment: environment.merging([
                    Self.pathVariable: notebook, Self.tagVariable: tag,
                    Self.editsVariable: "\(editCount)",
                    Self.seedVariable: "\(seed + UInt64(index))",
                    Self.goVariable: go,
                ]) { $1 })
        }
        for (tag, child) in children {
            try #require(child.waitForLine { $0 == "READY" || $0.hasPrefix("ERROR") }, "\(tag)")
        }
        return children
    }

    /// The tokens a writer child says it left in the body, once it is done editing.
    func finalTokens(of child: ChildProcess, _ tag: String) -> [String] {
        #expect(child.waitForLine(timeout: 600) { $0.hasPrefix("FINAL") }, "\(tag)")
        let final = child.lines.first { $0.hasPrefix("FINAL") } ?? ""
        return final.dropFirst("FINAL ".count).split(separator: "|").map(String.init)
    }

    func body(of id: Int64, _ database: DatabaseQueue) throws -> String? {
        try database.read {
            try $0.fetchOne(String.self, "SELECT body FROM articles WHERE id = ?", [.integer(id)])
        }
    }

    @Test func twoWritersLoseNothingAndUndoOnlyTheirOwn() throws {
        let seed = runSeed()
        let (database, _) = try NotebookOpener.open(path: notebook, seed: .welcome, undo: false)
        var ids: [String: Int64] = [:]
        for tag in ["alpha", "bravo"] {
            ids[tag] = try database.write { db in
                try Notebook.insertArticle(db, title: "Process \(tag)")
            }
        }
        let go = folder.path("go")
        let children = try startWriters([("alpha", [:]), ("bravo", [:])], seed: seed, go: go)
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        for (tag, child) in children {
            let tokens = finalTokens(of: child, tag)
            child.waitUntilExit()
            #expect(child.lines.filter { $0.hasPrefix("ERROR") } == [], "\(tag)")
            #expect(
                try body(of: ids[tag] ?? 0, database) == tokens.reversed().joined(),
                "\(tag)'s article")
        }
        let integrity = try database.read { try $0.fetchOne(String.self, "PRAGMA integrity_check") }
        #expect(integrity == "ok")
    }

    /// Two notes windows and another program write into one body
    /// at once. Window alpha types at its start, window bravo at its end, and the other program
    /// inserts its own tokens after a marker in the middle; the windows also undo and redo.
    /// No token is lost, and then each window's undo, to the bottom of its list, takes back
    /// exactly its own typing and nothing of the others'.
    @Test func twoWindowsAndAnotherProgramInOneBodyLoseNothing() throws {
        let seed = runSeed()
        let (database, _) = try NotebookOpener.open(path: notebook, seed: .welcome, undo: false)
        let id = try database.write { db in
            let id = try Notebook.insertArticle(db, title: "Shared body")
            try db.execute("UPDATE articles SET body = '|W|' WHERE id = ?", [.integer(id)])
            return id
        }
        let go = folder.path("go")
        func undoAll(_ tag: String) -> String { folder.path("undo-\(tag)") }
        let shared = [Self.searchVariable: "shared"]
        let children = try startWriters(
            [
                ("alpha", shared.merging([Self.undoAllVariable: undoAll("alpha")]) { $1 }),
                (
                    "bravo",
                    shared.merging([
                        Self.undoAllVariable: undoAll("bravo"), Self.atEndVariable: "1",
                    ]) {
                        $1
                    }
                ),
            ], seed: seed, go: go)
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        // The other program: its own connection, no undo, a token every few milliseconds.
        var random = SeededRandom(seed: seed &+ 99)
        var written: [String] = []
        for number in 1...editCount {
            let token = "w\(number) "
            try database.write {
                try $0.execute(
                    "UPDATE articles SET body = replace(body, '|W|', '|W|' || ?) WHERE id = ?",
                    [.text(token), .integer(id)])
            }
            written.append(token)
            usleep(useconds_t(2_000 + random.next() % 20_000))
        }
        let alpha = finalTokens(of: children["alpha"]!, "alpha")
        let bravo = finalTokens(of: children["bravo"]!, "bravo")
        let middle = "|W|" + written.reversed().joined()
        let all = try body(of: id, database)
        #expect(all == alpha.reversed().joined() + middle + bravo.joined(), "\(all ?? "")")

        for (tag, child) in [("alpha", children["alpha"]!), ("bravo", children["bravo"]!)] {
            _ = FileManager.default.createFile(atPath: undoAll(tag), contents: nil)
            #expect(child.waitForLine(timeout: 600) { $0 == "UNDONE" }, "\(tag)")
            child.waitUntilExit()
            #expect(child.lines.filter { $0.hasPrefix("ERROR") } == [], "\(tag)")
            let expected = tag == "alpha" ? middle + bravo.joined() : middle
            #expect(try body(of: id, database) == expected, "after \(tag)'s undos")
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
        // The first notes' history is its own while it runs.
        try second.waitUntil("the first's article, with nothing to undo") {
            $0.contains("Written by the first")
                && $0.contains(" Pane 1 │ Nothing to undo │ Nothing to redo")
        }
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
        try second.waitUntil("the article gone", timeout: 1) {
            !$0.contains("Second article by the first")
        }
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
        // The second's title bar names it, as the first's message does.
        let title = try second.waitUntil("the window named") { $0.contains("  · window ") }
        let window = try #require(
            title.split(separator: "\n").first?.split(separator: "· ").last?.trimmingCharacters(
                in: .whitespaces))
        try first.send("C-z")
        try first.waitFor("Nothing undone: pane 1 of \(window) changed Rating since")
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

    /// Two windows take back each other's steps from an article's history, again and again:
    /// each reads the other's steps as the notebook has them at the take-back, so a step the
    /// other made after this window first listed its steps is taken back, not refused.
    @Test func twoWindowsTakeBackEachOthersStepsAgainAndAgain() throws {
        let (database, _) = try NotebookOpener.open(path: notebook, seed: .welcome, undo: false)
        try database.write { try $0.execute("UPDATE articles SET rating = 0") }
        database.close()
        func rating() throws -> Int {
            let db = try DatabaseQueue(path: notebook)
            defer { db.close() }
            return try db.read { try $0.fetchOne(Int.self, "SELECT max(rating) FROM articles") }
                ?? -1
        }
        /// x in an article's history of `steps` steps, on its newest step done, `name`.
        func takeBack(_ name: String, in window: TmuxSession, amongSteps steps: String) throws {
            try window.waitFor("History of this article · \(steps)")
            try window.waitFor("x takes back \(name)")
            try window.send("x")
            try window.waitFor("Took back \(name)")
        }
        let first = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "1"], width: 120, height: 30, folder: folder)
        try first.waitFor("Welcome to notes")
        let second = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "1"], width: 120, height: 30, folder: folder)
        try second.waitFor("Welcome to notes")
        // The first rates the newest article; the second takes that back from its history.
        try first.send("3")
        try first.waitFor("Undo Set Rating")
        try second.waitFor("★★★☆☆")
        try second.send("Enter", "M-h")
        try takeBack("Set Rating", in: second, amongSteps: "1 step")
        #expect(try rating() == 0)
        // The first rates it again: a step the second has not listed yet.
        try first.waitFor("☆☆☆☆☆")
        try first.send("4")
        try first.waitFor("★★★★☆")
        try second.send("M-h")
        try takeBack("Set Rating", in: second, amongSteps: "3 steps")
        #expect(try rating() == 0)
        // And the first takes back the second's last take-back, from its own article history.
        try first.waitFor("☆☆☆☆☆")
        try first.send("Enter", "M-h")
        try takeBack("Take back Set Rating", in: first, amongSteps: "4 steps")
        #expect(try rating() == 4)
        try first.send("Escape", "C-q")
        try second.send("Escape", "C-q")
        try first.waitFor("EXIT=0")
        try second.waitFor("EXIT=0")
    }

    /// Another program's `REPLACE` deletes the row in its way without the
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

    /// What another program wrote with the checks off (an article whose author
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
        // The message is the first undo's again: the stack shows that the second was done.
        try session.send("C-z")
        try session.waitFor("Nothing to undo │ Redo Set Rating │ Undid Set Rating")
        // A rating the schema forbids, written with CHECK constraints off.
        try session.send("C-y")
        try session.waitFor("Redid Set Rating")
        try sqlite3("PRAGMA ignore_check_constraints = ON; UPDATE articles SET rating = 99")
        try session.waitFor("★★★★★")
        try session.send("1")
        // "Undo Set Rating" shows since the redo: the new rating is awaited.
        try session.waitFor("★☆☆☆☆")
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

    /// A key typed right after another program changed the open article (well
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

    /// While another program holds the notebook's write lock (the sqlite3
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
        // The shell's next prompt: it holds the lock.
        try shell.waitUntil("the prompt after BEGIN IMMEDIATE") { screen in
            let lines = screen.split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return lines.last == "sqlite>"
                && lines.dropLast().last?.contains("BEGIN IMMEDIATE") == true
        }
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
