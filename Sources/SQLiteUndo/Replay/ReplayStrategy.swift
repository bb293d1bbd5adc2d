import SQLiteDatabase

/// The ways an undo or redo replays an entry, tried in this order; the first that applies does
/// the work, and each gives the same result (`ReplayStrategyTests` runs the same histories with
/// each one first and compares the tables and the events).
///
/// | strategy | applies when | records |
/// | --- | --- | --- |
/// | `exact` | updates and deletes only, every row and column still as the entry left it, and no trigger writes a tracked row; or inserts only, every row still as the entry left it, whose removal (with its cascades and triggers) writes no other tracked row | nothing: the entry's log, read inverted, is its inverse (the stack flips its entry) |
/// | `setBased` | each table has one kind of change, each row once (an update: each column once), no row of a parent table is deleted, no unique value collides midway, no reference breaks, and no trigger writes a tracked row | the inverse, captured under the replay's barrier |
/// | `rowByRow` | always: any order of inserts, updates, deletes and key changes; swaps and rotations of unique values and keys (a row parked out of the way); references kept; application triggers' writes set back (`SideEffectRepair`) | the inverse, captured |
///
/// A strategy that does not apply changes nothing: it gives up before writing, or inside a
/// savepoint that takes its writes back.
enum ReplayStrategy: CaseIterable, Sendable {
    /// `BatchReplay.revertExactly` (BatchReplay+Exact.swift).
    case exact
    /// `BatchReplay.revert` (BatchReplay.swift).
    case setBased
    /// `Replayer` (Replayer.swift) and `SideEffectRepair` (SideEffectRepair.swift).
    case rowByRow
}

/// One replay of one entry by the strategies, in order.
struct EntryReplay {
    let db: Database
    let tables: [Int64: TrackedTable]
    let foreignKeys: ForeignKeys
    /// Whether SQLite checks foreign keys at the commit; when not, a check that fails midway is
    /// rethrown (the engine replays again with them deferred) instead of read as a strategy
    /// that does not apply.
    let foreignKeysDeferred: Bool
    /// The strategies to try; the row-by-row one is tried last whether listed or not.
    let strategies: [ReplayStrategy]
    let rowsWorthSuspendingCapture: Int

    /// What a replay did.
    struct Reverted {
        var affected: [String: Set<Int64>]
        var conflicts: [UndoConflict]
        /// True when everything was restored exactly and nothing else was written: the entry's
        /// own log, read inverted, is then the replay's inverse, and nothing was recorded.
        var exact: Bool
    }

    /// Reverts the entry `id` (its log read `inverted` or not); the strategies that record do
    /// it under `inverse`, whose captured log becomes the inverse.
    func revert(entry id: Int64, inverted: Bool, inverse: Barrier, engine: UndoEngine) throws
        -> Reverted
    {
        // A row another action moved to another key since is restored where it is now: only
        // the row-by-row replay reads the rows by other keys than the entry's own.
        let rows = try FollowedRows(entry: id, tables: Array(tables.keys), db)
        if rows.time != nil,
            let followed = try rows.following(
                UndoLogSchema.netChanges(ofEntry: id, inverted: inverted, db))
        {
            return try UndoContext.withBarrier(inverse) {
                try rowByRow(followed, inverse: inverse, engine: engine)
            }
        }
        let skippingTriggers = try SkippingTriggers(db)
        if strategies.contains(.exact) {
            var exact = BatchReplay(
                db: db, entry: id, inverted: inverted, tables: tables, foreignKeys: foreignKeys,
                skippingTriggers: skippingTriggers,
                rowsWorthSuspendingCapture: rowsWorthSuspendingCapture)
            let restored = try UndoContext.withBarrier(nil) {
                try inSavepoint { try exact.revertExactly() ? exact.affectedRows : nil }
            }
            if restored {
                return Reverted(affected: exact.affectedRows, conflicts: [], exact: true)
            }
        }
        return try UndoContext.withBarrier(inverse) {
            if strategies.contains(.setBased) {
                var batch = BatchReplay(
                    db: db, entry: id, inverted: inverted, tables: tables,
                    foreignKeys: foreignKeys, skippingTriggers: skippingTriggers)
                let parents = tables.values.filter { foreignKeys.isParent($0.name) }.map(\.id)
                if try !batch.deletesRows(ofTables: parents),
                    try inSavepoint({
                        guard try batch.revert() else { return nil }
                        // A text changed since is merged row by row: this replay kept it whole.
                        if batch.conflicts.contains(where: { conflict in
                            conflict.column.map {
                                engine.mergesText(table: conflict.table, column: $0)
                            } ?? false
                        }) {
                            throw MergesTextRowByRow()
                        }
                        return batch.affectedRows
                    })
                {
                    return Reverted(
                        affected: batch.affectedRows, conflicts: batch.conflicts, exact: false)
                }
            }
            return try rowByRow(
                UndoLogSchema.netChanges(ofEntry: id, inverted: inverted, db), inverse: inverse,
                engine: engine)
        }
    }

