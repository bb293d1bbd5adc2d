import SQLiteDatabase

/// Reverts net changes on a connection, one row at a time, restoring only what is still the
/// barrier's: a value someone else changed since is kept and reported as a conflict. So is a
/// reference to a row that is gone (`keeping`), and a row the barrier inserted that others still
/// reference.
///
/// "Still the barrier's" is judged on the rows as they were when the replay began (`snapshot`):
/// what an application's trigger writes while the replay runs is not someone else's change, and
/// `SideEffectRepair` sets it back afterwards, from what the replayer meant each row to hold
/// (`intended`).
struct Replayer {
    let db: Database
    let tables: [Int64: TrackedTable]
    let foreignKeys: ForeignKeys
    /// Columns to leave as they are: restoring them would reference a row that is gone.
    let keeping: Set<KeptColumn>
    /// What the replay has done so far (`ReplayRecord`).
    private var record = ReplayRecord()
    var affectedRows: [String: Set<Int64>] { record.affectedRows }
    var conflicts: [UndoConflict] { record.conflicts }
    /// What the replay means the rows it writes to hold when it ends.
    var intended: IntendedRows { record.intended }
    /// How many row writes the replay's own statements made (each writes one row).
    var writes: Int { record.writes }
    /// Set for the last round: a row still referenced then is kept instead of waiting, and so is
    /// a rowid still taken.
    private var isLastRound = false
    /// Each changed row's values by slot before the replay wrote anything (nil: no such row), by
    /// where the row was then.
    private var snapshot: [RowKey: [Int: SQLiteValue]?] = [:]
    /// The rowids of deleted rows to restore that no row held when the replay began.
    private var freeAtStart: Set<RowKey> = []
    /// Where the rows that the changes move to another rowid, or delete, are when the replay
    /// begins: a rowid they hold is taken only until then.
    private var leavingRows: Set<RowKey> = []
    /// The highest rowid each table's changes put a row back at: a parked row goes above it, so
    /// that it never sits where a row of the replay (or itself) has to go.
    private var highestTargets: [Int64: Int64] = [:]
    /// Rows not to park: parking them led nowhere (see `ParkedRowStuck`).
    var unparkable: Set<RowKey> = []
    /// Rows moved out of the way of a unique value or a rowid another row of the replay needs
    /// first: where each is now, by where it was when the replay began.
    private var parked: [RowKey: Int64] = [:]
    /// The unique columns (slots) each parked row had set to a placeholder.
    private var parkedColumns: [RowKey: Set<Int>] = [:]

    /// Whether a text column someone changed since is merged (`UndoEngine.mergeText`).
    let mergesText: (_ table: String, _ column: String) -> Bool

    init(
        db: Database, tables: [Int64: TrackedTable], foreignKeys: ForeignKeys,
        keeping: Set<KeptColumn> = [],
        mergesText: @escaping (_ table: String, _ column: String) -> Bool = { _, _ in false }
    ) {
        self.db = db
        self.tables = tables
        self.foreignKeys = foreignKeys
        self.keeping = keeping
        self.mergesText = mergesText
    }

    /// A row to delete that another row still references, maybe only until a later change of
    /// the same replay moves that reference.
    private struct StillReferenced: Error {}

    /// A row to move to a rowid that another row of the replay still occupies.
    private struct RowidTaken: Error {}

    /// A parked row could not go back where the replay meant it to (what was in its way stayed):
    /// the replay is rolled back and done again without parking that row (others still may be:
    /// a rotation of unique values beside a key change that cannot be undone).
    struct ParkedRowStuck: Error {
        let row: RowKey
    }

