import Foundation
import SQLiteDatabase

extension Notebook {
    /// Inserts an article (rating 0, created and updated at `date`) and returns its id.
    /// - Throws: `NotebookError.authorNotFound` when `authorId` names no author; `SQLiteError`.
    public static func insertArticle(
        _ db: Database, title: String, body: String = "", authorId: Int64? = nil,
        at date: Date = Date()
    ) throws -> Int64 {
        if let authorId { try requireAuthor(db, id: authorId) }
        return try insertArticle(
            db, authorId: authorId.sqliteValue, title: title, body: body, rating: 0,
            createdAt: .text(timestamp(date)), updatedAt: .text(timestamp(date)))
    }

    /// Inserts an article row and its body's chunks; returns its id. Dates are SQL expressions
    /// of one argument each.
    static func insertArticle(
        _ db: Database, authorId: SQLiteValue, title: String, body: String, rating: Int,
        createdAt: SQLiteValue, updatedAt: SQLiteValue, datesAs dateSQL: String = "?"
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO \(NoteStoreSchema.articleRows)(authorId, title, rating, createdAt, updatedAt)
            VALUES (?, ?, ?, \(dateSQL), \(dateSQL))
            """,
            [authorId, .text(title), .integer(Int64(rating)), createdAt, updatedAt])
        let id = db.lastInsertedRowID
        try insertChunks(db, ofArticle: id, Array(body.utf8))
        // The chunks stamped `updatedAt` with the clock.
        try db.execute(
            "UPDATE \(NoteStoreSchema.articleRows) SET updatedAt = \(dateSQL) WHERE id = ?",
            [updatedAt, .integer(id)])
        return id
    }

    /// A time as the notebook stores it: ISO-8601 UTC with milliseconds,
    /// `2024-05-01T09:30:00.123Z`, the format of the `updatedAt` trigger's SQL clock.
    public static func timestamp(_ date: Date) -> String {
        // Rounded to the millisecond (a formatter would cut 0.678 stored as 0.67799… to .677).
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, positiveFraction) =
            fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let day = Date(timeIntervalSince1970: TimeInterval(wholeSeconds))
            .formatted(Date.ISO8601FormatStyle())  // 2024-05-01T09:30:00Z
        return day.dropLast() + "." + String(format: "%03d", positiveFraction) + "Z"
    }

    /// Replaces an article's title; `updatedAt` becomes `date` when it changes. Bytes of the
    /// stored title that are not UTF-8 (which read as U+FFFD) are kept where `title` leaves the
    /// text as read unchanged.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func updateTitle(
        _ db: Database, ofArticle id: Int64, to title: String, at date: Date = Date()
    ) throws {
        let stored = try db.fetchOne(
            SQLiteValue.self,
            "SELECT CAST(title AS BLOB) FROM \(NoteStoreSchema.articleRows) WHERE id = ?",
            [.integer(id)])
        if case .blob(let bytes) = stored, let kept = KeptBytes.edit(bytes, to: Array(title.utf8)) {
            try updateArticle(db, id: id, column: "title", to: .blob(kept), asText: true, at: date)
        } else {
            try updateArticle(db, id: id, column: "title", to: .text(title), at: date)
        }
    }

    /// Sets an article's rating, from 0 (unrated) to 5; `updatedAt` becomes `date` when it changes.
    /// - Throws: `NotebookError.ratingOutOfRange`, `NotebookError.articleNotFound`; `SQLiteError`.
    public static func setRating(
        _ db: Database, ofArticle id: Int64, to rating: Int, at date: Date = Date()
    ) throws {
        guard (0...5).contains(rating) else { throw NotebookError.ratingOutOfRange(rating) }
        try updateArticle(db, id: id, column: "rating", to: .integer(Int64(rating)), at: date)
    }

    /// Sets an article's author, or removes it with nil; `updatedAt` becomes `date` when it changes.
    /// - Throws: `NotebookError.articleNotFound`, `NotebookError.authorNotFound`; `SQLiteError`.
    public static func setAuthor(
        _ db: Database, ofArticle id: Int64, to authorId: Int64?, at date: Date = Date()
    ) throws {
        if let authorId { try requireAuthor(db, id: authorId) }
        try updateArticle(db, id: id, column: "authorId", to: authorId.sqliteValue, at: date)
    }

    /// Deletes an article.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func deleteArticle(_ db: Database, id: Int64) throws {
        try db.execute(
            "DELETE FROM \(NoteStoreSchema.articleRows) WHERE id = ?", [.integer(id)])
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

    /// The rows deleting the author removes: the author, their articles and the articles'
    /// body chunks (what its undo puts back).
    /// - Throws: `SQLiteError`.
    public static func rowCount(_ db: Database, ofAuthor id: Int64) throws -> Int {
        try db.fetchOne(
            Int.self,
            """
            SELECT (SELECT count(*) FROM authors WHERE id = ?1)
                + (SELECT count(*) FROM \(NoteStoreSchema.articleRows) WHERE authorId = ?1)
                + (SELECT count(*) FROM \(NoteStoreSchema.articleChunks) WHERE articleId IN
                    (SELECT id FROM \(NoteStoreSchema.articleRows) WHERE authorId = ?1))
            """, [.integer(id)]) ?? 0
    }

    /// Deletes an author and, by `ON DELETE CASCADE`, all their articles.
    /// - Throws: `NotebookError.authorNotFound`; `SQLiteError`.
    public static func deleteAuthor(_ db: Database, id: Int64) throws {
        try db.execute("DELETE FROM authors WHERE id = ?", [.integer(id)])
        guard db.changesCount > 0 else { throw NotebookError.authorNotFound(id: id) }
    }

    /// Whether the number of articles the notebook keeps is right: false after another
    /// program's `REPLACE` deleted a row without a delete trigger. It reads a whole index
    /// (milliseconds for 100k articles): after another program's commit, not on every draw.
    /// - Throws: `SQLiteError`.
    public static func articleCountIsRight(_ db: Database) throws -> Bool {
        try db.fetchOne(
            Bool.self,
            """
            SELECT articles IS (SELECT count(*) FROM \(NoteStoreSchema.articleRows)) FROM \(NoteStoreSchema.countTable)
            WHERE id = 1
            """) ?? false
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
            UPDATE \(NoteStoreSchema.countTable)
            SET articles = (SELECT count(*) FROM \(NoteStoreSchema.articleRows))
            WHERE id = 1 AND articles IS NOT (SELECT count(*) FROM \(NoteStoreSchema.articleRows))
            """)
        return db.changesCount > 0
    }

    /// Sets one column of an article, and its `updatedAt` to `date` when the value changes (an
    /// edit that changes nothing stays a no-op); reports a missing article.
    private static func updateArticle(
        _ db: Database, id: Int64, column: String, to value: SQLiteValue, asText: Bool = false,
        at date: Date
    ) throws {
        // Bytes that are not all UTF-8 are bound as a blob and stored as text.
        let new = asText ? "CAST(?1 AS TEXT)" : "?1"
        try db.execute(
            """
            UPDATE \(NoteStoreSchema.articleRows) SET \(column) = \(new),
                updatedAt = CASE WHEN \(column) IS \(new) THEN updatedAt ELSE ?3 END
            WHERE id = ?2
            """, [value, .integer(id), .text(timestamp(date))])
        guard db.changesCount > 0 else { throw NotebookError.articleNotFound(id: id) }
    }

    private static func requireAuthor(_ db: Database, id: Int64) throws {
        let exists = try db.fetchOne(
            Int.self, "SELECT count(*) FROM authors WHERE id = ?", [.integer(id)])
        guard exists == 1 else { throw NotebookError.authorNotFound(id: id) }
    }
}
