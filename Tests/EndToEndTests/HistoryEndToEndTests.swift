import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// With the real program in tmux: the history panel's x and Enter on three
/// ratings, and an article's history of two panes.
extension NotesEndToEndTests {
    /// Ratings by title.
    func ratings() throws -> [String: Int] {
        let db = try DatabaseQueue(path: notebook)
        defer { db.close() }
        return try db.read { db in
            Dictionary(
                uniqueKeysWithValues: try db.fetchAll(
                    Row.self, "SELECT title, rating FROM articles"
                ).map { (try $0.decode(at: 0) as String, try $0.decode(at: 1) as Int) })
        }
    }

    @Test func theHistoryPanelTakesBackOneRatingAndGoesBackToAStep() throws {
        try makeNotebook(articles: 5)
        let session = try TmuxSession(
            arguments: ["--db", notebook], width: 80, height: 24, folder: folder)
        try session.waitFor("Art 005")
        // Three ratings on three articles in pane 1 (a rated article moves to the top).
        try session.send("3")
        try session.waitFor("Undo Set Rating")
        try session.send("Down", "4")
        try session.waitFor("★★★★☆")
        try session.send("Down", "Down", "5")
        try session.waitFor("★★★★★")
        #expect(
            try ratings() == ["Art 001": 0, "Art 002": 0, "Art 003": 5, "Art 004": 4, "Art 005": 3])
        // Alt-H, the oldest, x: only that article's rating goes back.
        try session.send("M-h")
        try session.waitFor("History · 3 steps")
        try session.send("End")
        try session.waitFor("Enter undoes 2 steps · x takes b")
        try session.send("x")
        try session.waitFor("Took back Set Rating")
        #expect(
            try ratings() == ["Art 001": 0, "Art 002": 0, "Art 003": 5, "Art 004": 4, "Art 005": 0])
        // Ctrl-Z brings it back.
        try session.send("C-z")
        try session.waitFor("Redo Take back Set Rating")
        #expect(try ratings()["Art 005"] == 3)
        // Alt-H, Enter on the oldest: the two newer ratings are undone, in one go.
        try session.send("M-h")
        // The rows under "now" are drawn after it: the panel is waited for whole.
        try session.waitUntil("the take-back, now, then the undone ratings") { screen in
            let lines = screen.split(separator: "\n")
            return lines.count > 4 && lines[2].hasPrefix(" Take back Set Rating · Art 005")
                && lines[3].contains("─ now ─") && lines[4].hasPrefix(" Set Rating · Art 003")
        }
        try session.send("End", "Enter")
        try session.waitFor("Undid 2 steps: Set Rat")
        #expect(
            try ratings() == ["Art 001": 0, "Art 002": 0, "Art 003": 0, "Art 004": 0, "Art 005": 3])
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    @Test func anArticlesHistoryListsBothPanesAndTakesBackTheOthersStep() throws {
        try makeNotebook(articles: 3)
        let session = try TmuxSession(
            arguments: ["--db", notebook], width: 120, height: 30, folder: folder)
        try session.waitFor("Art 003")
        // Pane 2 rates Art 003, then pane 1 rates it; both open it and type in its title.
        try session.send("Tab", "2")
        try session.waitFor("Pane 2 │ Undo Set Rating")
        try session.send("Tab", "4")
        try session.waitFor("Pane 1 │ Undo Set Rating")
        try session.send("C-w", "Enter", "BTab", "Home")
        try session.sendLiteral("P2 ")
        try session.waitFor("P2 Art 003")
        try session.send("C-w")
        try session.waitFor("Pane 1 │")
        try session.send("Enter", "BTab", "End")
        try session.sendLiteral(" P1")
        try session.waitFor("P2 Art 003 P1")
        try session.send("M-h")
        // The steps are drawn under the title: the panel is waited for whole.
        try session.waitUntil("the article's four steps, newest first") { screen in
            let lines = screen.split(separator: "\n")
            return screen.contains("History of this article · 4 steps") && lines.count > 6
                && lines[2].hasPrefix("─") && lines[2].contains(" now ")
                && lines[3].hasPrefix(" Pane 1 · Typing \" P1\" · P2 Art 003 P1: Title")
                && lines[4].hasPrefix(" Pane 2 · Typing \"P2 \" · P2 Art 003 P1: Title")
                && lines[5].hasPrefix(" Pane 1 · Set Rating · P2 Art 003 P1")
                && lines[6].hasPrefix(" Pane 2 · Set Rating · P2 Art 003 P1")
        }
        // x on pane 2's typing, from pane 1: pane 1's later typing stays, and it says so.
        try session.send("Down")
        try session.waitFor(
            "x takes back Typing \"P2 \" · P2 Art 003 P1: Title (a step of pane 2)")
        try session.send("x")
        try session.waitFor("Took back Typing; kept what pane 1 did since")
        #expect(try titles() == ["Art 001", "Art 002", "Art 003 P1"])
        // x on pane 2's rating: pane 1 rated the article since, so nothing changes.
        try session.send("M-h")
        try session.waitFor("History of this article · 5 steps")
        try session.send("End", "x")
        try session.waitFor("Nothing taken back: this pane changed Rating since")
        #expect(try ratings()["Art 003 P1"] == 4)
        // The take-back is pane 1's step: Ctrl-Z in pane 1 brings pane 2's typing back.
        try session.send("C-z")
        try session.waitFor("Undid Take back Typing")
        #expect(try titles() == ["Art 001", "Art 002", "P2 Art 003 P1"])
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }
}
