import SQLiteDatabase

extension Notebook {
    /// The current time shifted by a bound modifier such as `-2 seconds`.
    private static let secondsAgo = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)"

    /// Adds the welcome notebook: the author "notes" and a few articles explaining the keys, the
    /// first one on top of the most-recently-changed order.
    ///
    /// Meant for a new notebook; run it outside undo tracking (`withUndoDisabled`), so the first
    /// Ctrl-Z does not delete the welcome.
    /// - Throws: `SQLiteError`; `NotebookError.damagedResource` for a broken build.
    public static func seedWelcome(_ db: Database) throws {
        let welcome = try WelcomeNotebook.embedded()
        let authorId = try insertAuthor(db, name: welcome.author)
        // In reading order, each a second older than the one before: ids follow the reading
        // order and the first article is the most recently changed.
        for (index, article) in welcome.articles.enumerated() {
            _ = try insertArticle(
                db, authorId: .integer(authorId), title: article.title, body: article.body,
                rating: article.rating, createdAt: .text("-\(index) seconds"),
                updatedAt: .text("-\(index) seconds"), datesAs: secondsAgo)
        }
    }

    /// Adds the demo notebook: over 500 articles by a dozen authors in English, French, German,
    /// Spanish, Japanese and Chinese (with emoji), dated through 2023. The same every time.
    ///
    /// Run it outside undo tracking (`withUndoDisabled`).
    /// - Throws: `SQLiteError`; `NotebookError.damagedResource` for a broken build.
    public static func seedDemo(_ db: Database) throws {
        let demo = DemoNotebook(corpus: try DemoCorpus.embedded())
        let authorIds = try demo.authors.map { try insertAuthor(db, name: $0) }
        let timestamp = "strftime('%Y-%m-%dT%H:%M:%fZ', ?, 'unixepoch')"
        for article in demo.articles {
            _ = try insertArticle(
                db, authorId: article.authorIndex.map { .integer(authorIds[$0]) } ?? .null,
                title: article.title, body: article.body, rating: article.rating,
                createdAt: .real(article.createdAt), updatedAt: .real(article.updatedAt),
                datesAs: timestamp)
        }
    }
}
