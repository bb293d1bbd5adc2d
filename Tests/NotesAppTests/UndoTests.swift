import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

@MainActor @Suite struct UndoTests {
    func status(_ fixture: AppFixture) -> String {
        String(fixture.screen.split(separator: "\n", omittingEmptySubsequences: false)[9])
    }

    @Test func deleteUndoneOnlyInItsOwnPane() throws {
        let fixture = try AppFixture()
        fixture.press(.down, .delete)  // deletes Article 2 in pane 1
        #expect(try fixture.titles() == ["Article 1", "Article 3"])
        #expect(
            status(fixture)
                == " Pane 1 │ Undo Delete Article │ Nothing to redo │ Deleted “Article 2” (Ctrl-Z b…"
        )
        fixture.press(.tab, .control("z"))
        #expect(try fixture.titles() == ["Article 1", "Article 3"])
        #expect(
            status(fixture)
                == " Pane 2 │ Nothing to undo │ Nothing to redo │ Pane 2: nothing to undo")
        fixture.press(.backTab, .control("z"))
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
        #expect(
            status(fixture)
                == " Pane 1 │ Nothing to undo │ Redo Delete Article │ Undid Delete Article")
        let pane = fixture.app.panes[0]
        #expect(pane.selectedSummary?.title == "Article 2")
        #expect(pane.highlighted == [2])
        fixture.press(.control("y"))
        #expect(try fixture.titles() == ["Article 1", "Article 3"])
        fixture.press(.alt("u"))
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
        fixture.press(.alt("e"))
        #expect(try fixture.titles() == ["Article 1", "Article 3"])
    }

    @Test func ratingKeysAreOneUndoableActionEach() throws {
        let fixture = try AppFixture()
        fixture.press(.character("5"))
        let ratings = {
            try fixture.db.read {
                try $0.fetchAll(Int.self, "SELECT rating FROM articles ORDER BY id")
            }
        }
        #expect(try ratings() == [1, 2, 5])
        fixture.press(.down, .character("0"))
        #expect(fixture.app.panes[0].stack?.state.undo == ["Set Rating", "Set Rating"])
        fixture.press(.control("z"), .control("z"))
        #expect(try ratings() == [1, 2, 3])
    }

    @Test func undoScrollsToARowFarOffScreen() throws {
        let fixture = try AppFixture(articles: 500)
        let pane = fixture.app.panes[0]
        for _ in 0..<400 { fixture.backend.enqueue(.key(.down)) }
        fixture.app.processPendingEvents()
        let target = try #require(pane.selectedSummary)
        #expect(target.title == "Article 100")  // 400th from the newest
        fixture.press(.delete, .home)
        #expect(pane.selected == 0)
        #expect(!fixture.screen.contains("Article 100 "))
        fixture.press(.control("z"))
        #expect(pane.selected == 400)
        #expect(pane.selectedSummary?.id == target.id)
        // Marked as restored in the margin.
        #expect(fixture.screen.contains("+Article 100 "))
        #expect(pane.highlighted == [target.id])
    }

    /// Typing moves the open article to the top of the list (newest first) and its undo moves
    /// it back: the list, back with Esc, selects it there, not the article that took its row.
    @Test func anUndoInTheOpenArticleKeepsTheListOnIt() throws {
        let fixture = try AppFixture(articles: 3, panes: 1)
        let pane = fixture.app.panes[0]
        fixture.press(.down, .down, .enter)
        #expect(pane.selectedSummary?.title == "Article 1")
        fixture.type("x")
        fixture.clock.advance(by: 2)
        fixture.press(.control("z"))
        fixture.press(.escape)
        #expect(pane.selected == 2)
        #expect(pane.selectedSummary?.title == "Article 1")
        fixture.press(.enter)
        #expect(pane.mode == .article(1))
    }

    /// An undo that brings back many articles selects the one the list shows first, however
    /// many came back: here the newest of 500, whose id is the highest.
    @Test func aBigUndoSelectsTheFirstRestoredInTheListsOrder() throws {
        let fixture = try AppFixture(articles: 500)
        let pane = fixture.app.panes[0]
        fixture.press(.down, .down, .character("a"), .delete, .character("y"))
        #expect(try fixture.titles().isEmpty)
        fixture.press(.control("z"))
        #expect(try fixture.titles().count == 500)
        #expect(pane.selected == 0)
        #expect(pane.selectedSummary?.title == "Article 500")
        #expect(pane.highlighted.count == 500)
        let lines = fixture.screen.split(separator: "\n")
        #expect(lines[1].hasPrefix(" 1 All articles · 500"))
        #expect(lines[2].hasPrefix("+Article 500 "))
        #expect(lines[3].hasPrefix("+Article 499 "))
    }

    @Test func undoClearsASearchThatHidesTheRestoredRow() throws {
        let fixture = try AppFixture(articles: 12)
        fixture.press(.down, .delete)  // Article 11
        fixture.press(.character("/"))
        fixture.type("article 3")
        fixture.press(.enter, .control("z"))
        let pane = fixture.app.panes[0]
        #expect(pane.query.search == "")
        #expect(pane.selectedSummary?.title == "Article 11")
    }

    @Test func otherPanesRefreshButDoNotMove() throws {
        let fixture = try AppFixture(articles: 5)
        fixture.press(.tab, .down, .down, .backTab)  // pane 2 selects Article 3
        fixture.press(.delete)  // pane 1 deletes Article 5
        let other = fixture.app.panes[1]
        #expect(other.total == 4)
        #expect(!fixture.screen.split(separator: "\n")[2].contains("Article 5"))
        fixture.press(.control("z"))
        #expect(other.selected == 2)
        #expect(other.highlighted == [])
    }

    @Test func undoOffSaysSo() throws {
        let fixture = try AppFixture(undo: false)
        fixture.press(.delete, .control("z"))
        #expect(try fixture.titles() == ["Article 1", "Article 2"])
        #expect(
            status(fixture) == " Pane 1 │ Undo off │ Undo is off (notes was started with --no-undo)"
        )
    }

    @Test func newArticleOpensItAndUndoRemovesIt() throws {
        let fixture = try AppFixture()
        fixture.press(.control("n"))
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3", ""])
        fixture.type("Plans")
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3", "Plans"])
        fixture.press(.control("z"))  // Typing
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3", ""])
        fixture.press(.control("z"))  // New Article
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3"])
        // The pane says so until Esc (GoneArticleTests).
        #expect(fixture.app.panes[0].mode == .gone(4))
        fixture.press(.escape)
        #expect(fixture.app.panes[0].mode == .list)
    }

    @Test func authorPickerCreatesAnAuthorInOneStep() throws {
        let fixture = try AppFixture()
        fixture.press(.character("a"))
        fixture.type("Bob")
        #expect(fixture.screen.contains("Create “Bob”"))
        fixture.press(.enter)
        let authors = {
            try fixture.db.read {
                try $0.fetchAll(
                    Row.self,
                    "SELECT a.title, b.name FROM articles a LEFT JOIN authors b ON b.id = a.authorId ORDER BY a.id"
                ).map(\.values)
            }
        }
        #expect(
            try authors() == [
                ["Article 1", "Alice"], ["Article 2", "Alice"], ["Article 3", "Bob"],
            ])
        fixture.press(.control("z"))
        #expect(try authors().last == ["Article 3", "Alice"])
        #expect(
            try fixture.db.read { try $0.fetchAll(String.self, "SELECT name FROM authors") } == [
                "Alice"
            ])
    }

    @Test func deletingAnAuthorAsksThenOneUndoBringsAllBack() throws {
        let fixture = try AppFixture(articles: 4)
        fixture.press(.character("a"), .delete)
        #expect(fixture.screen.contains("Delete Alice and 4 articles? y/n"))
        fixture.press(.character("y"))
        #expect(try fixture.titles() == [])
        fixture.press(.control("z"))
        #expect(try fixture.titles() == ["Article 1", "Article 2", "Article 3", "Article 4"])
    }

    /// One article, in the singular; and the selected article, gone by this pane's own action,
    /// is not announced as "deleted elsewhere" over the pane's message.
    @Test func deletingAnAuthorOfOneArticleSaysOneArticle() throws {
        let fixture = try AppFixture(articles: 1)
        fixture.press(.character("a"), .delete)
        #expect(fixture.screen.contains("Delete Alice and 1 article? y/n"))
        fixture.press(.character("y"))
        #expect(fixture.screen.contains("│ Deleted Alice and 1 article (C…"))
        #expect(!fixture.screen.contains("deleted elsewhere"))
    }

    @Test func panesOpenAndCloseAndKeepTheirStacks() throws {
        let fixture = try AppFixture()
        fixture.press(.control("t"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-3", "pane-2"])
        #expect(fixture.app.focus == 1)
        fixture.press(.control("x"))
        #expect(fixture.app.panes.map(\.stackID) == ["pane-1", "pane-2"])
        fixture.press(.alt("1"))
        #expect(fixture.app.focus == 0)
    }
}

/// Found by the crash harness: an undo that would restore a reference to a deleted author.
@MainActor @Suite struct AuthorReferenceUndoTests {
    func authorOfArticle(_ fixture: AppFixture) throws -> String? {
        try fixture.db.read {
            try $0.fetchOne(
                String.self,
                "SELECT a.name FROM articles r JOIN authors a ON a.id = r.authorId WHERE r.id = 1")
        }
    }

    func authorNames(_ fixture: AppFixture) throws -> [String] {
        try fixture.db.read { try $0.fetchAll(String.self, "SELECT name FROM authors ORDER BY id") }
    }

    /// Pane 1 gives an article a new author X; pane 2 then gives it a new author Y; pane 1
    /// undoes (X is deleted, the article keeps Y: pane 2's later edit). Pane 2's undo cannot put
    /// X back: it keeps Y (and so keeps author Y), says why, and its older history still undoes.
    @Test func undoThatWouldRestoreAReferenceToADeletedAuthorKeepsTheCurrentOne() throws {
        let fixture = try AppFixture(articles: 1)
        fixture.press(.character("5"))  // pane 1: an older action of its own
        fixture.press(.tab, .character("3"), .backTab)  // pane 2: an older action of its own
        fixture.press(.character("a"))
        fixture.type("Xavier")
        fixture.press(.enter, .tab, .character("a"))
        fixture.type("Yolanda")
        fixture.press(.enter, .backTab, .control("z"))
        #expect(fixture.app.message == "Undid Set Author; kept Author: pane 2 changed it since")
        #expect(try authorNames(fixture) == ["Alice", "Yolanda"])

        fixture.press(.tab, .control("z"))
        #expect(
            fixture.app.message
                == "Undid Set Author; kept Author: the earlier one is gone, "
                + "kept the author: articles still use it")
        #expect(try authorOfArticle(fixture) == "Yolanda")
        #expect(try authorNames(fixture) == ["Alice", "Yolanda"])
        #expect(fixture.app.panes[1].stack?.undoActionName == "Set Rating")
        fixture.press(.control("z"))
        #expect(fixture.app.message == "Undid Set Rating")
        #expect(fixture.app.panes[1].stack?.canUndo == false)
    }
}

