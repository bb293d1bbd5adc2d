import Foundation
import SQLiteDatabase

/// What an export wrote, and what it left out.
public struct ExportedText: Sendable, Equatable {
    /// The export.
    public let text: String
    /// One line per row another program left in a shape that is not an article or an author
    /// (a text author id, a blob title), with why: "article 7: column authorId holds …".
    public let skipped: [String]
}

/// The whole notebook as text, for `notes export`. A row that cannot be read is skipped and
/// named in `skipped`; everything else is exported.
public enum NotebookExport {
    /// All articles with their authors, and all authors, as JSON.
    ///
    /// The shape is stable: keys sorted, arrays ordered by id, pretty-printed, text exactly as
    /// stored (tabs, newlines, quotes, NUL and any Unicode round-trip through a JSON decoder):
    ///
    /// ```json
    /// {
    ///   "articles" : [
    ///     {
    ///       "author" : { "id" : 1, "name" : "Ada" },   // or null
    ///       "body" : "…",
    ///       "createdAt" : "2024-05-01T09:30:00.000Z",
    ///       "id" : 1,
    ///       "rating" : 3,
    ///       "title" : "…",
    ///       "updatedAt" : "2024-05-02T10:00:00.000Z"
    ///     }
    ///   ],
    ///   "authors" : [ { "id" : 1, "name" : "Ada" } ]
    /// }
    /// ```
    /// - Throws: `SQLiteError`, or `EncodingError` (not expected for stored text).
    public static func json(_ db: Database) throws -> ExportedText {
        var skipped: [String] = []
        let authors = try readable(Author.self, "author", from: "authors", db, &skipped)
        let byId = Dictionary(uniqueKeysWithValues: authors.map { ($0.id, $0) })
        let articles = try readable(Article.self, "article", from: "articles", db, &skipped)
        let notebook = ExportedNotebook(
            articles: articles.map {
                ExportedArticle($0, author: $0.authorId.flatMap { byId[$0] })
            },
            authors: authors.map(ExportedAuthor.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(notebook), as: UTF8.self) + "\n"
        return ExportedText(text: text, skipped: skipped)
    }

    /// The rows of `table` that read as `Record`, ordered by id; the others are named in
    /// `skipped`.
    private static func readable<Record: FetchableRecord>(
        _ type: Record.Type, _ noun: String, from table: String, _ db: Database,
        _ skipped: inout [String]
    ) throws -> [Record] {
        let cursor = try db.fetchCursor("SELECT * FROM \(table) ORDER BY id")
        var records: [Record] = []
        while let row = try cursor.next() {
            do {
                records.append(try Record(row: row))
            } catch {
                skipped.append(skip(row, noun, error))
            }
        }
        return records
    }

    /// "article 7: column authorId holds …, not …".
    private static func skip(_ row: Row, _ noun: String, _ error: any Error) -> String {
        let reason = (error as? SQLiteError)?.message ?? "\(error)"
        // The reason quotes the value, which may hold escape sequences: printed to a terminal.
        return VisibleControls.visible("\(noun) \(row["id"].map { "\($0)" } ?? "?"): \(reason)")
    }

    /// All articles as Markdown, ordered by id: a `# Notebook` heading, then one `## Title`
    /// section per article with author, rating and dates as a list, then the body as written,
    /// with the control characters a terminal acts on made visible (`VisibleControls`).
    /// - Throws: `SQLiteError`.
    public static func markdown(_ db: Database) throws -> ExportedText {
        let cursor = try db.fetchCursor(
            """
            SELECT a.*, au.name AS authorName
            FROM articles a LEFT JOIN authors au ON au.id = a.authorId ORDER BY a.id
            """)
        var sections = ["# Notebook\n"]
        var skipped: [String] = []
        while let row = try cursor.next() {
            do {
                let article = try Article(row: row)
                let authorName: String? = try row.decode("authorName")
                sections.append(markdownSection(article, authorName: authorName))
            } catch {
                skipped.append(skip(row, "article", error))
            }
        }
        return ExportedText(
            text: VisibleControls.visible(sections.joined(separator: "\n")), skipped: skipped)
    }

    private static func markdownSection(_ article: Article, authorName: String?) -> String {
        // A heading is one line: line breaks in a title would end it early.
        let title = article.title.split(whereSeparator: \.isNewline).joined(separator: " ")
        var lines = [
            "## \(title.isEmpty ? "(untitled)" : title)",
            "",
            "- Author: \(authorName ?? "none")",
            "- Rating: \(article.rating)/5",
            "- Created: \(article.createdAt)",
            "- Updated: \(article.updatedAt)",
            "",
        ]
        if !article.body.isEmpty {
            lines.append(article.body)
            if !article.body.hasSuffix("\n") { lines.append("") }
        }
        return lines.joined(separator: "\n")
    }
}

private struct ExportedNotebook: Encodable {
    let articles: [ExportedArticle]
    let authors: [ExportedAuthor]
}

private struct ExportedAuthor: Encodable {
    let id: Int64
    let name: String

    init(_ author: Author) {
        id = author.id
        name = author.name
    }
}

private struct ExportedArticle: Encodable {
    let article: Article
    let author: ExportedAuthor?

    init(_ article: Article, author: Author?) {
        self.article = article
        self.author = author.map(ExportedAuthor.init)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, body, rating, author, createdAt, updatedAt
    }

    /// Written by hand so that a missing author is `null`, not an absent key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(article.id, forKey: .id)
        try container.encode(article.title, forKey: .title)
        try container.encode(article.body, forKey: .body)
        try container.encode(article.rating, forKey: .rating)
        try container.encode(author, forKey: .author)
        try container.encode(article.createdAt, forKey: .createdAt)
        try container.encode(article.updatedAt, forKey: .updatedAt)
    }
}
