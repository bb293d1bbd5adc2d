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

    /// Replaces the index of key changes that files got from `addKeyMovesIndex` before its
    /// condition read the kind as `+kind`: with `kind = 2` there, SQLite prepared every
    /// statement reading the log by a bound kind (`kind = ?`, most of a replay's) again at each
    /// run (see `isKeyMove`).
    static func replaceKeyMovesIndex(_ db: Database) throws {
        try db.execute("DROP INDEX IF EXISTS \(log)_moves")
        try addKeyMovesIndex(db)
    }

    /// SQL true for a log row (of the table `alias`) that puts a row at a key or takes it from
    /// one: an insert, a delete or a key change.
    private static func isKeyEvent(_ alias: String) -> String {
        let prefix = alias.isEmpty ? "" : alias + "."
        return "\(prefix)oldRowid IS NOT \(prefix)newRowid"
    }

    /// SQL true for a log row (of the table `alias`) that moves a row to another key. Written
    /// the same everywhere, so that SQLite reads such rows by the index `addKeyMovesIndex` adds.
    ///
    /// The kind is read as `+kind`. To see whether a query may use a partial index, SQLite
    /// compares the query's terms with the index's condition; a term `kind = ?` compared with
    /// `kind = 2` makes the statement depend on the value bound there, and SQLite prepares it
    /// again each time that parameter is bound, so at every run (with the read of the log's
    /// slots, a quarter of the model-based test's time). No query names the kind as `+kind`,
    /// so none is compared.
    private static func isKeyMove(_ alias: String) -> String {
        let prefix = alias.isEmpty ? "" : alias + "."
        return "+\(prefix)kind = \(Kind.update.rawValue) AND \(prefix)oldRowid != \(prefix)newRowid"
    }

    /// When the entry `id` took effect: its last log row, or its flip when an exact replay
    /// flipped it (its rows then took effect at once); with whether another action, or a
    /// replay, may have moved a row to another key since, in one of the tables `tables` (nil
    /// when none did: nothing to follow). Nil when the entry is not filed.
    static func timeToFollow(entry id: Int64, inTables tables: [Int64], _ db: Database) throws
        -> EffectTime?
    {
        guard
            let row = try db.fetchOne(
                Row.self, followCheck, [.integer(id), .text(tables.jsonArray)]),
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

    /// The key changes of `table` that took effect after `time`, oldest first, each as it took
    /// effect: the rows of entries in history, and those of actions that left it
    /// (`retiredMoves`); with `insertsAndDeletes`, its inserts (no old key) and deletes (no new
    /// key) too. A flipped entry is read the way it reads now at its last flip, and, when it
    /// took effect after `time` before that flip too, first the other way at that time (an
    /// entry undone since is its change and then its undo, not its undo alone; older flips,
    /// undone and redone in pairs, are left out).
    /// Key changes alone are read through their index (`addKeyMovesIndex`); inserts and deletes
    /// are not indexed (an index would cost every insert and delete captured a write), so with
    /// them every log row after `time` is read.
    static func keyMoves(
        ofTable table: Int64, after time: EffectTime, insertsAndDeletes: Bool, _ db: Database
    ) throws -> [(old: Int64?, new: Int64?)] {
        let arguments: [SQLiteValue] = [.integer(table), .real(time.at), .integer(time.flipOrder)]
        let reads = insertsAndDeletes ? everyKeyEventRead : keyChangeRead
        let rows = try MergedLogRows(
            [
                try db.fetchCursor(reads.unflipped, Array(arguments.prefix(2))),
                try db.fetchCursor(reads.beforeLastFlip, arguments),
                try db.fetchCursor(reads.flipped, arguments),
                try db.fetchCursor(reads.retired, arguments),
            ], timeColumn: 2, flipOrderColumn: 3, newestFirst: false)
        var moves: [(old: Int64?, new: Int64?)] = []
        while let row = try rows.next() {
            moves.append((try row.decode(at: 0), try row.decode(at: 1)))
        }
        return moves
    }

    /// The statements that read the log's key changes after an entry: each reads its rows
    /// through an index, or by a range of `seq` (`KeyMoveReadTests` reads their plans). Without
    /// the index named, SQLite may build an automatic index over the whole log at every undo.
    static var keyMoveReads: [String] {
        [keyChangeRead, everyKeyEventRead].flatMap {
            [$0.unflipped, $0.beforeLastFlip, $0.flipped, $0.retired]
        }
            + [followCheck]
    }

    /// `timeToFollow`'s statement (?1 the entry, ?2 the tables, a JSON array). It reads from
    /// the entry's first row on (a bound below its last, one lookup): the exact time is read
    /// only when some key change may follow it.
    private static let followCheck = """
        SELECT b.flippedAt, b.flipOrder, b.firstSeq,
            EXISTS (SELECT 1 FROM \(log) l INDEXED BY \(log)_moves WHERE \(isKeyMove("l"))
                AND l.seq > coalesce(b.flippedAt, b.firstSeq) AND l.barrier != b.id)
            OR EXISTS (SELECT 1 FROM \(barriers) f INDEXED BY \(barriers)_flippedAt
                CROSS JOIN \(log) l INDEXED BY \(log)_moves
                ON l.seq BETWEEN f.firstSeq AND f.lastSeq AND \(isKeyMove("l"))
                WHERE f.flippedAt >= coalesce(b.flippedAt, b.firstSeq) AND f.id != b.id
                    AND +l.barrier = f.id)
            OR EXISTS (SELECT 1 FROM \(retiredMoves)
                WHERE tableId IN (SELECT value FROM json_each(?2))
                    AND tookEffect >= coalesce(b.flippedAt, b.firstSeq)
                    AND oldRowid != newRowid)
        FROM \(barriers) b WHERE b.id = ?1
        """

    /// `keyMoves`' statements: its reads of the rows of entries not flipped (?1 the table, ?2
    /// the time), of entries flipped after the time, at the time each took effect before its
    /// last flip when that is after the time too, read the other way (?3: the flip's order at
    /// that time), then at their last flips, read the way each reads now, and of actions that
    /// left history.
    private struct KeyEventReads {
        let unflipped: String
        let beforeLastFlip: String
        let flipped: String
        let retired: String

        init(insertsAndDeletes: Bool) {
            let read =
                insertsAndDeletes
                ? (log: "\(log) l NOT INDEXED", rows: isKeyEvent("l"), retired: "")
                : (
                    log: "\(log) l INDEXED BY \(log)_moves", rows: isKeyMove("l"),
                    retired: " AND oldRowid != newRowid"
                )
            unflipped = """
                SELECT l.oldRowid, l.newRowid, l.seq, NULL FROM \(read.log)
                WHERE l.seq > ?2 AND +l.tableId = ?1 AND \(read.rows)
                    AND (SELECT flipOrder FROM \(barriers) WHERE id = l.barrier) IS NULL
                ORDER BY l.seq
                """
            // Before its first flip, an entry took effect when its log rows were written.
            beforeLastFlip = """
                SELECT CASE WHEN b.inverted THEN l.oldRowid ELSE l.newRowid END,
                    CASE WHEN b.inverted THEN l.newRowid ELSE l.oldRowid END,
                    coalesce(b.previousFlippedAt, l.seq), b.previousFlipOrder
                FROM \(barriers) b INDEXED BY \(barriers)_flippedAt CROSS JOIN \(read.log)
                ON l.seq BETWEEN b.firstSeq AND b.lastSeq AND +l.tableId = ?1 AND \(read.rows)
                WHERE b.flippedAt >= ?2 AND +l.barrier = b.id
                    AND CASE WHEN b.previousFlippedAt IS NULL THEN l.seq > ?2
                        ELSE b.previousFlippedAt > ?2
                            OR (b.previousFlippedAt = ?2 AND b.previousFlipOrder > ?3) END
                ORDER BY coalesce(b.previousFlippedAt, l.seq), coalesce(b.previousFlipOrder, 0),
                    CASE WHEN b.inverted THEN l.seq ELSE -l.seq END
                """
            flipped = """
                SELECT CASE WHEN b.inverted THEN l.newRowid ELSE l.oldRowid END,
                    CASE WHEN b.inverted THEN l.oldRowid ELSE l.newRowid END, b.flippedAt,
                    b.flipOrder
                FROM \(barriers) b INDEXED BY \(barriers)_flippedAt CROSS JOIN \(read.log)
                ON l.seq BETWEEN b.firstSeq AND b.lastSeq AND +l.tableId = ?1 AND \(read.rows)
                WHERE b.flippedAt >= ?2 AND (b.flippedAt > ?2 OR b.flipOrder > ?3)
                    AND +l.barrier = b.id
                ORDER BY b.flipOrder, CASE WHEN b.inverted THEN -l.seq ELSE l.seq END
                """
            retired = """
                SELECT oldRowid, newRowid, tookEffect, flipOrder FROM \(retiredMoves)
                WHERE tableId = ?1 AND tookEffect >= ?2
                    AND (tookEffect > ?2 OR coalesce(flipOrder, 0) > ?3)\(read.retired)
                ORDER BY tookEffect, flipOrder, sub
                """
        }
    }

    private static let keyChangeRead = KeyEventReads(insertsAndDeletes: false)
    private static let everyKeyEventRead = KeyEventReads(insertsAndDeletes: true)
}
