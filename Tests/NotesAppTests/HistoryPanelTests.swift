import Foundation
import NoteStore
import SQLiteUndo
import TerminalUI
import Testing

@testable import NotesApp

/// The history panel (Alt-H): a pane's steps newest first with the undone ones above
/// "now", going to any point (Enter), taking back one step (x), an article's steps of every
/// pane, live updates, and how it fits small terminals.
@MainActor @Suite struct HistoryPanelTests {
    /// Ratings 4, 5 and 3 on Articles 3, 2 and 1 (each rated article moves to the top), a
    /// minute apart.
    func rateThree(_ fixture: AppFixture) {
        for (title, rating) in [("Article 3", "4"), ("Article 2", "5"), ("Article 1", "3")] {
            select(title, fixture)
            fixture.press(.character(Character(rating)))
            fixture.clock.advance(by: 60)
        }
    }

    /// Selects the article titled `title` in the focused pane's list (after the column of
    /// marks: `+` on a row an undo brought back).
    func select(_ title: String, _ fixture: AppFixture) {
        let index = fixture.backend.screenText.split(separator: "\n").dropFirst(2)
            .firstIndex { $0.dropFirst().hasPrefix("\(title) ") }!
        fixture.press(.home)
        for _ in 0..<(index - 2) { fixture.press(.down) }
    }

    /// Opens the article titled `title` from the focused pane's list.
    func open(_ title: String, _ fixture: AppFixture) {
        select(title, fixture)
        fixture.press(.enter)
    }

    func ratings(_ fixture: AppFixture) throws -> [Int] {
        try fixture.db.read { try $0.fetchAll(Int.self, "SELECT rating FROM articles ORDER BY id") }
    }

