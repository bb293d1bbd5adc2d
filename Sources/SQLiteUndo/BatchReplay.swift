import SQLiteDatabase

/// Reverts a barrier with a few set-based statements per table instead of one per row, when its
/// log has the common shape: for each table, changes of a single kind (inserts, updates that
/// keep the rowid, or deletes), each row once. Anything else takes the row-by-row `Replayer`.
///
/// The rule is the same as the row-by-row one: a column is restored only where it still holds
/// the value the barrier left; a later change by someone else is kept and reported.
struct BatchReplay {
    let db: Database
    let barrier: Int64
    /// Whether the log reads inverted (see `StackEntry.inverted`).
    let inverted: Bool
    let tables: [Int64: TrackedTable]
    private(set) var affectedRows: [String: Set<Int64>] = [:]
    private(set) var conflicts: [UndoConflict] = []

    private struct Part {
        let table: TrackedTable
        /// The kind stored in the log, for queries.
        let stored: UndoLogSchema.Kind
        /// What the change did, read as the barrier is replayed (swapped when inverted).
        let kind: UndoLogSchema.Kind
        /// How many log rows it has (a part guessed from the first row: the barrier's span).
        let count: Int
        let lastSeq: Int64
        /// The mask every log row of the part has, when they all have the same.
        let sharedMask: Int64?
        /// The lowest and highest rowid its rows have as the barrier left them (nil when not
        /// known; a guessed part's may be wrong, see `firstRowPart`).
        let rowids: ClosedRange<Int64>?
    }

    /// Parts of at least this many rows are restored exactly without the update capture
    /// trigger (see `withoutUpdateCapture`).
    let rowsWorthSuspendingCapture: Int

    init(
        db: Database, barrier: Int64, inverted: Bool, tables: [Int64: TrackedTable],
        rowsWorthSuspendingCapture: Int = Self.defaultRowsWorthSuspendingCapture
    ) {
        self.db = db
        self.barrier = barrier
        self.inverted = inverted
        self.tables = tables
        self.rowsWorthSuspendingCapture = rowsWorthSuspendingCapture
    }

    /// Column prefixes and rowid columns of the log as the barrier reads.
    private var after: String { inverted ? "o" : "n" }
    private var before: String { inverted ? "n" : "o" }
    private var currentRowid: String { inverted ? "oldRowid" : "newRowid" }
    private var originalRowid: String { inverted ? "newRowid" : "oldRowid" }

    /// Reverts the barrier only when that restores every value exactly and deletes no row:
    /// the simple shape, updates and deletes only, and every row and column still as the
    /// barrier left it. Returns false, having changed nothing, otherwise. Nothing else is
    /// written, so the barrier's own log, read inverted, is the exact inverse.
    ///
    /// One pass per part: each statement restores only the rows still exactly as the barrier
    /// left them (and a deleted row only where its rowid is free); when one is not, or that is
    /// fewer rows than the part logged, someone changed one since (or the log names a row
    /// twice) and the savepoint takes everything back. A barrier of one bulk statement has one
    /// part: it is guessed from the first and last log rows and checked against the length of
    /// the barrier's span, without reading the log's shape first.
    mutating func revertExactly() throws -> Bool {
        if let guess = try firstRowPart(), try restoreExactly([guess], expectingInAll: guess.count)
        {
            return true
        }
        guard let parts = try simpleParts(checkingRowsOnce: false),
            !parts.contains(where: { $0.kind == .insert })
        else { return false }
        return try restoreExactly(parts, expectingInAll: nil)
    }

    /// Restores the parts' rows still as the barrier left them, in a savepoint kept only when
    /// that is every row of each part (or `expectingInAll` rows in all).
    private mutating func restoreExactly(_ parts: [Part], expectingInAll total: Int?) throws
        -> Bool
    {
        var restored: [String: Set<Int64>] = [:]
        do {
            try db.savepoint {
                var count = 0
                for part in parts {
                    let rowids =
                        part.kind == .update
                        ? try restoreUpdatedExactly(part)
                        : try restoreDeletedExactly(part)
                    guard total != nil || rowids.count == part.count else { throw NotExact() }
                    count += rowids.count
                    restored[part.table.name, default: Set(minimumCapacity: rowids.count)]
                        .formUnion(rowids)
                }
                if let total, count != total { throw NotExact() }
            }
        } catch is NotExact {
            return false
        }
        affectedRows = restored
        return true
    }

