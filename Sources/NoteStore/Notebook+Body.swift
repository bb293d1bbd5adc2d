import Foundation
import SQLiteDatabase

extension Notebook {
    /// Writes an edit of an article's body, from `base` (the body as the caller read it) to
    /// `body`, into the chunks it touches only (`BodyChunks`): a keystroke in a body of megabytes
    /// writes, indexes and records about a kilobyte. `updatedAt` becomes `date` when it changes.
    ///
    /// It checks that the chunks it rewrites hold what `base` says, and that the body has the
    /// length of `base`; someone else's edit of another chunk of the same length is kept, as a
    /// merge would.
    /// - Returns: false, writing nothing, when the stored body is not `base` where it looked
    ///   (someone else changed it): read it and merge, then `updateBody(_:ofArticle:to:at:)`.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func updateBody(
        _ db: Database, ofArticle id: Int64, from base: String, to body: String,
        at date: Date = Date()
    ) throws -> Bool {
        // The bytes in place, not copied: a body may be megabytes, and this runs at every key.
        var (base, body) = (base, body)
        let written = try base.withUTF8 { old in
            try body.withUTF8 { new -> Bool? in
                guard old.count != new.count || commonAffixes(old, new).prefix != old.count
                else { return nil }
                let chunks = try storedChunks(db, ofArticle: id)
                return try chunks.reduce(0, { $0 + $1.length }) == old.count
                    && writeChunks(db, ofArticle: id, chunks, from: old, to: new)
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
    /// the change touches are written.
    /// - Throws: `NotebookError.articleNotFound`; `SQLiteError`.
    public static func updateBody(
        _ db: Database, ofArticle id: Int64, to body: String, at date: Date = Date()
    ) throws {
        let stored = try storedBody(db, ofArticle: id)
        let new = Array(body.utf8)
        guard stored != new else { return }
        let chunks = try storedChunks(db, ofArticle: id)
        let written = try stored.withUnsafeBufferPointer { old in
            try new.withUnsafeBufferPointer { new in
                try writeChunks(db, ofArticle: id, chunks, from: old, to: new)
            }
        }
        if !written {
            try rewriteChunks(db, ofArticle: id, as: new)
        }
        try stamp(db, article: id, at: date)
    }

    /// Inserts the chunks of a new article's body.
    static func insertChunks(_ db: Database, ofArticle id: Int64, _ body: [UInt8]) throws {
        for (index, piece) in BodyChunks.cut(body).enumerated() {
            try insertChunk(
                db, ofArticle: id, at: Int64(index + 1) * BodyChunks.positionStep,
                Array(body[piece]))
        }
    }

    /// One chunk of a body as stored: its id, its position and its length in bytes.
    private struct StoredChunk {
        let id: Int64
        let position: Int64
        let length: Int
    }

    private static func storedChunks(_ db: Database, ofArticle id: Int64) throws -> [StoredChunk] {
        try db.fetchAll(
            Row.self,
            """
            SELECT id, position, length(CAST(text AS BLOB)) FROM article_chunks
            WHERE articleId = ? ORDER BY position, id
            """, [.integer(id)]
        ).map { row in
            StoredChunk(
                id: try row.decode(at: 0), position: try row.decode(at: 1),
                length: try row.decode(at: 2))
        }
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

    /// Rewrites the chunks that the change from `old` to `new` touches, when they hold `old`
    /// there; returns false, writing nothing, when they do not.
    ///
    /// The chunks touched are those holding the changed bytes (an insertion between two chunks
    /// goes to the later one, so it joins the word it is typed before), and the next ones while
    /// the text would end inside a word: their text is cut again (`BodyChunks`), the first
    /// piece kept in the first chunk's row.
    private static func writeChunks(
        _ db: Database, ofArticle id: Int64, _ chunks: [StoredChunk],
        from old: UnsafeBufferPointer<UInt8>, to new: UnsafeBufferPointer<UInt8>
    ) throws -> Bool {
        guard !chunks.isEmpty else {
            guard old.isEmpty else { return false }
            try requireArticle(db, id: id)
            try insertChunks(db, ofArticle: id, Array(new))
            return true
        }
        let (prefix, suffix) = commonAffixes(old, new)
        let starts = chunks.reduce(into: [0]) { $0.append($0.last! + $1.length) }
        // The first chunk touched: the one holding byte `prefix` (the last at the end).
        let first = min(starts.lastIndex { $0 <= prefix } ?? 0, chunks.count - 1)
        // The last one touched: holding the last changed byte, at least `first`.
        let changedEnd = old.count - suffix
        var last = first
        while last + 1 < chunks.count, starts[last + 1] < changedEnd { last += 1 }
        // Go on while the new text would end inside a word, before the next chunk.
        let delta = new.count - old.count
        while last + 1 < chunks.count {
            let endInNew = starts[last + 1] + delta
            guard endInNew > 0, !BodyChunks.endsWord(new[endInNew - 1]) else { break }
            last += 1
        }
        let touched = Array(chunks[first...last])
        let oldRange = starts[first]..<starts[last + 1]
        guard
            try chunkBytes(db, touched.map(\.id)) == Array(old[oldRange])
        else { return false }
        let newRange = oldRange.lowerBound..<(oldRange.upperBound + delta)
        let text = Array(new[newRange])
        let pieces =
            text.count > BodyChunks.maxBytes
            ? BodyChunks.cut(text) : (text.isEmpty ? [] : [0..<text.count])
        let next = last + 1 < chunks.count ? chunks[last + 1].position : nil
        try place(
            pieces.map { Array(text[$0]) }, over: touched, before: next, ofArticle: id, db)
        return true
    }

    /// Writes `texts` in the rows of `touched` (in order), deleting the rows left over and
    /// inserting the pieces beyond them between the last row's position and `next`.
    private static func place(
        _ texts: [[UInt8]], over touched: [StoredChunk], before next: Int64?, ofArticle id: Int64,
        _ db: Database
    ) throws {
        for (chunk, text) in zip(touched, texts) {
            try db.execute(
                "UPDATE article_chunks SET text = CAST(?1 AS TEXT) WHERE id = ?2 AND text IS NOT CAST(?1 AS TEXT)",
                [.blob(text), .integer(chunk.id)])
        }
        for chunk in touched.dropFirst(texts.count) {
            try db.execute("DELETE FROM article_chunks WHERE id = ?", [.integer(chunk.id)])
        }
        let extra = texts.dropFirst(touched.count)
        guard !extra.isEmpty else { return }
        var after = touched.last!.position
        var gap = (next ?? after + BodyChunks.positionStep * Int64(extra.count + 1)) - after
        if gap <= Int64(extra.count) {
            after = try renumberChunks(db, ofArticle: id, through: touched.last!.id)
            gap = 2 * BodyChunks.positionStep
        }
        let step = gap / Int64(extra.count + 1)
        for (index, text) in extra.enumerated() {
            try insertChunk(db, ofArticle: id, at: after + step * Int64(index + 1), text)
        }
    }

    /// Spaces the article's chunks `BodyChunks.positionStep` apart, with a gap of twice that
    /// after chunk `id`; returns that chunk's new position.
    private static func renumberChunks(_ db: Database, ofArticle article: Int64, through id: Int64)
        throws -> Int64
    {
        var position: Int64 = 0
        var found: Int64 = 0
        for chunk in try storedChunks(db, ofArticle: article) {
            position += BodyChunks.positionStep
            try db.execute(
                "UPDATE article_chunks SET position = ? WHERE id = ?",
                [.integer(position), .integer(chunk.id)])
            if chunk.id == id {
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

    /// The chunks' bytes, joined in the order given.
    private static func chunkBytes(_ db: Database, _ ids: [Int64]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for id in ids {
            let value = try db.fetchOne(
                SQLiteValue.self, "SELECT CAST(text AS BLOB) FROM article_chunks WHERE id = ?",
                [.integer(id)])
            if case .blob(let chunk) = value { bytes += chunk }
        }
        return bytes
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

    /// The lengths of the longest common start and end of two byte strings (not overlapping),
    /// compared eight bytes at a time.
    static func commonAffixes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>)
        -> (prefix: Int, suffix: Int)
    {
        let shorter = min(a.count, b.count)
        guard shorter > 0, let a0 = a.baseAddress, let b0 = b.baseAddress else { return (0, 0) }
        let (wideA, wideB) = (UnsafeRawPointer(a0), UnsafeRawPointer(b0))
        var prefix = 0
        while prefix + 8 <= shorter,
            wideA.loadUnaligned(fromByteOffset: prefix, as: UInt64.self)
                == wideB.loadUnaligned(fromByteOffset: prefix, as: UInt64.self)
        {
            prefix += 8
        }
        while prefix < shorter, a[prefix] == b[prefix] { prefix += 1 }
        let room = shorter - prefix
        var suffix = 0
        while suffix + 8 <= room,
            wideA.loadUnaligned(fromByteOffset: a.count - suffix - 8, as: UInt64.self)
                == wideB.loadUnaligned(fromByteOffset: b.count - suffix - 8, as: UInt64.self)
        {
            suffix += 8
        }
        while suffix < room, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        return (prefix, suffix)
    }
}
