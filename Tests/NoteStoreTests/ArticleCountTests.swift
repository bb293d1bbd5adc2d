import NoteStore
import SQLiteDatabase
import Testing

/// The number of articles the notebook keeps (what a list of every article shows, read without
/// counting) is the number of rows, whoever wrote them; a `REPLACE` that slips past it is put
/// right by `recountArticles`.
@Suite struct ArticleCountTests {
    let db: DatabaseQueue

    init() throws {
        db = try makeNotebook()
    }

    /// The number a list of every article shows, and the rows counted.
    func counts() throws -> [Int] {
        try db.read { db in
            [
                try Notebook.count(db, ArticleQuery()),
                try db.fetchOne(Int.self, "SELECT count(*) FROM articles") ?? -1,
            ]
        }
    }

    @Test func followsInsertsDeletesAndCascades() throws {
        let author = try db.write { try Notebook.insertAuthor($0, name: "Ada") }
        try db.write { db in
            for title in ["One", "Two", "Three"] {
                _ = try Notebook.insertArticle(db, title: title, authorId: author)
            }
            // Plain SQL, as the sqlite3 shell would write it: many rows in one statement.
            try db.execute(
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10)
                INSERT INTO articles(title) SELECT 'Bulk ' || x FROM n
                """)
        }
        #expect(try counts() == [13, 13])
        try db.write { try Notebook.deleteArticle($0, id: 4) }
        try db.write { try $0.execute("DELETE FROM articles WHERE title GLOB 'Bulk [1-3]'") }
        #expect(try counts() == [10, 10])
        try db.write { try Notebook.deleteAuthor($0, id: author) }
        #expect(try counts() == [7, 7])
        // A rolled-back insert leaves the number as it was.
        #expect(throws: SQLiteError.self) {
            try db.write { db in
                _ = try Notebook.insertArticle(db, title: "Gone")
                try db.execute("INSERT INTO articles(title, rating) VALUES ('Bad', 9)")
            }
        }
        try db.write { try $0.execute("DELETE FROM articles") }
        #expect(try counts() == [0, 0])
    }

    @Test func theMigrationCountsTheArticlesAlreadyThere() throws {
        // The notebook as the version before the stored number left it.
        let db = try makeNotebook(
            through: "notestore-5-settings",
            articles: (1...5).map { ("Article \($0)", "") })
        try NoteStoreSchema.migrate(db)
        #expect(
            try db.read { db in
                [
                    try Notebook.count(db, ArticleQuery()),
                    try db.fetchOne(Int.self, "SELECT count(*) FROM articles") ?? -1,
                ]
            } == [5, 5])
    }

    /// `REPLACE` deletes the row it replaces without a delete trigger: the number is one too
    /// high until a recount, which then changes nothing more.
    @Test func aRecountPutsRightWhatReplaceLeftWrong() throws {
        let id = try db.write { try Notebook.insertArticle($0, title: "Original") }
        try db.write { db in
            try db.execute(
                "REPLACE INTO articles(id, title, createdAt, updatedAt) VALUES (?, 'New', '', '')",
                [.integer(id)])
        }
        #expect(try counts() == [2, 1])
        #expect(try db.write { try Notebook.recountArticles($0) })
        #expect(try counts() == [1, 1])
        #expect(try !db.write { try Notebook.recountArticles($0) })
    }
}
