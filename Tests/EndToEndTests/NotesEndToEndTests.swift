import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// The real program in tmux against a real notebook file.
@Suite(.serialized) struct NotesEndToEndTests {
    let folder: TemporaryFolder
    var notebook: String { folder.path("notes.db") }

    init() throws {
        folder = try TemporaryFolder(prefix: "notes-e2e")
    }

    func titles() throws -> [String] {
        let db = try DatabaseQueue(path: notebook)
        return try db.read {
            try $0.fetchAll(String.self, "SELECT title FROM articles ORDER BY id")
        }
    }

    /// The status line (third line from the bottom).
    func status(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return String(lines[lines.count - 4])
    }

    @Test(arguments: [(120, 40), (80, 24)])
    func deleteUndoInTheRightPaneRedoAndHistoryAfterRestart(width: Int, height: Int) throws {
        var session: TmuxSession? = try TmuxSession(
            arguments: ["--db", notebook], width: width, height: height, folder: folder)
        try session?.waitFor("Welcome to notes")
        let all = try titles()
        #expect(all.count == 5)

        // Pane 1 deletes the second article of its list.
        try session?.send("Down", "DC")
        try session?.waitFor("Undo Delete Article")
        let remaining = try titles()
        let deleted = Set(all).subtracting(remaining)
        #expect(deleted.count == 1)
        #expect(remaining.count == 4)

        // Pane 2 has nothing to undo and says so; nothing changes.
        try session?.send("Tab", "C-z")
        try session?.waitFor("Pane 2: nothing to undo")
        #expect(try titles() == remaining)

        // Pane 1 undoes: the article is back and selected.
        try session?.send("BTab", "C-z")
        try session?.waitUntil("the undo done, its redo next in pane 1") { screen in
            status(screen).hasPrefix(" Pane 1 │ Nothing to undo │ Redo Delete Article")
                && status(screen).contains("Undid Delete Article")
        }
        #expect(try titles() == all)
        // The restored article is the selected (reverse video) row of pane 1.
        let title = try #require(deleted.first)
        try session?.waitUntil("the restored article as pane 1's selected row", styled: true) {
            styledRow($0, title.prefix(15))?.hasPrefix("\u{1B}[0;7m") ?? false
        }

        // Ctrl-Y deletes it again.
        try session?.send("C-y")
        try session?.waitFor("Redid Delete Article")
        #expect(try titles() == remaining)

        // Quit: the shell gets a sane terminal back (echo and canonical mode on).
        try session?.send("C-q")
        try session?.waitUntil("exit code 0, then the terminal's modes") {
            $0.contains("EXIT=0\nMODES icanon echo")
        }
        session = nil

        // Reopen: pane 1 can still undo.
        let reopened = try TmuxSession(
            arguments: ["--db", notebook], width: width, height: height, folder: folder)
        try reopened.waitUntil("pane 1 with its delete to undo") {
            status($0).hasPrefix(" Pane 1 │ Undo Delete Article")
        }
        try reopened.send("C-z")
        try reopened.waitFor("Undid Delete Article")
        #expect(try titles() == all)
        try reopened.send("C-q")
        try reopened.waitFor("EXIT=0")
    }

