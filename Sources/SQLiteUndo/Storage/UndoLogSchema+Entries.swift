import SQLiteDatabase

/// The statements on the barrier lists (`sqliteundo_barriers`) and the log around them: what
/// stacks file, move, delete, merge and read. The capture triggers (CaptureTriggers.swift) and
/// the replays (BatchReplay, Replayer) read and write the log's rows by the layout
/// `UndoLogSchema` describes.
extension UndoLogSchema {
    // MARK: The lists

    /// A stack's entries: both lists, oldest first, and the kept steps, in the order they were
    /// done.
    static func entries(ofStack stackID: String, _ db: Database) throws -> StackEntries {
        var entries = StackEntries()
        let rows = try db.fetchAll(
            Row.self,
            """
            SELECT id, list, name, coalescingKey, position, closedAt, inverted, step, stepAt,
                parentStep, takesBack
            FROM \(barriers)
            WHERE stackId = ? AND supersededBy IS NULL
            ORDER BY list, CASE list WHEN 2 THEN coalesce(stepAt, closedAt) ELSE position END,
                coalesce(step, id)
            """, [.text(stackID)])
        for row in rows {
            let entry = StackEntry(
                id: try row.decode("id"), name: try row.decode("name"),
                coalescingKey: try row.decode("coalescingKey"),
                position: try row.decode("position"),
                closedAt: try row.decode("closedAt"), inverted: try row.decode("inverted"),
                step: try row.decode("step"), stepAt: try row.decode("stepAt"),
                parent: try row.decode("parentStep"), takesBack: try row.decode("takesBack"))
            let list = List(rawValue: try row.decode("list")) ?? .undo
            entries[list].append(entry)
        }
        return entries
    }

    /// The ids of a stack's entries, both lists.
    static func entryIDs(ofStack stackID: String, _ db: Database) throws -> [Int64] {
        try db.fetchAll(
            Int64.self, "SELECT id FROM \(barriers) WHERE stackId = ?", [.text(stackID)])
    }

