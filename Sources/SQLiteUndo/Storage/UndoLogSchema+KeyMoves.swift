import SQLiteDatabase

/// The key changes that took effect after an entry, as the log records them: an undo follows
/// there a row the entry changed in place that another action moved to another key since.
extension UndoLogSchema {
    /// A point in the order the log's rows took effect: a row's `seq`, or the moment of a flip
    /// (`flippedAt`) with the flip's order, for flips with no log row between them (0 for a row
    /// not flipped).
    struct EffectTime {
        let at: Double
        let flipOrder: Int64
    }

    /// An index of the log's key changes (an update moving a row to another key, its rowid or
    /// its key's number): an undo reads those after its entry without reading the rest.
    static func addKeyMovesIndex(_ db: Database) throws {
        try db.execute(
            "CREATE INDEX IF NOT EXISTS \(log)_moves ON \(log)(seq) WHERE \(isKeyMove(""))")
    }

    /// SQL true for a log row (of the table `alias`) that moves a row to another key. Written
    /// the same everywhere, so that SQLite reads such rows by the index `addKeyMovesIndex` adds.
    private static func isKeyMove(_ alias: String) -> String {
        let prefix = alias.isEmpty ? "" : alias + "."
        return "\(prefix)kind = \(Kind.update.rawValue) AND \(prefix)oldRowid != \(prefix)newRowid"
    }

    /// When the entry `id` took effect: its last log row, or its flip when an exact replay
    /// flipped it (its rows then took effect at once); with whether another action, or a
    /// replay, may have moved a row to another key since, in one of the tables `tables` (nil
    /// when none did: nothing to follow). Nil when the entry is not filed.
    static func timeToFollow(entry id: Int64, inTables tables: [Int64], _ db: Database) throws
        -> EffectTime?
    {
        // Read from the entry's first row on (a bound below its last, one lookup): the exact
        // time is read only when some key change may follow it.
        guard
            let row = try db.fetchOne(
                Row.self,
                """
                SELECT b.flippedAt, b.flipOrder, b.firstSeq,
                    EXISTS (SELECT 1 FROM \(log) l WHERE \(isKeyMove("l"))
                        AND l.seq > coalesce(b.flippedAt, b.firstSeq) AND l.barrier != b.id)
                    OR EXISTS (SELECT 1 FROM \(barriers) f INDEXED BY \(barriers)_flippedAt
                        CROSS JOIN \(log) l
                        ON l.seq BETWEEN f.firstSeq AND f.lastSeq AND \(isKeyMove("l"))
                        WHERE f.flippedAt >= coalesce(b.flippedAt, b.firstSeq) AND f.id != b.id
                            AND +l.barrier = f.id)
                    OR EXISTS (SELECT 1 FROM \(retiredMoves)
                        WHERE tableId IN (SELECT value FROM json_each(?2))
                            AND tookEffect >= coalesce(b.flippedAt, b.firstSeq)
                            AND oldRowid != newRowid)
                FROM \(barriers) b WHERE b.id = ?1
                """, [.integer(id), .text(tables.jsonArray)]),
            try row.decode(at: 3, as: Bool.self)
        else { return nil }
        if let flippedAt = try row.decode(at: 0, as: Double?.self) {
            return EffectTime(at: flippedAt, flipOrder: try row.decode(at: 1, as: Int64?.self) ?? 0)
        }
        let first: Int64 = try row.decode(at: 2)
        let last = try db.fetchOne(
            Int64.self, "SELECT max(seq) FROM \(log) WHERE \(filedRows())", [.integer(id)])
        return EffectTime(at: Double(last ?? first), flipOrder: 0)
    }

    /// The key changes, inserts and deletes of `table` that took effect after `time`, oldest
    /// first, each as it took effect (a flipped entry's read the way it reads now): the rows of
    /// entries in history, and those of actions that left it (`retiredMoves`). An insert has no
    /// old key, a delete no new one.
    /// Read only when a key change followed the entry (`timeToFollow`): the log's rows after it
    /// are read, not only its key changes.
    static func keyMoves(ofTable table: Int64, after time: EffectTime, _ db: Database) throws
        -> [(old: Int64?, new: Int64?)]
    {
        let arguments: [SQLiteValue] = [.integer(table), .real(time.at), .integer(time.flipOrder)]
        let leaves = "l.oldRowid IS NOT l.newRowid"
        let unflipped = try db.fetchCursor(
            """
            SELECT l.oldRowid, l.newRowid, l.seq, NULL FROM \(log) l
            WHERE l.seq > ?2 AND +l.tableId = ?1 AND \(leaves)
                AND (SELECT flipOrder FROM \(barriers) WHERE id = l.barrier) IS NULL
            ORDER BY l.seq
            """, Array(arguments.prefix(2)))
        let flipped = try db.fetchCursor(
            """
            SELECT CASE WHEN b.inverted THEN l.newRowid ELSE l.oldRowid END,
                CASE WHEN b.inverted THEN l.oldRowid ELSE l.newRowid END, b.flippedAt, b.flipOrder
            FROM \(barriers) b INDEXED BY \(barriers)_flippedAt CROSS JOIN \(log) l
            ON l.seq BETWEEN b.firstSeq AND b.lastSeq
            WHERE b.flippedAt >= ?2 AND (b.flippedAt > ?2 OR b.flipOrder > ?3)
                AND +l.barrier = b.id AND +l.tableId = ?1 AND \(leaves)
            ORDER BY b.flipOrder, CASE WHEN b.inverted THEN -l.seq ELSE l.seq END
            """, arguments)
        let retired = try db.fetchCursor(
            """
            SELECT oldRowid, newRowid, tookEffect, flipOrder FROM \(retiredMoves)
            WHERE tableId = ?1 AND tookEffect >= ?2
                AND (tookEffect > ?2 OR coalesce(flipOrder, 0) > ?3)
            ORDER BY tookEffect, flipOrder, sub
            """, arguments)
        let rows = try MergedLogRows(
            [unflipped, flipped, retired], timeColumn: 2, flipOrderColumn: 3, newestFirst: false)
        var moves: [(old: Int64?, new: Int64?)] = []
        while let row = try rows.next() {
            moves.append((try row.decode(at: 0), try row.decode(at: 1)))
        }
        return moves
    }
}
