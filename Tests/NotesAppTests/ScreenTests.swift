import TerminalUI
import Testing

@testable import NotesApp

@MainActor @Suite struct ScreenTests {
    @Test func twoPanesListArticlesNewestFirst() throws {
        let fixture = try AppFixture()
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 All articles · 3                     │ 2 All articles · 3
                 Article 3                  Alice ★★★☆☆ │ Article 3                 Alice ★★★☆☆
                 Article 2                  Alice ★★☆☆☆ │ Article 2                 Alice ★★☆☆☆
                 Article 1                  Alice ★☆☆☆☆ │ Article 1                 Alice ★☆☆☆☆
                                                        │
                                                        │
                                                        │
                                                        │
                 Pane 1 │ Nothing to undo │ Nothing to redo
                Del Delete  0-5 Rate  a Author  / Search  ^Z Undo  ^Y Redo  M-H History  ^N New
                Enter Open  ^W Next pane  ^T New pane  ^X Close pane  Esc Back  F1 Help  ^Q Quit
                """)
    }

    @Test func focusedPaneAndSelectionAreHighlighted() throws {
        let fixture = try AppFixture()
        fixture.press(.tab, .down)
        let canvas = try #require(fixture.backend.lastCanvas)
        #expect(canvas.cell(at: Point(x: 2, y: 1))?.style == Theme.header)
        #expect(canvas.cell(at: Point(x: 42, y: 1))?.style == Theme.focusedHeader)
        #expect(canvas.cell(at: Point(x: 42, y: 3))?.style == Theme.selectedFocused)
        #expect(canvas.cell(at: Point(x: 2, y: 2))?.style == Theme.selected)
        #expect(fixture.screen.contains(" Pane 2 │ Nothing to undo"))
    }

    /// The status line's message tells of the focused pane: moving to another pane clears it.
    @Test func anotherPanesMessageGoesWhenTheFocusMoves() throws {
        let fixture = try AppFixture()
        fixture.press(.character("5"), .control("z"))
        let status = { fixture.screen.split(separator: "\n")[9] }
        #expect(status() == " Pane 1 │ Nothing to undo │ Redo Set Rating │ Undid Set Rating")
        fixture.press(.control("w"))
        #expect(status() == " Pane 2 │ Nothing to undo │ Nothing to redo")
        fixture.press(.control("w"))
        #expect(status() == " Pane 1 │ Nothing to undo │ Redo Set Rating")
        // A new pane takes the focus, and starts with no message either.
        fixture.press(.control("y"), .control("z"), .control("t"))
        #expect(status() == " Pane 2 │ Nothing to undo │ Nothing to redo")
    }

    /// A title longer than a narrow pane shows its start, cut with "…", unless it is being
    /// edited: then its row is the cursor's.
    @Test func aLongTitleShowsItsStartWhenTheBodyIsEdited() throws {
        let fixture = try AppFixture()
        try fixture.db.write {
            try $0.execute(
                "UPDATE articles SET title = 'A title long enough to wrap onto a second row' "
                    + "WHERE id = 3")
        }
        fixture.app.processPendingEvents()
        fixture.press(.enter)
        let titleRow = { String(fixture.screen.split(separator: "\n")[2].prefix(39)) }
        #expect(titleRow() == " A title long enough to wrap onto a se…")
        fixture.press(.backTab, .end)
        #expect(fixture.app.panes[0].editor?.field == .title)
        #expect(titleRow() == " second row                            ")
        fixture.press(.backTab)
        #expect(titleRow() == " A title long enough to wrap onto a se…")
    }

    @Test func openedArticleShowsTitleAndBody() throws {
        let fixture = try AppFixture()
        fixture.press(.down, .enter)
        #expect(
            fixture.screen == """
                 notes  test.db
                 1 Editing                              │ 2 All articles · 3
                 Article 2                              │ Article 3                 Alice ★★★☆☆
                 ★★☆☆☆ · L1/1 0% · updated 2026-01-01T0 │ Article 2                 Alice ★★☆☆☆
                                                        │ Article 1                 Alice ★☆☆☆☆
                 Body of article 2                      │
                                                        │
                                                        │
                                                        │
                 Pane 1 │ Nothing to undo │ Nothing to redo
                ^C Copy  ^V Paste  ^F Find  ^Z Undo  ^Y Redo  M-H History  ^N New
                S-Tab Title/Body  ^X Cut  ^W Next pane  ^T New pane  Esc Back  F1 Help  ^Q Quit
                """)
        #expect(fixture.backend.cursor == Point(x: 1, y: 5))
        fixture.press(.escape)
        let lines = fixture.screen.split(separator: "\n")
        #expect(lines[1].hasPrefix(" 1 All articles · 3"))
        // The list's keys again: there letters, digits and Delete are commands.
        #expect(
            lines.suffix(2) == [
                "Del Delete  0-5 Rate  a Author  / Search  ^Z Undo  ^Y Redo  M-H History  ^N New",
                "Enter Open  ^W Next pane  ^T New pane  ^X Close pane  Esc Back  F1 Help  ^Q Quit",
            ])
    }

    @Test func helpListsEveryKeyAndAnyKeyClosesIt() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 40))
        fixture.press(.function(1))
        let help = HelpView.lines(width: 80).joined(separator: "\n")
        for key in [
            "Ctrl-Z", "Ctrl-Y", "Alt-U", "Alt-E", "Ctrl-W", "Shift-Tab", "Alt-1", "Ctrl-T",
            "Ctrl-X", "PgUp", "Enter", "Esc", "Ctrl-N", "Delete", "0 .. 5", "/", "F1", "Ctrl-Q",
        ] {
            #expect(help.contains(key), "help lacks \(key)")
        }
        #expect(fixture.screen.contains("notes — keys"))
        fixture.press(.character("x"))
        #expect(!fixture.screen.contains("notes — keys"))
    }

    /// In a narrow terminal the help wraps to its width: no key and no word of what it does is
    /// cut off (keys wider than their column, too: Ctrl-Backspace  Ctrl-Delete lost its end).
    @Test(arguments: [40, 56])
    func helpWrapsToANarrowTerminal(width: Int) throws {
        let words = { (text: String) in text.split(separator: " ").map(String.init) }
        let everyWord =
            words(HelpView.lines(width: 80)[0])
            + KeyHelp.sections.flatMap { section in
                words(section.title) + section.rows.flatMap { words($0.keys) + words($0.help) }
            }
        for screenWidth in [width, 80] {
            let lines = HelpView.lines(width: screenWidth)
            #expect(lines.allSatisfy { $0.count <= screenWidth - 1 })
            #expect(words(lines.joined(separator: " ")) == everyWord)
        }
        let fixture = try AppFixture(size: Size(width: width, height: 12))
        fixture.press(.function(1))
        let rows = fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            rows[1...10].map(String.init)
                == HelpView.lines(width: width).prefix(10).map {
                    String((" " + $0).reversed().drop { $0 == " " }.reversed())
                })
    }

    @Test func helpScrollsWhenTheTerminalIsShorterThanIt() throws {
        let fixture = try AppFixture(size: Size(width: 80, height: 24))
        // Rows 1 to 23 of the screen, and help lines as drawn there (80 wide, no trailing spaces).
        let rows = {
            fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)[1...23]
                .map(String.init)
        }
        let drawn = { (lines: ArraySlice<String>) in
            lines.map { (" " + $0).prefix(80) }.map {
                String($0.reversed().drop { $0 == " " }.reversed())
            }
        }
        let total = HelpView.lines(width: 80).count
        fixture.press(.function(1))
        #expect(
            rows()
                == drawn(HelpView.lines(width: 80).prefix(22))
                + [" ↓ \(total - 22) more lines: Down, PgDn (any other key closes)"])
        fixture.press(.down)
        #expect(
            rows()
                == drawn(HelpView.lines(width: 80).dropFirst().prefix(22))
                + [" ↓ \(total - 23) more lines: Down, PgDn (any other key closes)"])
        fixture.press(.end)
        #expect(rows() == drawn(HelpView.lines(width: 80).suffix(23)))
        fixture.press(.pageDown)  // already at the end: stays
        #expect(rows() == drawn(HelpView.lines(width: 80).suffix(23)))
        fixture.press(.home)
        #expect(rows().first?.hasPrefix(" notes — keys") == true)
        fixture.press(.character("q"))
        #expect(!fixture.screen.contains("notes — keys"))
        #expect(fixture.screen.split(separator: "\n")[1].hasPrefix(" 1 All articles"))
    }

    @Test func tooSmallTerminalSaysSoAndRecoversOnResize() throws {
        let fixture = try AppFixture(size: Size(width: 10, height: 4))
        #expect(fixture.screen == "Terminal\ntoo small:\nnotes\nneeds at")
        fixture.backend.size = Size(width: 80, height: 12)
        fixture.app.processPendingEvents()
        #expect(fixture.screen.contains("1 All articles · 3"))
        fixture.backend.size = Size(width: 39, height: 12)
        fixture.app.processPendingEvents()
        #expect(fixture.screen.hasPrefix("Terminal too small: notes needs at\nleast 40x10"))
    }

    @Test func searchFiltersAsTheUserTypes() throws {
        let fixture = try AppFixture(articles: 12)
        fixture.press(.character("/"))
        fixture.type("article 1")
        #expect(fixture.screen.contains(" 1 Search: article 1"))
        fixture.press(.enter)
        let header = fixture.screen.split(separator: "\n")[1]
        #expect(header.hasPrefix(" 1 Search: article 1 · 4"))  // 1, 10, 11, 12
        fixture.press(.escape)
        #expect(fixture.screen.split(separator: "\n")[1].hasPrefix(" 1 All articles · 12"))
    }

    @Test func newArticleShowsADimmedUntitledThatTypingReplaces() throws {
        let fixture = try AppFixture()
        // The about line shows when the article was made.
        let screen = {
            fixture.screen.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d/, with: "YYYY-MM-DDThh:mm")
        }
        fixture.press(.control("n"))
        #expect(
            screen() == """
                 notes  test.db
                 1 Editing the title                    │ 2 All articles · 4
                 Untitled                               │ Untitled                        ☆☆☆☆☆
                 ☆☆☆☆☆ · L1/1 100% · updated 2026-06-01 │ Article 3                 Alice ★★★☆☆
                                                        │ Article 2                 Alice ★★☆☆☆
                                                        │ Article 1                 Alice ★☆☆☆☆
                                                        │
                                                        │
                                                        │
                 Pane 1 │ Undo New Article │ Nothing to redo
                ^C Copy  ^V Paste  ^F Find  ^Z Undo  ^Y Redo  M-H History  ^N New
                S-Tab Title/Body  ^X Cut  ^W Next pane  ^T New pane  Esc Back  F1 Help  ^Q Quit
                """)
        let canvas = try #require(fixture.backend.lastCanvas)
        #expect(canvas.cell(at: Point(x: 1, y: 2))?.style == Theme.placeholderTitle)
        // Pane 2 lists it as a dimmed "Untitled" too; its selection stays on Article 3.
        #expect(canvas.cell(at: Point(x: 42, y: 2))?.style == CellStyle(dim: true))
        #expect(canvas.cell(at: Point(x: 42, y: 3))?.style == Theme.selected)
        #expect(fixture.backend.cursor == Point(x: 1, y: 2))
        fixture.type("Plans")
        #expect(
            screen() == """
                 notes  test.db
                 1 Editing the title                    │ 2 All articles · 4
                 Plans                                  │ Plans                           ☆☆☆☆☆
                 ☆☆☆☆☆ · L1/1 100% · updated 2026-06-01 │ Article 3                 Alice ★★★☆☆
                                                        │ Article 2                 Alice ★★☆☆☆
                                                        │ Article 1                 Alice ★☆☆☆☆
                                                        │
                                                        │
                                                        │
                 Pane 1 │ Undo Typing │ Nothing to redo
                ^C Copy  ^V Paste  ^F Find  ^Z Undo  ^Y Redo  M-H History  ^N New
                S-Tab Title/Body  ^X Cut  ^W Next pane  ^T New pane  Esc Back  F1 Help  ^Q Quit
                """)
        #expect(
            fixture.backend.lastCanvas?.cell(at: Point(x: 1, y: 2))?.style == Theme.articleTitle)
        #expect(fixture.backend.cursor == Point(x: 6, y: 2))
    }
}
