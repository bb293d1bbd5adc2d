import SQLiteDatabase

/// Reverts a barrier with a few set-based statements per table instead of one per row, when its
/// log has the common shape: for each table, changes of a single kind (inserts, updates that
/// keep the rowid, or deletes), each row once (an update: each column of a row once). Anything
/// else takes the row-by-row `Replayer`.
///
/// The rule is the same as the row-by-row one: a column is restored only where it still holds
/// the value the barrier left; a later change by someone else is kept and reported. The engine
/// tries the exact replay first (`revertExactly`, in `BatchReplay+Exact.swift`), which records
/// nothing; this file has what both share and the replay that records its inverse.
struct BatchReplay {
    let db: Database
    let barrier: Int64
    /// Whether the log reads inverted (see `StackEntry.inverted`).
    let inverted: Bool
    let tables: [Int64: TrackedTable]
    /// The foreign keys between the tables: deleted rows come back children first.
    let foreignKeys: ForeignKeys
    /// The rows the replay restored, by table.
    var affectedRows: [String: Set<Int64>] = [:]
    private(set) var conflicts: [UndoConflict] = []

    struct Part {
        let table: TrackedTable
        /// The kind stored in the log, for queries.
        let stored: UndoLogSchema.Kind
        /// What the change did, read as the barrier is replayed (swapped when inverted).
        let kind: UndoLogSchema.Kind
        /// How many log rows it has (a part guessed from the first row: the barrier's span).
        let count: Int
        let lastSeq: Int64
        /// The masks its log rows have, when already read.
        let masks: [Int64]?
        /// The lowest and highest rowid its rows have as the barrier left them (nil when not
        /// known; a guessed part's may be wrong, see `firstRowPart`).
        let rowids: ClosedRange<Int64>?

        /// The mask every log row of the part has, when they all have the same.
        var sharedMask: Int64? { masks?.count == 1 ? masks?.first : nil }
    }

    /// Parts of at least this many rows are restored exactly without the update capture
    /// triggers of their columns (see `withoutUpdateCapture`).
    let rowsWorthSuspendingCapture: Int
    /// The application's triggers that may skip a row (`mayHaveRowsSkipped`), read once for
    /// the replay.
    let skippingTriggers: SkippingTriggers

    init(
        db: Database, barrier: Int64, inverted: Bool, tables: [Int64: TrackedTable],
        foreignKeys: ForeignKeys, skippingTriggers: SkippingTriggers,
        rowsWorthSuspendingCapture: Int = Self.defaultRowsWorthSuspendingCapture
    ) {
        self.db = db
        self.skippingTriggers = skippingTriggers
        self.barrier = barrier
        self.inverted = inverted
        self.tables = tables
        self.foreignKeys = foreignKeys
        self.rowsWorthSuspendingCapture = rowsWorthSuspendingCapture
    }

    /// Column prefixes and rowid columns of the log as the barrier reads.
    var after: String { inverted ? "o" : "n" }
    var before: String { inverted ? "n" : "o" }
    var currentRowid: String { inverted ? "oldRowid" : "newRowid" }
    var originalRowid: String { inverted ? "newRowid" : "oldRowid" }

    /// What a logged change does when the barrier is replayed (swapped when inverted).
    func replayed(_ stored: UndoLogSchema.Kind) -> UndoLogSchema.Kind {
        !inverted ? stored : stored == .insert ? .delete : stored == .delete ? .insert : .update
    }

    /// The replay cannot be done this way: a row is no longer as the barrier left it (the exact
    /// replay), or a statement wrote other rows than its own (`expectChanged`).
    struct NotExact: Error {}

