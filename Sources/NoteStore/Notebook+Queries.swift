import Foundation
import SQLiteDatabase

extension Notebook {
    /// How many articles the query lists, counted by SQLite without loading them (all of them:
    /// the number the notebook keeps, read at once).
    /// - Throws: `SQLiteError`.
    public static func count(_ db: Database, _ query: ArticleQuery) throws -> Int {
        let statement = ArticleQuerySQL(query).count
        return try db.fetchOne(Int.self, statement.sql, statement.arguments) ?? 0
    }

    /// A window of the query's list: at most `limit` summaries from 0-based `offset`.
    /// - Throws: `SQLiteError`.
    public static func page(
        _ db: Database, _ query: ArticleQuery, offset: Int, limit: Int
    ) throws -> [ArticleSummary] {
        let statement = ArticleQuerySQL(query).page(offset: offset, limit: limit)
        return try db.fetchAll(ArticleSummary.self, statement.sql, statement.arguments)
    }

    /// The 0-based index of an article in the query's list (to scroll to it), or nil when the
    /// query does not list it. Counts the articles before it; loads none.
    /// - Throws: `SQLiteError`.
    public static func position(
        _ db: Database, ofArticle id: Int64, in query: ArticleQuery
    ) throws -> Int? {
        let sql = ArticleQuerySQL(query)
        let keyStatement = sql.sortKey(ofArticle: id)
        guard let key = try db.fetchOne(Row.self, keyStatement.sql, keyStatement.arguments) else {
            return nil
        }
        let countStatement = sql.countPreceding(sortKey: key.values)
        return try db.fetchOne(Int.self, countStatement.sql, countStatement.arguments)
    }

    /// The article among `ids` that `query` lists first, or nil when it lists none of them:
    /// one walk of the list's order, however many ids (an undo brings back 100k articles).
    /// - Throws: `SQLiteError`.
    public static func firstArticle(
        _ db: Database, among ids: Set<Int64>, in query: ArticleQuery
    ) throws -> Int64? {
        guard !ids.isEmpty else { return nil }
        let statement = ArticleQuerySQL(query).first(
            amongJSON: "[" + ids.map(String.init).joined(separator: ",") + "]")
        return try db.fetchOne(Int64.self, statement.sql, statement.arguments)
    }

    /// The whole article, or nil when there is none with this id.
    /// - Throws: `SQLiteError`.
    public static func article(_ db: Database, id: Int64) throws -> Article? {
        try db.fetchOne(Article.self, "SELECT * FROM articles WHERE id = ?", [.integer(id)])
    }

    /// Every field of the article but its body, which is empty: for an editor that has the body
    /// and brings it up to date with `bodyChange`. nil when there is none with this id.
    /// - Throws: `SQLiteError`.
    public static func articleWithoutBody(_ db: Database, id: Int64) throws -> Article? {
        try db.fetchOne(
            Article.self,
            """
            SELECT id, authorId, title, '' AS body, rating, createdAt, updatedAt
            FROM \(NoteStoreSchema.articleRows) WHERE id = ?
            """, [.integer(id)])
    }

    /// Whether there is an article with this id (its body is not read).
    /// - Throws: `SQLiteError`.
    public static func articleExists(_ db: Database, id: Int64) throws -> Bool {
        try db.fetchOne(
            Int.self, "SELECT count(*) FROM \(NoteStoreSchema.articleRows) WHERE id = ?",
            [.integer(id)]) == 1
    }

    /// The articles whose bodies have these chunks (`ArticleChunk`); chunks that are gone have
    /// none.
    /// - Throws: `SQLiteError`.
    public static func articleIDs(ofChunks chunks: Set<Int64>, _ db: Database) throws -> Set<Int64>
    {
        let list = "[" + chunks.map(String.init).joined(separator: ",") + "]"
        return Set(
            try db.fetchAll(
                Int64.self,
                """
                SELECT DISTINCT articleId FROM \(NoteStoreSchema.articleChunks)
                WHERE id IN (SELECT value FROM json_each(?))
                """, [.text(list)]))
    }

    /// The author's name, or nil when there is no such author.
    /// - Throws: `SQLiteError`.
    public static func authorName(_ db: Database, id: Int64) throws -> String? {
        try db.fetchOne(String.self, "SELECT name FROM authors WHERE id = ?", [.integer(id)])
    }

    /// The authors whose name contains `text` (ignoring case and accents; empty text: all),
    /// ordered by name, then id.
    /// - Throws: `SQLiteError`.
    public static func authors(_ db: Database, matching text: String) throws -> [Author] {
        let all = try db.fetchAll(
            Author.self, "SELECT * FROM authors ORDER BY name COLLATE NOCASE, id")
        let wanted = fold(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !wanted.isEmpty else { return all }
        return all.filter { fold($0.name).contains(wanted) }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
