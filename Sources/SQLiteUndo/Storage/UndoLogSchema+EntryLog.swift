import SQLiteDatabase

extension UndoLogSchema {
    /// SQL true when `a` holds exactly `b`: same value and same storage class, bytes compared as
    /// they are.
    static func same(_ a: String, _ b: String) -> String {
        "(\(a) IS \(b) COLLATE BINARY AND typeof(\(a)) = typeof(\(b)))"
    }

    /// One filed entry's log rows as its set-based replay reads them (`BatchReplay`): what they
    /// hold, grouped by table and kind, and the statements that join them to their tracked
    /// table's rows to restore them. Read `inverted`, before and after swap (see
    /// `StackEntry.inverted`).
    ///
    /// A group is the entry's log rows of one table and one stored kind; the statements of a
    /// group take its table and the kind stored in the log.
    struct EntryLog {
        let db: Database
        let entry: Int64
        let inverted: Bool

        /// Column prefixes and rowid columns of the log as the entry reads.
        private var after: String { inverted ? "o" : "n" }
        private var before: String { inverted ? "n" : "o" }
        private var currentRowid: String { inverted ? "oldRowid" : "newRowid" }
        private var originalRowid: String { inverted ? "newRowid" : "oldRowid" }

        /// The entry's log rows of one table and one stored kind.
        struct Group {
            let tableID: Int64
            /// The kind stored in the log (nil for a kind this version does not know).
            let stored: Kind?
            /// How many log rows it has.
            let count: Int
            /// How many distinct rows they name (`count` when not asked for).
            let distinctRows: Int
            /// How many are updates that moved their row to another rowid.
            let moves: Int
            let lowestMask: Int64
            let highestMask: Int64
            let lastSeq: Int64
            /// The lowest and highest rowid its rows have as the entry left them.
            let rowids: ClosedRange<Int64>?
        }

        /// The entry's groups; `countingDistinctRows` also counts the distinct rows each names.
        func groups(countingDistinctRows: Bool) throws -> [Group] {
            let distinctRows =
                countingDistinctRows ? "count(DISTINCT coalesce(newRowid, oldRowid))" : "count(*)"
            return try db.fetchAll(
                Row.self,
                """
                SELECT tableId, kind, count(*), \(distinctRows),
                       sum(kind = 2 AND oldRowid IS NOT newRowid), min(mask), max(mask), max(seq),
                       min(\(currentRowid)), max(\(currentRowid))
                FROM \(log) WHERE \(filedRows()) GROUP BY tableId, kind
                """, [.integer(entry)]
            ).map { row in
                Group(
                    tableID: try row.decode(at: 0), stored: Kind(rawValue: try row.decode(at: 1)),
                    count: try row.decode(at: 2), distinctRows: try row.decode(at: 3),
                    moves: try row.decode(at: 4), lowestMask: try row.decode(at: 5),
                    highestMask: try row.decode(at: 6), lastSeq: try row.decode(at: 7),
                    rowids: try Self.range(row, at: 8))
            }
        }

        /// The entry's first log row, read with its last alone (see `firstRow()`).
        struct FirstRow {
            let tableID: Int64
            /// The kind stored in the log (nil for a kind this version does not know).
            let stored: Kind?
            let mask: Int64
            let seq: Int64
            /// The rowids of the first and last rows as the entry left them.
            let rowids: ClosedRange<Int64>?
            /// How many `seq`s the entry's span holds.
            let spanLength: Int
        }