    /// The part the barrier's first log row belongs to, if the exact replay can restore it.
    ///
    /// Read from the first and last log rows alone: its count is the length of the barrier's
    /// span, and its rowids run from the first row's to the last's. When the barrier is not one
    /// such part, the exact replay restores fewer rows than that count and takes them back.
    private func firstRowPart() throws -> Part? {
        let row = try db.fetchOne(
            Row.self,
            """
            SELECT tableId, kind, mask, seq, \(currentRowid),
                (SELECT \(currentRowid) FROM \(log) WHERE \(spanOf()) ORDER BY seq DESC LIMIT 1),
                (SELECT lastSeq - firstSeq + 1 FROM \(UndoLogSchema.barriers) WHERE id = ?1)
            FROM \(log) WHERE \(spanOf()) ORDER BY seq LIMIT 1
            """, [.integer(barrier)])
        guard let row, let table = tables[try row.decode(at: 0)],
            let stored = UndoLogSchema.Kind(rawValue: try row.decode(at: 1))
        else { return nil }
        let mask: Int64 = try row.decode(at: 2)
        let kind = replayed(stored)
        guard kind != .insert, mask != 0, mask & ~table.fullMask == 0,
            kind == .update || mask == table.fullMask
        else { return nil }
        return Part(
            table: table, stored: stored, kind: kind, count: try row.decode(at: 6),
            lastSeq: try row.decode(at: 3), sharedMask: mask, rowids: try Self.range(row, at: 4))
    }

    /// The range from a row's `column` to its next, unless either is NULL.
    private static func range(_ row: Row, at column: Int) throws -> ClosedRange<Int64>? {
        guard let lowest = try row.decode(at: column, as: Int64?.self),
            let highest = try row.decode(at: column + 1, as: Int64?.self), lowest <= highest
        else { return nil }
        return lowest...highest
    }

    /// What a logged change does when the barrier is replayed (swapped when inverted).
    private func replayed(_ stored: UndoLogSchema.Kind) -> UndoLogSchema.Kind {
        !inverted ? stored : stored == .insert ? .delete : stored == .delete ? .insert : .update
    }

    /// A row of the barrier is no longer as it left it.
    private struct NotExact: Error {}

