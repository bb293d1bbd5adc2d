import Foundation
import SQLiteDatabase

extension Notebook {
    /// Writes an edit of an article's body, from `base` (the body as the caller read it) to
    /// `body`, into the chunks it touches only (`BodyChunks`): a keystroke in a body of megabytes
    /// reads, writes, indexes and records about a kilobyte. `updatedAt` becomes `date` when it
    /// changes.
    ///
    /// The chunks it rewrites must hold what `base` says there; an edit someone else made
    /// elsewhere in the body is kept, as a merge would. `layout` is where the body is cut, as
    /// the last call left it (nil: read it); keep it between the edits of one text.
    /// - Returns: false, writing nothing, when the stored body is not `base` where it looked
    ///   (someone else changed it): read it and merge, then `updateBody(_:ofArticle:to:at:)`.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func updateBody(
        _ db: Database, ofArticle id: Int64, from base: String, to body: String,
        layout: inout BodyLayout?, at date: Date = Date()
    ) throws -> Bool {
        // The bytes in place, not copied: a body may be megabytes, and this runs at every key.
        var (base, body) = (base, body)
        let written = try base.withUTF8 { old in
            try body.withUTF8 { new in
                try writeChange(db, ofArticle: id, &layout, from: old, to: new)
            }
        }
        guard let written else {
            try requireArticle(db, id: id)
            return true
        }
        if written { try stamp(db, article: id, at: date) }
        return written
    }

    /// Replaces an article's body; `updatedAt` becomes `date` when it changes. Only the chunks
    /// the change touches are written. Bytes of the stored body that are not UTF-8 (which read
    /// as U+FFFD) are kept where `body` leaves the text as read unchanged.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func updateBody(
        _ db: Database, ofArticle id: Int64, to body: String, at date: Date = Date()
    ) throws {
        let stored = try storedBody(db, ofArticle: id)
        var new = Array(body.utf8)
        if let kept = KeptBytes.edit(stored, to: new) { new = kept }
        var layout: BodyLayout?
        let written = try stored.withUnsafeBufferPointer { old in
            try new.withUnsafeBufferPointer { new in
                try writeChange(db, ofArticle: id, &layout, from: old, to: new)
            }
        }
        guard let written else { return }
        if !written {
            try rewriteChunks(db, ofArticle: id, as: new)
        }
        try stamp(db, article: id, at: date)
    }

    /// Writes the change from `old` to `new` into the chunks it touches (`writeChunks`), reading
    /// the layout when `layout` is not the one of `old`; nil when the two are the same.
    private static func writeChange(
        _ db: Database, ofArticle id: Int64, _ layout: inout BodyLayout?,
        from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>
    ) throws -> Bool? {
        let change = CommonPrefixAndSuffix.of(old, new)
        guard old.count != new.count || change.prefix != old.count else { return nil }
        if layout?.byteCount != old.count { layout = try readLayout(db, ofArticle: id) }
        return try writeChunks(db, ofArticle: id, &layout, from: old, to: new, change)
    }

    /// What changed in an article's body since `layout` was where it was cut: the bytes of the
    /// old body that were replaced and their new text, with the layout now. Only the chunks that
    /// differ from `layout`, or are in `rewritten` (chunks written since, maybe to the same
    /// length), are read: after an undo of a keystroke in a body of megabytes, the editor reads
    /// a kilobyte. nil when the article is gone.
    /// - Throws: `SQLiteError`.
    public static func bodyChange(
        _ db: Database, ofArticle id: Int64, since layout: BodyLayout, rewritten: Set<Int64>
    ) throws -> (replaced: Range<Int>, text: String, layout: BodyLayout)? {
        guard try articleExists(db, id: id) else { return nil }
        let now = try readLayout(db, ofArticle: id)
        let unchanged = { (old: BodyLayout.Piece, new: BodyLayout.Piece) in
            old == new && !rewritten.contains(new.id)
        }
        let (old, new) = (layout.pieces, now.pieces)
        var prefix = 0
        while prefix < min(old.count, new.count), unchanged(old[prefix], new[prefix]) {
            prefix += 1
        }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix,
            unchanged(old[old.count - 1 - suffix], new[new.count - 1 - suffix])
        {
            suffix += 1
        }
        let start = old[..<prefix].reduce(0) { $0 + $1.length }
        let replacedLength = old[prefix..<(old.count - suffix)].reduce(0) { $0 + $1.length }
        var text: [UInt8] = []
        for piece in new[prefix..<(new.count - suffix)] {
            text += try storedChunk(db, id: piece.id, ofArticle: id)?.text ?? []
        }
        return (start..<(start + replacedLength), String(decoding: text, as: UTF8.self), now)
    }

    /// Where the article's body is cut now (nil when the article is gone), for `bodyChange`.
    /// - Throws: `SQLiteError`.
    public static func bodyLayout(_ db: Database, ofArticle id: Int64) throws -> BodyLayout? {
        try articleExists(db, id: id) ? readLayout(db, ofArticle: id) : nil
    }

    /// Cuts the article's chunks longer than `BodyChunks.maxBytes` (a body another program wrote
    /// whole through the `articles` view) as `BodyChunks` cuts bodies. The text and `updatedAt`
    /// stay as they are: meant for outside undo tracking, before an editor opens the article.
    /// - Throws: `SQLiteError`.
    public static func cutLongChunks(_ db: Database, ofArticle id: Int64) throws {
        let long = try longChunks(db, ofArticle: id)
        guard !long.isEmpty else { return }
        let updatedAt = try db.fetchOne(
            SQLiteValue.self, "SELECT updatedAt FROM \(NoteStoreSchema.articleRows) WHERE id = ?",
            [.integer(id)])
        for chunkID in long {
            guard let chunk = try storedChunk(db, id: chunkID, ofArticle: id) else { continue }
            let next = try nextChunk(db, ofArticle: id, after: chunk)
            _ = try place(
                BodyChunks.cut(chunk.text).map { Array(chunk.text[$0]) }, over: [chunk],
                before: next?.position, ofArticle: id, db)
        }
        try db.execute(
            "UPDATE \(NoteStoreSchema.articleRows) SET updatedAt = ? WHERE id = ?",
            [updatedAt ?? .null, .integer(id)])
    }

    /// Whether the article has chunks that `cutLongChunks` would cut: a read, to spare a write
    /// when it has none.
    /// - Throws: `SQLiteError`.
    public static func hasLongChunks(_ db: Database, ofArticle id: Int64) throws -> Bool {
        try !longChunks(db, ofArticle: id).isEmpty
    }

    /// The ids of the article's chunks longer than `BodyChunks.maxBytes`.
    private static func longChunks(_ db: Database, ofArticle id: Int64) throws -> [Int64] {
        try db.fetchAll(
            Int64.self,
            """
            SELECT id FROM \(NoteStoreSchema.articleChunks)
            WHERE articleId = ? AND length(CAST(text AS BLOB)) > ?
            """, [.integer(id), .integer(Int64(BodyChunks.maxBytes))])
    }

    /// Inserts the chunks of a new article's body.
    static func insertChunks(_ db: Database, ofArticle id: Int64, _ body: [UInt8]) throws {
        for (index, piece) in BodyChunks.cut(body).enumerated() {
            try insertChunk(
                db, ofArticle: id, at: Int64(index + 1) * BodyChunks.positionStep,
                Array(body[piece]))
        }
    }

    /// Where the article's body is cut, read from its chunks.
    private static func readLayout(_ db: Database, ofArticle id: Int64) throws -> BodyLayout {
        BodyLayout(
            try db.fetchAll(
                Row.self,
                """
                SELECT id, length(CAST(text AS BLOB)) FROM \(NoteStoreSchema.articleChunks)
                WHERE articleId = ? ORDER BY position, id
                """, [.integer(id)]
            ).map { BodyLayout.Piece(id: try $0.decode(at: 0), length: try $0.decode(at: 1)) })
    }

    /// The body's bytes as stored.
    private static func storedBody(_ db: Database, ofArticle id: Int64) throws -> [UInt8] {
        try requireArticle(db, id: id)
        let value = try db.fetchOne(
            SQLiteValue.self, "SELECT CAST(body AS BLOB) FROM articles WHERE id = ?",
            [.integer(id)])
        if case .blob(let bytes) = value { return bytes }
        return []
    }

    /// Rewrites the chunks that the change from `old` to `new` touches (`BodyLayout.touched`),
    /// when they hold `old` there; returns false, writing nothing, when they do not. Their text
    /// is cut again (`BodyChunks`), the first piece kept in the first chunk's row. `layout`
    /// follows, or is nil when the chunks around were not where it said.
    private static func writeChunks(
        _ db: Database, ofArticle id: Int64, _ layout: inout BodyLayout?,
        from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>,
        _ change: (prefix: Int, suffix: Int)
    ) throws -> Bool {
        guard let current = layout, current.byteCount == old.count else {
            layout = nil
            return false
        }
        guard !current.pieces.isEmpty else {
            try requireArticle(db, id: id)
            try insertChunks(db, ofArticle: id, Array(new))
            layout = nil
            return true
        }
        let delta = new.count - old.count
        let (range, start) = current.touched(
            prefix: change.prefix, changedEnd: old.count - change.suffix, delta: delta, new: new)
        let touched = try current.pieces[range].map {
            try storedChunk(db, id: $0.id, ofArticle: id)
        }
        let oldRange = start..<(start + current.pieces[range].reduce(0) { $0 + $1.length })
        guard !touched.contains(where: { $0 == nil }),
            touched.flatMap({ $0!.text }).elementsEqual(old[oldRange])
        else {
            layout = nil
            return false
        }
        let text = Array(new[oldRange.lowerBound..<(oldRange.upperBound + delta)])
        let pieces =
            text.count > BodyChunks.maxBytes
            ? BodyChunks.cut(text) : (text.isEmpty ? [] : [0..<text.count])
        let last = touched.last!!
        let next = try nextChunk(db, ofArticle: id, after: last)
        let ids = try place(
            pieces.map { Array(text[$0]) }, over: touched.map { $0! }, before: next?.position,
            ofArticle: id, db)
        let expectedNext =
            range.upperBound + 1 < current.pieces.count
            ? current.pieces[range.upperBound + 1].id : nil
        layout?.replace(
            range, with: zip(ids, pieces).map { BodyLayout.Piece(id: $0, length: $1.count) })
        if next?.id != expectedNext { layout = nil }
        return true
    }

    /// A chunk as stored: its id, position and bytes.
    private struct StoredChunk {
        let id: Int64
        let position: Int64
        let text: [UInt8]
    }

    /// Chunk `id` of the article, or nil when it is not one of its chunks any more.
    private static func storedChunk(_ db: Database, id: Int64, ofArticle article: Int64) throws
        -> StoredChunk?
    {
        let row = try db.fetchOne(
            Row.self,
            """
            SELECT position, CAST(text AS BLOB) FROM \(NoteStoreSchema.articleChunks)
            WHERE id = ? AND articleId = ?
            """, [.integer(id), .integer(article)])
        guard let row, case .blob(let text) = row[1] else { return nil }
        return StoredChunk(id: id, position: try row.decode(at: 0), text: text)
    }

    /// The article's chunk after `chunk`, in order.
    private static func nextChunk(
        _ db: Database, ofArticle article: Int64, after chunk: StoredChunk
    )
        throws -> (id: Int64, position: Int64)?
    {
        let row = try db.fetchOne(
            Row.self,
            """
            SELECT id, position FROM \(NoteStoreSchema.articleChunks)
            WHERE articleId = ? AND (position, id) > (?, ?) ORDER BY position, id LIMIT 1
            """, [.integer(article), .integer(chunk.position), .integer(chunk.id)])
        return try row.map { (try $0.decode(at: 0), try $0.decode(at: 1)) }
    }

    /// Writes `texts` in the rows of `touched` (in order), deleting the rows left over and
    /// inserting the pieces beyond them between the last row's position and `next`; returns
    /// the ids of the rows that hold `texts`.
    private static func place(
        _ texts: [[UInt8]], over touched: [StoredChunk], before next: Int64?, ofArticle id: Int64,
        _ db: Database
    ) throws -> [Int64] {
        for (chunk, text) in zip(touched, texts) {
            try db.execute(
                "UPDATE article_chunks SET text = CAST(?1 AS TEXT) WHERE id = ?2 AND text IS NOT CAST(?1 AS TEXT)",
                [.blob(text), .integer(chunk.id)])
        }
        for chunk in touched.dropFirst(texts.count) {
            try db.execute("DELETE FROM article_chunks WHERE id = ?", [.integer(chunk.id)])
        }
        var ids = touched.prefix(texts.count).map(\.id)
        let extra = texts.dropFirst(touched.count)
        guard !extra.isEmpty else { return ids }
        var after = touched.last!.position
        var gap = (next ?? after + BodyChunks.positionStep * Int64(extra.count + 1)) - after
        if gap <= Int64(extra.count) {
            after = try renumberChunks(db, ofArticle: id, through: touched.last!.id)
            gap = 2 * BodyChunks.positionStep
        }
        let step = gap / Int64(extra.count + 1)
        for (index, text) in extra.enumerated() {
            try insertChunk(db, ofArticle: id, at: after + step * Int64(index + 1), text)
            ids.append(db.lastInsertedRowID)
        }
        return ids
    }

    /// Spaces the article's chunks `BodyChunks.positionStep` apart, with a gap of twice that
    /// after chunk `id`; returns that chunk's new position.
    private static func renumberChunks(_ db: Database, ofArticle article: Int64, through id: Int64)
        throws -> Int64
    {
        var position: Int64 = 0
        var found: Int64 = 0
        for chunk in try readLayout(db, ofArticle: article).pieces.map(\.id) {
            position += BodyChunks.positionStep
            try db.execute(
                "UPDATE article_chunks SET position = ? WHERE id = ?",
                [.integer(position), .integer(chunk)])
            if chunk == id {
                found = position
                position += BodyChunks.positionStep
            }
        }
        return found
    }

    /// Deletes every chunk of the article and cuts `body` again: for a body whose stored bytes
    /// the caller's text cannot be matched with (bytes that are not UTF-8).
    private static func rewriteChunks(_ db: Database, ofArticle id: Int64, as body: [UInt8])
        throws
    {
        try db.execute("DELETE FROM article_chunks WHERE articleId = ?", [.integer(id)])
        try insertChunks(db, ofArticle: id, body)
    }

    private static func insertChunk(
        _ db: Database, ofArticle id: Int64, at position: Int64, _ text: [UInt8]
    ) throws {
        try db.execute(
            "INSERT INTO article_chunks(articleId, position, text) VALUES (?, ?, CAST(? AS TEXT))",
            [.integer(id), .integer(position), .blob(text)])
    }

    /// Sets `updatedAt` to `date` (after the chunks' triggers stamped the clock's time).
    private static func stamp(_ db: Database, article id: Int64, at date: Date) throws {
        try db.execute(
            "UPDATE article_rows SET updatedAt = ? WHERE id = ?",
            [.text(timestamp(date)), .integer(id)])
        guard db.changesCount > 0 else { throw NotebookError.articleNotFound(id: id) }
    }

    static func requireArticle(_ db: Database, id: Int64) throws {
        let exists = try db.fetchOne(
            Int.self, "SELECT count(*) FROM article_rows WHERE id = ?", [.integer(id)])
        guard exists == 1 else { throw NotebookError.articleNotFound(id: id) }
    }
}