        /// The entry's first log row, read with its last alone: nil when the entry has no log
        /// row, or when its last row is of another table or kind than its first.
        func firstRow() throws -> FirstRow? {
            let row = try db.fetchOne(
                Row.self,
                """
                SELECT tableId, kind, mask, seq, \(currentRowid),
                    (SELECT \(currentRowid) FROM \(log) WHERE \(filedRows())
                        ORDER BY seq DESC LIMIT 1),
                    (SELECT lastSeq - firstSeq + 1 FROM \(barriers) WHERE id = ?1),
                    (SELECT tableId = first.tableId AND kind = first.kind FROM \(log)
                        WHERE \(filedRows()) ORDER BY seq DESC LIMIT 1)
                FROM \(log) AS first WHERE \(filedRows()) ORDER BY seq LIMIT 1
                """, [.integer(entry)])
            guard let row, try row.decode(at: 7, as: Bool.self) else { return nil }
            return FirstRow(
                tableID: try row.decode(at: 0), stored: Kind(rawValue: try row.decode(at: 1)),
                mask: try row.decode(at: 2), seq: try row.decode(at: 3),
                rowids: try Self.range(row, at: 4), spanLength: try row.decode(at: 6))
        }

        /// The range from a row's `column` to its next, unless either is NULL.
        private static func range(_ row: Row, at column: Int) throws -> ClosedRange<Int64>? {
            guard let lowest = try row.decode(at: column, as: Int64?.self),
                let highest = try row.decode(at: column + 1, as: Int64?.self), lowest <= highest
            else { return nil }
            return lowest...highest
        }

        /// Whether the entry has log rows of `stored` kind of any of the tables `ids`.
        func hasRows(ofKind stored: Kind, inTables ids: [Int64]) throws -> Bool {
            try db.fetchOne(
                Int.self,
                """
                SELECT EXISTS (SELECT 1 FROM \(log) WHERE \(filedRows()) AND kind = ?
                    AND tableId IN (SELECT value FROM json_each(?)))
                """, [.integer(entry), .integer(stored.rawValue), .text(ids.jsonArray)]) == 1
        }

        /// The rows of `table` the entry's log names (after the write, or before it for a
        /// delete), once per log row.
        func rowsNamed(inTable table: Int64) throws -> [Int64] {
            try db.fetchAll(
                Int64.self,
                "SELECT coalesce(newRowid, oldRowid) FROM \(log) WHERE \(filedRows()) AND tableId = ?",
                [.integer(entry), .integer(table)])
        }

        /// The masks the group's log rows have, each once.
        func masks(of table: TrackedTable, _ stored: Kind) throws -> [Int64] {
            try db.fetchAll(
                Int64.self,
                "SELECT DISTINCT mask FROM \(log) WHERE \(filedRows()) AND tableId = ? AND kind = ?",
                arguments(table, stored))
        }

        /// How many distinct pairs of row and mask the updates of `table` have.
        func distinctUpdatedRowsAndMasks(of table: TrackedTable) throws -> Int {
            try db.fetchOne(
                Int.self,
                """
                SELECT count(*) FROM (SELECT DISTINCT coalesce(newRowid, oldRowid), mask
                    FROM \(log) WHERE \(filedRows()) AND tableId = ?2 AND kind = ?3)
                """, arguments(table, .update)) ?? 0
        }

        /// The entry, the table and the stored kind: `?1`, `?2`, `?3` of a group's statements.
        private func arguments(_ table: TrackedTable, _ stored: Kind) -> [SQLiteValue] {
            [.integer(entry), .integer(table.id), .integer(stored.rawValue)]
        }

        private func columns(of table: TrackedTable, in mask: Int64) -> [TrackedTable.Column] {
            table.columns.filter { mask & (1 << Int64($0.slot)) != 0 }
        }

        // MARK: Updates

