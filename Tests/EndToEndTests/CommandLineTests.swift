import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// `notes` without a terminal: export, help, version.
@Suite struct CommandLineTests {
    /// The folder of the test's notebook.
    let folder: TemporaryFolder
    /// The test's notebook, not made until the test makes it.
    var notebook: String { folder.path("notes.db") }

    init() throws {
        folder = try TemporaryFolder(prefix: "notes-cli")
    }

    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TmuxSession.notesBinary)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            errors: String(decoding: err, as: UTF8.self))
    }

    @Test func exportOfAWelcomeNotebook() throws {
        let path = notebook
        let missing = try run(["export", "--db", path, "--format", "markdown"])
        #expect(missing.status == 1)
        #expect(missing.errors == "notes: \(path) does not exist\n")
        try seedWelcome(path)
        let json = try run(["export", "--db", path])
        #expect(json.status == 0)
        let decoded =
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let articles = decoded?["articles"] as? [[String: Any]]
        #expect(articles?.count == 5)
        #expect((articles?.first?["title"] as? String)?.hasPrefix("Welcome to notes") == true)
        let markdown = try run(["export", "--db", path, "--format", "markdown"])
        #expect(markdown.status == 0)
        #expect(markdown.output.contains("## Welcome to notes 👋"))
        let bad = try run(["export", "--db", path, "--format", "pdf"])
        #expect(bad.status == 2)
        #expect(
            bad.errors.hasPrefix(
                "notes: unknown export format 'pdf' (json or markdown)\nusage: notes"))
    }

    /// What another program wrote cannot drive the terminal of whoever prints
    /// the export, and a row of the wrong shape is named and skipped, the rest exported.
    @Test func exportShowsControlCharactersAndSkipsRowsItCannotRead() throws {
        let path = notebook
        try seedWelcome(path)
        // The sqlite3 shell, as another program writes: foreign keys off (its default).
        try TmuxSession.sqlite3(
            path,
            """
            INSERT INTO articles(id, title, body) VALUES
                (100, 'Title' || char(27) || ']0;pwned' || char(7),
                 'clip' || char(27) || ']52;c;ZXZpbA==' || char(7) || char(27) || '[2J'
                    || char(155) || '31m' || char(13) || 'over' || char(13, 10) || 'end'),
                (101, 'Bad author', 'kept out');
            UPDATE articles SET authorId = 'abc' || char(27) || '[2J' WHERE id = 101;
            """)
        let markdown = try run(["export", "--db", path, "--format", "markdown"])
        #expect(markdown.status == 0)
        #expect(!markdown.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
        #expect(markdown.output.contains("## Title^[]0;pwned^G\n"))
        #expect(markdown.output.contains("clip^[]52;c;ZXZpbA==^G^[[2J<U+009B>31m^Mover\nend\n"))
        #expect(markdown.output.contains("## Welcome to notes 👋"))
        #expect(!markdown.output.contains("kept out"))
        #expect(
            markdown.errors
                == "notes: skipped article 101: column authorId holds 'abc^[[2J', not a whole number or NULL\n"
        )
        let json = try run(["export", "--db", path])
        #expect(json.status == 0)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.output.utf8))
        let articles = try #require((decoded as? [String: Any])?["articles"] as? [[String: Any]])
        #expect(articles.map { $0["id"] as? Int } == [1, 2, 3, 4, 5, 100])
        #expect(json.errors == markdown.errors)
    }

    /// Makes a welcome notebook the way the first run does, without a terminal.
    func seedWelcome(_ path: String) throws {
        let result = try run(["--db", path])
        // No terminal here: the editor refuses with exit code 3 before touching the file.
        #expect(result.status == 3)
        #expect(!FileManager.default.fileExists(atPath: path))
        let session = try TmuxSession(
            arguments: ["--db", path],
            folder: folder)
        try session.waitFor("Welcome to notes")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    @Test func helpAndVersionPrintAndExitZero() throws {
        let help = try run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: notes [PATH] [--panes N] [--demo] [--no-undo]\n"))
        let version = try run(["--version"])
        #expect(version == Result(status: 0, output: "notes 0.1.0\n", errors: ""))
        let unknown = try run(["--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.hasPrefix("notes: unknown option '--frobnicate'\nusage: notes"))
    }
}

extension CommandLineTests {
    /// `notes PATH` opens the notebook at PATH, as `notes --db PATH` does, and so does
    /// `notes export PATH`.
    @Test func theNotebookIsTheArgumentThatIsNotAnOption() throws {
        let path = notebook
        let session = try TmuxSession(
            arguments: [path, "--panes", "1"],
            folder: folder)
        try session.waitUntil("the notebook's name and its list") { screen in
            let lines = screen.split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return screen.contains("Welcome to notes")
                && lines.prefix(2) == ["notes  \(path)", "1 All articles · 5"]
        }
        try session.send("C-q")
        try session.waitFor("EXIT=0")
        let byArgument = try run(["export", path, "--format", "markdown"])
        #expect(byArgument.status == 0)
        #expect(byArgument.output.contains("## Welcome to notes 👋"))
        #expect(byArgument == (try run(["export", "--format", "markdown", "--db", path])))
    }

    @Test(arguments: [
        (["a.db", "b.db"], "two notebooks given, 'a.db' and 'b.db': notes opens one"),
        (["a.db", "--db", "b.db"], "two notebooks given, 'a.db' and 'b.db': notes opens one"),
        (
            ["export", "--db", "a.db", "b.db"],
            "two notebooks given, 'a.db' and 'b.db': notes opens one"
        ),
        (["--demo", "a.db"], "--demo opens its own throwaway notebook, not 'a.db': drop one"),
        (["-a.db"], "unknown option '-a.db'"),
    ])
    func oneNotebookAtMost(arguments: [String], message: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TmuxSession.notesBinary)
        process.currentDirectoryURL = folder.url
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let text = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(text.hasPrefix("notes: \(message)\nusage: notes [PATH]"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }
}

extension CommandLineTests.Result: Equatable {}
