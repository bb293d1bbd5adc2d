import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// With the real program in tmux: a rating after undos keeps the undone ratings as a branch;
/// Alt-- and Alt-= walk the pane's states in time, across branches, also after a restart; and
/// another pane's edits are kept on the way.
extension NotesEndToEndTests {
    /// The rating of the article titled `title`, once it is `expected` (read from the file
    /// until then, up to 10 s): the screen can say a step's name before the file has it.
    func waitForRating(_ expected: Int, of title: String) throws {
        let deadline = Date().addingTimeInterval(10)
        var rating: Int?
        while Date() < deadline {
            rating = try ratings()[title]
            if rating == expected { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("\(title) is rated \(rating.map(String.init) ?? "nil"), not \(expected)")
    }

    /// Selects the article titled `title` in the right pane of two (the focused one): its list
    /// rows start on the screen's third line.
    func selectInRightPane(_ title: String, _ session: TmuxSession) throws {
        let lines = try session.screen().split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(
            lines.indices.first {
                $0 >= 2 && lines[$0].dropFirst(lines[$0].count / 2).contains(title)
            })
        try session.send("Home")
        for _ in 0..<(row - 2) { try session.send("Down") }
    }

    /// Rates the article titled `title` `rating` in pane 2, then focuses pane 1 again.
    func rateInTheOtherPane(_ title: String, _ rating: Int, _ session: TmuxSession) throws {
        try session.send("Tab")
        try session.waitFor("Pane 2 │")
        try selectInRightPane(title, session)
        try session.send("\(rating)")
        try waitForRating(rating, of: title)
        try session.send("Tab")
        try session.waitFor("Pane 1 │")
    }

    /// Presses `key` once for each of `ratings`, each time waiting for the article titled
    /// `title` to have that rating.
    func press(_ key: String, _ session: TmuxSession, reading ratings: [Int], of title: String)
        throws
    {
        for rating in ratings {
            try session.send(key)
            try waitForRating(rating, of: title)
        }
    }

    /// Rates the selected article 1, 2 and 3, undoes twice and rates it 5; returns its title.
    func rateWithABranch(_ session: TmuxSession) throws -> String {
        try session.send("1")
        try session.waitFor("Undo Set Rating")
        let title = try #require(try ratings().first { $0.value == 1 }?.key)
        for rating in [2, 3] {
            try session.send("\(rating)")
            try waitForRating(rating, of: title)
        }
        try session.send("C-z")
        try waitForRating(2, of: title)
        try session.send("C-z")
        try waitForRating(1, of: title)
        try session.send("5")
        try waitForRating(5, of: title)
        return title
    }

    @Test func altMinusAndAltEqualsWalkTheRatingsInTimeAcrossABranchAndARestart() throws {
        try makeNotebook(articles: 3)
        var session = try TmuxSession(
            arguments: ["--db", notebook], width: 80, height: 24, folder: folder)
        try session.waitFor("Art 003")
        let title = try rateWithABranch(session)
        try press("M--", session, reading: [3, 2, 1, 0], of: title)
        // The status line's message is cut at 80 columns.
        try session.waitFor("Back in time to the start")
        try session.send("M--")
        try session.waitFor("Pane 1: no earlier state")
        try press("M-=", session, reading: [1, 2, 3, 5], of: title)
        try session.waitFor("Forward in time to Set Rating")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
        // After a restart the branch is there: drawn in the panel, and Alt-- reaches it.
        session = try TmuxSession(
            arguments: ["--db", notebook], width: 80, height: 24, folder: folder)
        try session.waitFor("Art 003")
        try session.send("M-h")
        try session.waitUntil("the branch above the rating it forks at") { screen in
            let lines = screen.split(separator: "\n")
            return screen.contains("History · 4 steps") && lines.count > 6
                && lines[3].hasPrefix(" Set Rating · \(title) ★★★★★")
                && lines[4].hasPrefix(" ├ Set Rating · \(title) ★★★☆☆")
                && lines[5].hasPrefix(" ├ Set Rating · \(title) ★★☆☆☆")
                && lines[6].hasPrefix(" Set Rating · \(title) ★☆☆☆☆")
        }
        try session.send("Escape")
        try press("M--", session, reading: [3, 2], of: title)
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }

    @Test func goingBackInTimeKeepsAnotherPanesEdits() throws {
        try makeNotebook(articles: 3)
        let session = try TmuxSession(
            arguments: ["--db", notebook], width: 120, height: 30, folder: folder)
        try session.waitFor("Art 003")
        let title = try rateWithABranch(session)
        // Pane 2 rates another article, then the same one.
        let other = try #require(try ratings().keys.sorted().first { $0 != title })
        try rateInTheOtherPane(other, 4, session)
        try session.send("M--")
        try waitForRating(3, of: title)
        #expect(try ratings()[other] == 4)
        // Pane 2 rates pane 1's article: pane 1's next step back keeps that rating.
        try rateInTheOtherPane(title, 1, session)
        try session.send("M--")
        try session.waitFor("pane 2 changed")
        #expect(try ratings()[title] == 1)
        #expect(try ratings()[other] == 4)
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }
}