    /// Reverts the changes in the given order. A change that breaks a unique constraint only
    /// because another change is not reverted yet (two rows swapping a unique value or their
    /// keys), or that would delete a row another change still has to stop referencing, is tried
    /// again after the others. When a round makes no progress, one row in the way is parked (its
    /// unique values set to a placeholder, or its rowid moved to a free one) and the rounds go on;
    /// when nothing is left to park, rows still referenced are kept, and what still breaks a
    /// constraint is restored as far as the rules allow (`restoreWhatTheRulesAllow`): an undo
    /// always makes progress.
    mutating func revertAll(_ changes: [NetChange]) throws {
        try takeSnapshot(of: changes)
        var remaining = changes
        while !remaining.isEmpty {
            var failed: [NetChange] = []
            var lastError: SQLiteError?
            for change in remaining {
                record.beginChange()
                do {
                    try revert(change)
                } catch let error as SQLiteError where error.code.primary == .constraint {
                    record.rollBackChange()
                    failed.append(change)
                    lastError = error
                } catch is StillReferenced {
                    record.rollBackChange()
                    failed.append(change)
                } catch is RowidTaken {
                    record.rollBackChange()
                    failed.append(change)
                }
            }
            record.endChange()
            if failed.count == remaining.count {
                if try failed.contains(where: { try park($0) }) {
                    remaining = failed
                    continue
                }
                if isLastRound, let lastError {
                    // A unique value someone else took fails the undo: the rows may be freed.
                    if Self.isUniqueness(lastError) { throw lastError }
                    // No order and no parking helps: their old values break a rule of the
                    // schema as the rows are now (CHECK, NOT NULL, a trigger's RAISE).
                    for change in failed { try restoreWhatTheRulesAllow(change) }
                    return
                }
                isLastRound = true
            }
            remaining = failed
        }
    }

    /// Whether a constraint error is a UNIQUE or PRIMARY KEY one.
    static func isUniqueness(_ error: SQLiteError) -> Bool {
        error.code == .uniqueConstraint || error.code == .primaryKeyConstraint
    }

    /// The last resort for a change whose old values break a constraint whatever the order:
    /// another program wrote a value the schema forbids (a rating of 99 with CHECK constraints
    /// off, so the undo would write 99 back), or an application's trigger refuses the write.
    /// Each column of an update is restored on its own where the rules allow; the rest, or a
    /// whole row that cannot be inserted or deleted, is kept and reported (`.constraint`).
    private mutating func restoreWhatTheRulesAllow(_ change: NetChange) throws {
        guard let table = tables[change.tableId] else { return }
        let pieces =
            change.kind == .update
            ? change.after.keys.sorted().map { slot in
                var piece = change
                piece.after = change.after.filter { $0.key == slot }
                piece.before = change.before.filter { $0.key == slot }
                return piece
            } : [change]
        for piece in pieces {
            record.beginChange()
            defer { record.endChange() }
            do {
                try db.savepoint { try revert(piece) }
            } catch let error as SQLiteError
                where error.code.primary == .constraint && !Self.isUniqueness(error)
            {
                record.rollBackChange()
                guard let rowid = piece.currentRowid ?? piece.originalRowid else { continue }
                touch(table, rowid)
                let slot = piece.kind == .update ? piece.after.keys.first : nil
                let column = slot.flatMap { slot in table.columns.first { $0.slot == slot } }
                record.keep(
                    UndoConflict(
                        table: table.name, rowid: rowid, column: column?.name,
                        kept: try slot.flatMap { try before(rowid, of: table)?[$0] },
                        reason: .constraint))
            }
        }
    }

    private mutating func revert(_ change: NetChange) throws {
        // A table no longer tracked keeps its rows as they are.
        guard let table = tables[change.tableId] else { return }
        switch change.kind {
        case .insert: try removeInserted(change, table)
        case .delete: try restoreDeleted(change, table)
        case .update: try restoreUpdated(change, table)
        }
    }

    // MARK: The rows as they were

    /// Reads every row the changes name, before any is written.
    private mutating func takeSnapshot(of changes: [NetChange]) throws {
        for change in changes {
            guard let target = change.originalRowid else { continue }
            highestTargets[change.tableId] = max(highestTargets[change.tableId] ?? target, target)
        }
        // A deleted row is read when it is restored: it is not there, unless someone re-created
        // it. Whether its rowid was free is kept: a row there later was put there by this replay.
        for change in changes where change.kind == .delete {
            guard let table = tables[change.tableId], let rowid = change.originalRowid else {
                continue
            }
            if try isFree(.integer(rowid), in: table) {
                freeAtStart.insert(RowKey(tableId: table.id, rowid: rowid))
            }
        }
        for change in changes where change.kind != .delete {
            guard let table = tables[change.tableId], let rowid = change.currentRowid else {
                continue
            }
            snapshot[RowKey(tableId: table.id, rowid: rowid)] = .some(try row(rowid, of: table))
            if change.kind == .insert || change.originalRowid != rowid {
                leavingRows.insert(RowKey(tableId: table.id, rowid: rowid))
            }
        }
    }