@MainActor @Suite struct UpdatedAtUndoTests {
    @Test func undoRestoresUpdatedAtExactly() throws {
        let fixture = try AppFixture()
        let row = {
            try fixture.db.read {
                try $0.fetchOne(Row.self, "SELECT rating, updatedAt FROM articles WHERE id = 3")?
                    .values
            }
        }
        let before = try row()
        #expect(before == [3, "2026-01-01T00:00:03.000Z"])
        fixture.press(.character("1"))
        let after = try #require(try row())
        #expect(after[0] == 1)
        #expect(after[1] != before?[1])
        fixture.press(.control("z"))
        #expect(try row() == before)
        fixture.press(.control("y"))
        #expect(try row() == after)
    }

    /// An undo whose text and the text before share the first bytes of different characters
    /// (two emoji that start alike) replaces whole characters: the body reads as stored, in the
    /// file and in the editor, and the next keys work on it.
    @Test func undoingACharacterOverOneThatStartsAlikeKeepsTheTextWhole() throws {
        let fixture = try AppFixture.openingArticle(withBody: "wave ")
        let body = {
            try fixture.db.read {
                try $0.fetchOne(String.self, "SELECT body FROM articles WHERE id = 3")
            }
        }
        fixture.press(.end)
        fixture.type("👨")
        fixture.press(.shift(.left))
        fixture.type("👋")
        #expect(try body() == "wave 👋")
        fixture.press(.control("z"))
        #expect(try body() == "wave 👨")
        #expect(fixture.app.panes[0].editor?.body.text == "wave 👨")
        fixture.press(.end)
        fixture.type("!")
        #expect(try body() == "wave 👨!")
        #expect(fixture.app.panes[0].editor?.body.text == "wave 👨!")
    }
}
