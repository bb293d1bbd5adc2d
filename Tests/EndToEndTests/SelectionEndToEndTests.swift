import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// With the real program in tmux: a pane's selection stays on its
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

    /// The first row of a styled screen (`TmuxSession.waitUntil(styled: true)`) that shows
    /// `title`, with its attributes.
    func styledRow(_ styled: String, _ title: some StringProtocol) -> String? {
        styled.components(separatedBy: "\n").first { $0.contains(title) }
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
        // Pane 1 at the top of its list (pane 2 showed Art 300 all along).
        try session.waitUntil("pane 1 back at the top") {
            $0.split(separator: "\n").dropFirst(2).first?.hasPrefix(" Art 300 ") ?? false
        }
        try session.send("C-z")
        // Art 001 is back, shown, and the selected (reverse video) row of pane 1.
        try session.waitUntil("Art 001 back as pane 1's selected row", styled: true) { screen in
            let row = styledRow(screen, "Art 001") ?? ""
            return screen.contains("Undid Delete Article")
                && (row.hasPrefix("\u{1B}[0;7m") || row.hasPrefix("\u{1B}[7m"))
        }
        #expect(try titles().count == 300)
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }
}
