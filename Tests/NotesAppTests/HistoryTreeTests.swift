import Foundation
import NoteStore
import SQLiteUndo
import TerminalUI
import Testing

@testable import NotesApp

/// The history tree in the app: a rating after undos keeps the undone ratings as a branch,
/// drawn just above the step it forks at; Enter goes to a step of the branch; Alt-- and Alt-=
/// walk the pane's states in the order they were made, across branches.
@MainActor @Suite struct HistoryTreeTests {
    func ratings(_ fixture: AppFixture) throws -> [Int] {
        try fixture.db.read { try $0.fetchAll(Int.self, "SELECT rating FROM articles ORDER BY id") }
    }

    /// Rates Article 1 (the list's last row) 2, 3 and 4, a minute apart, undoes twice, and
    /// rates it 5: the ratings 3 and 4 are a branch forking at the rating 2.
    func rateWithABranch(_ fixture: AppFixture) {
        fixture.press(.end)
        for rating in ["2", "3", "4"] {
            fixture.press(.character(Character(rating)))
            fixture.clock.advance(by: 60)
        }
        fixture.press(.control("z"), .control("z"))
        fixture.clock.advance(by: 60)
        fixture.press(.character("5"))
        fixture.clock.advance(by: 60)
    }

    @Test func theBranchIsDrawnAboveTheStepItForksAt() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 14))
        rateWithABranch(fixture)
        #expect(try ratings(fixture) == [5, 2, 3])
        fixture.press(.alt("h"))
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 History · 4 steps                    │ 2 All articles · 3
                ───────────────── now ──────────────────│ Article 1                 Alice ★★★★★
                 Set Rating · Article 1 ★★★★★ 1 min ago │ Article 3                 Alice ★★★☆☆
                 ├ Set Rating · Articl… ★★★★☆ 3 min ago │ Article 2                 Alice ★★☆☆☆
                 ├ Set Rating · Articl… ★★★☆☆ 4 min ago │
                 Set Rating · Article 1 ★★☆☆☆ 5 min ago │
                                                        │
                                                        │
                                                        │
                                                        │
                 Pane 1 │ Undo Set Rating │ Nothing to redo │ x takes back Set Rating · Article…
                Enter Go to  x Take back  Esc Close  ^Z Undo  ^Y Redo  M-H History  ^N New
                ^W Next pane  ^T New pane  ^X Close pane  F1 Help  ^Q Quit
                """)
        // The branch's steps are dimmed, also without color; the status line says Enter goes
        // there.
        let canvas = try #require(fixture.backend.lastCanvas)
        #expect(canvas.cell(at: Point(x: 3, y: 4))?.style.dim == true)
        #expect(canvas.cell(at: Point(x: 3, y: 6))?.style.dim == false)
        fixture.press(.down)
        #expect(fixture.app.message == "On a branch: Enter goes to Set Rating · Article 1 ★★★★☆")
        fixture.press(.character("x"))
        #expect(fixture.app.message == "Set Rating is on a branch: Enter goes to it")
        #expect(try ratings(fixture) == [5, 2, 3])
        fixture.press(.enter)
        #expect(try ratings(fixture) == [4, 2, 3])
        #expect(fixture.app.message == "Undid 1, redid 2 steps: Set Rating, Set Rating, Set Rating")
        // The branch left is drawn where it forks now: the rating 5, above the rating 2.
        fixture.press(.alt("h"))
        let lines = fixture.screen.split(separator: "\n").map(String.init)
        #expect(lines[3].hasPrefix(" Set Rating · Article 1 ★★★★☆"))
        #expect(lines[4].hasPrefix(" Set Rating · Article 1 ★★★☆☆"))
        #expect(lines[5].hasPrefix(" ├ Set Rating · Articl… ★★★★★"))
        #expect(lines[6].hasPrefix(" Set Rating · Article 1 ★★☆☆☆"))
    }

    @Test func altMinusAndAltEqualsWalkTheStatesInTheOrderTheyWereMade() throws {
        // Article 1 starts at 0: the walk reads 0, 1, 2, 3, 5.
        let fresh = try AppFixture(size: Size(width: 80, height: 14))
        try fresh.db.write { try $0.execute("UPDATE article_rows SET rating = 0 WHERE id = 1") }
        // The article changed last is the list's first.
        fresh.press(.home)
        for rating in ["1", "2", "3"] { fresh.press(.character(Character(rating))) }
        fresh.press(.control("z"), .control("z"), .character("5"))
        #expect(try ratings(fresh)[0] == 5)
        var back: [Int] = []
        for _ in 0..<4 {
            fresh.press(.alt("-"))
            back.append(try ratings(fresh)[0])
        }
        #expect(back == [3, 2, 1, 0])
        #expect(fresh.app.message == "Back in time to the start: undid 1 step")
        fresh.press(.alt("-"))
        #expect(fresh.app.message == "Pane 1: no earlier state")
        var forward: [Int] = []
        for _ in 0..<4 {
            fresh.press(.alt("="))
            forward.append(try ratings(fresh)[0])
        }
        #expect(forward == [1, 2, 3, 5])
        #expect(
            fresh.app.message
                == "Forward in time to Set Rating: undid 2, redid 1 step")
        fresh.press(.alt("="))
        #expect(fresh.app.message == "Pane 1: no later state")
    }

    @Test func altMinusWorksInAnOpenArticleAndAfterTypingOnABranch() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 14))
        let body = { fixture.app.focusedPane.editor?.body.text }
        fixture.press(.enter, .control("a"))  // Article 3's body, at its start
        fixture.type("one ")
        fixture.clock.advance(by: 60)
        fixture.press(.control("z"))
        #expect(body() == "Body of article 3")
        fixture.type("two ")
        fixture.clock.advance(by: 60)
        // Back in time: the typing "two " goes, then "one " comes back; forward again.
        fixture.press(.alt("-"))
        #expect(body() == "one Body of article 3")
        fixture.press(.alt("-"))
        #expect(body() == "Body of article 3")
        fixture.press(.alt("="), .alt("="))
        #expect(body() == "two Body of article 3")
        #expect(fixture.app.message == "Forward in time to Typing: undid 1, redid 1 step")
    }

    @Test func anArticlesHistoryListsItsBranchesAndGoesToThem() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 14), panes: 1)
        let body = { fixture.app.focusedPane.editor?.body.text }
        fixture.press(.enter, .control("a"))  // Article 3's body, at its start
        fixture.type("a ")
        fixture.clock.advance(by: 60)
        fixture.press(.control("z"))
        fixture.type("b ")
        fixture.clock.advance(by: 60)
        fixture.press(.alt("h"))
        let lines = fixture.screen.split(separator: "\n").map(String.init)
        #expect(lines[2].hasPrefix(" ├ Pane 1 · Typing \"a \" · Article 3: Body "))
        #expect(lines[3].hasPrefix("─") && lines[3].contains(" now "))
        #expect(lines[4].hasPrefix(" Pane 1 · Typing \"b \" · Article 3: Body "))
        fixture.press(.up)
        #expect(fixture.app.message == "On a branch: Enter goes to Typing \"a \" · Article 3: Body")
        fixture.press(.enter)
        #expect(body() == "a Body of article 3")
        #expect(fixture.app.message == "Undid 1, redid 1 step: Typing, Typing")
    }

    @Test func aNarrowPaneShowsTheBranch() throws {
        let fixture = try AppFixture(size: Size(width: 56, height: 10))
        rateWithABranch(fixture)
        fixture.press(.alt("h"))
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 History · 4 steps        │ 2 All articles · 3
                ─────────── now ────────────│ Article 1           ★★★★★
                 Set Rating · Articl… ★★★★★ │ Article 3           ★★★☆☆
                 ├ Set Rating · Arti… ★★★★☆ │ Article 2           ★★☆☆☆
                 ├ Set Rating · Arti… ★★★☆☆ │
                 Set Rating · Articl… ★★☆☆☆ │
                 Pane 1 │ Undo Set Rating │ Nothing to redo │ x takes b…
                Enter Go to  x Take back  Esc Close  ^Z Undo  ^Y Redo
                ^W Next pane  ^T New pane  ^X Close pane  F1 Help
                """)
    }

    /// The tree at 80x24 and 120x40, one pane, the whole screen: the ages at the right edge.
    @Test(arguments: [(80, 24), (120, 40)])
    func theTreeFillsAnyTerminal(width: Int, height: Int) throws {
        let fixture = try AppFixture(size: Size(width: width, height: height), panes: 1)
        rateWithABranch(fixture)
        fixture.press(.alt("h"))
        let step = { (words: String, age: String) in
            words + String(repeating: " ", count: width - 1 - words.count - age.count) + age
        }
        let status =
            width == 80
            ? " Pane 1 │ Undo Set Rating │ Nothing to redo │ x takes back Set Rating · Article…"
            : " Pane 1 │ Undo Set Rating │ Nothing to redo │ x takes back Set Rating · Article 1 ★★★★★"
        let expected =
            [
                " notes  test.db", " 1 History · 4 steps",
                String(repeating: "─", count: (width - 5) / 2) + " now "
                    + String(repeating: "─", count: width - 5 - (width - 5) / 2),
                step(" Set Rating · Article 1 ★★★★★", "1 min ago"),
                step(" ├ Set Rating · Article 1 ★★★★☆", "3 min ago"),
                step(" ├ Set Rating · Article 1 ★★★☆☆", "4 min ago"),
                step(" Set Rating · Article 1 ★★☆☆☆", "5 min ago"),
            ] + Array(repeating: "", count: height - 10) + [
                status,
                "Enter Go to  x Take back  Esc Close  ^Z Undo  ^Y Redo  M-H History  ^N New",
                "^W Next pane  ^T New pane  ^X Close pane  F1 Help  ^Q Quit",
            ]
        #expect(fixture.screen == expected.joined(separator: "\n"))
    }
}

