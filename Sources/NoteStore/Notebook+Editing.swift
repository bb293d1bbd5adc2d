import SQLiteDatabase

extension Notebook {
    /// Inserts an article (rating 0, dated now) and returns its id.
    /// - Throws: `NotebookError.authorNotFound` when `authorId` names no author; `SQLiteError`.
    public static func insertArticle(
        _ db: Database, title: String, body: String = "", authorId: Int64? = nil
    ) throws -> Int64 {
        if let authorId { try requireAuthor(db, id: authorId) }
        try db.execute(
            "INSERT INTO articles(title, body, authorId) VALUES (?, ?, ?)",
            [.text(title), .text(body), authorId.sqliteValue])
        return db.lastInsertedRowID
    }

    /// Replaces an article's title; `updatedAt` follows.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func updateTitle(_ db: Database, ofArticle id: Int64, to title: String) throws {
        try updateArticle(db, id: id, "UPDATE articles SET title = ? WHERE id = ?", .text(title))
    }

    /// Replaces an article's body; `updatedAt` follows.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func updateBody(_ db: Database, ofArticle id: Int64, to body: String) throws {
        try updateArticle(db, id: id, "UPDATE articles SET body = ? WHERE id = ?", .text(body))
    }

    /// Sets an article's rating, from 0 (unrated) to 5; `updatedAt` follows.
    /// - Throws: `NotebookError.ratingOutOfRange`, `NotebookError.articleNotFound`; `SQLiteError`.
    public static func setRating(_ db: Database, ofArticle id: Int64, to rating: Int) throws {
        guard (0...5).contains(rating) else { throw NotebookError.ratingOutOfRange(rating) }
        try updateArticle(
            db, id: id, "UPDATE articles SET rating = ? WHERE id = ?", .integer(Int64(rating)))
    }

    /// Sets an article's author, or removes it with nil; `updatedAt` follows.
    /// - Throws: `NotebookError.articleNotFound`, `NotebookError.authorNotFound`; `SQLiteError`.
    public static func setAuthor(_ db: Database, ofArticle id: Int64, to authorId: Int64?) throws {
        if let authorId { try requireAuthor(db, id: authorId) }
        try updateArticle(
            db, id: id, "UPDATE articles SET authorId = ? WHERE id = ?", authorId.sqliteValue)
    }

    /// Deletes an article.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func deleteArticle(_ db: Database, id: Int64) throws {
        try db.execute("DELETE FROM articles WHERE id = ?", [.integer(id)])
        guard db.changesCount > 0 else { throw NotebookError.articleNotFound(id: id) }
    }

    /// Inserts an author and returns its id.
    /// - Throws: `SQLiteError`.
    public static func insertAuthor(_ db: Database, name: String) throws -> Int64 {
        try db.execute("INSERT INTO authors(name) VALUES (?)", [.text(name)])
        return db.lastInsertedRowID
    }

    /// Renames an author.
    /// - Throws: `NotebookError.authorNotFound`; `SQLiteError`.
    public static func renameAuthor(_ db: Database, id: Int64, to name: String) throws {
        try db.execute("UPDATE authors SET name = ? WHERE id = ?", [.text(name), .integer(id)])
        guard db.changesCount > 0 else { throw NotebookError.authorNotFound(id: id) }
    }

    /// Deletes an author and, by `ON DELETE CASCADE`, all their articles.
    /// - Throws: `NotebookError.authorNotFound`; `SQLiteError`.
    public static func deleteAuthor(_ db: Database, id: Int64) throws {
        try db.execute("DELETE FROM authors WHERE id = ?", [.integer(id)])
        guard db.changesCount > 0 else { throw NotebookError.authorNotFound(id: id) }
    }

    /// Counts the articles, and puts the number the notebook keeps right if it is wrong (rows that
    /// another program's `REPLACE` deleted without a delete trigger). It reads a whole index:
    /// once a session, not on every draw.
    /// - Returns: Whether the number was wrong.
    /// - Throws: `SQLiteError`.
    @discardableResult
    public static func recountArticles(_ db: Database) throws -> Bool {
        try db.execute(
            """
            UPDATE \(NoteStoreSchema.countTable) SET articles = (SELECT count(*) FROM articles)
            WHERE id = 1 AND articles IS NOT (SELECT count(*) FROM articles)
            """)
        return db.changesCount > 0
    }

    /// Runs an `UPDATE … SET column = ? WHERE id = ?` and reports a missing article.
    private static func updateArticle(
        _ db: Database, id: Int64, _ sql: String, _ value: SQLiteValue
    ) throws {
        try db.execute(sql, [value, .integer(id)])
        guard db.changesCount > 0 else { throw NotebookError.articleNotFound(id: id) }
    }

    private static func requireAuthor(_ db: Database, id: Int64) throws {
        let exists = try db.fetchOne(
            Int.self, "SELECT count(*) FROM authors WHERE id = ?", [.integer(id)])
        guard exists == 1 else { throw NotebookError.authorNotFound(id: id) }
    }
}
