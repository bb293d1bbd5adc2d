import NoteStore
import SQLiteDatabase
import TerminalUI
import TestSupport
import Testing

@testable import NotesApp

/// Your place comes back: reopening a notebook puts each pane back where it was at quit.
@MainActor @Suite struct PlaceTests {
    func places(_ fixture: AppFixture) throws -> [PanePlace] {
        try fixture.db.read { db in try fixture.app.panes.map { try $0.place(db) } }
    }

    /// Pane 1 on an article, far down its body, then in its title; pane 2 on a search with its
    /// second match selected. The reopened app draws the same screen, cursor included.
    @Test func reopeningPutsEachPaneBackWhereItWas() throws {
        let folder = try TemporaryFolder(prefix: "notes-app-tests")
        let path = folder.path("notes.db")
        defer { withExtendedLifetime(folder) {} }
        let first = try AppFixture(articles: 30, path: path)
        let lines = (1...40).map { "line \($0)" }.joined(separator: "\n")
        try first.db.write {
            try $0.execute("UPDATE articles SET body = ? WHERE id = 30", [.text(lines)])
        }
        first.app.processPendingEvents()
        first.press(.enter)  // the list is newest first: 30
        for _ in 0..<25 { first.press(.down) }
        first.press(.right, .right, .right, .backTab, .end)
        first.press(.control("w"), .character("/"))
        first.type("arti 2")
        first.press(.enter, .down)
        let saved = try places(first)
        let line26 = lines.split(separator: "\n").prefix(25).map { $0.utf8.count + 1 }
            .reduce(0, +)
        #expect(saved[0].article == 30)
        #expect(saved[0].inTitle)
        #expect(saved[0].titleCursor == "Article 30".utf8.count)
        #expect(saved[0].bodyCursor == line26 + 3)
        #expect(saved[0].bodyScroll > 0)
        #expect(saved[1].search == "arti 2")
        first.app.savePlaces()

        let second = try AppFixture(articles: 0, path: path)
        #expect(try places(second) == saved)
        #expect(second.screen == first.screen)
        #expect(second.backend.cursor == first.backend.cursor)
        // Back in the body: its cursor and scroll came back too.
        first.press(.control("w"), .tab)
        second.press(.control("w"), .tab)
        #expect(second.screen == first.screen)
        #expect(second.backend.cursor == first.backend.cursor)
    }

    /// An article deleted since (by another program) leaves the pane on the list; a search
    /// whose selected article is gone stays, with the first match selected; and a new article
    /// that SQLite gave a deleted one's id is not taken for it.
    @Test func placesOnArticlesDeletedSinceFallBackToTheList() throws {
        let folder = try TemporaryFolder(prefix: "notes-app-tests")
        let path = folder.path("notes.db")
        defer { withExtendedLifetime(folder) {} }
        let first = try AppFixture(path: path)
        first.press(.enter)  // article 3, the newest
        first.press(.control("w"), .character("/"))
        first.type("arti")
        first.press(.enter, .down)  // article 2
        let saved = try places(first)
        #expect(saved.map(\.article) == [3, nil])
        #expect(saved[1].selected == 2)
        first.app.savePlaces()
        try first.db.write { db in
            try Notebook.deleteArticle(db, id: 3)
            // The next article takes id 3 again, but is another one.
            #expect(try Notebook.insertArticle(db, title: "Newcomer", body: "") == 3)
            try Notebook.deleteArticle(db, id: 2)
        }

        let second = try AppFixture(articles: 0, path: path)
        #expect(second.app.panes[0].mode == .list)
        #expect(second.app.panes[1].query.search == "arti")
        #expect(second.app.panes[1].selectedID == 1)
        #expect(second.app.message == nil)
        #expect(second.screen.contains(" 1 All articles · 2"))
        #expect(second.screen.contains(" 2 Search: arti · 1"))
    }
}
