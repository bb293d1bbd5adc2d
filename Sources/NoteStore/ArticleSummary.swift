import SQLiteDatabase

/// What a list pane shows of an article: no body, so a page of them stays small.
public struct ArticleSummary: Sendable, Equatable, FetchableRecord {
    /// The article's id.
    public var id: Int64
    /// The title.
    public var title: String
    /// The author's name, or nil for an article without author.
    public var authorName: String?
    /// From 0 to 5.
    public var rating: Int
    /// When the article last changed (ISO-8601 UTC with milliseconds).
    public var updatedAt: String

    /// Makes a summary value.
    public init(id: Int64, title: String, authorName: String?, rating: Int, updatedAt: String) {
        self.id = id
        self.title = title
        self.authorName = authorName
        self.rating = rating
        self.updatedAt = updatedAt
    }

    /// Decodes a row with the columns `id`, `title`, `authorName`, `rating`, `updatedAt`.
    /// - Throws: `SQLiteError` when a column is missing or of the wrong type.
    public init(row: Row) throws {
        id = try row.decode("id")
        title = try row.decode("title")
        authorName = try row.decode("authorName")
        rating = row.rating
        updatedAt = try row.decode("updatedAt")
    }
}
