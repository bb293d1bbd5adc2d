import NoteStore
import SQLiteDatabase
import Testing

@Suite struct SeedTests {
    let db: DatabaseQueue

    init() throws {
        db = try makeNotebook()
    }

    func all(_ db: Database) throws -> [Article] {
        try db.fetchAll(Article.self, "SELECT * FROM articles ORDER BY id")
    }

    @Test func demoNotebookIsLargeVariedAndMultilingual() throws {
        try db.write { try Notebook.seedDemo($0) }
        try db.read { db throws in
            let articles = try all(db)
            let authors = try Notebook.authors(db, matching: "")
            #expect(articles.count >= 500)
            #expect(authors.count >= 8)
            #expect(Set(articles.map(\.title)).count == articles.count)
            #expect(articles.allSatisfy { $0.body.components(separatedBy: "\n\n").count >= 3 })
            #expect(
                articles.allSatisfy { isTimestamp($0.createdAt) && $0.updatedAt > $0.createdAt })
            #expect(Set(articles.map(\.rating)) == Set(0...5))
            #expect(articles.contains { $0.authorId == nil })
            // Every author writes; every language is there.
            #expect(Set(articles.compactMap(\.authorId)) == Set(authors.map(\.id)))
            let kana = articles.filter {
                $0.body.contains(/[\p{Script=Hiragana}\p{Script=Katakana}]/)
            }
            let hanOnly = articles.filter {
                $0.body.contains(/\p{Script=Han}/)
                    && !$0.body.contains(/[\p{Script=Hiragana}\p{Script=Katakana}]/)
            }
            #expect(kana.count >= 80)
            #expect(hanOnly.count >= 80)
            #expect(articles.filter { $0.title.contains("🎉") }.count >= 60)
            #expect(articles.filter { $0.body.contains("🌱") || $0.body.contains("👍") }.count >= 100)
            for word in ["sourdough", "levain", "Sauerteigbrot", "masa", "天然酵母"] {
                #expect(try Notebook.count(db, ArticleQuery(search: word)) >= 8, "\(word)")
            }
            #expect(try Notebook.count(db, ArticleQuery(search: "sourdough")) == 8)
            #expect(try Notebook.count(db, ArticleQuery(search: "天然酵母")) == 8)
        }
    }

    @Test func demoNotebookIsTheSameEveryTime() throws {
        let other = try makeNotebook()
        try db.write { try Notebook.seedDemo($0) }
        try other.write { try Notebook.seedDemo($0) }
        let first = try db.read { try NotebookExport.json($0) }
        #expect(try other.read { try NotebookExport.json($0) } == first)
        #expect(first.text.count > 200_000)
        #expect(first.skipped.isEmpty)
    }

    @Test func welcomeNotebookExplainsEveryKey() throws {
        try db.write { try Notebook.seedWelcome($0) }
        try db.read { db throws in
            let articles = try all(db)
            #expect(try Notebook.authors(db, matching: "").map(\.name) == ["notes"])
            #expect((4...6).contains(articles.count))
            #expect(articles.allSatisfy { $0.authorId == 1 && !$0.body.isEmpty })
            #expect(articles.first?.title == "Welcome to notes 👋")
            // Most recently changed first is the reading order.
            let list = try Notebook.page(db, ArticleQuery(), offset: 0, limit: 10)
            #expect(list.map(\.id) == articles.map(\.id))
            let text = articles.map { $0.title + "\n" + $0.body }.joined(separator: "\n")
            let keys = [
                "Ctrl-Z", "Alt-U", "Ctrl-Y", "Alt-E", "Ctrl-W", "Tab", "Shift-Tab", "Alt-1",
                "Alt-9", "Ctrl-T", "Ctrl-X", "Up", "Down", "PgUp", "PgDn", "Home", "End",
                "Enter", "Esc", "Ctrl-N", "Delete", "0 … 5", "a\t", "/", "F1", "Ctrl-Q",
            ]
            #expect(keys.filter { !text.contains($0) } == [])
        }
    }
}