        /// The conflicts restoring the group's updates with `mask` would meet: a row gone
        /// (no column), or a column holding neither what the entry left nor what it had (the
        /// value it holds kept).
        func updateConflicts(of table: TrackedTable, _ stored: Kind, mask: Int64) throws
            -> [UndoConflict]
        {
            let columns = columns(of: table, in: mask)
            // A column is fine when it still holds what the entry left, or already what it had.
            let fine = columns.map { column in
                let current = "target.\(column.name.quotedIdentifier)"
                return "(\(UndoLogSchema.same(current, "l.\(after)\(column.slot)")) OR "
                    + "\(UndoLogSchema.same(current, "l.\(before)\(column.slot)")))"
            }
            let values = columns.map { "target.\($0.name.quotedIdentifier)" }
            // NULL in a row the join found none for: its rowid, or a column of its key.
            let missing =
                table.keyMap.map { "target.\($0.columns[0].name.quotedIdentifier)" }
                ?? "target.rowid"
            let rows = try db.fetchAll(
                Row.self,
                """
                SELECT l.\(currentRowid), \(missing) IS NULL,
                    \((values + fine).joined(separator: ", "))
                FROM \(log) AS l
                LEFT JOIN \(table.sqlName) AS target
                    ON \(table.rowMatch("l.\(currentRowid)", row: "target"))
                WHERE \(filedRows("l")) AND l.tableId = ? AND l.kind = ? AND l.mask = ?
                    AND (\(missing) IS NULL OR NOT (\(fine.joined(separator: " AND "))))
                """, arguments(table, stored) + [.integer(mask)])
            var conflicts: [UndoConflict] = []
            for row in rows {
                let rowid: Int64 = try row.decode(at: 0)
                if try row.decode(at: 1, as: Bool.self) {
                    conflicts.append(
                        UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
                    continue
                }
                for (index, column) in columns.enumerated()
                where try !row.decode(at: 2 + columns.count + index, as: Bool.self) {
                    conflicts.append(
                        UndoConflict(
                            table: table.name, rowid: rowid, column: column.name,
                            kept: row[2 + index]))
                }
            }
            return conflicts
        }

        /// Restores the columns of `mask` in the rows the group's updates with that mask
        /// changed, where they still hold what the entry left (one statement).
        func restoreUpdated(of table: TrackedTable, _ stored: Kind, mask: Int64) throws {
            let assignments = columns(of: table, in: mask).map { column in
                let name = column.name.quotedIdentifier
                return
                    "\(name) = CASE WHEN \(UndoLogSchema.same("target.\(name)", "l.\(after)\(column.slot)")) "
                    + "THEN l.\(before)\(column.slot) ELSE target.\(name) END"
            }
            try db.executeReplay(
                """
                UPDATE \(table.sqlName) AS target SET \(assignments.joined(separator: ", "))
                FROM \(log) AS l
                WHERE \(filedRows("l")) AND l.tableId = ? AND l.kind = ? AND l.mask = ?
                    AND \(table.rowMatch("l.\(currentRowid)", row: "target"))
                """, arguments(table, stored) + [.integer(mask)])
        }

        /// Restores the columns of `mask` in the rows the group's updates with that mask
        /// changed (and did not move), reading each row's values from the log through `feed`
        /// (`UndoEngine.restoreFunction`) in the order the UPDATE visits its rows (see
        /// `BatchReplay.restoreUpdatedExactly`):
        /// the rows of `range` in `seq` order first, then the log's rowids in rowid order,
        /// while the feed is out of step. `attempt` runs each try (counting what it wrote).
        /// Returns the rows restored, or nil when the feed stayed out of step.
        func restoreUpdated(
            of table: TrackedTable, _ stored: Kind, mask: Int64, range: ClosedRange<Int64>?,
            through feed: UpdateValueFeed,
            attempt: (_ restore: () throws -> UpdateValueFeed.Outcome) throws
                -> UpdateValueFeed.Outcome
        ) throws -> [Int64]? {
            let columns = columns(of: table, in: mask)
            // Rows whose update also moved them need the row-by-row replay.
            let logged = """
                FROM \(log) AS l WHERE \(filedRows("l")) AND l.tableId = ? AND l.kind = ?
                    AND l.mask = ? AND l.oldRowid = l.newRowid
                """
            let pairs = columns.map { "l.\(after)\($0.slot), l.\(before)\($0.slot)" }
            let assignments = columns.enumerated().map { index, column in
                let name = column.name.quotedIdentifier
                return "\(name) = \(UndoEngine.restoreFunction)(rowid, \(index), \(name))"
            }
            let arguments = arguments(table, stored) + [.integer(mask)]
            let update = "UPDATE \(table.sqlName) SET \(assignments.joined(separator: ", "))"
            let logRowids = (" WHERE rowid IN (SELECT l.\(currentRowid) \(logged))", arguments)
            let attempts = [
                range.map {
                    (
                        " WHERE rowid BETWEEN ?5 AND ?6",
                        arguments + [.integer($0.lowerBound), .integer($0.upperBound)]
                    )
                } ?? logRowids,
                logRowids,
            ]
            var outcome = UpdateValueFeed.Outcome.outOfStep
            for (order, (visited, updateArguments)) in zip(
                ["l.seq", "l.\(currentRowid)"], attempts)
            where outcome == .outOfStep {
                let query =
                    "SELECT l.\(currentRowid), \(pairs.joined(separator: ", ")) \(logged) "
                    + "ORDER BY \(order)"
                outcome = try attempt {
                    try feed.feed(query, arguments) {
                        try db.executeReplay(update + visited, updateArguments)
                    }
                }
            }
            guard case .fed(let keys) = outcome else { return nil }
            return keys
        }

        // MARK: Deletes and inserts

        /// The rows the group deleted that someone re-created since with other values.
        func recreatedRows(of table: TrackedTable, _ stored: Kind) throws -> [Int64] {
            let original = "l.\(originalRowid)"
            let differs = table.columns.map {
                "NOT \(UndoLogSchema.same("target.\($0.name.quotedIdentifier)", "l.\(before)\($0.slot)"))"
            }
            return try db.fetchAll(
                Int64.self,
                """
                SELECT \(original) FROM \(log) AS l JOIN \(table.sqlName) AS target
                    ON \(table.rowMatch(original, row: "target"))
                WHERE \(filedRows("l")) AND l.tableId = ? AND l.kind = ?
                    AND (\(differs.joined(separator: " OR ")))
                """, arguments(table, stored))
        }

        /// Inserts again the rows the group deleted whose rowid (or key) is free, in rowid
        /// order; returns the rows inserted.
        func restoreDeleted(of table: TrackedTable, _ stored: Kind) throws -> [Int64] {
            let original = "l.\(originalRowid)"
            let names = table.columns.map(\.name.quotedIdentifier)
            let values = table.columns.map { "l.\(before)\($0.slot)" }
            return try db.fetchReplay(
                """
                INSERT INTO \(table.sqlName)(\(names.joined(separator: ", ")))
                SELECT \(values.joined(separator: ", ")) FROM \(log) AS l
                WHERE \(filedRows("l")) AND l.tableId = ? AND l.kind = ?
                    AND NOT EXISTS (SELECT 1 FROM \(table.sqlName) WHERE \(table.rowMatch(original)))
                ORDER BY \(original)
                RETURNING \(table.rowidSQL(table.name.quotedIdentifier))
                """, arguments(table, stored))
        }

        /// SQL true when the row `target` still holds every value the group's row `l` left.
        private func unchanged(_ table: TrackedTable) -> String {
            table.columns.map {
                UndoLogSchema.same("target.\($0.name.quotedIdentifier)", "l.\(after)\($0.slot)")
            }.joined(separator: " AND ")
        }

        /// The rows the group inserted that someone changed since.
        func changedInsertedRows(of table: TrackedTable, _ stored: Kind) throws -> [Int64] {
            let current = "l.\(currentRowid)"
            return try db.fetchAll(
                Int64.self,
                """
                SELECT \(current) FROM \(log) AS l JOIN \(table.sqlName) AS target
                    ON \(table.rowMatch(current, row: "target"))
                WHERE \(filedRows("l")) AND l.tableId = ? AND l.kind = ?
                    AND NOT (\(unchanged(table)))
                """, arguments(table, stored))
        }

        /// Deletes the rows the group inserted that are still as it left them (a row the key
        /// map names by its key).
        func removeUnchangedInserted(of table: TrackedTable, _ stored: Kind) throws {
            let key = table.keyMap?.columns.map(\.name.quotedIdentifier) ?? ["rowid"]
            try db.executeReplay(
                """
                DELETE FROM \(table.sqlName) WHERE (\(key.joined(separator: ", "))) IN (
                    SELECT \(key.map { "target.\($0)" }.joined(separator: ", "))
                    FROM \(log) AS l JOIN \(table.sqlName) AS target
                        ON \(table.rowMatch("l.\(currentRowid)", row: "target"))
                    WHERE \(filedRows("l")) AND l.tableId = ? AND l.kind = ?
                        AND \(unchanged(table)))
                """, arguments(table, stored))
        }

        // MARK: Removing inserted rows exactly (rowid tables)

        /// The group's log rows, aliased `l`, as `FROM … WHERE …` (with `arguments`).
        private var grouped: String {
            "FROM \(log) AS l WHERE \(filedRows("l")) AND l.tableId = ?2 AND l.kind = ?3"
        }

        /// The rowids of the group's rows as the entry left them.
        func currentRowids(of table: TrackedTable, _ stored: Kind) throws -> [Int64] {
            try db.fetchAll(
                Int64.self, "SELECT l.\(currentRowid) \(grouped)", arguments(table, stored))
        }

        /// Deletes the rows at the group's rowids.
        func deleteRows(of table: TrackedTable, _ stored: Kind) throws {
            try db.executeReplay(
                "DELETE FROM \(table.sqlName) WHERE rowid IN (SELECT l.\(currentRowid) \(grouped))",
                arguments(table, stored))
        }

        /// How many rows are at the group's rowids.
        func rowCount(of table: TrackedTable, _ stored: Kind) throws -> Int {
            try db.fetchOne(
                Int.self,
                "SELECT count(*) FROM \(table.sqlName) WHERE rowid IN "
                    + "(SELECT l.\(currentRowid) \(grouped))", arguments(table, stored)) ?? 0
        }

        /// How many of the group's rows are still exactly as the entry left them: as inserted,
        /// or, in the columns of `updated` (a mask), as the entry's last update of the row set
        /// them.
        func unchangedRowCount(of table: TrackedTable, _ stored: Kind, updated: Int64?) throws
            -> Int
        {
            let unchanged = table.columns.map { column in
                let value = "target.\(column.name.quotedIdentifier)"
                let inserted = UndoLogSchema.same(value, "l.\(after)\(column.slot)")
                guard (updated ?? 0) & (1 << Int64(column.slot)) != 0 else { return inserted }
                let lastUpdated = UndoLogSchema.same(value, "u.\(after)\(column.slot)")
                return "(CASE WHEN u.seq IS NULL THEN \(inserted) ELSE \(lastUpdated) END)"
            }.joined(separator: " AND ")
            // Each row's last update, when the entry updated the rows it inserted.
            let lastUpdates =
                updated == nil
                ? ""
                : "LEFT JOIN (SELECT newRowid AS r, max(seq) AS s FROM \(log) WHERE \(filedRows()) "
                    + "AND tableId = ?2 AND kind = 2 GROUP BY newRowid) AS last "
                    + "ON last.r = l.\(currentRowid) LEFT JOIN \(log) AS u ON u.seq = last.s"
            return try db.fetchOne(
                Int.self,
                """
                SELECT count(*) FROM \(log) AS l \(lastUpdates)
                WHERE \(filedRows("l")) AND l.tableId = ?2 AND l.kind = ?3
                    AND EXISTS (SELECT 1 FROM \(table.sqlName) AS target
                        WHERE target.rowid = l.\(currentRowid) AND \(unchanged))
                """, arguments(table, stored)) ?? 0
        }

        /// How many of the entry's updates of the table `id` are of rows the group of `stored`
        /// kind does not name.
        func strayUpdateCount(ofTable id: Int64, besides stored: Kind) throws -> Int {
            try db.fetchOne(
                Int.self,
                """
                SELECT count(*) FROM \(log) AS u WHERE \(filedRows("u")) AND u.tableId = ?2
                    AND u.kind = 2 AND u.newRowid NOT IN (SELECT l.\(currentRowid) \(grouped))
                """, [.integer(entry), .integer(id), .integer(stored.rawValue)]) ?? 0
        }
    }
}