/// Rows that say what each step changed: the text typed or deleted, a paste's and a cut's size,
/// and a step taken back marked with the take-back that took it back.
@MainActor @Suite struct HistoryRowWordsTests {
    /// A paste into a new article's empty body writes new chunks of the body, not an edit of
    /// one: its row still counts what it pasted.
    @Test func aPasteIntoAnEmptyBodyCountsWhatItPasted() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 16), panes: 1)
        fixture.press(.control("n"), .enter)
        fixture.clock.advance(by: 60)
        fixture.backend.enqueue(.paste("short paste"))
        fixture.app.processPendingEvents()
        fixture.clock.advance(by: 60)
        fixture.press(.alt("h"))
        let lines = fixture.screen.split(separator: "\n").map(String.init)
        #expect(lines[3].hasPrefix(" Pane 1 · Paste 11 characters · Untitled "))
    }

    @Test func typingPastingAndCuttingSayWhatTheyChanged() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 16), panes: 1)
        fixture.press(.enter, .control("a"))  // Article 3's body, at its start
        fixture.type("second ")
        fixture.clock.advance(by: 60)
        fixture.press(.backspace, .backspace)
        fixture.clock.advance(by: 60)
        fixture.press(.shift(.right), .shift(.right), .shift(.right), .control("x"))
        fixture.clock.advance(by: 60)
        fixture.press(.control("v"), .control("v"))
        fixture.clock.advance(by: 60)
        fixture.press(.alt("h"))
        let lines = fixture.screen.split(separator: "\n").map(String.init)
        // An open article's history: each step's pane first.
        #expect(lines[3].hasPrefix(" Pane 1 · Paste 3 characters · Article 3 "))
        #expect(lines[4].hasPrefix(" Pane 1 · Paste 3 characters · Article 3 "))
        #expect(lines[5].hasPrefix(" Pane 1 · Cut 3 characters · Article 3 "))
        #expect(lines[6].hasPrefix(" Pane 1 · Delete Text \"d \" · Article 3 "))
        #expect(lines[7].hasPrefix(" Pane 1 · Typing \"second \" · Article 3: Body "))
    }

    @Test func aStepTakenBackIsMarkedWithTheTakeBack() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 14), panes: 1)
        // Article 3 (the list's first) rated 4, then Article 2 rated 5.
        fixture.press(.character("4"), .down)
        fixture.clock.advance(by: 60)
        fixture.press(.character("5"))
        fixture.clock.advance(by: 60)
        fixture.press(.alt("h"), .end, .character("x"))
        #expect(fixture.app.message == "Took back Set Rating")
        fixture.press(.alt("h"))
        let lines = fixture.screen.split(separator: "\n").map(String.init)
        #expect(lines[3].hasPrefix(" Take back Set Rating · Article 3 "))
        #expect(lines[4].hasPrefix(" Set Rating · Article 2 ★★★★★ "))
        #expect(
            lines[5].hasPrefix(
                " Set Rating · Article 3 · taken back by Take back Set Rating ★★★★☆ "))
        fixture.press(.end)
        #expect(
            fixture.app.message
                == "Enter undoes 2 steps · x would change nothing: taken back by Take back Set Rating"
        )
        // Undone, the take-back marks nothing.
        fixture.press(.escape, .control("z"), .alt("h"))
        #expect(!fixture.screen.contains("taken back by"))
    }
}