    /// Whether the file still has `entry` of the stack on `list`, read the same way (inverted or
    /// not): false when another program deleted it (cleared the history), or undid or redid it
    /// since the stack read its lists (the same stack open in another engine). An entry of the
    /// redo list may be kept as a branch in the file instead: a barrier whose block still runs
    /// keeps the redo list so while the stack lists it.
    static func hasEntry(
        _ entry: StackEntry, ofStack stackID: String, on list: List, _ db: Database
    ) throws -> Bool {
        try db.fetchOne(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM \(barriers) WHERE id = ?1 AND stackId = ?2
                AND supersededBy IS NULL AND inverted = ?3
                AND (list = ?4 OR (?4 = \(List.redo.rawValue) AND list = \(List.kept.rawValue))))
            """,
            [
                .integer(entry.id), .text(stackID), .integer(entry.inverted ? 1 : 0),
                .integer(list.rawValue),
            ]) ?? false
    }

    /// Ids of every stack that has history in the file.
    static func stackIDs(_ db: Database) throws -> [String] {
        try db.fetchAll(
            String.self,
            "SELECT DISTINCT stackId FROM \(barriers) WHERE supersededBy IS NULL ORDER BY 1")
    }

    /// Files `entry` on a stack's list, its span starting at `logStart` and ending at the log's
    /// end, unless the barrier has no log rows (it only made no-op updates, or it is a replay's
    /// inverse that restored nothing). Returns what the filing found, or nil when it filed
    /// nothing.
    ///
    /// One statement reads the log's end, whether the barrier has rows and whether one may be
    /// packed, and inserts the entry, telling `report` the answers. A query reading them, then
    /// an `INSERT … VALUES`, cost a 1-row action about 5 % more (notes-bench: 2.68-2.86 times
    /// the untracked transaction against 2.51-2.70).
    static func file(
        _ entry: StackEntry, stack stackID: String, list: List, logStart: Int64, slots: Int,
        report: FilingReport, _ db: Database
    ) throws -> FilingReport.Found? {
        report.clear()
        try db.execute(
            packingSQL(slots: slots).filing,
            [
                .integer(logStart), .integer(entry.id), .integer(packingRowLimit),
                .text(stackID), .integer(list.rawValue), .integer(entry.position),
                .text(entry.name), entry.coalescingKey.map { .text($0) } ?? .null,
                .real(entry.closedAt), entry.parent.map { .integer($0) } ?? .null,
                entry.takesBack.map { .integer($0) } ?? .null,
            ])
        return report.take()
    }

    /// Puts an entry on `list` at its position, reading its log as `entry.inverted` says (an
    /// exact replay flipped it: it took effect now, after every log row written so far). When
    /// it took effect before is kept as its previous flip.
    static func move(_ entry: StackEntry, to list: List, _ db: Database) throws {
        try db.execute(
            """
            UPDATE \(barriers) SET list = ?, position = ?, inverted = ?, supersededBy = NULL,
                previousFlippedAt = flippedAt, previousFlipOrder = flipOrder,
                flippedAt = \(highestSeq) + 0.5,
                flipOrder = coalesce(
                    (SELECT max(flipOrder) FROM \(barriers) WHERE flipOrder IS NOT NULL), 0) + 1
            WHERE id = ?
            """,
            [
                .integer(list.rawValue), .integer(entry.position),
                .integer(entry.inverted ? 1 : 0), .integer(entry.id),
            ])
    }

    /// Deletes these entries and their log rows, each read by its span, and the entries they
    /// superseded, theirs, and so on; their key changes are retired (`retireMoves`), and the
    /// typing steps whose rows they changed since take no more merges (`closeMerging`, which
    /// lets through changes only to the cells of `midRunRules`).
    static func deleteEntries(
        _ ids: [Int64], takingIn midRunRules: [Int64: [Int: MidRunWriteRule]] = [:], _ db: Database
    ) throws {
        var ids = ids
        var retired = false
        try keepingHighestSeq(db) {
            while !ids.isEmpty {
                try closeMerging(intoEntriesChangedBy: ids, takingIn: midRunRules, db)
                for id in ids {
                    retired = try retireMoves(of: id, db) || retired
                    try db.execute("DELETE FROM \(log) WHERE \(filedRows())", [.integer(id)])
                    try db.execute("DELETE FROM \(barriers) WHERE id = ?", [.integer(id)])
                    try db.execute(
                        "DELETE FROM \(mergeBreaks) WHERE entry = ?", [.integer(id)])
                }
                ids = try superseded(by: ids, db)
            }
        }
        if retired { try pruneRetiredMoves(db) }
    }

    /// Keeps the key changes (moves, inserts, deletes) of an entry leaving history in
    /// `retiredMoves`, as they took effect (read the way the entry reads, at its flip if an
    /// exact replay flipped it): an older action's writes to a row it moved are found through
    /// them, and none past where it inserted or deleted a row (`lastWriter`). Returns whether it
    /// had any.
    private static func retireMoves(of id: Int64, _ db: Database) throws -> Bool {
        try db.execute(
            """
            INSERT INTO \(retiredMoves)(tableId, oldRowid, newRowid, tookEffect, flipOrder, sub)
            SELECT l.tableId,
                CASE WHEN b.inverted THEN l.newRowid ELSE l.oldRowid END,
                CASE WHEN b.inverted THEN l.oldRowid ELSE l.newRowid END,
                coalesce(b.flippedAt, l.seq), b.flipOrder,
                CASE WHEN b.inverted THEN -l.seq ELSE l.seq END
            FROM \(barriers) b CROSS JOIN \(log) l
            WHERE b.id = ?1 AND \(filedRows("l")) AND l.oldRowid IS NOT l.newRowid
            """, [.integer(id)])
        return db.changesCount > 0
    }

    /// Forgets the retired key changes that took effect before every entry still in history:
    /// no writer is looked for past them. The bound is the log's first row (its key, read at
    /// once): every entry starts there or later, flips later still, so nothing still needed
    /// goes, and no list is scanned at each trim (most trims retire an insert or a delete).
    /// Naming every table (their ids are never deleted) lets SQLite seek the table's index on
    /// `(tableId, tookEffect)` to the rows to delete, instead of reading every retired move.
    private static func pruneRetiredMoves(_ db: Database) throws {
        try db.execute(
            """
            DELETE FROM \(retiredMoves)
            WHERE tableId IN (SELECT id FROM \(tables))
                AND tookEffect < coalesce((SELECT min(seq) FROM \(log)), 9e18)
            """)
    }

    /// The entries these entries superseded (directly). One entry, the most asked for (a trim
    /// drops one step at a time), is looked up without a JSON array: reading one through
    /// `json_each` cost a trim about a sixth of its time (measured).
    private static func superseded(by ids: [Int64], _ db: Database) throws -> [Int64] {
        if ids.count == 1 {
            return try db.fetchAll(
                Int64.self, "SELECT id FROM \(barriers) WHERE supersededBy = ?", [.integer(ids[0])])
        }
        return try db.fetchAll(
            Int64.self,
            "SELECT id FROM \(barriers) WHERE supersededBy IN (SELECT value FROM json_each(?))",
            [.text(ids.jsonArray)])
    }

    /// Takes an entry off its list for the entry that takes its place (the inverse of a replay
    /// that was not exact), keeping its log rows to tell who wrote what (see `lastWriter`), and
    /// whether this replay `keptChanges` (a conflict, or a row it could not reach: some of the
    /// action's writes stay). The entries it superseded stay too only when a replay of the
    /// action kept changes, this one or an earlier one, since the values those kept are still
    /// the action's; otherwise only the action's first entry stays with it, for the values the
    /// action wrote before its first replay (which another stack's writes that net to nothing
    /// may leave in place): the log holds at most three records of an action replayed without
    /// conflict.
    static func supersede(
        _ id: Int64, by successor: Int64, keptChanges: Bool, _ db: Database
    ) throws {
        let predecessors = try superseded(by: [id], db)
        if !keptChanges, !predecessors.isEmpty {
            let below = try action(of: id, db).subtracting([id])
            let carriesKeptChanges = try db.fetchOne(
                Int.self,
                """
                SELECT EXISTS (SELECT 1 FROM \(barriers)
                    WHERE id IN (SELECT value FROM json_each(?)) AND keptByReplay)
                """, [.text(Array(below).jsonArray)])
            if carriesKeptChanges == 0 { try dropReplays(predecessors, below: id, db) }
        }
        try db.execute(
            "UPDATE \(barriers) SET supersededBy = ?2, keptByReplay = ?3 WHERE id = ?1",
            [.integer(id), .integer(successor), .integer(keptChanges ? 1 : 0)])
        // The successor is the same step of the history: its id, time, parent and the step it
        // takes back carry over.
        try db.execute(
            """
            UPDATE \(barriers) SET (step, stepAt, parentStep, takesBack) = (
                SELECT coalesce(step, id), coalesce(stepAt, closedAt), parentStep, takesBack
                FROM \(barriers) WHERE id = ?1)
            WHERE id = ?2
            """, [.integer(id), .integer(successor)])
    }

    /// Whether the replay of `entry` (read as `inverted` says) whose inverse is `inverse` reached
    /// every row the entry left: the inverse changed each row where the entry left it, or
    /// inserted again each row it deleted. A row it could not reach (another action moved it
    /// away since) stays as the entry made it: what the entry wrote there is still its own, so
    /// its log stays (`supersede`'s `keptChanges`). Reads both logs once.
    static func replay(
        by inverse: Int64, reachedEveryRowOf entry: Int64, inverted: Bool, _ db: Database
    ) throws -> Bool {
        let sql = "SELECT tableId, oldRowid, newRowid FROM \(log) WHERE \(filedRows())"
        var changedAt: Set<RowKey> = []
        var insertedAt: Set<RowKey> = []
        for row in try db.fetchAll(Row.self, sql, [.integer(inverse)]) {
            let table: Int64 = try row.decode(at: 0)
            if let old: Int64 = try row.decode(at: 1) {
                changedAt.insert(RowKey(tableId: table, rowid: old))
            } else if let new: Int64 = try row.decode(at: 2) {
                insertedAt.insert(RowKey(tableId: table, rowid: new))
            }
        }
        for row in try db.fetchAll(Row.self, sql, [.integer(entry)]) {
            let table: Int64 = try row.decode(at: 0)
            let before: Int64? = try row.decode(at: inverted ? 2 : 1)
            let after: Int64? = try row.decode(at: inverted ? 1 : 2)
            if let after {
                guard changedAt.contains(RowKey(tableId: table, rowid: after)) else { return false }
            } else if let before {
                guard insertedAt.contains(RowKey(tableId: table, rowid: before)) else {
                    return false
                }
            }
        }
        return true
    }

    /// Deletes the entries `entry` superseded (`predecessors`: replays of its action) and the
    /// entries they superseded, but the action's first entry (the one with no `step`), which
    /// `entry` now supersedes.
    private static func dropReplays(_ predecessors: [Int64], below entry: Int64, _ db: Database)
        throws
    {
        let replays = try db.fetchAll(
            Int64.self,
            """
            SELECT id FROM \(barriers)
            WHERE id IN (SELECT value FROM json_each(?)) AND step IS NOT NULL
            """, [.text(predecessors.jsonArray)])
        guard !replays.isEmpty else { return }
        try db.execute(
            """
            UPDATE \(barriers) SET supersededBy = ?1
            WHERE supersededBy IN (SELECT value FROM json_each(?2)) AND step IS NULL
            """, [.integer(entry), .text(replays.jsonArray)])
        try deleteEntries(replays, db)
    }

    /// Adds each entry's step (`UndoStep`): the id and time of the action it is, or nil for an
    /// entry that is its action's first (its own id and `closedAt`).
    static func addSteps(_ db: Database) throws {
        guard try !barrierColumns(db).contains("step") else { return }
        try db.execute(
            """
            ALTER TABLE \(barriers) ADD COLUMN step INTEGER;
            ALTER TABLE \(barriers) ADD COLUMN stepAt REAL;
            """)
    }

    /// An entry and every entry it superseded, directly or not: one action of its stack.
    static func action(of id: Int64, _ db: Database) throws -> Set<Int64> {
        Set(
            try db.fetchAll(
                Int64.self,
                """
                WITH RECURSIVE action(id) AS (
                    SELECT ?1
                    UNION SELECT b.id FROM \(barriers) b JOIN action ON b.supersededBy = action.id)
                SELECT id FROM action
                """, [.integer(id)]))
    }

    /// Deletes the entries whose log now nets to no change (after a migration took a dropped
    /// column out of the log): undoing them would change nothing. Reads the whole log once.
    static func deleteEntriesThatChangeNothing(_ db: Database) throws {
        let ids = try db.fetchAll(Int64.self, "SELECT id FROM \(barriers)")
        let empty = try ids.filter { id in try netChanges(ofEntry: id, inverted: false, db).isEmpty
        }
        // The steps done on one of them fork where it did.
        for id in empty {
            guard
                let row = try db.fetchOne(
                    Row.self,
                    """
                    SELECT stackId, coalesce(step, id), parentStep FROM \(barriers)
                    WHERE id = ? AND supersededBy IS NULL
                    """, [.integer(id)])
            else { continue }
            try repointChildren(
                of: try row.decode(at: 1), to: try row.decode(at: 2), stack: try row.decode(at: 0),
                db)
        }
        try deleteEntries(empty, db)
    }

    /// When an entry's last barrier closed (coalescing measures from it).
    static func setClosedAt(_ time: Double, ofEntry id: Int64, _ db: Database) throws {
        try db.execute(
            "UPDATE \(barriers) SET closedAt = ? WHERE id = ?", [.real(time), .integer(id)])
    }

    // MARK: Reading the log around the lists

    /// The `seq` of a barrier's first log row at `start` or later, or nil when it has none.
    static func firstSeq(of barrier: Int64, from start: Int64, _ db: Database) throws -> Int64? {
        try db.fetchOne(
            Int64.self, "SELECT min(seq) FROM \(log) WHERE \(rows(of: "?2", from: "?1"))",
            [.integer(start), .integer(barrier)])
    }

    /// Whether a filed barrier's log spans at least `rows` log rows (its span of `seq`: an upper
    /// bound of its own rows) and inserts, deletes or moves (changes the key of) a row of one of
    /// the tables `ids`; read either way, it does the same. A shorter log is not read.
    static func insertsDeletesOrMoves(
        barrier: Int64, ofTables ids: [Int64], spanningAtLeast rows: Int, _ db: Database
    ) throws -> Bool {
        guard !ids.isEmpty else { return false }
        return try db.fetchOne(
            Int.self,
            """
            SELECT (SELECT lastSeq - firstSeq + 1 FROM \(barriers) WHERE id = ?1) >= ?4
                AND EXISTS (SELECT 1 FROM \(log) WHERE \(filedRows())
                    AND (kind != ?2 OR oldRowid IS NOT newRowid)
                    AND tableId IN (SELECT value FROM json_each(?3)))
            """,
            [
                .integer(barrier), .integer(Kind.update.rawValue), .text(ids.jsonArray),
                .integer(Int64(rows)),
            ]) == 1
    }

    /// The log rows of one table that change a column slot or a key, in the order they took
    /// effect, newest first: filed rows by `seq` and the rows of entries an exact replay flipped
    /// at their flip, the last flip first (each flipped entry's rows read the way they took
    /// effect: an undo's from its first row on). Two cursors merged, so that a reader who stops
    /// at a recent write reads only the log's end.
    final class WritesNewestFirst {
        private let rows: MergedLogRows

        /// Columns: old and new rowid, mask, old and new value, stack, inverted, barrier, when
        /// the row took effect, the flip's order (nil when unflipped), whether it is packed, and
        /// its `seq`.
        init(table: Int64, slot: Int, _ db: Database) throws {
            let columns = """
                l.oldRowid, l.newRowid, l.mask, l.o\(slot), l.n\(slot), b.stackId, b.inverted,
                    b.id, coalesce(b.flippedAt, l.seq), b.flipOrder, l.splice IS NOT NULL, l.seq
                """
            // The flipped entries' rows are read by span: `CROSS JOIN` and `+` keep SQLite from
            // indexing the whole log for one read.
            let touches = "l.tableId = ?1 AND (l.mask & ?2 != 0 OR l.oldRowid IS NOT l.newRowid)"
            let arguments: [SQLiteValue] = [.integer(table), .integer(Int64(1) << Int64(slot))]
            let unflipped = try db.fetchCursor(
                """
                SELECT \(columns) FROM \(log) l JOIN \(barriers) b ON b.id = l.barrier
                WHERE \(touches) AND b.flipOrder IS NULL
                ORDER BY l.seq DESC
                """, arguments)
            let flipped = try db.fetchCursor(
                """
                SELECT \(columns) FROM \(barriers) b INDEXED BY \(barriers)_flips
                CROSS JOIN \(log) l ON l.seq BETWEEN b.firstSeq AND b.lastSeq AND +l.barrier = b.id
                WHERE +\(touches) AND b.flipOrder IS NOT NULL
                ORDER BY b.flipOrder DESC, CASE WHEN b.inverted THEN l.seq ELSE -l.seq END
                """, arguments)
            // Key changes only, already read the way they took effect, by nobody in history.
            let retired = try db.fetchCursor(
                """
                SELECT oldRowid, newRowid, 0, NULL, NULL, '', 0, 0, tookEffect, flipOrder, 0, 0
                FROM \(retiredMoves) WHERE tableId = ?1
                ORDER BY tookEffect DESC, flipOrder DESC, sub DESC
                """, [.integer(table)])
            rows = try MergedLogRows(
                [unflipped, flipped, retired], timeColumn: 8, flipOrderColumn: 9,
                newestFirst: true)
        }

        /// The next row of the three, newest first: by when it took effect, then (flips with no
        /// log row between them) by the flip's order.
        func next() throws -> Row? { try rows.next() }
    }

    /// The log rows of `barrier` in `table` that write column `slot` or change a key, up to
    /// (or, for an inverted entry, from) the row `seq`, read the way the entry reads now, newest
    /// first. Columns: seq, the value the write found, whether it writes the column, the rowid
    /// before and after it.
    static func writesBefore(
        _ seq: Int64, of barrier: Int64, inverted: Bool, table: Int64, slot: Int, _ db: Database
    ) throws -> RowCursor {
        let bit = Int64(1) << Int64(slot)
        // Read the way the entry reads: an inverted one's rows took effect last first.
        let (found, earlier, order) = inverted ? ("n", ">=", "ASC") : ("o", "<=", "DESC")
        return try db.fetchCursor(
            """
            SELECT seq, \(found)\(slot), mask & ?3 != 0,
                \(inverted ? "newRowid" : "oldRowid"), \(inverted ? "oldRowid" : "newRowid")
            FROM \(log)
            WHERE \(filedRows()) AND tableId = ?2 AND seq \(earlier) ?4
                AND (mask & ?3 != 0 OR oldRowid IS NOT newRowid)
            ORDER BY seq \(order)
            """, [.integer(barrier), .integer(table), .integer(bit), .integer(seq)])
    }

    /// The stack of the latest barrier not in `except` whose log touched the row `rowid` of
    /// `table`, leaving out the undone steps (on its redo list or a kept branch) of the stack of
    /// `replaying`: a stack's own undone actions are never the change an undo of it kept.
    static func latestStack(
        touching table: Int64, rowid: Int64, except: Set<Int64>, replaying: Int64,
        _ db: Database
    ) throws -> String? {
        try db.fetchOne(
            String.self,
            """
            SELECT b.stackId FROM \(log) l
            JOIN \(barriers) b ON b.id = l.barrier
            WHERE l.tableId = ?1 AND ?2 IN (l.oldRowid, l.newRowid)
                AND l.barrier NOT IN (SELECT value FROM json_each(?3))
                AND NOT (b.list != \(List.undo.rawValue)
                    AND b.stackId IS (SELECT stackId FROM \(barriers) WHERE id = ?4))
            ORDER BY l.seq DESC LIMIT 1
            """, [.integer(table), .integer(rowid), .text(except.jsonArray), .integer(replaying)])
    }
}