    /// Reverts the barrier; returns false (having changed nothing) when its shape needs the
    /// row-by-row replay.
    mutating func revert() throws -> Bool {
        guard let parts = try simpleParts(checkingRowsOnce: true) else { return false }
        for part in parts {
            switch part.kind {
            case .update: try restoreUpdated(part)
            case .delete: try restoreDeleted(part, reporting: true)
            case .insert: try removeInserted(part)
            }
            try noteAffected(part)
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

    private var log: String { UndoLogSchema.log }

    /// SQL selecting the barrier's log rows (its id must be the statement's first argument).
    private func spanOf(_ alias: String = "") -> String { UndoLogSchema.filedRows(alias) }

    /// The tables of the barrier, last touched first, when every one has the simple shape.
    /// `checkingRowsOnce` also requires each row to be logged once per table, which the exact
    /// replay needs not check (it counts the rows it restores). A row an UPDATE of several
    /// columns logged once per column is not: the row-by-row replay restores it in one
    /// statement, as user triggers such as an `updatedAt` stamp expect of a replay.
    private func simpleParts(checkingRowsOnce: Bool) throws -> [Part]? {
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
            guard let table = tables[tableID], seen.insert(tableID).inserted,
                let stored = UndoLogSchema.Kind(rawValue: try row.decode(at: 1)),
                try count == row.decode(at: 3, as: Int.self),
                try row.decode(at: 4, as: Int.self) == 0
            else { return nil }
            let (lowest, highest): (Int64, Int64) = (try row.decode(at: 5), try row.decode(at: 6))
            let known = table.fullMask
            if stored == .update {
                guard highest & ~known == 0, lowest & ~known == 0 else { return nil }
            } else {
                guard lowest == known, highest == known else { return nil }
            }
            let kind = replayed(stored)
            parts.append(
                Part(
                    table: table, stored: stored, kind: kind, count: count,
                    lastSeq: try row.decode(at: 7), sharedMask: lowest == highest ? lowest : nil,
                    rowids: try Self.range(row, at: 8)))
        }
        // Replayed last change first; read inverted, the log's order is reversed too.
        return parts.sorted { inverted ? $0.lastSeq < $1.lastSeq : $0.lastSeq > $1.lastSeq }
    }

    /// `a` holds exactly `b`: same value and same storage class, bytes compared as they are.
    private static func same(_ a: String, _ b: String) -> String {
        "(\(a) IS \(b) COLLATE BINARY AND typeof(\(a)) = typeof(\(b)))"
    }

    private func arguments(_ part: Part) -> [SQLiteValue] {
        [.integer(barrier), .integer(part.table.id), .integer(part.stored.rawValue)]
    }

    // MARK: Updates

    /// The part's masks: the shared one, or each one its log rows have.
    private func masks(_ part: Part) throws -> [Int64] {
        try part.sharedMask.map { [$0] }
            ?? db.fetchAll(
                Int64.self,
                "SELECT DISTINCT mask FROM \(log) WHERE \(spanOf()) AND tableId = ? AND kind = ?",
                arguments(part))
    }

    private func changedColumns(_ part: Part, _ mask: Int64) -> [TrackedTable.Column] {
        part.table.columns.filter { mask & (1 << Int64($0.slot)) != 0 }
    }

    private func updateFromLog(_ part: Part, set assignments: [String], where condition: String)
        -> String
    {
        """
        UPDATE \(part.table.sqlName) AS target SET \(assignments.joined(separator: ", "))
        FROM \(log) AS l
        WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND l.mask = ?
            AND target.rowid = l.\(currentRowid)\(condition)
        """
    }

    /// Restores the columns each logged update changed, in the rows where every one of them
    /// still holds what the barrier left; returns those rows, or throws `NotExact` when one of
    /// them does not.
    ///
    /// The UPDATE reads each row's values from the log through the lockstep feed instead of
    /// joining the log (which makes SQLite copy every value into a temporary table first). It
    /// visits its rows in rowid order, so the log is read in that order: in `seq` order first,
    /// which is rowid order for a bulk statement that scanned its table, sorted otherwise. The
    /// rows it visits are, first, every row between the lowest and the highest rowid the log
    /// names (a row of that range the log does not name puts the feed out of step, and the
    /// UPDATE takes back what it did), then the log's rowids.
    ///
    /// A large part is restored with the table's update capture trigger dropped for the
    /// statement (see `withoutUpdateCapture`).
    private func restoreUpdatedExactly(_ part: Part) throws -> [Int64] {
        let feed = try db.lockstepFeed(named: UndoEngine.restoreFunction)
        let range = part.sharedMask == nil ? nil : part.rowids
        let masks = try masks(part)
        return try withoutUpdateCapture(part, columns: masks.reduce(0, |)) {
            try masks.flatMap { try restoreUpdatedExactly(part, mask: $0, range: range, feed) }
        }
    }

    /// Restores the part's rows whose log rows have `mask` (see `restoreUpdatedExactly(_:)`).
    private func restoreUpdatedExactly(
        _ part: Part, mask: Int64, range: ClosedRange<Int64>?, _ feed: LockstepFeed
    ) throws -> [Int64] {
        let columns = changedColumns(part, mask)
        // Rows whose update also moved them need the row-by-row replay.
        let logged = """
            FROM \(log) AS l WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ?
                AND l.mask = ? AND l.oldRowid = l.newRowid
            """
        let pairs = columns.map { "l.\(after)\($0.slot), l.\(before)\($0.slot)" }
        let assignments = columns.enumerated().map { index, column in
            let name = column.name.quotedIdentifier
            return "\(name) = \(UndoEngine.restoreFunction)(rowid, \(index), \(name))"
        }
        let arguments = arguments(part) + [.integer(mask)]
        let update = "UPDATE \(part.table.sqlName) SET \(assignments.joined(separator: ", "))"
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
        var outcome = LockstepFeed.Outcome.outOfStep
        for (order, (visited, updateArguments)) in zip(
            ["l.seq", "l.\(currentRowid)"], attempts)
        where outcome == .outOfStep {
            let query =
                "SELECT l.\(currentRowid), \(pairs.joined(separator: ", ")) \(logged) ORDER BY \(order)"
            let before = changedRows()
            outcome = try feed.feed(query, arguments) {
                try db.executeReplay(update + visited, updateArguments)
            }
            if case .fed(let keys) = outcome {
                try expectChanged(keys.count, rowsOf: part, since: before)
            }
        }
        guard case .fed(let keys) = outcome else { throw NotExact() }
        return keys
    }

    /// Re-inserts the part's deleted rows, for the exact replay.
    private mutating func restoreDeletedExactly(_ part: Part) throws -> [Int64] {
        let before = changedRows()
        let rowids = try restoreDeleted(part, reporting: false)
        try expectChanged(rowids.count, rowsOf: part, since: before)
        return rowids
    }

    /// How many row changes each tracked table has had in the transaction so far.
    private func changedRows() -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: tables.values.map { ($0.name, db.changedRowCount(of: $0.name)) })
    }

    /// Throws `NotExact` unless a statement of the exact replay, run since `before`, changed
    /// `count` rows of the part's table and no row of another tracked table. An application's
    /// trigger that wrote a tracked row meanwhile (an `updatedAt` stamp, fired by the restore of
    /// one column of a row after another column of it was restored) would make the result
    /// something else than the barrier's inverse.
    private func expectChanged(_ count: Int, rowsOf part: Part, since before: [String: Int])
        throws
    {
        for (table, changed) in changedRows() {
            let expected = table == part.table.name ? count : 0
            guard changed - (before[table] ?? 0) == expected else { throw NotExact() }
        }
    }

    /// From how many rows a part is worth restoring without the update capture trigger.
    static let defaultRowsWorthSuspendingCapture = 1000

    /// Runs `body` with the update capture triggers of the part's table's `columns` (a mask)
    /// dropped, when the part has at least `rowsWorthSuspendingCapture` rows, and creates them
    /// again after it.
    ///
    /// The exact replay runs outside any barrier, so the triggers would log nothing; but an
    /// UPDATE that contains a trigger updates in two passes and loads the columns twice: about
    /// a third of a bulk restore's time (measured). Dropping and creating a TEMP trigger changes
    /// only this connection's schema, inside the replay's savepoint (which takes both back if
    /// it gives up). It costs about a millisecond: the trigger parsed twice, and every
    /// statement the connection has prepared prepared again at its next use (SQLite expires
    /// them all when the TEMP schema changes), which a thousand rows repay.
    private func withoutUpdateCapture<T>(_ part: Part, columns: Int64, _ body: () throws -> T)
        throws -> T
    {
        let drop = part.table.dropUpdateTriggersSQL(mask: columns)
        guard part.count >= rowsWorthSuspendingCapture, !drop.isEmpty else { return try body() }
        try db.execute(drop)
        let result = Result { try body() }
        try db.execute(part.table.createUpdateTriggersSQL(mask: columns))
        return try result.get()
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
            try db.executeReplay(
                updateFromLog(part, set: assignments, where: ""), arguments(part) + [.integer(mask)]
            )
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
        let rows = try db.fetchAll(
            Row.self,
            """
            SELECT l.\(currentRowid), target.rowid IS NULL, \((values + fine).joined(separator: ", "))
            FROM \(log) AS l
            LEFT JOIN \(table.sqlName) AS target ON target.rowid = l.\(currentRowid)
            WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND l.mask = ?
                AND (target.rowid IS NULL OR NOT (\(fine.joined(separator: " AND "))))
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
    private mutating func restoreDeleted(_ part: Part, reporting: Bool) throws -> [Int64] {
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
                    ON target.rowid = \(original)
                WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ?
                    AND (\(differs.joined(separator: " OR ")))
                """, arguments(part))
            for rowid in recreated {
                conflicts.append(
                    UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            }
        }
        var names = table.columns.map(\.name.quotedIdentifier)
        var values = table.columns.map { "l.\(before)\($0.slot)" }
        if table.rowidAlias == nil {
            names.append("rowid")
            values.append(original)
        }
        return try db.fetchReplay(
            """
            INSERT INTO \(table.sqlName)(\(names.joined(separator: ", ")))
            SELECT \(values.joined(separator: ", ")) FROM \(log) AS l
            WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ?
                AND NOT EXISTS (SELECT 1 FROM \(table.sqlName) WHERE rowid = \(original))
            ORDER BY l.seq \(inverted ? "ASC" : "DESC")
            RETURNING rowid
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
                ON target.rowid = \(current)
            WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND NOT (\(unchanged))
            """, arguments(part))
        for rowid in changed {
            conflicts.append(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
        }
        try db.executeReplay(
            """
            DELETE FROM \(table.sqlName) WHERE rowid IN (
                SELECT \(current) FROM \(log) AS l JOIN \(table.sqlName) AS target
                    ON target.rowid = \(current)
                WHERE \(spanOf("l")) AND l.tableId = ? AND l.kind = ? AND \(unchanged))
            """, arguments(part))
    }

}
