import SQLiteDatabase

/// One note of the notebook: a title, a body, a rating and an optional author.
///
/// Read whole from the `articles` view; stored as a row of `article_rows` (the table the undo
/// engine tracks, and the one its events name) and the body's chunks (`ArticleChunk`).
public struct Article: Table, Sendable, Equatable, FetchableRecord {
    /// The table of the articles' rows (all but the body), for the undo engine.
    public static let tableName = "article_rows"

    /// The row id.
    public var id: Int64
    /// The author's id, or nil for an article nobody signed.
    public var authorId: Int64?
    /// The title (one line in lists; may be empty).
    public var title: String
    /// The text, any Unicode, tabs and newlines included.
    public var body: String
    /// From 0 (unrated) to 5.
    public var rating: Int
    /// When the article was inserted: ISO-8601 UTC with milliseconds (`2024-05-01T09:30:00.000Z`).
    public var createdAt: String
    /// When the article last changed, in the same format; kept by a trigger.
    public var updatedAt: String

    /// Makes an article value (it is not saved: use `Notebook.insertArticle`).
    public init(
        id: Int64, authorId: Int64?, title: String, body: String, rating: Int,
        createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.authorId = authorId
        self.title = title
        self.body = body
        self.rating = rating
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Decodes a row of the `articles` view.
    /// - Throws: `SQLiteError` when a column is missing or of the wrong type.
    public init(row: Row) throws {
        id = try row.decode("id")
        authorId = try row.decode("authorId")
        title = try row.decode("title")
        body = try row.decode("body")
        rating = row.rating
        createdAt = try row.decode("createdAt")
        updatedAt = try row.decode("updatedAt")
    }
}

extension Row {
    /// The `rating` column as a whole number from 0 to 5. Another program may have stored a
    /// fraction, text, or a number out of range (with check constraints off): the nearest valid
    /// rating stands in, so that one such row neither hides the list nor breaks the stars.
    var rating: Int {
        let value = self["rating"].flatMap(Double.init(sqliteValue:)) ?? 0
        return value.isNaN ? 0 : Int(min(5, max(0, value.rounded())))
    }
}

/// A piece of an article's body, about a kilobyte (`article_chunks`): what an edit of a body
/// writes. Undo events name the chunks an undo restored under this type.
public enum ArticleChunk: Table {
    /// The table's name, for the undo engine.
    public static let tableName = "article_chunks"
}