    /// The row-by-row replay of an entry's net `changes`: a replay that would leave a reference
    /// to a row that is gone is rolled back and done again keeping those references as they are.
    private func rowByRow(_ changes: [NetChange], inverse: Barrier, engine: UndoEngine) throws
        -> Reverted
    {
        var keeping: Set<KeptColumn> = []
        var unparkable: Set<RowKey> = []
        var parkedByRowidOnly: Set<RowKey> = []
        while true {
            do {
                return try db.savepoint {
                    var replayer = Replayer(
                        db: db, tables: tables, foreignKeys: foreignKeys, keeping: keeping,
                        foreignKeysDeferred: foreignKeysDeferred, mergesText: engine.mergesText)
                    replayer.unparkable = unparkable
                    replayer.parkedByRowidOnly = parkedByRowidOnly
                    let changedBefore = changedRowCount()
                    try replayer.revertAll(changes)
                    var conflicts = replayer.conflicts
                    if changedRowCount() - changedBefore != replayer.writes,
                        let start = inverse.logStart(in: engine)
                    {
                        // What triggers write again at every write, kept, unless kept already.
                        let kept = try SideEffectRepair(
                            db: db, tables: tables, intended: replayer.intended,
                            inverse: inverse.id, logStart: start
                        ).run()
                        let named = Set(conflicts.map(\.keptColumn))
                        conflicts += kept.filter { !named.contains($0.keptColumn) }
                    }
                    // Everything kept: what the replay wrote (rows parked out of the way, and
                    // what triggers wrote) is set back, and its inverse changes nothing.
                    if replayer.intended.isEmpty, let start = inverse.logStart(in: engine) {
                        try UndoLogSchema.deleteLog(of: inverse.id, from: start, db)
                    }
                    // A reference the replay keeps as it is may have been broken before it
                    // (another program deleted a parent with foreign keys off): not its doing.
                    try foreignKeys.check(replayer.affectedRows, db, ignoring: keeping)
                    return Reverted(
                        affected: replayer.affectedRows, conflicts: conflicts, exact: false)
                }
            } catch let broken as ReferencesBroken where !broken.columns.isSubset(of: keeping) {
                keeping.formUnion(broken.columns)
            } catch let stuck as Replayer.ParkedRowStuck where !unparkable.contains(stuck.row) {
                // Parked next by its rowid alone (another row may have taken the unique value it
                // held, while its key change can still be undone), and after that not at all.
                if !parkedByRowidOnly.insert(stuck.row).inserted { unparkable.insert(stuck.row) }
            }
        }
    }

    /// How many rows of the tracked tables the open transaction changed so far (its statements
    /// and their triggers): more than a replay's own statements wrote means triggers wrote too.
    private func changedRowCount() -> Int {
        tables.values.reduce(0) { $0 + db.changedRowCount(of: $1.name) }
    }

    /// Runs a set-based replay (which returns the rows it touched, or nil when the log's shape
    /// needs another strategy) in a savepoint. Rows swapping a unique value make a single
    /// statement fail midway, and a reference to a row that is gone fails the check after it:
    /// then it is rolled back and false returned, and the next strategy does the work.
    private func inSavepoint(_ replay: () throws -> [String: Set<Int64>]?) throws -> Bool {
        do {
            return try db.savepoint {
                guard let touched = try replay() else { return false }
                try foreignKeys.check(touched, db)
                return true
            }
        } catch let error as SQLiteError where error.code.primary == .constraint {
            if error.code == .foreignKeyConstraint && !foreignKeysDeferred { throw error }
            return false
        } catch is ReferencesBroken {
            return false
        } catch is MergesTextRowByRow {
            return false
        }
    }
}

/// Thrown inside a set-based replay's savepoint when it kept a text the engine merges: the
/// savepoint rolls back and the row-by-row replay, which merges it, runs instead.
private struct MergesTextRowByRow: Error {}
