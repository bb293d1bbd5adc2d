import TerminalUI
import Testing

@testable import NotesApp

@MainActor @Suite struct LayoutUndoTests {
    @Test func closedPaneComesBackWithItsUndoHistory() throws {
        let fixture = try AppFixture(articles: 3, panes: 3)
        fixture.press(.tab, .delete)  // pane 2 deletes Article 3
        #expect(try fixture.titles() == ["Article 1", "Article 2"])
        fixture.press(.control("x"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-3"])
        fixture.press(.tab, .alt("z"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-2", "pane-3"])
        let restored = fixture.app.panes[1]
        #expect(restored.stack?.undoActionName == "Delete Article")
        fixture.press(.alt("2"), .control("z"))
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
        fixture.press(.alt("y"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-3"])
        #expect(try fixture.app.layoutStore.load() == ["pane-1", "pane-3"])
    }

    /// Alt-X closes the pane from anywhere, an open article too (where micro's Ctrl-X cuts).
    @Test func altXClosesThePaneFromAnOpenArticle() throws {
        let fixture = try AppFixture(articles: 3, panes: 3)
        fixture.press(.tab, .enter)
        #expect(fixture.app.panes[1].editor != nil)
        fixture.press(.alt("x"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-3"])
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
    }

    @Test func resizingIsUndoableAndFocusMovesAreNot() throws {
        let fixture = try AppFixture()
        let widths = { fixture.app.screenLayout.panes.map(\.width) }
        #expect(widths() == [40, 39])
        fixture.press(.alt(">"), .alt(">"))
        #expect(widths() == [47, 32])
        fixture.press(.tab, .backTab, .tab)  // focus moves: not layout history
        fixture.press(.alt("z"))
        #expect(widths() == [44, 35])
        fixture.press(.alt("z"), .alt("z"))
        #expect(widths() == [40, 39])
        #expect(fixture.screen.contains("No layout change to undo"))
    }

    @Test func openedPaneGetsAFreshStackAndUndoClosesIt() throws {
        let fixture = try AppFixture()
        fixture.press(.control("t"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-3", "pane-2"])
        #expect(fixture.app.focusedPane.stack?.canUndo == false)
        fixture.press(.alt("z"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-2"])
    }
}