    /// How many row changes each tracked table has had in the transaction so far.
    func changedRows() -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: tables.values.map { ($0.name, db.changedRowCount(of: $0.name)) })
    }

    /// Throws `NotExact` unless a statement of the replay, run since `before`, changed `count`
    /// rows of the part's table and no row of another tracked table. An update logged one row
    /// per column is restored one statement per column: an application's trigger that wrote a
    /// tracked row meanwhile (an `updatedAt` stamp, fired by the restore of one column of a row
    /// after another column of it was restored) would make the result something else than the
    /// barrier's inverse. The row-by-row replay, which restores a row in one statement, does it
    /// then.
    func expectChanged(_ count: Int, rowsOf part: Part, since before: [String: Int])
        throws
    {
        for (table, changed) in changedRows() {
            let expected = table == part.table.name ? count : 0
            guard changed - (before[table] ?? 0) == expected else { throw NotExact() }
        }
    }

    /// Reverts the barrier; returns false (having changed nothing) when its shape needs the
    /// row-by-row replay.
    mutating func revert() throws -> Bool {
        guard let parts = try simpleParts(checkingRowsOnce: true) else { return false }
        do {
            try db.savepoint {
                for part in parts {
                    switch part.kind {
                    case .update: try restoreUpdated(part)
                    case .delete:
                        let changedBefore = changedRows()
                        let rowids = try restoreDeleted(part, reporting: true)
                        try expectChanged(rowids.count, rowsOf: part, since: changedBefore)
                    case .insert:
                        let changedBefore = changedRows()
                        try removeInserted(part)
                        try expectChanged(db.changesCount, rowsOf: part, since: changedBefore)
                    }
                    try noteAffected(part)
                }
            }
        } catch is NotExact {
            affectedRows = [:]
            conflicts = []
            return false
        }
        return true
    }

    /// Whether reverting deletes rows of any of the given tables.
    func deletesRows(ofTables ids: [Int64]) throws -> Bool {
        guard !ids.isEmpty else { return false }
        let deleting: UndoLogSchema.Kind = inverted ? .delete : .insert
        return try db.fetchOne(
            Int.self,
            """
            SELECT EXISTS (SELECT 1 FROM \(log) WHERE \(spanOf()) AND kind = ?
                AND tableId IN (SELECT value FROM json_each(?)))
            """,
            [
                .integer(barrier), .integer(deleting.rawValue),
                .text(ids.jsonArray),
            ]) == 1
    }

    private mutating func noteAffected(_ part: Part) throws {
        let rowids = try db.fetchAll(
            Int64.self,
            "SELECT coalesce(newRowid, oldRowid) FROM \(log) WHERE \(spanOf()) AND tableId = ?",
            [.integer(barrier), .integer(part.table.id)])
        affectedRows[part.table.name, default: []].formUnion(rowids)
    }

    var log: String { UndoLogSchema.log }

    /// SQL selecting the barrier's log rows (its id must be the statement's first argument).
    func spanOf(_ alias: String = "") -> String { UndoLogSchema.filedRows(alias) }

    /// The tables of the barrier, last touched first, when every one has the simple shape.
    /// `checkingRowsOnce` also requires each row to be logged once per table (an update: once
    /// per column, as an UPDATE of several columns logs it), which the exact replay needs not
    /// check (it counts the rows it restores).
    func simpleParts(checkingRowsOnce: Bool) throws -> [Part]? {
        let distinctRows =
            checkingRowsOnce ? "count(DISTINCT coalesce(newRowid, oldRowid))" : "count(*)"
        let rows = try db.fetchAll(
            Row.self,
            """
            SELECT tableId, kind, count(*), \(distinctRows),
                   sum(kind = 2 AND oldRowid IS NOT newRowid), min(mask), max(mask), max(seq),
                   min(\(currentRowid)), max(\(currentRowid))
            FROM \(log) WHERE \(spanOf()) GROUP BY tableId, kind
            """, [.integer(barrier)])
        var parts: [Part] = []
        var seen: Set<Int64> = []
        for row in rows {
            let tableID: Int64 = try row.decode(at: 0)
            let count: Int = try row.decode(at: 2)
            let (lowest, highest): (Int64, Int64) = (try row.decode(at: 5), try row.decode(at: 6))
            guard let table = tables[tableID], seen.insert(tableID).inserted,
                let stored = UndoLogSchema.Kind(rawValue: try row.decode(at: 1)),
                try row.decode(at: 4, as: Int.self) == 0
            else { return nil }
            var masks = lowest == highest ? [lowest] : nil
            if try count != row.decode(at: 3, as: Int.self) {
                guard stored == .update, lowest != highest,
                    let columnMasks = try masksLoggingEachColumnOnce(table, rows: count)
                else { return nil }
                masks = columnMasks
            }
            let known = table.fullMask
            if stored == .update {
                guard highest & ~known == 0, lowest & ~known == 0 else { return nil }
            } else {
                guard lowest == known, highest == known else { return nil }
            }
            let kind = replayed(stored)
            let written = masks?.reduce(0, |) ?? table.fullMask
            guard !mayHaveRowsSkipped(table, kind, mask: written) else { return nil }
            parts.append(
                Part(
                    table: table, stored: stored, kind: kind, count: count,
                    lastSeq: try row.decode(at: 7), masks: masks, rowids: try Self.range(row, at: 8)
                ))
        }
        // Replayed last change first; read inverted, the log's order is reversed too.
        return childrenFirst(
            parts.sorted { inverted ? $0.lastSeq < $1.lastSeq : $0.lastSeq > $1.lastSeq })
    }

    /// Whether a trigger of the table may skip a row of the part's statements (`kind`; an
    /// update setting the columns of `mask`), which a set-wide statement could not tell: the
    /// row-by-row replay then does the barrier (`SkippingTriggers`).
    func mayHaveRowsSkipped(_ table: TrackedTable, _ kind: UndoLogSchema.Kind, mask: Int64)
        -> Bool
    {
        let statement: UndoLogSchema.Kind =
            switch kind {
            case .update: .update
            case .delete: .insert  // deleted rows come back
            case .insert: .delete  // inserted rows go
            }
        let columns = table.columns.filter { mask & (1 << Int64($0.slot)) != 0 }.map(\.name)
        return skippingTriggers.maySkip(onTable: table.name, statement, setting: columns)
    }

    /// The parts in the same order, but that rows deleted from a table come back before the
    /// deleted rows they referenced: the reverse of the order SQLite deleted them in (a parent,
    /// then its children by `ON DELETE CASCADE`), which the log does not keep (a row is logged
    /// after its cascade, by an AFTER trigger). An application's trigger on a child's insert
    /// (stamping its parent) then finds no parent, as when the rows went.
    private func childrenFirst(_ parts: [Part]) -> [Part] {
        var ordered: [Part] = []
        var waiting = parts
        while !waiting.isEmpty {
            // The first part no other waiting restore of deleted rows references.
            let next =
                waiting.firstIndex { part in
                    part.kind != .delete
                        || !waiting.contains { other in
                            other.kind == .delete && other.table.id != part.table.id
                                && foreignKeys.references(other.table.name, part.table.name)
                        }
                } ?? 0
            ordered.append(waiting.remove(at: next))
        }
        return ordered
    }

    /// The masks of the barrier's updates of `table` (`rows` log rows) when they change each
    /// column of a row once, nil otherwise: an UPDATE setting several columns logs a row per
    /// column, so a row may appear once per mask, when the masks have no column in common.
    private func masksLoggingEachColumnOnce(_ table: TrackedTable, rows: Int) throws -> [Int64]? {
        let masks = try distinctMasks(table, .update)
        let columns = masks.reduce(0) { $0 + $1.nonzeroBitCount }
        guard masks.reduce(0, |).nonzeroBitCount == columns else { return nil }
        let distinct = try db.fetchOne(
            Int.self,
            """
            SELECT count(*) FROM (SELECT DISTINCT coalesce(newRowid, oldRowid), mask
                FROM \(log) WHERE \(spanOf()) AND tableId = ?2 AND kind = ?3)
            """, arguments(table, .update))
        return distinct == rows ? masks : nil
    }

    /// `a` holds exactly `b`: same value and same storage class, bytes compared as they are.
    static func same(_ a: String, _ b: String) -> String {
        "(\(a) IS \(b) COLLATE BINARY AND typeof(\(a)) = typeof(\(b)))"
    }

    func arguments(_ part: Part) -> [SQLiteValue] { arguments(part.table, part.stored) }

    /// The barrier, the table and the stored kind: `?1`, `?2`, `?3` of the part's queries.
    private func arguments(_ table: TrackedTable, _ stored: UndoLogSchema.Kind) -> [SQLiteValue] {
        [.integer(barrier), .integer(table.id), .integer(stored.rawValue)]
    }

    // MARK: Updates

    /// The part's masks: each one its log rows have.
    func masks(_ part: Part) throws -> [Int64] {
        try part.masks ?? distinctMasks(part.table, part.stored)
    }

    private func distinctMasks(_ table: TrackedTable, _ stored: UndoLogSchema.Kind) throws
        -> [Int64]
    {
        try db.fetchAll(
            Int64.self,
            "SELECT DISTINCT mask FROM \(log) WHERE \(spanOf()) AND tableId = ? AND kind = ?",
            arguments(table, stored))
    }

    func changedColumns(_ part: Part, _ mask: Int64) -> [TrackedTable.Column] {
        part.table.columns.filter { mask & (1 << Int64($0.slot)) != 0 }
    }

    private func updateFromLog(_ part: Part, set assignments: [String], where condition: String)
        -> String
    {
        """
        UPDATE \(part.table.sqlName) AS target SET \(assignments.joined(separator: ", "))
        FROM \(log) AS l
        WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND l.mask = ?
            AND \(part.table.rowMatch("l.\(currentRowid)", row: "target"))\(condition)
        """
    }

    /// Restores the columns each logged update changed where they still hold what the barrier
    /// left; reports and keeps the others' changes.
    private mutating func restoreUpdated(_ part: Part) throws {
        for mask in try masks(part) {
            let columns = changedColumns(part, mask)
            try reportUpdateConflicts(part, columns, mask)
            let assignments = columns.map { column in
                let name = column.name.quotedIdentifier
                return
                    "\(name) = CASE WHEN \(Self.same("target.\(name)", "l.\(after)\(column.slot)")) "
                    + "THEN l.\(before)\(column.slot) ELSE target.\(name) END"
            }
            let changedBefore = changedRows()
            try db.executeReplay(
                updateFromLog(part, set: assignments, where: ""), arguments(part) + [.integer(mask)]
            )
            try expectChanged(db.changesCount, rowsOf: part, since: changedBefore)
        }
    }

    private mutating func reportUpdateConflicts(
        _ part: Part, _ columns: [TrackedTable.Column], _ mask: Int64
    ) throws {
        let table = part.table
        // A column is fine when it still holds what the barrier left, or already what it had.
        let fine = columns.map { column in
            let current = "target.\(column.name.quotedIdentifier)"
            return "(\(Self.same(current, "l.\(after)\(column.slot)")) OR "
                + "\(Self.same(current, "l.\(before)\(column.slot)")))"
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
            WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND l.mask = ?
                AND (\(missing) IS NULL OR NOT (\(fine.joined(separator: " AND "))))
            """, arguments(part) + [.integer(mask)])
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
                        table: table.name, rowid: rowid, column: column.name, kept: row[2 + index]))
            }
        }
    }

    // MARK: Deletes and inserts

    /// Rows the barrier deleted come back, unless someone re-created their rowid; returns the
    /// rows that came back. `reporting` reports the re-created ones.
    @discardableResult
    mutating func restoreDeleted(_ part: Part, reporting: Bool) throws -> [Int64] {
        let table = part.table
        let original = "l.\(originalRowid)"
        if reporting {
            let differs = table.columns.map {
                "NOT \(Self.same("target.\($0.name.quotedIdentifier)", "l.\(before)\($0.slot)"))"
            }
            let recreated = try db.fetchAll(
                Int64.self,
                """
                SELECT \(original) FROM \(log) AS l JOIN \(table.sqlName) AS target
                    ON \(table.rowMatch(original, row: "target"))
                WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ?
                    AND (\(differs.joined(separator: " OR ")))
                """, arguments(part))
            for rowid in recreated {
                conflicts.append(
                    UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            }
        }
        let names = table.columns.map(\.name.quotedIdentifier)
        let values = table.columns.map { "l.\(before)\($0.slot)" }
        return try db.fetchReplay(
            """
            INSERT INTO \(table.sqlName)(\(names.joined(separator: ", ")))
            SELECT \(values.joined(separator: ", ")) FROM \(log) AS l
            WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ?
                AND NOT EXISTS (SELECT 1 FROM \(table.sqlName) WHERE \(table.rowMatch(original)))
            ORDER BY \(original)
            RETURNING \(table.rowidSQL(table.name.quotedIdentifier))
            """, arguments(part))
    }

    /// Rows the barrier inserted go, unless someone changed them since.
    private mutating func removeInserted(_ part: Part) throws {
        let table = part.table
        let current = "l.\(currentRowid)"
        let unchanged = table.columns.map {
            Self.same("target.\($0.name.quotedIdentifier)", "l.\(after)\($0.slot)")
        }.joined(separator: " AND ")
        let changed = try db.fetchAll(
            Int64.self,
            """
            SELECT \(current) FROM \(log) AS l JOIN \(table.sqlName) AS target
                ON \(table.rowMatch(current, row: "target"))
            WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND NOT (\(unchanged))
            """, arguments(part))
        for rowid in changed {
            conflicts.append(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
        }
        // A row the key map names is deleted by its key.
        let key = table.keyMap?.columns.map(\.name.quotedIdentifier) ?? ["rowid"]
        try db.executeReplay(
            """
            DELETE FROM \(table.sqlName) WHERE (\(key.joined(separator: ", "))) IN (
                SELECT \(key.map { "target.\($0)" }.joined(separator: ", "))
                FROM \(log) AS l JOIN \(table.sqlName) AS target
                    ON \(table.rowMatch(current, row: "target"))
                WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND \(unchanged))
            """, arguments(part))
    }

}
