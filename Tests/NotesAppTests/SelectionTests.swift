import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// A pane's selection is an article, not a position: whatever other panes, programs or undos do
/// to the list, it stays on its article, and an undo selects and shows what it brought back.
@MainActor @Suite struct SelectionTests {
    func line(_ fixture: AppFixture, _ row: Int) -> String {
        String(fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)[row])
    }

    func status(_ fixture: AppFixture) -> String {
        line(fixture, fixture.backend.size.height - 3)
    }

    @Test func undoOfDeletingTheLastArticleSelectsAndShowsIt() throws {
        let fixture = try AppFixture(articles: 300, panes: 1)
        let pane = fixture.app.panes[0]
        fixture.press(.end)
        #expect(pane.selectedSummary?.title == "Article 1")
        fixture.press(.delete, .home, .control("z"))
        #expect(pane.selectedSummary?.title == "Article 1")
        #expect(pane.selected == 299)
        // The last row of the list, marked as restored (seen without color too) and selected.
        let rows = (2..<9).map { line(fixture, $0) }
        #expect(rows.last?.hasPrefix("+Article 1 ") == true)
        #expect(rows.dropLast().allSatisfy { !$0.contains("Article 1 ") && !$0.hasPrefix("+") })
    }

    @Test func undoInAFilteredListSelectsTheRestoredArticle() throws {
        let fixture = try AppFixture(articles: 30, panes: 1)
        let pane = fixture.app.panes[0]
        fixture.press(.character("/"))
        fixture.type("article 1")
        fixture.press(.enter, .end)
        let last = try #require(pane.selectedSummary)
        fixture.press(.delete, .home, .control("z"))
        #expect(pane.selectedSummary?.id == last.id)
        #expect(pane.query.search == "article 1")
    }

    @Test func selectionStaysOnItsArticleWhenAnotherPaneMovesOthers() throws {
        let fixture = try AppFixture(articles: 30)
        let first = fixture.app.panes[0]
        for _ in 0..<10 { fixture.press(.down) }
        #expect(first.selectedSummary?.title == "Article 20")
        // Pane 2 rates Article 25, which moves to the top (the list is by last change).
        fixture.press(.tab)
        for _ in 0..<5 { fixture.press(.down) }
        fixture.press(.character("4"), .backTab)
        #expect(first.selectedSummary?.title == "Article 20")
        fixture.press(.delete)
        #expect(try !fixture.titles().contains("Article 20"))
        #expect(try fixture.titles().count == 29)
        #expect(try fixture.titles().contains("Article 19"))
        #expect(try fixture.titles().contains("Article 21"))
    }

    @Test func anArticleDeletedElsewhereMovesTheSelectionToItsNeighbourWithANotice() throws {
        let fixture = try AppFixture(articles: 10, panes: 1)
        let pane = fixture.app.panes[0]
        fixture.press(.down, .down)
        #expect(pane.selectedSummary?.title == "Article 8")
        try fixture.db.write { try $0.execute("DELETE FROM articles WHERE title = 'Article 8'") }
        fixture.app.processPendingEvents()
        #expect(pane.selectedSummary?.title == "Article 7")
        #expect(status(fixture).hasSuffix("│ Article deleted elsewhere"))
    }

    @Test func undoOfANewArticleLeavesItsNeighbourSelectedWithoutANotice() throws {
        let fixture = try AppFixture(articles: 3, panes: 1)
        fixture.press(.control("n"))
        fixture.type("Fresh")
        fixture.press(.escape, .control("z"), .control("z"))
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
        #expect(!status(fixture).contains("deleted elsewhere"))
        #expect(fixture.app.panes[0].selectedSummary?.title == "Article 3")
    }
}