    /// Three panes, pane 3 rates an article, quit, reopen: three panes again,
    /// pane 3 focused with its history; a pane closed before quitting comes back with Alt-Z.
    @Test func layoutAndHistoryComeBackAfterARestart() throws {
        var session: TmuxSession? = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "3"], width: 100, height: 24,
            folder: folder)
        try session?.waitFor("Welcome to notes")
        try session?.send("Tab", "Tab", "4")
        try session?.waitFor("Pane 3 │ Undo Set Rating")
        try session?.send("C-q")
        try session?.waitFor("EXIT=0")
        session = nil
        // A notes that quits leaves no lease behind.
        let leases = try DatabaseQueue(path: notebook).read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM settings WHERE key LIKE 'lease.%'")
        }
        #expect(leases == 0)

        session = try TmuxSession(
            arguments: ["--db", notebook], width: 100, height: 24, folder: folder)
        try session?.waitUntil("three panes, pane 3 focused with its history") {
            $0.contains("│ 3 All articles") && status($0).hasPrefix(" Pane 3 │ Undo Set Rating")
        }
        try session?.send("C-x")
        try session?.waitFor("Closed the pane")
        try session?.send("C-q")
        try session?.waitFor("EXIT=0")
        session = nil

        let reopened = try TmuxSession(
            arguments: ["--db", notebook], width: 100, height: 24, folder: folder)
        // The whole frame, down to its last line: a capture can catch one half drawn.
        let screen = try reopened.waitUntil("two panes, drawn to the last line") {
            $0.contains("│ 2 All articles") && $0.contains("^Q Quit")
        }
        #expect(!screen.contains("3 All articles"))
        try reopened.send("M-z")
        try reopened.waitUntil("pane 3 back, focused with its history") { screen in
            status(screen).hasPrefix(" Pane 3 │ Undo Set Rating")
                && status(screen).contains("Undid a layout change")
        }
        try reopened.send("C-z")
        try reopened.waitFor("Undid Set Rating")
        try reopened.send("C-q")
        try reopened.waitFor("EXIT=0")
    }

    @Test func typingWithEmojiAndCJKThenUndoRemovesExactlyTheLastRun() throws {
        let session = try TmuxSession(
            arguments: ["--db", notebook], width: 100, height: 30, folder: folder)
        try session.waitFor("Welcome to notes")
        try session.send("C-n")
        try session.waitFor("Editing the title")
        // The new article's title is empty: its dimmed "Untitled" goes as the typing starts.
        try session.sendLiteral("Trip 旅行 ✈️")
        try session.send("Enter")
        try session.sendLiteral("Day one: 東京 🗼 was great, 寿司 everywhere.")
        try session.waitFor("寿司 everywhere.")
        try session.send("Left", "Right")  // a cursor jump ends the typing run
        try session.sendLiteral(" Day two: 京都 ⛩ and tea 🍵.")
        try session.waitFor("tea 🍵.")
        let body = {
            try DatabaseQueue(path: notebook).read {
                try $0.fetchOne(
                    Row.self, "SELECT title, body FROM articles ORDER BY id DESC LIMIT 1")?.values
            }
        }
        #expect(
            try body() == [
                "Trip 旅行 ✈️", "Day one: 東京 🗼 was great, 寿司 everywhere. Day two: 京都 ⛩ and tea 🍵.",
            ])
        try session.send("C-z")
        try session.waitUntil("the last typing run undone on the screen") {
            $0.contains("Undid Typing") && $0.contains("Day one: 東京 🗼 was great, 寿司 everywhere.")
                && !$0.contains("Day two")
        }
        #expect(try body() == ["Trip 旅行 ✈️", "Day one: 東京 🗼 was great, 寿司 everywhere."])
        try session.send("C-q")
        try session.waitFor("EXIT=0")
        // Quitting closes the notebook: its WAL is folded into the file, which is all that is
        // left, with the last edit and its undo history.
        #expect(!FileManager.default.fileExists(atPath: notebook + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: notebook + "-shm"))
        #expect(try body() == ["Trip 旅行 ✈️", "Day one: 東京 🗼 was great, 寿司 everywhere."])
        let entries = try DatabaseQueue(path: notebook).read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_barriers")
        }
        #expect(entries ?? 0 > 0)
    }

    /// Another program deletes the article open in notes: what is typed next edits nothing and
    /// never becomes a list command (a digit would rate, `a` would open the author picker).
    @Test func typingIntoAnArticleDeletedByAnotherProgramDoesNothing() throws {
        let session = try TmuxSession(
            arguments: ["--db", notebook, "--panes", "1"], width: 100, height: 30, folder: folder)
        try session.waitFor("Welcome to notes")
        try session.send("Enter")
        try session.waitFor("Editing")
        let ratings = {
            try DatabaseQueue(path: notebook).read {
                try $0.fetchAll(Int.self, "SELECT rating FROM articles ORDER BY id")
            }
        }
        try DatabaseQueue(path: notebook).write {
            try $0.execute(
                "DELETE FROM articles WHERE id = (SELECT id FROM articles ORDER BY updatedAt DESC LIMIT 1)"
            )
        }
        try session.waitFor("This article was deleted while open here.")
        let before = try ratings()
        try session.sendLiteral("I give it 5 stars, a")
        try session.waitFor("This article was deleted: Esc goes back to the list")
        // The message comes at the first key: Ctrl-S, which only says something, shows once
        // every key typed before it was handled.
        try session.send("C-s")
        let screen = try session.waitFor("Saved: notes writes every change as you make it")
        #expect(try ratings() == before)
        #expect(!screen.contains(" Author: "))
        try session.send("Escape")
        try session.waitFor("All articles · 4")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    @Test func badNotebookIsRefusedUntouched() throws {
        let path = folder.path("letter.txt")
        let text = Data("Dear diary, this is not a database.\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        let session = try TmuxSession(arguments: ["--db", path], folder: folder)
        let screen = try session.waitFor("EXIT=1")
        #expect(
            screen.contains(
                "notes: \(path) is not a database (file is not SQLite); nothing was changed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }
}
