import Foundation
import NotesApp
import SQLiteDatabase
import TestSupport
import Testing

/// Every bad command line, notebook and terminal `notes` can be given: each ends with a one-line
/// message naming the problem and the file, the documented exit code (1 notebook unusable,
/// 2 usage, 3 no terminal), and the folder exactly as it was: same files, same bytes.
///
/// Notebook problems run in a tmux terminal, because the terminal is checked first: without one,
/// every run ends with exit code 3 before the notebook is looked at (`noTerminalComesFirst`).
@Suite(.serialized) final class BadInputTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder(prefix: "notes-bad-input")
    }

    func path(_ name: String) -> String { folder.path(name) }

    /// Every file under the folder with its bytes (folders as empty data with a trailing "/";
    /// links, pipes and the like, unread, as empty data after their name and type).
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = folder.url.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        while let name = walker.nextObject() as? String {
            let full = root + "/" + name
            let type = try FileManager.default.attributesOfItem(atPath: full)[.type]
            switch type as? FileAttributeType {
            case .typeDirectory: files[name + "/"] = Data()
            case .typeRegular: files[name] = try Data(contentsOf: URL(fileURLWithPath: full))
            default: files["\(name) \(String(describing: type))"] = Data()
            }
        }
        return files
    }

    /// A welcome notebook as the first run makes it, closed (its WAL folded into the file).
    /// - Parameter journal: the journal mode to leave it in; `delete` is how a copy made by
    ///   another tool may come.
    func makeNotebook(_ name: String, journal: String = "wal", then sql: String? = nil) throws
        -> String
    {
        let file = path(name)
        do {
            let (database, _) = try NotebookOpener.open(path: file, seed: .welcome, undo: false)
            if let sql { try database.write { try $0.execute(sql) } }
        }
        if journal != "wal" {
            let database = try DatabaseQueue(path: file)
            try database.withoutTransaction { try $0.execute("PRAGMA journal_mode = \(journal)") }
        }
        #expect(!FileManager.default.fileExists(atPath: file + "-wal"))
        return file
    }

    /// Runs `notes --db file` in a terminal and checks the message, the exit code, that the
    /// terminal is sane afterwards and that the folder is unchanged.
    /// - Parameter drive: Types into the terminal once `notes` started.
    func expectRefusal(
        _ file: String, exitCode: Int32 = 1, message: String,
        drive: ((String) throws -> Void)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try snapshot()
        let outcome = try NotesRunner.inTerminal(["--db", file], folder: folder, drive: drive)
        #expect(outcome.status == exitCode, sourceLocation: sourceLocation)
        #expect(outcome.errors == "notes: \(message)\n", sourceLocation: sourceLocation)
        #expect(outcome.modes == "icanon echo", sourceLocation: sourceLocation)
        #expect(try snapshot() == before, "the folder changed", sourceLocation: sourceLocation)
    }

    // MARK: Notebooks

    @Test(arguments: ["text", "binary", "empty-header"])
    func fileThatIsNotSQLite(kind: String) throws {
        let file = path("\(kind).db")
        let bytes: Data
        switch kind {
        case "text": bytes = Data("Dear diary,\nthis is not a database.\n".utf8)
        case "binary": bytes = try Data(contentsOf: URL(fileURLWithPath: TmuxSession.notesBinary))
        default: bytes = Data("SQLite format 3".utf8)  // a header cut short
        }
        try bytes.write(to: URL(fileURLWithPath: file))
        try expectRefusal(
            file, message: "\(file) is not a database (file is not SQLite); nothing was changed")
    }

    @Test func truncatedNotebook() throws {
        let full = try makeNotebook("full.db")
        let file = path("truncated.db")
        try Data(contentsOf: URL(fileURLWithPath: full)).prefix(8192)
            .write(to: URL(fileURLWithPath: file))
        try FileManager.default.removeItem(atPath: full)
        try expectRefusal(
            file, message: "\(file) is damaged (corrupt or truncated database); nothing was changed"
        )
    }

    @Test func notebookWithADamagedSchemaPage() throws {
        let file = try makeNotebook("damaged.db")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for offset in 100..<400 { bytes[offset] = 0xEE }
        try bytes.write(to: URL(fileURLWithPath: file))
        try expectRefusal(
            file, message: "\(file) is damaged (corrupt or truncated database); nothing was changed"
        )
    }

    /// A damaged page of the articles table is found when the notebook opens, not when a pane
    /// first reads it.
    @Test func notebookWithADamagedArticlesPage() throws {
        let file = try makeNotebook("damaged-articles.db")
        let root = try DatabaseQueue(path: file).read {
            try $0.fetchOne(
                Int.self, "SELECT rootpage FROM sqlite_schema WHERE name = 'article_rows'")
        }
        let page = try #require(root)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for offset in (page - 1) * 4096..<(page - 1) * 4096 + 200 { bytes[offset] = 0xEE }
        try bytes.write(to: URL(fileURLWithPath: file))
        try expectRefusal(
            file, message: "\(file) is damaged (corrupt or truncated database); nothing was changed"
        )
    }

    /// A notebook in use is checked for damage beside its first frame, which does not wait for
    /// the check (it reads the whole file). A key that would write, pressed at once, waits for it:
    /// the damage is refused as at opening, and nothing is written, not even the lease of the
    /// panes' undo stacks. The notebook is big enough for the check to take a while, and the
    /// damaged page holds the oldest articles, which the first frame does not read.
    @Test func keyPressedAtOnceOnABigDamagedNotebookWritesNothing() throws {
        let file = try makeNotebook(
            "big-damaged.db",
            then: """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 30000)
                INSERT INTO articles(title, body, createdAt, updatedAt)
                SELECT 'Article ' || x, substr(replace(hex(zeroblob(50)), '00', 'lorem ipsum '), 1, 500),
                       strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + x, 'unixepoch'),
                       strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + x, 'unixepoch')
                FROM n
                """)
        // Opened once with undo, as in use: the engine's tables are there (installing them
        // writes, so it would wait for the check at opening).
        try NotebookOpener.open(path: file, seed: .welcome, undo: true).0.close()
        #expect(!FileManager.default.fileExists(atPath: file + "-wal"))
        let leaf = try DatabaseQueue(path: file).read {
            try $0.fetchOne(
                Int.self,
                """
                SELECT pageno FROM dbstat WHERE name = 'article_chunks' AND pagetype = 'leaf'
                ORDER BY path LIMIT 1 OFFSET 10
                """)
        }
        let page = try #require(leaf)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for offset in (page - 1) * 4096..<(page - 1) * 4096 + 200 { bytes[offset] = 0xEE }
        try bytes.write(to: URL(fileURLWithPath: file))
        // Ctrl-N writes a new article, on pages the damage spared.
        try expectRefusal(
            file,
            message: "\(file) is damaged (corrupt or truncated database); nothing was changed",
            drive: { session in try TmuxSession.tmux(["send-keys", "-t", session, "C-n"]) })
    }

    /// Read-only notebooks are refused rather than opened read-only: every key in notes writes.
    @Test func readOnlyNotebook() throws {
        let file = try makeNotebook("readonly.db")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        try expectRefusal(
            file, message: "\(file) is read-only (no write permission); nothing was changed")
    }

    @Test func folderWithoutWritePermission() throws {
        let locked = path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        let existing = locked + "/notes.db"
        try FileManager.default.moveItem(atPath: try makeNotebook("notes.db"), toPath: existing)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        defer {
            try? FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: locked)
        }
        for file in [existing, locked + "/new.db"] {
            try expectRefusal(
                file,
                message:
                    "cannot open \(file): the folder \(locked) is not writable; nothing was changed"
            )
        }
    }

    @Test func pathInAMissingFolder() throws {
        let file = path("missing/deeper/notes.db")
        try expectRefusal(
            file,
            message: "cannot open \(file): the folder \(path("missing/deeper")) does not exist")
    }

    @Test func pathThatIsAFolder() throws {
        let file = path("a-folder.db")
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        try expectRefusal(file, message: "\(file) is a folder, not a database file")
    }

    /// A pipe would block notes' first read for good (no key got it out).
    @Test func pathThatIsAPipe() throws {
        let file = path("notes.db")
        #expect(mkfifo(file, 0o600) == 0)
        try expectRefusal(
            file,
            message: "\(file) is not a file (a device, a pipe or a socket); nothing was changed")
    }

    @Test func linkToAFileThatDoesNotExist() throws {
        let file = path("notes.db")
        let target = path("gone/notes.db")
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: target)
        try expectRefusal(
            file, message: "cannot open \(file): it links to \(target), which does not exist")
    }

    /// A crash left the latest edits in the WAL, and its header got damaged.
    /// SQLite would read the log as empty and delete it at close; notes refuses the notebook and
    /// leaves both files as they are, so the edits can still be recovered.
    @Test func notebookWhoseLogHeaderIsDamaged() throws {
        let source = try makeNotebook("source.db")
        let file = path("crashed.db")
        do {
            // A writer that never closes, as after SIGKILL: its commits are in the WAL only.
            let writer = try DatabaseQueue(path: source)
            try writer.write {
                try $0.execute("INSERT INTO articles(title) VALUES ('Only in the log')")
            }
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: file + suffix)
            }
            withExtendedLifetime(writer) {}
        }
        let log = try FileHandle(forUpdating: URL(fileURLWithPath: file + "-wal"))
        try log.write(contentsOf: Data(count: 32))
        try log.close()
        try expectRefusal(
            file,
            message:
                "\(file)-wal, the log of the latest changes to \(file), is damaged; nothing was "
                + "changed (both files are kept as they are)")
    }

    /// A notebook from a newer notes records a migration this one does not know; it is refused
    /// before anything is written, even the switch to WAL of a file in another journal mode.
    @Test(arguments: ["wal", "delete"])
    func notebookFromANewerVersion(journal: String) throws {
        let file = try makeNotebook(
            "newer-\(journal).db", journal: journal,
            then: "INSERT INTO sqlitedatabase_migrations(name) VALUES ('notestore-99-future')")
        try expectRefusal(
            file,
            message:
                "\(file): the database was written by a newer version (unknown migrations: "
                + "notestore-99-future); nothing was changed")
    }

    @Test(arguments: ["wal", "delete"])
    func databaseThatIsNotANotebook(journal: String) throws {
        let file = path("other-\(journal).db")
        do {
            let database = try DatabaseQueue(path: file)
            try database.write { try $0.execute("CREATE TABLE recipes(name TEXT)") }
            try database.withoutTransaction {
                try $0.execute("PRAGMA journal_mode = \(journal)")
            }
        }
        try expectRefusal(
            file, message: "\(file) is an SQLite database but not a notebook; nothing was changed")
    }

    /// Another program (the `sqlite3` shell) holds the write lock for longer than the 5 s busy
    /// timeout; in WAL mode, and in rollback mode where notes would switch the file to WAL.
    @Test(arguments: ["wal", "delete"])
    func notebookLockedByAnotherWriter(journal: String) throws {
        let file = try makeNotebook("locked-\(journal).db", journal: journal)
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let held = path("held")
        let released = path("released")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [
            file, "BEGIN IMMEDIATE", "UPDATE articles SET rating = rating",
            ".shell touch \(held); while [ ! -e \(released) ]; do sleep 0.05; done", "COMMIT",
        ]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer { holder.waitUntilExit() }
        defer { _ = FileManager.default.createFile(atPath: released, contents: nil) }
        while !FileManager.default.fileExists(atPath: held) {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let start = Date()
        let outcome = try NotesRunner.inTerminal(["--db", file], folder: folder)
        let waited = Date().timeIntervalSince(start)
        #expect(outcome.status == 1)
        #expect(
            outcome.errors
                == "notes: \(file) is locked by another program (waited 5 s); nothing was changed\n"
        )
        #expect(outcome.modes == "icanon echo")
        #expect(waited >= 5)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
    }

    // MARK: Command line

    @Test(arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--panes", "0"], "--panes takes a number from 1 to 9, not '0'"),
        (["--panes", "99"], "--panes takes a number from 1 to 9, not '99'"),
        (["--panes", "two"], "--panes takes a number from 1 to 9, not 'two'"),
        (["--panes"], "--panes needs a value"),
    ])
    func badCommandLine(arguments: [String], message: String) throws {
        let file = try makeNotebook("notes.db")
        let before = try snapshot()
        // A usage error wins over everything else, with or without a terminal.
        for outcome in [
            try NotesRunner.withoutTerminal(["--db", file] + arguments),
            try NotesRunner.inTerminal(["--db", file] + arguments, folder: folder),
        ] {
            #expect(outcome.status == 2)
            let lines = outcome.errors.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "notes: \(message)"[...])
            #expect(outcome.errors == "notes: \(message)\n\(CommandLineOptions.usage)\n")
        }
        #expect(try snapshot() == before)
    }

    // MARK: Terminals

    /// Without a usable terminal notes says so and exits 3 before it creates anything: neither
    /// the default notebook's folder nor a notebook given with --db.
    @Test(arguments: [
        (["TERM": ""], [] as [String], false, "notes needs a terminal (TERM is not set)"),
        ([:], ["TERM"], false, "notes needs a terminal (TERM is not set)"),
        (["TERM": "dumb"], [], false, "notes needs a terminal with cursor movement (TERM is dumb)"),
        (
            ["TERM": "vt-nonesuch"], [], false,
            "notes does not know the terminal \"vt-nonesuch\" (no terminfo entry); "
                + "try TERM=xterm-256color"
        ),
        ([:], [], true, "notes needs a terminal (standard input or output is not one)"),
    ])
    func unusableTerminal(
        environment: [String: String], unsetting: [String], pipingOutput: Bool, message: String
    ) throws {
        let data = path("data")
        for arguments in [[], ["--db", path("given.db")]] {
            let outcome = try NotesRunner.inTerminal(
                arguments, environment: environment.merging(["XDG_DATA_HOME": data]) { $1 },
                unsetting: unsetting, pipingOutput: pipingOutput, folder: folder)
            #expect(outcome.status == 3)
            #expect(outcome.errors == message + "\n")
            #expect(outcome.modes == "icanon echo")
            #expect(try snapshot() == [:], "something was created")
        }
    }

    @Test func noTerminalComesFirst() throws {
        let file = path("letter.db")
        let letter = Data("not a database".utf8)
        try letter.write(to: URL(fileURLWithPath: file))
        let outcome = try NotesRunner.withoutTerminal(
            ["--db", file], environment: ["XDG_DATA_HOME": path("data")])
        #expect(
            outcome
                == NotesRunner.Outcome(
                    status: 3,
                    errors: "notes needs a terminal (standard input or output is not one)\n"))
        #expect(try snapshot() == ["letter.db": letter])
    }

    /// A 10x4 terminal shows that it is too small; growing it brings the notebook up.
    @Test func tinyTerminalSaysTooSmallAndRecoversOnResize() throws {
        let file = try makeNotebook("notes.db")
        let session = try TmuxSession(
            arguments: ["--db", file], width: 10, height: 4, folder: folder)
        try session.waitFor("too small")
        try TmuxSession.tmux(["resize-window", "-t", session.name, "-x", "100", "-y", "30"])
        try session.waitFor("Welcome to notes")
        try TmuxSession.tmux(["resize-window", "-t", session.name, "-x", "10", "-y", "4"])
        try session.waitFor("too small")
        try TmuxSession.tmux(["resize-window", "-t", session.name, "-x", "100", "-y", "30"])
        try session.waitUntil("the notebook again, redrawn over the message") {
            $0.contains("Welcome to notes") && !$0.contains("too small")
        }
        try session.send("C-q")
        // tmux does not restore the shell's screen resized in between: it can show through.
        try session.waitUntil("exit code 0 and the terminal's modes") {
            $0.contains("EXIT=0") && $0.contains("MODES icanon echo")
        }
    }
}
