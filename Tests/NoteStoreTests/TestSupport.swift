import NoteStore
import SQLiteDatabase
import Testing

/// A new in-memory notebook with the schema applied.
func makeNotebook() throws -> DatabaseQueue {
    let db = try DatabaseQueue()
    try NoteStoreSchema.migrate(db)
    return db
}

/// A new in-memory notebook with these articles (title, body), inserted in order and dated a
/// second apart: the most recently changed has the highest id.
func makeNotebook(articles: [(String, String)]) throws -> DatabaseQueue {
    let db = try makeNotebook()
    try db.write { db throws in
        for (index, (title, body)) in articles.enumerated() {
            let id = try Notebook.insertArticle(db, title: title, body: body)
            let date = "2024-01-01T00:00:0\(index).000Z"
            try db.setDates(ofArticle: id, created: date, updated: date)
        }
    }
    return db
}

/// An in-memory notebook as the version whose last migration was `migration` left it, with these
/// articles (title, body) dated a second apart, written as that version wrote them: for tests
/// of the migrations after it.
func makeNotebook(through migration: String, articles: [(String, String)]) throws
    -> DatabaseQueue
{
    let db = try DatabaseQueue()
    try NoteStoreSchema.migrator.prefix(through: migration).migrate(db)
    try db.write { db throws in
        for (index, (title, body)) in articles.enumerated() {
            let date = "2024-01-01T00:00:0\(index).000Z"
            try db.execute(
                "INSERT INTO articles(title, body, createdAt, updatedAt) VALUES (?, ?, ?3, ?3)",
                [.text(title), .text(body), .text(date)])
        }
    }
    return db
}

extension DatabaseQueue {
    /// The ids a search lists, in order; its count and each article's position must agree.
    func listedIds(_ search: String, order: ArticleQuery.Order = .updatedDescending) throws
        -> [Int64]
    {
        let query = ArticleQuery(order: order, search: search)
        return try read { db throws in
            let ids = try Notebook.page(db, query, offset: 0, limit: 100).map(\.id)
            #expect(try Notebook.count(db, query) == ids.count)
            for (position, id) in ids.enumerated() {
                #expect(try Notebook.position(db, ofArticle: id, in: query) == position)
            }
            return ids
        }
    }

    /// Both search indexes match the table exactly: FTS5's check throws on any drift.
    func checkSearchIndexes() throws {
        try write { db throws in
            for index in ["articles_fts", "articles_substrings"] {
                try db.execute("INSERT INTO \(index)(\(index), rank) VALUES ('integrity-check', 1)")
            }
        }
    }
}

/// Whether a timestamp has the notebook's shape: ISO-8601 UTC with milliseconds.
func isTimestamp(_ text: String) -> Bool {
    text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil
}

extension Database {
    /// Sets an article's dates directly (an UPDATE that writes `updatedAt` keeps it).
    func setDates(ofArticle id: Int64, created: String, updated: String) throws {
        try execute(
            "UPDATE articles SET createdAt = ?, updatedAt = ? WHERE id = ?",
            [.text(created), .text(updated), .integer(id)])
    }
}