    /// The row's values when the replay began, or nil when there was no such row.
    private func before(_ rowid: Int64, of table: TrackedTable) throws -> [Int: SQLiteValue]? {
        if let values = snapshot[RowKey(tableId: table.id, rowid: rowid)] { return values }
        return try row(rowid, of: table)
    }

    /// Where a row that was at `rowid` when the replay began is now.
    private func now(_ rowid: Int64, of table: TrackedTable) -> Int64 {
        parked[RowKey(tableId: table.id, rowid: rowid)] ?? rowid
    }

    // MARK: Reverting

    private mutating func removeInserted(_ change: NetChange, _ table: TrackedTable) throws {
        guard let rowid = change.currentRowid, let current = try before(rowid, of: table) else {
            return  // already gone
        }
        let changedSince = table.columns.contains { column in
            change.after[column.slot].map { $0 != current[column.slot] } ?? false
        }
        touch(table, rowid)
        if changedSince {
            record.keep(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            return
        }
        if try foreignKeys.isReferenced(table.name, rowid: rowid, db) {
            guard isLastRound else { throw StillReferenced() }
            record.keep(
                UndoConflict(
                    table: table.name, rowid: rowid, column: nil, kept: nil, reason: .foreignKey))
            return
        }
        guard
            try write(
                "DELETE FROM \(table.sqlName) WHERE rowid = ?", [.integer(now(rowid, of: table))])
        else {
            record.keep(.skippedByATrigger(table, rowid))
            return
        }
        let key = RowKey(tableId: table.id, rowid: rowid)
        record.noteRemoved(key)
    }

    private mutating func restoreDeleted(_ change: NetChange, _ table: TrackedTable) throws {
        guard let rowid = change.originalRowid else { return }
        touch(table, rowid)
        let key = RowKey(tableId: table.id, rowid: rowid)
        if let current = try row(rowid, of: table) {
            // Taken by a row this replay moves away or deletes: wait for it.
            if !isLastRound, isMovedByThisReplay(.integer(rowid), in: table) { throw RowidTaken() }
            // Already back as it was (a cascade restored it) is no conflict.
            let isAsItWas = !table.columns.contains {
                current[$0.slot] != change.before[$0.slot]?.value
            }
            if isAsItWas { return }
            // Free when the replay began and not written by its own statements: an application
            // trigger fired by the replay (an audit row) took the rowid, a side effect the row
            // makes way for.
            guard freeAtStart.contains(key), record.intended.columns[key] == nil else {
                record.keep(
                    UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
                return
            }
            try write("DELETE FROM \(table.sqlName) WHERE rowid = ?", [.integer(rowid)])
        }
        // A value of the row its log holds only packed (someone changed the cell between the
        // action's writes): the row cannot come back as it was.
        if change.before.values.contains(where: \.packed) {
            record.keep(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            return
        }
        if table.columns.contains(where: { isKept(table, rowid, $0) }) {
            // It would reference a row that is gone.
            record.keep(
                UndoConflict(
                    table: table.name, rowid: rowid, column: nil, kept: nil, reason: .foreignKey))
            return
        }
        let columns = table.columns.filter { change.before[$0.slot] != nil }
        let names = columns.map(\.name.quotedIdentifier)
        let values = columns.compactMap { change.before[$0.slot]?.sql }
        guard
            try write(
                "INSERT INTO \(table.sqlName)(\(names.joined(separator: ", "))) "
                    + "VALUES (\(values.joined(separator: ", ")))", [])
        else {
            record.keep(.skippedByATrigger(table, rowid))
            return
        }
        record.setIntendedColumns(key, change.before.mapValues(\.sql), merging: false)
    }

    private mutating func restoreUpdated(_ change: NetChange, _ table: TrackedTable) throws {
        guard let rowid = change.currentRowid, let original = change.originalRowid else { return }
        guard let current = try before(rowid, of: table) else {
            touch(table, rowid)
            record.keep(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            return
        }
        // Values are read from the log cells they came from (exact bytes).
        var assignments: [(column: String, slot: Int, sql: String)] = []
        var restoredRowid = rowid
        for column in table.columns {
            guard let left = change.after[column.slot], let logged = change.before[column.slot]
            else { continue }
            let before = logged.value
            let kept = current[column.slot] ?? .null
            if kept == before { continue }  // already restored (by a cascade, or by someone)
            let movesRow = column.name == table.rowidAlias && before != kept
            // A packed value the replay could not rebuild: someone changed the cell since.
            if kept != left || logged.packed {
                // A text both changed: the step's own splice taken back from the text as it is.
                if mergesText(table.name, column.name),
                    case .text(let base) = left, case .text(let mine) = before,
                    case .text(let theirs) = kept,
                    let merged = TextSplice.merge(base: base, mine: mine, theirs: theirs)
                {
                    assignments.append(
                        (column.name.quotedIdentifier, column.slot, merged.sqlTextLiteral))
                    continue
                }
                record.keep(
                    UndoConflict(table: table.name, rowid: rowid, column: column.name, kept: kept))
                continue
            }
            if movesRow, try !isFree(before, in: table) {
                guard !isLastRound, isMovedByThisReplay(before, in: table) else {
                    record.keep(
                        UndoConflict(
                            table: table.name, rowid: rowid, column: column.name, kept: kept))
                    continue
                }
                throw RowidTaken()
            }
            if isKept(table, rowid, column) || isKept(table, original, column) {
                record.keep(
                    UndoConflict(
                        table: table.name, rowid: rowid, column: column.name, kept: kept,
                        reason: .foreignKey))
                continue
            }
            assignments.append((column.name.quotedIdentifier, column.slot, logged.sql))
            if movesRow, case .integer(let target) = before { restoredRowid = target }
        }
        touch(table, restoredRowid)
        if let parking = parked[RowKey(tableId: table.id, rowid: rowid)] {
            // A parked row that does not go back to its place would stay where it was parked.
            let restored = Set(assignments.map(\.slot))
            let moved = parking != rowid
            let parkedKeys = parkedColumns[RowKey(tableId: table.id, rowid: rowid)] ?? []
            if moved && !(aliasSlot(of: table).map(restored.contains) ?? false)
                || !parkedKeys.isSubset(of: restored)
            {
                throw ParkedRowStuck(row: RowKey(tableId: table.id, rowid: rowid))
            }
        }
        guard !assignments.isEmpty else { return }
        let set = assignments.map { "\($0.column) = \($0.sql)" }.joined(separator: ", ")
        guard
            try write(
                "UPDATE \(table.sqlName) SET \(set) WHERE rowid = ?",
                [.integer(now(rowid, of: table))])
        else {
            for slot in assignments.map(\.slot) {
                record.keep(.skippedByATrigger(table, rowid, slot: slot, kept: current[slot]))
            }
            return
        }
        // Merged: a change restored column by column (`restoreWhatTheRulesAllow`) comes here
        // once per column.
        record.setIntendedColumns(
            RowKey(tableId: table.id, rowid: restoredRowid),
            Dictionary(assignments.map { ($0.slot, $0.sql) }, uniquingKeysWith: { $1 }),
            merging: true)
    }

    /// Runs one statement of the replay that writes one row. Returns false when it wrote
    /// nothing: an application's trigger skipped the row (`RAISE(IGNORE)`).
    @discardableResult
    private mutating func write(_ sql: String, _ arguments: [SQLiteValue]) throws -> Bool {
        try db.executeReplay(sql, arguments)
        record.noteWrites(db.changesCount)
        return db.changesCount > 0
    }

    // MARK: Rows in the way

    /// Whether the row at `rowid` is one this replay moves elsewhere or deletes (its rowid is
    /// taken only until then).
    private func isMovedByThisReplay(_ rowid: SQLiteValue, in table: TrackedTable) -> Bool {
        guard case .integer(let rowid) = rowid else { return false }
        let key = RowKey(tableId: table.id, rowid: rowid)
        return leavingRows.contains(key) && parked[key] == nil
    }

    /// Moves the row of a failed update out of the way of the others: to a free rowid when its
    /// change moves it, and with its unique columns that the change restores set to a value no
    /// other row has. Returns false when the change has nothing to park or was parked already.
    private mutating func park(_ change: NetChange) throws -> Bool {
        guard change.kind == .update, let table = tables[change.tableId],
            let rowid = change.currentRowid
        else { return false }
        let key = RowKey(tableId: table.id, rowid: rowid)
        guard parked[key] == nil, !unparkable.contains(key) else { return false }
        let unique = uniqueColumns(of: table)
        // Only what the change will restore: a column someone else changed since stays as it is.
        let current = try before(rowid, of: table) ?? [:]
        let restored = table.columns.filter { column in
            guard let left = change.after[column.slot],
                let before = change.before[column.slot]?.value
            else { return false }
            return current[column.slot] == left && left != before
        }
        let keys = restored.filter { unique.contains($0.name.lowercased()) }
        let moves = restored.contains { $0.name == table.rowidAlias }
        guard moves || !keys.isEmpty else { return false }
        var free = rowid
        if moves {
            let highest = try db.fetchOne(Int64.self, "SELECT max(rowid) FROM \(table.sqlName)")
            free = max(highest ?? rowid, highestTargets[table.id] ?? rowid) + 1
        }
        // A placeholder for the key columns: NULL where allowed, else bytes no other row holds.
        for placeholder in keys.isEmpty ? ["NULL"] : ["NULL", "randomblob(16)"] {
            var set = keys.map { "\($0.name.quotedIdentifier) = \(placeholder)" }
            if moves { set.append("rowid = \(free)") }
            do {
                try write(
                    "UPDATE \(table.sqlName) SET \(set.joined(separator: ", ")) WHERE rowid = ?",
                    [.integer(rowid)])
                parked[key] = free
                parkedColumns[key] = Set(keys.map(\.slot))
                return true
            } catch let error as SQLiteError where error.code.primary == .constraint {
                continue
            }
        }
        return false
    }

    /// The columns of the table's unique keys, lowercased.
    private func uniqueColumns(of table: TrackedTable) -> Set<String> {
        Set(table.uniqueKeys.joined().map { $0.lowercased() })
    }

    private func aliasSlot(of table: TrackedTable) -> Int? {
        table.columns.first { $0.name == table.rowidAlias }?.slot
    }

    // MARK: Reading

    private func isKept(_ table: TrackedTable, _ rowid: Int64, _ column: TrackedTable.Column)
        -> Bool
    {
        !keeping.isEmpty
            && keeping.contains(KeptColumn(table: table.name, rowid: rowid, column: column.name))
    }

    private mutating func touch(_ table: TrackedTable, _ rowid: Int64) {
        record.touch(table.name, rowid)
    }

    /// The row's current values by slot, or nil when there is no such row.
    private func row(_ rowid: Int64, of table: TrackedTable) throws -> [Int: SQLiteValue]? {
        let names = table.columns.map(\.name.quotedIdentifier).joined(separator: ", ")
        guard
            let row = try db.fetchOne(
                Row.self, "SELECT \(names) FROM \(table.sqlName) WHERE rowid = ?", [.integer(rowid)]
            )
        else { return nil }
        var values: [Int: SQLiteValue] = [:]
        for (index, column) in table.columns.enumerated() { values[column.slot] = row[index] }
        return values
    }

    private func isFree(_ rowid: SQLiteValue, in table: TrackedTable) throws -> Bool {
        try db.fetchOne(Int.self, "SELECT 1 FROM \(table.sqlName) WHERE rowid = ?", [rowid]) == nil
    }
}
