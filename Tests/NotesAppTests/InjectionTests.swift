import NoteStore
import SQLiteDatabase
import TerminalUI
import Testing

@testable import NotesApp

/// No SQL is built from what the user types: titles, bodies, author names and searches that look
/// like SQL (or FTS5 query syntax) are stored and searched as plain text, and undo restores them.
@MainActor @Suite struct InjectionTests {
    nonisolated static let hostile = [
        "'); DROP TABLE articles; --",
        "Robert'); DROP TABLE authors;--",
        "\" OR 1=1 --",
        "x' || (SELECT group_concat(name) FROM sqlite_schema) || '",
        "%_\\ NEAR(a b) title:x * ^ - AND OR NOT ( )",
        "1; ATTACH DATABASE '/tmp/pwned.db' AS p; --",
    ]

    /// The tables, indexes and triggers, to compare before and after.
    func schema(_ fixture: AppFixture) throws -> [String] {
        try fixture.db.read {
            try $0.fetchAll(
                String.self, "SELECT type || ' ' || name FROM sqlite_schema ORDER BY 1")
        }
    }

    @Test(arguments: hostile)
    func titlesBodiesAndAuthorsAreData(text: String) throws {
        let fixture = try AppFixture(articles: 2)
        let schema = try schema(fixture)
        // A new article with that title and body.
        fixture.press(.control("n"))
        fixture.type(text)
        fixture.press(.tab)
        fixture.backend.enqueue(.paste(text))
        fixture.app.processPendingEvents()
        fixture.press(.escape)
        let article = try fixture.db.read {
            try $0.fetchOne(Article.self, "SELECT * FROM articles ORDER BY id DESC LIMIT 1")
        }
        #expect(article?.title == text)
        #expect(article?.body == text)
        // An author of that name, chosen for it.
        fixture.press(.character("a"))
        fixture.type(text)
        fixture.press(.enter)
        let author = try fixture.db.read { db in
            try db.fetchOne(
                String.self,
                "SELECT au.name FROM articles a JOIN authors au ON au.id = a.authorId "
                    + "WHERE a.id = ?", [.integer(article?.id ?? 0)])
        }
        #expect(author == text)
        #expect(fixture.app.message == nil, "\(fixture.app.message ?? "")")
        #expect(try fixture.titles() == ["Article 1", "Article 2", text])
        #expect(try self.schema(fixture) == schema)
        // Undo takes it all back, as data.
        fixture.press(.control("z"), .control("z"), .control("z"), .control("z"))
        #expect(try fixture.titles() == ["Article 1", "Article 2"])
        #expect(try self.schema(fixture) == schema)
    }

    @Test(arguments: hostile)
    func searchTextIsData(text: String) throws {
        let fixture = try AppFixture(articles: 3)
        let schema = try schema(fixture)
        try fixture.db.write { db in
            _ = try Notebook.insertArticle(db, title: text, body: "needle")
        }
        fixture.app.processPendingEvents()
        fixture.press(.character("/"))
        fixture.type(text)
        fixture.press(.enter)
        let pane = fixture.app.panes[0]
        #expect(fixture.app.message == nil, "\(fixture.app.message ?? "")")
        #expect(!fixture.screen.contains("Cannot"), "\(fixture.screen)")
        // Every listed article contains every word searched for (as a prefix of a word), and the
        // article titled with the text itself is among them when it has words.
        #expect(pane.total <= 4)
        let words = text.split { !$0.isLetter && !$0.isNumber }
        if !words.isEmpty {
            #expect(pane.rows.contains { $0.title == text }, "\(fixture.screen)")
        }
        #expect(try fixture.titles().count == 4)
        #expect(try self.schema(fixture) == schema)
    }
}
