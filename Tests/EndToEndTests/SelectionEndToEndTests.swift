import Foundation
import SQLiteDatabase
import Testing

/// Issue 18, items 1 and 2, with the real program in tmux: a pane's selection stays on its
/// article whatever other panes do, and an undo selects and shows the article it brought back.
extension NotesEndToEndTests {
    /// A notebook of `count` articles "Art 001" (oldest) to "Art NNN" (newest, first in the
    /// list), made by notes and filled in with SQL as another program would.
    func makeNotebook(articles count: Int) throws {
        let first = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try first.waitFor("Welcome to notes")
        try first.send("C-q")
        try first.waitFor("EXIT=0")
        let db = try DatabaseQueue(path: notebook)
        try db.write { db in
            try db.execute("DELETE FROM articles")
            try db.execute(
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO articles(title, body, authorId, rating, createdAt, updatedAt)
                SELECT printf('Art %03d', x), 'Body ' || x, (SELECT min(id) FROM authors), 0,
                    printf('2020-01-01T00:00:%02d.%03dZ', x / 1000, x % 1000),
                    printf('2020-01-01T00:00:%02d.%03dZ', x / 1000, x % 1000)
                FROM n
                """, [.integer(Int64(count))])
        }
        db.close()
    }

    /// The screen row that shows `title` in the left pane, with its attributes.
    func styledRow(_ session: TmuxSession, _ title: String) throws -> String? {
        try session.styledLines().first { $0.contains(title) }
    }

    @Test func theSelectionStaysOnItsArticleWhenAnotherPaneMovesOne() throws {
        try makeNotebook(articles: 30)
        let session = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try session.waitFor("Art 030")
        // Pane 1 selects Art 025; pane 2 rates Art 020, which moves to the top of both lists.
        for _ in 0..<5 { try session.send("Down") }
        try session.send("Tab")
        for _ in 0..<10 { try session.send("Down") }
        try session.send("5")
        try session.waitFor("Pane 2 │ Undo Set Rating")
        // Pane 1 deletes what it selected: Art 025, not the article now at its old position.
        try session.send("BTab", "DC")
        try session.waitFor("Pane 1 │ Undo Delete Article")
        let left = try titles()
        #expect(!left.contains("Art 025"))
        #expect(left.count == 29)
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    @Test func undoOfTheLastArticleSelectsAndShowsIt() throws {
        try makeNotebook(articles: 300)
        let session = try TmuxSession(
            arguments: ["--db", notebook], width: 80, height: 24, folder: folder)
        try session.waitFor("Art 300")
        try session.send("End")
        try session.waitFor("Art 001")
        try session.send("DC")
        try session.waitFor("Undo Delete Article")
        try session.send("Home")
        try session.waitFor("Art 300")
        try session.send("C-z")
        try session.waitFor("Undid Delete Article")
        // Art 001 is back, shown, and the selected (reverse video) row of pane 1.
        let row = try #require(try styledRow(session, "Art 001"))
        #expect(
            row.hasPrefix("\u{1B}[0;7m") || row.hasPrefix("\u{1B}[7m"), "\(row.debugDescription)")
        #expect(try titles().count == 300)
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }
}
