import NoteStore
import TerminalUI
import Testing

@testable import NotesApp

/// An article deleted while open in a pane (by another pane, or by the pane's own undo of New
/// Article): what is typed there never becomes a list command, the pane says what happened, and
/// the article opens again when an undo or redo brings it back.
@MainActor @Suite struct GoneArticleTests {
    func ratings(_ fixture: AppFixture) throws -> [Int] {
        try fixture.db.read { try $0.fetchAll(Int.self, "SELECT rating FROM articles ORDER BY id") }
    }

    func status(_ fixture: AppFixture) -> String {
        fixture.screen.split(separator: "\n").dropLast(2).last.map(String.init) ?? ""
    }

    @Test func typingInAnArticleAnotherPaneDeletedNeverBecomesCommands() throws {
        let fixture = try AppFixture(articles: 3, size: Size(width: 120, height: 16))
        fixture.press(.control("w"), .enter)  // pane 2 opens Article 3
        #expect(fixture.app.panes[1].mode == .article(3))
        fixture.press(.control("w"), .delete)  // pane 1 deletes it
        fixture.press(.control("w"))
        let before = try ratings(fixture)
        fixture.type("I give it 5 stars")
        fixture.press(.delete, .enter)
        #expect(try ratings(fixture) == before)
        #expect(fixture.app.overlay == nil)
        #expect(fixture.app.panes[1].mode == .gone(3))
        #expect(fixture.screen.contains(" 2 Deleted"))
        #expect(fixture.screen.contains(ArticleView.goneLines[0]))
        #expect(status(fixture).hasSuffix("│ \(NotesApp.goneMessage)"))
        // Pane 1 takes its Delete back: pane 2 has its article open again.
        fixture.press(.control("w"), .control("z"))
        #expect(fixture.app.panes[1].mode == .article(3))
        #expect(fixture.app.panes[1].editor?.title.text == "Article 3")
        // Deleted again, then Esc: pane 2 is back on its list.
        fixture.press(.delete, .control("w"), .escape)
        #expect(fixture.app.panes[1].mode == .list)
    }

    /// The notice wraps to the pane's width: a narrow pane shows all of it.
    /// The undo of a delete that took another pane's open article (an author's, with their
    /// articles) opens it there again where its cursor was, not at the top.
    @Test func anArticleBroughtBackOpensWhereItsCursorWas() throws {
        let fixture = try AppFixture(articles: 3, size: Size(width: 120, height: 16))
        let body = (1...40).map { "line \($0)" }.joined(separator: "\n")
        try fixture.db.write {
            try $0.execute("UPDATE articles SET body = ? WHERE id = 3", [.text(body)])
        }
        fixture.app.processPendingEvents()
        fixture.press(.control("w"), .enter)  // pane 2 opens Article 3
        for _ in 0..<30 { fixture.press(.down) }
        fixture.press(.right, .right)
        let place = try #require(fixture.app.panes[1].editor?.body.cursorOffset)
        #expect(place == (1...30).map { "line \($0)\n" }.joined().utf8.count + 2)
        let screenBefore = fixture.screen
        fixture.press(.control("w"), .delete)  // pane 1 deletes it
        #expect(fixture.app.panes[1].mode == .gone(3))
        fixture.press(.control("z"))
        #expect(fixture.app.panes[1].mode == .article(3))
        #expect(fixture.app.panes[1].editor?.body.cursorOffset == place)
        #expect(fixture.app.panes[1].editor?.field == .body)
        let rightHalf = { (screen: String) in
            screen.split(separator: "\n").dropFirst(2).prefix(10).map { $0.suffix(59) }
        }
        #expect(rightHalf(fixture.screen) == rightHalf(screenBefore))
    }

    @Test func theNoticeWrapsInANarrowPane() throws {
        let fixture = try AppFixture(articles: 3, size: Size(width: 80, height: 16))
        fixture.press(.control("n"))
        fixture.type("Fresh")
        fixture.press(.control("z"), .control("z"))
        let leftPane = fixture.screen.split(separator: "\n").dropFirst().prefix(9)
            .map { String($0.prefix { $0 != "│" }) }
        #expect(
            leftPane == [
                " 1 Deleted                              ",
                "                                        ",
                " This article was deleted while open    ",
                " here.                                  ",
                " Ctrl-Z or Ctrl-Y brings it back when   ",
                " it is yours to undo or redo;           ",
                " Esc goes back to the list.             ",
                "                                        ",
                "                                        ",
            ])
    }

    @Test func undoOfANewArticleBeingEditedKeepsTypingHarmlessAndItsRedo() throws {
        let fixture = try AppFixture(articles: 3, panes: 1)
        let pane = fixture.app.panes[0]
        fixture.press(.control("n"))
        fixture.type("Fresh")
        fixture.press(.control("z"), .control("z"))
        guard case .gone(let id) = pane.mode else {
            Issue.record("mode \(pane.mode)")
            return
        }
        let before = try ratings(fixture)
        fixture.type("3")
        #expect(try ratings(fixture) == before)
        #expect(pane.stack?.redoActionName == "New Article")
        fixture.press(.control("y"))
        #expect(pane.mode == .article(id))
        fixture.press(.control("y"))
        #expect(pane.editor?.title.text == "Fresh")
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3", "Fresh"])
    }
}
