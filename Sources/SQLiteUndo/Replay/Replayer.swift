import SQLiteDatabase

/// Reverts net changes on a connection, one row at a time, restoring only what is still the
/// entry's: a value someone else changed since is kept and reported as a conflict. So is a
/// reference to a row that is gone (`keeping`), and a row the entry inserted that others still
/// reference.
///
/// "Still the entry's" is judged on the rows as they were when the replay began (`snapshot`):
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
    var record = ReplayRecord()
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
    var leavingRows: Set<RowKey> = []
    /// The highest rowid each table's changes put a row back at: a parked row goes above it, so
    /// that it never sits where a row of the replay (or itself) has to go.
    var highestTargets: [Int64: Int64] = [:]
    /// Rows not to park: parking them led nowhere (see `ParkedRowStuck`).
    var unparkable: Set<RowKey> = []
    /// Rows parked by moving their rowid only (not at all when they do not move), their unique
    /// values left as they are: parking those too led nowhere (another row took the value they
    /// held meanwhile).
    var parkedByRowidOnly: Set<RowKey> = []
    /// Where the rows the replay moved to another rowid are now (parked, or back at their
    /// original key), by where they were when it began.
    var moved: [RowKey: Int64] = [:]
    /// Rows moved out of the way of a unique value or a rowid another row of the replay needs
    /// first, with the unique columns (slots) each had set to a placeholder; by where they were
    /// when the replay began. Each goes back at the end (`unparkLeftovers`) where its own
    /// restore did not take it.
    var parkedColumns: [RowKey: Set<Int>] = [:]
    /// The columns (slots) the replay restored of each row, once it goes one column at a time
    /// or parks a row (what `unparkLeftovers` leaves as restored).
    var restoredSlots: [RowKey: Set<Int>] = [:]
    /// Whether the failing changes go one column at a time (the last rounds).
    private var isSplit = false

    /// Whether a text column someone changed since is merged (`UndoEngine.mergeText`).
    let mergesText: (_ table: String, _ column: String) -> Bool
    /// Whether foreign key checks wait for the commit; while they are immediate, a write that
    /// fails one ends the replay (`ReferenceBrokenMidway`).
    let foreignKeysDeferred: Bool

    init(
        db: Database, tables: [Int64: TrackedTable], foreignKeys: ForeignKeys,
        keeping: Set<KeptColumn> = [], foreignKeysDeferred: Bool = true,
        mergesText: @escaping (_ table: String, _ column: String) -> Bool = { _, _ in false }
    ) {
        self.db = db
        self.tables = tables
        self.foreignKeys = foreignKeys
        self.keeping = keeping
        self.foreignKeysDeferred = foreignKeysDeferred
        self.mergesText = mergesText
    }

    /// A write of a replay run with foreign key checks immediate failed one: the replay is
    /// taken back and run again with them deferred (`UndoEngine.revert`), which reverts every
    /// row first and then keeps what would still point at a row that is gone. Not an
    /// `SQLiteError`, so that no round of the replay takes it for a row to try again.
    struct ReferenceBrokenMidway: Error {}

    /// Runs a write of the replay, ending it at a failed foreign key check while checks are
    /// immediate.
    func checkingReferences<T>(_ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch let error as SQLiteError
            where error.code == .foreignKeyConstraint && !foreignKeysDeferred
        {
            throw ReferenceBrokenMidway()
        }
    }

    /// A row to delete that another row still references, maybe only until a later change of
    /// the same replay moves that reference.
    private struct StillReferenced: Error {}

    /// A row to move to a rowid that another row of the replay still occupies.
    private struct RowidTaken: Error {}

    /// A parked row could not go back where the replay meant it to (what was in its way stayed):
    /// the replay is rolled back and done again parking only that row's rowid, leaving its
    /// unique values as they are (another row may have taken the one it held), and if that is
    /// stuck too, without parking it (others still may be: a rotation of unique values beside a
    /// key change that cannot be undone).
    struct ParkedRowStuck: Error {
        let row: RowKey
    }

    /// Reverts the changes in the given order. A change that breaks a unique constraint only
    /// because another change is not reverted yet (two rows swapping a unique value or their
    /// keys), or that would delete a row another change still has to stop referencing, is tried
    /// again after the others. When a round makes no progress, one row in the way is parked (its
    /// unique values set to a placeholder, or its rowid moved to a free one) and the rounds go on;
    /// when nothing is left to park, the updates that break a constraint go on one column at a
    /// time, and in a last round rows still referenced, rowids still taken, and columns that
    /// still break a constraint are kept (`keepBroken`): an undo always makes progress. Parked
    /// rows go back at the end where their own restores did not take them (`unparkLeftovers`).
    mutating func revertAll(_ changes: [NetChange]) throws {
        try takeSnapshot(of: changes)
        var remaining = changes
        while !remaining.isEmpty {
            var failed: [(change: NetChange, error: SQLiteError?)] = []
            for change in remaining {
                record.beginChange()
                do {
                    try revert(change)
                } catch let error as SQLiteError where error.code.primary == .constraint {
                    record.rollBackChange()
                    failed.append((change, error))
                } catch is StillReferenced {
                    record.rollBackChange()
                    failed.append((change, nil))
                } catch is RowidTaken {
                    record.rollBackChange()
                    failed.append((change, nil))
                }
            }
            record.endChange()
            if failed.count == remaining.count {
                if try failed.contains(where: { try park($0.change) }) {
                    remaining = failed.map(\.change)
                    continue
                }
                if !isSplit, failed.contains(where: { $0.error != nil }) {
                    // No order and no parking helps: some old values break a rule of the
                    // schema as the rows are now (a unique value another row took, CHECK,
                    // NOT NULL, a trigger's RAISE). Each column of an update goes on its own
                    // from here: the rest of the row comes back.
                    isSplit = true
                    remaining = failed.flatMap { Self.pieces(of: $0.change) }
                    continue
                }
                if isLastRound {
                    for (change, error) in failed { try keepBroken(change, error) }
                    break
                }
                isLastRound = true
            }
            remaining = failed.map(\.change)
        }
        try unparkLeftovers()
    }

    /// An update's change one column at a time; any other change whole.
    private static func pieces(of change: NetChange) -> [NetChange] {
        guard change.kind == .update else { return [change] }
        return change.after.keys.sorted().map { slot in
            var piece = change
            piece.after = change.after.filter { $0.key == slot }
            piece.before = change.before.filter { $0.key == slot }
            return piece
        }
    }

    /// Whether a constraint error is a UNIQUE or PRIMARY KEY one.
    static func isUniqueness(_ error: SQLiteError) -> Bool {
        error.code == .uniqueConstraint || error.code == .primaryKeyConstraint
    }

    /// The last resort for a change (an update: a column) whose old values break a constraint
    /// whatever the order: another row took a unique value since, another program wrote a value
    /// the schema forbids (a rating of 99 with CHECK constraints off, so the undo would write 99
    /// back), or an application's trigger refuses the write. It is kept and reported
    /// (`.constraint`), with the value it could not restore and, for a unique value, the row
    /// holding it (`UndoConflict.restoring`, `heldBy`).
    private mutating func keepBroken(_ change: NetChange, _ error: SQLiteError?) throws {
        guard let table = tables[change.tableId],
            let rowid = change.currentRowid ?? change.originalRowid
        else { return }
        touch(table, rowid)
        let slot = change.kind == .update ? change.after.keys.first : nil
        let column = slot.flatMap { slot in table.columns.first { $0.slot == slot } }
        // A packed value's fingerprint is not the value: not named.
        let restoring = slot.flatMap { change.before[$0] }.flatMap { $0.packed ? nil : $0.value }
        var held: (id: Int64, value: SQLiteValue)?
        if let error, Self.isUniqueness(error), let column, let restoring {
            held = try holder(of: restoring, in: column, of: table, besides: rowid)
        }
        var conflict = UndoConflict(
            table: table.name, rowid: rowid, column: column?.name,
            kept: try slot.flatMap { try before(rowid, of: table)?[$0] },
            reason: .constraint, restoring: restoring, heldBy: held?.id)
        conflict.heldValue = held?.value
        record.keep(conflict)
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
    func before(_ rowid: Int64, of table: TrackedTable) throws -> [Int: SQLiteValue]? {
        if let values = snapshot[RowKey(tableId: table.id, rowid: rowid)] { return values }
        return try row(rowid, of: table)
    }

    /// Where a row that was at `rowid` when the replay began is now.
    func now(_ rowid: Int64, of table: TrackedTable) -> Int64 {
        moved[RowKey(tableId: table.id, rowid: rowid)] ?? rowid
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
                "DELETE FROM \(table.sqlName) WHERE \(table.rowMatch())",
                [.integer(now(rowid, of: table))])
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
            // Already back as it was (a cascade restored it, or an application trigger fired
            // by the replay wrote the same row) is no conflict, and the row stays.
            let isAsItWas = !table.columns.contains {
                current[$0.slot] != change.before[$0.slot]?.value
            }
            if isAsItWas {
                record.noteAlreadyAsMeant(key, change.before.mapValues(\.expression))
                return
            }
            // Free when the replay began and not written by its own statements: an application
            // trigger fired by the replay (an audit row) took the rowid, a side effect the row
            // makes way for.
            guard freeAtStart.contains(key), record.intended.columns[key] == nil else {
                record.keep(
                    UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
                return
            }
            try write("DELETE FROM \(table.sqlName) WHERE \(table.rowMatch())", [.integer(rowid)])
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
        let values = BoundSQL.joined(
            columns.compactMap { change.before[$0.slot]?.expression }, separator: ", ")
        guard
            try write(
                "INSERT INTO \(table.sqlName)(\(names.joined(separator: ", "))) "
                    + "VALUES (\(values.sql))", values.arguments)
        else {
            record.keep(.skippedByATrigger(table, rowid))
            return
        }
        record.setIntendedColumns(key, change.before.mapValues(\.expression), merging: false)
    }

    private mutating func restoreUpdated(_ change: NetChange, _ table: TrackedTable) throws {
        guard let rowid = change.currentRowid, let original = change.originalRowid else { return }
        if try isMovedBackByACascade(change, table) {
            touch(table, original)
            moved[RowKey(tableId: table.id, rowid: rowid)] = original
            record.setIntendedColumns(
                RowKey(tableId: table.id, rowid: original), change.before.mapValues(\.expression),
                merging: true)
            return
        }
        guard let current = try before(rowid, of: table) else {
            touch(table, rowid)
            record.keep(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            return
        }
        // Values are read from the log cells they came from (exact bytes).
        var assignments: [(column: String, slot: Int, value: BoundSQL)] = []
        var restoredRowid = rowid
        for column in table.columns {
            guard let left = change.after[column.slot], let logged = change.before[column.slot]
            else { continue }
            let before = logged.value
            let kept = current[column.slot] ?? .null
            if kept == before { continue }  // already restored (by a cascade, or by someone)
            // A key the key map numbers alike in its old and new spelling (`COLLATE NOCASE`)
            // moves nothing.
            let movesRow =
                table.namesRow(column) && before != kept
                && (table.keyMap == nil || original != rowid)
            // Where the row goes: the rowid the alias held, or the number of the key it had.
            let target = table.keyMap == nil ? before : .integer(original)
            // A packed value the replay could not rebuild: someone changed the cell since.
            if kept != left || logged.packed {
                // A text both changed: the step's own splice taken back from the text as it is.
                if mergesText(table.name, column.name),
                    case .text(let base) = left, case .text(let mine) = before,
                    case .text(let theirs) = kept,
                    let merged = TextSplice.merge(base: base, mine: mine, theirs: theirs)
                {
                    assignments.append(
                        (column.name.quotedIdentifier, column.slot, BoundSQL(merged.sqlTextLiteral))
                    )
                    continue
                }
                record.keep(
                    UndoConflict(table: table.name, rowid: rowid, column: column.name, kept: kept))
                continue
            }
            if movesRow, try !isFree(target, in: table) {
                guard !isLastRound, isMovedByThisReplay(target, in: table) else {
                    // Another row holds the key: a unique value taken, named with its holder
                    // (the row at the rowid, or the key's number, the row would take).
                    let holder: Int64? =
                        if case .integer(let number) = target { number } else { nil }
                    var conflict = UndoConflict(
                        table: table.name, rowid: rowid, column: column.name, kept: kept,
                        reason: .constraint, restoring: before, heldBy: holder)
                    // The key as the holder spells it (in another case, under `COLLATE NOCASE`).
                    conflict.heldValue = try holder.flatMap { try row($0, of: table)?[column.slot] }
                    record.keep(conflict)
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
            assignments.append((column.name.quotedIdentifier, column.slot, logged.expression))
            if movesRow, case .integer(let number) = target { restoredRowid = number }
        }
        touch(table, restoredRowid)
        guard !assignments.isEmpty else { return }
        let set = BoundSQL.assignments(assignments.map { ($0.column, $0.value) })
        let key = RowKey(tableId: table.id, rowid: rowid)
        let at = now(rowid, of: table)
        let movesKey =
            table.keyMap != nil
            && table.columns.contains { column in
                table.namesRow(column) && assignments.contains { $0.slot == column.slot }
            }
        guard
            let movedTo = try update(
                table, set: set.sql, binding: set.arguments, at: at, returningNumber: movesKey)
        else {
            for slot in assignments.map(\.slot) {
                record.keep(.skippedByATrigger(table, rowid, slot: slot, kept: current[slot]))
            }
            return
        }
        if movesKey { restoredRowid = movedTo }
        if restoredRowid != rowid {
            moved[key] = restoredRowid
            // What earlier pieces of the row meant goes with it.
            record.moveIntendedColumns(
                from: RowKey(tableId: table.id, rowid: at),
                to: RowKey(tableId: table.id, rowid: restoredRowid))
        }
        if isSplit || parkedColumns[key] != nil {
            restoredSlots[key, default: []].formUnion(assignments.map(\.slot))
        }
        // Merged: a change restored column by column (the last rounds) comes here once per
        // column.
        record.setIntendedColumns(
            RowKey(tableId: table.id, rowid: now(rowid, of: table)),
            Dictionary(assignments.map { ($0.slot, $0.value) }, uniquingKeysWith: { $1 }),
            merging: true)
    }

    /// Runs one statement of the replay that writes one row. Returns false when it wrote
    /// nothing: an application's trigger skipped the row (`RAISE(IGNORE)`).
    @discardableResult
    mutating func write(_ sql: String, _ arguments: [SQLiteValue]) throws -> Bool {
        try checkingReferences { try db.executeReplay(sql, arguments) }
        record.noteWrites(db.changesCount)
        return db.changesCount > 0
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
    func row(_ rowid: Int64, of table: TrackedTable) throws -> [Int: SQLiteValue]? {
        let names = table.columns.map(\.name.quotedIdentifier).joined(separator: ", ")
        guard
            let row = try db.fetchOne(
                Row.self, "SELECT \(names) FROM \(table.sqlName) WHERE \(table.rowMatch())",
                [.integer(rowid)])
        else { return nil }
        var values: [Int: SQLiteValue] = [:]
        for (index, column) in table.columns.enumerated() { values[column.slot] = row[index] }
        return values
    }

    private func isFree(_ rowid: SQLiteValue, in table: TrackedTable) throws -> Bool {
        try db.fetchOne(
            Int.self, "SELECT 1 FROM \(table.sqlName) WHERE \(table.rowMatch())", [rowid]) == nil
    }
}
