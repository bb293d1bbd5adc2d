import NoteStore
import TerminalUI
import Testing

@testable import NotesApp

/// Your place comes back: reopening a notebook puts each pane back where it was at quit.
@MainActor @Suite struct PlaceTests {
    /// Pane 1 on an article, far down its body; pane 2 on a search with its second match
    /// selected. The reopened app draws the same screen, cursor included.
    @Test func reopeningPutsEachPaneBackWhereItWas() throws {
        let notebook = try TemporaryNotebook()
        defer { withExtendedLifetime(notebook) {} }
        let first = try AppFixture(articles: 30, path: notebook.path)
        let lines = (1...40).map { "line \($0)" }.joined(separator: "\n")
        try first.db.write {
            try $0.execute("UPDATE articles SET body = ? WHERE id = 30", [.text(lines)])
        }
        first.app.processPendingEvents()
        first.press(.enter)  // the list is newest first: 30
        for _ in 0..<25 { first.press(.down) }
        first.press(.right, .right, .right)
        first.press(.control("w"), .character("/"))
        first.type("arti 2")
        first.press(.enter, .down)
        let places = first.app.panes.map(\.place)
        #expect(places[0].article == 30)
        let line26 = lines.split(separator: "\n").prefix(25).map { $0.utf8.count + 1 }.reduce(0, +)
        #expect(places[0].cursor == line26 + 3)
        #expect(places[0].scrollAnchor > 0)
        #expect(places[1].search == "arti 2")
        first.app.savePlaces()

        let second = try AppFixture(articles: 0, path: notebook.path)
        #expect(second.app.panes.map(\.place) == places)
        #expect(second.screen == first.screen)
        #expect(second.backend.cursor == first.backend.cursor)
    }

    /// An article deleted since (by another program) leaves the pane on the list.
    @Test func aPlaceOnAnArticleDeletedSinceIsTheList() throws {
        let notebook = try TemporaryNotebook()
        defer { withExtendedLifetime(notebook) {} }
        let first = try AppFixture(path: notebook.path)
        first.press(.down, .enter)
        #expect(first.app.panes[0].place.article == 2)
        first.app.savePlaces()
        try first.db.write { try Notebook.deleteArticle($0, id: 2) }

        let second = try AppFixture(articles: 0, path: notebook.path)
        #expect(second.app.panes[0].mode == .list)
        #expect(second.app.message == nil)
        #expect(second.screen.contains(" 1 All articles · 2"))
    }
}