    func statusLine(_ fixture: AppFixture) -> String {
        let lines = fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)
        return String(lines[lines.count - 3])
    }

    @Test func thePanelListsThePanesStepsWithTheUndoneAboveNow() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 14))
        #expect(try ratings(fixture) == [1, 2, 3])
        rateThree(fixture)
        #expect(try ratings(fixture) == [3, 5, 4])
        fixture.press(.control("z"))
        fixture.press(.alt("h"))
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 History · 3 steps                    │ 2 All articles · 3
                 Set Rating · Article 1 ★★★☆☆ 1 min ago │ Article 2                 Alice ★★★★★
                ───────────────── now ──────────────────│ Article 3                 Alice ★★★★☆
                 Set Rating · Article 2 ★★★★★ 2 min ago │ Article 1                 Alice ★☆☆☆☆
                 Set Rating · Article 3 ★★★★☆ 3 min ago │
                                                        │
                                                        │
                                                        │
                                                        │
                                                        │
                 Pane 1 │ Undo Set Rating │ Redo Set Rating │ x takes back Set Rating · Article…
                Enter Go to  x Take back  Esc Close  ^Z Undo  ^Y Redo  M-H History  ^N New
                ^W Next pane  ^T New pane  ^X Close pane  F1 Help  ^Q Quit
                """)
        // The newest step done is selected; the undone one is dimmed, also without color.
        let canvas = try #require(fixture.backend.lastCanvas)
        #expect(canvas.cell(at: Point(x: 3, y: 4))?.style == Theme.selectedFocused)
        #expect(canvas.cell(at: Point(x: 3, y: 2))?.style.dim == true)
        #expect(canvas.cell(at: Point(x: 3, y: 5))?.style == .plain)
        #expect(app(fixture).message == "x takes back Set Rating · Article 2 ★★★★★")
        // Moving passes over "now"; the status line says what Enter and x would do.
        fixture.press(.down)
        #expect(
            app(fixture).message
                == "Enter undoes 1 step · x takes back Set Rating · Article 3 ★★★★☆")
        fixture.press(.up, .up)
        #expect(
            app(fixture).message == "Undone: Enter redoes 1 step up to Set Rating · Article 1 ★★★☆☆"
        )
        fixture.press(.escape)
        #expect(fixture.screen.split(separator: "\n")[1].hasPrefix(" 1 All articles · 3"))
        #expect(try ratings(fixture) == [1, 5, 4])
        // The panel's words about its step go with it.
        #expect(statusLine(fixture) == " Pane 1 │ Undo Set Rating │ Redo Set Rating")
    }

    func app(_ fixture: AppFixture) -> NotesApp { fixture.app }

    /// A take-back when the history is full (`levelsOfUndo`): the oldest step goes as it comes,
    /// so the list keeps its length; it still says what it took back and closes the panel.
    @Test func aTakeBackInAFullHistorySaysItTookBack() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 14))
        fixture.app.panes[0].stack?.levelsOfUndo = 3
        rateThree(fixture)
        fixture.press(.alt("h"), .end)
        #expect(
            app(fixture).message
                == "Enter undoes 2 steps · x takes back Set Rating · Article 3 ★★★★☆")
        fixture.press(.character("x"))
        #expect(app(fixture).message == "Took back Set Rating")
        #expect(try ratings(fixture) == [3, 5, 3])
        #expect(fixture.app.panes[0].historyPanel == nil)
        #expect(fixture.app.panes[0].stack?.state.undo.count == 3)
    }

    /// x on the oldest of three ratings: only its article's rating goes back, the other two
    /// stay; the take-back is a step, and Ctrl-Z brings the rating back.
    @Test func xTakesBackOneStepAndCtrlZBringsItBack() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 14))
        rateThree(fixture)
        fixture.press(.alt("h"), .end)
        #expect(
            app(fixture).message
                == "Enter undoes 2 steps · x takes back Set Rating · Article 3 ★★★★☆")
        fixture.press(.character("x"))
        #expect(try ratings(fixture) == [3, 5, 3])
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 All articles · 3                     │ 2 All articles · 3
                 Article 1                  Alice ★★★☆☆ │ Article 1                 Alice ★★★☆☆
                 Article 2                  Alice ★★★★★ │ Article 2                 Alice ★★★★★
                +Article 3                  Alice ★★★☆☆ │ Article 3                 Alice ★★★☆☆
                                                        │
                                                        │
                                                        │
                                                        │
                                                        │
                                                        │
                 Pane 1 │ Undo Take back Set Rating │ Nothing to redo │ Took back Set Rating
                Del Delete  0-5 Rate  a Author  / Search  ^Z Undo  ^Y Redo  M-H History  ^N New
                Enter Open  ^W Next pane  ^T New pane  ^X Close pane  Esc Back  F1 Help  ^Q Quit
                """)
        fixture.press(.control("z"))
        #expect(try ratings(fixture) == [3, 5, 4])
        #expect(app(fixture).message == "Undid Take back Set Rating")
        fixture.press(.alt("h"))
        #expect(fixture.screen.contains(" Take back Set Rating · Article 3"))
    }

    /// Enter on the oldest step undoes the two above it, in one go; Enter on the farthest
    /// undone step redoes them.
    @Test func enterGoesToAStep() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 14))
        rateThree(fixture)
        fixture.press(.alt("h"), .end, .enter)
        #expect(try ratings(fixture) == [1, 2, 4])
        #expect(app(fixture).message == "Undid 2 steps: Set Rating, Set Rating")
        // What came back is shown, as after Ctrl-Z.
        #expect(
            fixture.screen.split(separator: "\n")[2...4] == [
                " Article 3                  Alice ★★★★☆ │ Article 3                 Alice ★★★★☆",
                "+Article 2                  Alice ★★☆☆☆ │ Article 2                 Alice ★★☆☆☆",
                "+Article 1                  Alice ★☆☆☆☆ │ Article 1                 Alice ★☆☆☆☆",
            ])
        fixture.press(.alt("h"), .home)
        #expect(
            fixture.screen.split(separator: "\n")[2...5] == [
                " Set Rating · Article 1 ★★★☆☆ 1 min ago │ Article 3                 Alice ★★★★☆",
                " Set Rating · Article 2 ★★★★★ 2 min ago │ Article 2                 Alice ★★☆☆☆",
                "───────────────── now ──────────────────│ Article 1                 Alice ★☆☆☆☆",
                " Set Rating · Article 3 ★★★★☆ 3 min ago │",
            ])
        #expect(
            app(fixture).message
                == "Undone: Enter redoes 2 steps up to Set Rating · Article 1 ★★★☆☆")
        fixture.press(.enter)
        #expect(try ratings(fixture) == [3, 5, 4])
        #expect(app(fixture).message == "Redid 2 steps: Set Rating, Set Rating")
        // Enter on the newest step done: already there.
        fixture.press(.alt("h"), .enter)
        #expect(app(fixture).message == "Already there: Set Rating is the newest step done")
    }

    /// In an open article, the steps of every pane that touched it, labelled; x on another
    /// pane's step keeps what this pane changed since, and says so.
    @Test func anArticlesHistoryListsEveryPanesSteps() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 14))
        fixture.press(.tab, .character("5"))  // pane 2 rates Article 3
        fixture.clock.advance(by: 60)
        fixture.press(.tab, .character("1"))  // pane 1 rates it later
        fixture.clock.advance(by: 60)
        fixture.press(.enter)
        fixture.type("New ")
        fixture.clock.advance(by: 30)
        fixture.press(.alt("h"))
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 History of this article · 3 steps              │ 2 All articles · 3
                ────────────────────── now ───────────────────────│ Article 3                           Alice ★☆☆☆☆
                 Pane 1 · Typing "New " · Article 3: Bo… 30 s ago │ Article 2                           Alice ★★☆☆☆
                 Pane 1 · Set Rating · Article 3 ★☆☆☆☆  1 min ago │ Article 1                           Alice ★☆☆☆☆
                 Pane 2 · Set Rating · Article 3 ★★★★★  2 min ago │
                                                                  │
                                                                  │
                                                                  │
                                                                  │
                                                                  │
                 Pane 1 │ Undo Typing │ Nothing to redo │ x takes back Typing "New " · Article 3: Body
                Enter Go to  x Take back  Esc Close  ^Z Undo  ^Y Redo  M-H History  ^N New
                ^W Next pane  ^T New pane  ^X Close pane  F1 Help  ^Q Quit
                """)
        fixture.press(.down, .down)
        #expect(
            app(fixture).message
                == "x would change nothing: this pane changed Rating since (a step of pane 2)")
        fixture.press(.enter)
        #expect(
            app(fixture).message
                == "Enter goes back in this pane's own steps; x takes back pane 2's")
        fixture.press(.character("x"))
        #expect(app(fixture).message == "Nothing taken back: this pane changed Rating since")
        #expect(try ratings(fixture) == [1, 2, 1])
        // Nothing changed: the panel stays open, for another step.
        #expect(fixture.screen.split(separator: "\n")[1].hasPrefix(" 1 History of this article"))
        // The typing is taken back from the list of the article's steps, as a step of pane 1.
        fixture.press(.home, .character("x"))
        #expect(app(fixture).message == "Took back Typing")
        #expect(
            fixture.screen.split(separator: "\n")[5] == " Body of article 3"
                + String(repeating: " ", count: 32) + "│")
    }

    /// An article's history has its "now" line, with the undone steps above it; what the status
    /// line says Enter does is counted in the pane's own list (steps that did not touch the
    /// article too), and is what Enter does.
    @Test func anArticlesHistoryCountsWhatEnterDoes() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 14))
        let original = try ratings(fixture)
        rateThree(fixture)
        #expect(try ratings(fixture) == [3, 5, 4])
        open("Article 3", fixture)
        fixture.press(.alt("h"))
        #expect(
            fixture.screen.split(separator: "\n")[1...3] == [
                " 1 History of this article · 1 step               │ 2 All articles · 3",
                "────────────────────── now ───────────────────────│ Article 1                           Alice ★★★☆☆",
                " Pane 1 · Set Rating · Article 3 ★★★★☆  3 min ago │ Article 2                           Alice ★★★★★",
            ])
        #expect(
            app(fixture).message
                == "Enter undoes 2 steps · x takes back Set Rating · Article 3 ★★★★☆")
        fixture.press(.enter)
        #expect(app(fixture).message == "Undid 2 steps: Set Rating, Set Rating")
        #expect(try ratings(fixture) == [original[0], original[1], 4])
        // Its own rating undone too: it is above "now", and Enter redoes that one step.
        fixture.press(.control("z"))
        #expect(try ratings(fixture) == original)
        open("Article 3", fixture)
        fixture.press(.alt("h"))
        #expect(
            fixture.screen.split(separator: "\n")[2...3].map { $0.prefix(51) } == [
                " Pane 1 · Set Rating · Article 3 ★★★★☆  3 min ago │",
                "────────────────────── now ───────────────────────│",
            ])
        fixture.press(.up)
        #expect(
            app(fixture).message == "Undone: Enter redoes 1 step up to Set Rating · Article 3 ★★★★☆"
        )
        fixture.press(.enter)
        #expect(app(fixture).message == "Redid 1 step: Set Rating")
        #expect(try ratings(fixture) == [original[0], original[1], 4])
    }

    /// Another pane's step appears in an open article's history as it happens.
    @Test func theArticlesHistoryFollowsOtherPanes() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 14))
        fixture.press(.enter, .alt("h"))
        #expect(
            fixture.screen.split(separator: "\n")[2] == " No steps touched this article yet"
                + String(repeating: " ", count: 16)
                + "│ Article 3                           Alice ★★★☆☆")
        fixture.press(.control("w"), .character("4"), .control("w"))
        #expect(
            fixture.screen.split(separator: "\n")[1...3] == [
                " 1 History of this article · 1 step               │ 2 All articles · 3",
                "────────────────────── now ───────────────────────│ Article 3                           Alice ★★★★☆",
                " Pane 2 · Set Rating · Article 3 ★★★★☆        now │ Article 2                           Alice ★★☆☆☆",
            ])
    }

    /// A narrow pane drops "how long ago"; an empty history says so.
    @Test func aNarrowPaneShowsTheStepsOnly() throws {
        let fixture = try AppFixture(size: Size(width: 56, height: 10))
        fixture.press(.alt("h"))
        #expect(fixture.screen.split(separator: "\n")[2].hasPrefix(" No steps yet: what this"))
        fixture.press(.escape, .character("4"), .alt("h"))
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 History · 1 step         │ 2 All articles · 3
                ─────────── now ────────────│ Article 3           ★★★★☆
                 Set Rating · Articl… ★★★★☆ │ Article 2           ★★☆☆☆
                                            │ Article 1           ★☆☆☆☆
                                            │
                                            │
                 Pane 1 │ Undo Set Rating │ Nothing to redo │ x takes b…
                Enter Go to  x Take back  Esc Close  ^Z Undo  ^Y Redo
                ^W Next pane  ^T New pane  ^X Close pane  F1 Help
                """)
    }

    /// A run of typing in the middle of a long body (kept as packed edits of its chunk), taken
    /// back from the panel after a later run elsewhere in the body: only its text goes, the
    /// later run stays, and what the editor shows is what is stored.
    @Test func aTypingRunInALongBodyIsTakenBackAlone() throws {
        let fixture = try AppFixture(articles: 1, size: Size(width: 100, height: 20))
        let line = "lorem ipsum dolor sit amet, 😀 consectetur adipiscing elit.\n"
        let original = String(repeating: line, count: 800)
        try fixture.db.write { try Notebook.updateBody($0, ofArticle: 1, to: original) }
        fixture.press(.enter)
        for _ in 0..<400 { fixture.press(.down) }
        fixture.type("FIRST ")
        fixture.press(.left, .right)
        for _ in 0..<300 { fixture.press(.down) }
        fixture.type("SECOND ")
        fixture.press(.left, .right)
        let stored = { try fixture.db.read { try Notebook.article($0, id: 1)?.body } }
        let typed = try #require(try stored())
        #expect(typed.contains("FIRST ") && typed.contains("SECOND "))
        fixture.press(.alt("h"))
        let lines = fixture.screen.split(separator: "\n")
        #expect(lines[2].hasPrefix("────────────────────── now ───────────────────────│"))
        #expect(lines[3].hasPrefix(" Pane 1 · Typing \"SECOND \" · Article 1: Body  now │"))
        #expect(lines[4].hasPrefix(" Pane 1 · Typing \"FIRST \" · Article 1: Body   now │"))
        fixture.press(.down, .character("x"))
        #expect(fixture.app.message == "Took back Typing; kept what pane 1 did since")
        let body = try #require(try stored())
        #expect(body == typed.replacingOccurrences(of: "FIRST ", with: ""))
        #expect(fixture.app.panes[0].editor?.body.text == body)
        fixture.press(.control("z"))
        #expect(try stored() == typed)
        #expect(fixture.app.panes[0].editor?.body.text == typed)
    }

    /// The panel at 80x24 and 120x40: the same lines, "how long ago" at the right edge.
    @Test(arguments: [(80, 24), (120, 40)])
    func thePanelFillsAnyTerminal(width: Int, height: Int) throws {
        let fixture = try AppFixture(
            articles: 30, size: Size(width: width, height: height), panes: 1)
        // 25 ratings of the article on top, 10 s apart: 1, 2, 1, 2, …
        for index in 0..<25 {
            fixture.press(.character(index.isMultiple(of: 2) ? "1" : "2"))
            fixture.clock.advance(by: 10)
        }
        fixture.press(.alt("h"))
        let lines = fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == height)
        #expect(lines[1].hasPrefix(" 1 History · 25 steps"))
        #expect(lines[2].hasPrefix("─") && lines[2].contains(" now "))
        #expect(lines[3].hasPrefix(" Set Rating · Article "))
        #expect(lines[3].hasSuffix("10 s ago"))
        #expect(height < 28 || lines[27].hasSuffix("4 min ago"))
        let shown = min(25, height - 6)
        #expect(lines[3..<(3 + shown)].allSatisfy { $0.hasPrefix(" Set Rating · Article ") })
        // End goes to the oldest: the panel scrolls, the selection stays on screen.
        fixture.press(.end)
        let scrolled = fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)
        let lastStep = scrolled[2..<(height - 3)].last { !$0.hasSuffix("│") && !$0.isEmpty }
        #expect(lastStep?.hasPrefix(" Set Rating · Article 30") == true)
        #expect(lastStep?.hasSuffix("4 min ago") == true)
        #expect(fixture.app.message?.hasPrefix("Enter undoes 24 steps") == true)
    }

    /// A step whose rows are gone is named as it recorded them: "Delete Author · Alice and 3
    /// articles"; taking it back brings them back.
    @Test func aDeletedAuthorIsNamedAsTheStepRecordedIt() throws {
        let fixture = try AppFixture(size: Size(width: 100, height: 14))
        fixture.press(.character("a"), .delete, .character("y"))
        #expect(try fixture.titles().isEmpty)
        fixture.press(.alt("h"))
        #expect(
            fixture.screen.split(separator: "\n")[3].hasPrefix(
                " Delete Author · Alice and 3 articles"))
        fixture.press(.character("x"))
        #expect(fixture.app.message == "Took back Delete Author")
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
    }
}
