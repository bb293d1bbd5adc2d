import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// Find in an open article (Ctrl-F): a prompt in the status line, the cursor at the first match
/// after it, every match on screen marked; F3, Shift-F3 and Ctrl-G go on, wrapping with a word.
/// And a search in the list counts what it finds, and opens an article at its first match.
@MainActor @Suite struct FindTests {
    func cursor(_ fixture: AppFixture) -> Int? {
        fixture.app.focusedPane.editor?.body.cursorOffset
    }

    func statusLine(_ fixture: AppFixture) -> String {
        String(fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)[13])
    }

    /// The cells of the body's first row in the match style, as "m", in the style of the match
    /// at the cursor, as "c", else ".".
    func matchedCells(_ fixture: AppFixture, count: Int) throws -> String {
        let canvas = try #require(fixture.backend.lastCanvas)
        return String(
            (1...count).map {
                switch canvas.cell(at: Point(x: $0, y: 5))?.style {
                case Theme.match: "m"
                case Theme.currentMatch: "c"
                default: "."
                }
            })
    }

    @Test func typingMovesToTheFirstMatchAndMarksEveryMatch() throws {
        let fixture = try AppFixture.openingArticle(withBody: "Alpha beta ALPHA gamma alpha")
        fixture.press(.right, .control("f"))
        fixture.type("alp")
        #expect(statusLine(fixture) == " Find: alp")
        #expect(fixture.backend.cursor == Point(x: 10, y: 13))
        // The first match after the cursor; all three marked, in any case.
        #expect(cursor(fixture) == 11)
        #expect(try matchedCells(fixture, count: 28) == "mmm........ccc.........mmm..")
        fixture.press(.function(3))
        #expect(try matchedCells(fixture, count: 28) == "mmm........mmm.........ccc..")
        fixture.press(.shift(.function(3)))
        fixture.press(.enter)
        #expect(statusLine(fixture).hasPrefix(" Pane 1 │ Nothing to undo"))
        fixture.type("x")
        #expect(fixture.app.focusedPane.editor?.body.text == "Alpha beta xALPHA gamma alpha")
    }

    @Test func nextAndPreviousWrapWithAWord() throws {
        let fixture = try AppFixture.openingArticle(withBody: "one two one three one")
        fixture.press(.control("f"))
        fixture.type("one")
        #expect(cursor(fixture) == 0)
        fixture.press(.function(3))
        #expect(cursor(fixture) == 8)
        fixture.press(.control("g"))
        #expect(cursor(fixture) == 18)
        fixture.press(.function(3))
        #expect(cursor(fixture) == 0)
        #expect(fixture.app.message == "Wrapped to the top")
        #expect(statusLine(fixture) == " Find: one │ Wrapped to the top")
        fixture.press(.shift(.function(3)))
        #expect(cursor(fixture) == 18)
        #expect(fixture.app.message == "Wrapped to the bottom")
        // After Enter, F3 and Shift-F3 go on with the same text.
        fixture.press(.enter, .shift(.function(3)))
        #expect(cursor(fixture) == 8)
        #expect(fixture.app.message == nil)
    }

    @Test func noMatchSaysSoAndEscGoesBackWhereTheCursorWas() throws {
        let fixture = try AppFixture.openingArticle(withBody: "some text here")
        fixture.press(.controlRight, .control("f"))
        fixture.type("tex")
        #expect(cursor(fixture) == 5)
        fixture.type("z")
        #expect(cursor(fixture) == 4)
        #expect(statusLine(fixture) == " Find: texz │ No match for “texz”")
        fixture.press(.backspace)
        #expect(cursor(fixture) == 5)
        fixture.press(.escape)
        #expect(cursor(fixture) == 4)
        #expect(fixture.app.focusedPane.editor?.find == nil)
        #expect(try matchedCells(fixture, count: 14) == "..............")
    }

    /// Esc puts back the view too, not only the cursor, as micro does.
    @Test func escScrollsBackWhereTheViewWas() throws {
        let body = (1...200).map { "line \($0)" }.joined(separator: "\n")
        let fixture = try AppFixture.openingArticle(withBody: body)
        fixture.press(.down, .down, .down)
        let screen = fixture.screen
        fixture.press(.control("f"))
        fixture.type("line 150")
        #expect(fixture.screen.contains("line 150"))
        fixture.press(.escape)
        #expect(fixture.screen == screen)
        #expect(fixture.app.focusedPane.editor?.body.scrollAnchor == 0)
    }

    /// Find looks in the body; Esc puts the cursor back in the title when it was there.
    @Test func escGoesBackToTheTitleWhenFindOpenedThere() throws {
        let fixture = try AppFixture.openingArticle(withBody: "some text here")
        fixture.press(.backTab)
        #expect(fixture.app.focusedPane.editor?.field == .title)
        fixture.press(.control("f"))
        fixture.type("tex")
        #expect(fixture.app.focusedPane.editor?.field == .body)
        #expect(cursor(fixture) == 5)
        fixture.press(.escape)
        #expect(fixture.app.focusedPane.editor?.field == .title)
        #expect(cursor(fixture) == 0)
    }

    /// Chinese and Japanese words are found inside a run of text, pasted into the prompt too.
    @Test func wordsAreFoundInsideRunsOfCJKText() throws {
        let fixture = try AppFixture.openingArticle(withBody: "東京タワーは高い。タワーです")
        fixture.press(.control("f"))
        fixture.backend.enqueue(.paste("タワー"))
        fixture.app.processPendingEvents()
        #expect(cursor(fixture) == "東京".utf8.count)
        fixture.press(.function(3))
        #expect(cursor(fixture) == "東京タワーは高い。".utf8.count)
    }

    /// A paste into the prompt has the body's line breaks; a click closes the prompt where it
    /// puts the cursor (Esc then no longer goes back).
    @Test func pastedLineBreaksMatchAndAClickClosesThePrompt() throws {
        let fixture = try AppFixture.openingArticle(withBody: "ab\ncd ab\ncd")
        fixture.press(.control("f"))
        fixture.backend.enqueue(.paste("B\r\nC"))
        fixture.app.processPendingEvents()
        #expect(cursor(fixture) == 1)
        fixture.backend.enqueue(
            .mouse(MouseEvent(kind: .press(.left), position: Point(x: 3, y: 6))))
        fixture.app.processPendingEvents()
        #expect(fixture.app.focusedPane.editor?.find == ArticleFind(text: "B\nC"))
        #expect(cursor(fixture) == 5)
        fixture.press(.escape)
        #expect(cursor(fixture) == 5)
    }

    /// Esc after a find unmarks the matches first; the next Esc goes back to the list.
    @Test func escUnmarksTheMatchesThenLeaves() throws {
        let fixture = try AppFixture.openingArticle(withBody: "abc abc")
        fixture.press(.control("f"))
        fixture.type("abc")
        fixture.press(.enter)
        #expect(try matchedCells(fixture, count: 7) == "ccc.mmm")
        fixture.press(.escape)
        #expect(try matchedCells(fixture, count: 7) == ".......")
        #expect(fixture.app.focusedPane.editor != nil)
        fixture.press(.escape)
        #expect(fixture.app.focusedPane.editor == nil)
    }

    @Test func findAgainWithNothingFoundSaysHowToFind() throws {
        let fixture = try AppFixture.openingArticle(withBody: "abc")
        fixture.press(.function(3))
        #expect(
            fixture.app.message == "Nothing to find again: Ctrl-F finds text in the article")
    }

    /// While a search is typed, the pane's header counts the articles it finds.
    @Test func theListsHeaderCountsTheMatchesWhileTyping() throws {
        let fixture = try AppFixture(articles: 12, size: Size(width: 80, height: 16), panes: 1)
        fixture.press(.character("/"))
        fixture.type("arti 1")
        #expect(fixture.screen.split(separator: "\n")[1] == " 1 Search: arti 1 · 4")
        fixture.press(.enter)
        #expect(fixture.screen.split(separator: "\n")[1] == " 1 Search: arti 1 · 4")
    }

    /// As the list's search finds a word at a word's start, the article opens there ("he" in
    /// "hen", not in "the"); a Japanese word anywhere in a run.
    @Test func anArticleOpensWhereTheSearchFoundTheWord() throws {
        let fixture = try AppFixture(articles: 3, size: Size(width: 80, height: 16), panes: 1)
        try fixture.db.write {
            try $0.execute("UPDATE articles SET body = 'the hen 東京タワー' WHERE id = 3")
        }
        fixture.app.processPendingEvents()
        fixture.press(.character("/"))
        fixture.type("he")
        fixture.press(.enter, .enter)
        #expect(cursor(fixture) == 4)
        fixture.press(.escape, .escape, .escape, .character("/"))
        fixture.type("タワー")
        fixture.press(.enter, .enter)
        #expect(cursor(fixture) == "the hen 東京".utf8.count)
    }

    /// An article opened from a search opens at the first match of its words, marked, and F3
    /// goes to the next.
    @Test func anArticleOpenedFromASearchOpensAtItsFirstMatch() throws {
        let fixture = try AppFixture(articles: 3, size: Size(width: 80, height: 16), panes: 1)
        try fixture.db.write {
            try $0.execute(
                "UPDATE articles SET body = 'First line\nthe needle is here, a Needle too' WHERE id = 2"
            )
        }
        fixture.app.processPendingEvents()
        fixture.press(.character("/"))
        fixture.type("needle")
        fixture.press(.enter, .enter)
        #expect(cursor(fixture) == "First line\nthe ".utf8.count)
        let canvas = try #require(fixture.backend.lastCanvas)
        #expect(canvas.cell(at: Point(x: 5, y: 6))?.style == Theme.currentMatch)
        #expect(fixture.backend.cursor == Point(x: 5, y: 6))
        fixture.press(.function(3))
        #expect(cursor(fixture) == "First line\nthe needle is here, a ".utf8.count)
        #expect(fixture.backend.lastCanvas?.cell(at: Point(x: 5, y: 6))?.style == Theme.match)
    }
}
