import SQLiteDatabase

/// Reverts an entry with a few set-based statements per table instead of one per row, when its
/// log has the common shape: for each table, changes of a single kind (inserts, updates that
/// keep the rowid, or deletes), each row once (an update: each column of a row once). Anything
/// else takes the row-by-row `Replayer`.
///
/// The rule is the same as the row-by-row one: a column is restored only where it still holds
/// the value the entry left; a later change by someone else is kept and reported. The engine
/// tries the exact replay first (`revertExactly`, in `BatchReplay+Exact.swift`), which records
/// nothing; this file has what both share and the replay that records its inverse.
struct BatchReplay {
    let db: Database
    /// Whether the log reads inverted (see `StackEntry.inverted`).
    let inverted: Bool
    let tables: [Int64: TrackedTable]
    /// The foreign keys between the tables: deleted rows come back children first.
    let foreignKeys: ForeignKeys
    /// The entry's log rows, with the statements that restore them.
    let log: UndoLogSchema.EntryLog
    /// The rows the replay restored, by table.
    var affectedRows: [String: Set<Int64>] = [:]
    private(set) var conflicts: [UndoConflict] = []

    struct Part {
        let table: TrackedTable
        /// The kind stored in the log, for queries.
        let stored: UndoLogSchema.Kind
        /// What the change did, read as the entry is replayed (swapped when inverted).
        let kind: UndoLogSchema.Kind
        /// How many log rows it has (a part guessed from the first row: the entry's span).
        let count: Int
        let lastSeq: Int64
        /// The masks its log rows have, when already read.
        let masks: [Int64]?
        /// The lowest and highest rowid its rows have as the entry left them (nil when not
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
        db: Database, entry: Int64, inverted: Bool, tables: [Int64: TrackedTable],
        foreignKeys: ForeignKeys, skippingTriggers: SkippingTriggers,
        rowsWorthSuspendingCapture: Int = Self.defaultRowsWorthSuspendingCapture
    ) {
        self.db = db
        self.skippingTriggers = skippingTriggers
        self.inverted = inverted
        self.tables = tables
        self.foreignKeys = foreignKeys
        log = UndoLogSchema.EntryLog(db: db, entry: entry, inverted: inverted)
        self.rowsWorthSuspendingCapture = rowsWorthSuspendingCapture
    }

    /// What a logged change does when the entry is replayed (swapped when inverted).
    func replayed(_ stored: UndoLogSchema.Kind) -> UndoLogSchema.Kind {
        !inverted ? stored : stored == .insert ? .delete : stored == .delete ? .insert : .update
    }

    /// The replay cannot be done this way: a row is no longer as the entry left it (the exact
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
    /// entry's inverse. The row-by-row replay, which restores a row in one statement, does it
    /// then.
    func expectChanged(_ count: Int, rowsOf part: Part, since before: [String: Int])
        throws
    {
        for (table, changed) in changedRows() {
            let expected = table == part.table.name ? count : 0
            guard changed - (before[table] ?? 0) == expected else { throw NotExact() }
        }
    }

    /// Reverts the entry; returns false (having changed nothing) when its shape needs the
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
        return try log.hasRows(ofKind: inverted ? .delete : .insert, inTables: ids)
    }

    private mutating func noteAffected(_ part: Part) throws {
        let rowids = try log.rowsNamed(inTable: part.table.id)
        affectedRows[part.table.name, default: []].formUnion(rowids)
    }

    /// The tables of the entry, last touched first, when every one has the simple shape.
    /// `checkingRowsOnce` also requires each row to be logged once per table (an update: once
    /// per column, as an UPDATE of several columns logs it), which the exact replay needs not
    /// check (it counts the rows it restores).
    func simpleParts(checkingRowsOnce: Bool) throws -> [Part]? {
        var parts: [Part] = []
        var seen: Set<Int64> = []
        for group in try log.groups(countingDistinctRows: checkingRowsOnce) {
            let count = group.count
            let (lowest, highest) = (group.lowestMask, group.highestMask)
            guard let table = tables[group.tableID], seen.insert(group.tableID).inserted,
                let stored = group.stored, group.moves == 0
            else { return nil }
            var masks = lowest == highest ? [lowest] : nil
            if count != group.distinctRows {
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
                    lastSeq: group.lastSeq, masks: masks, rowids: group.rowids))
        }
        // Replayed last change first; read inverted, the log's order is reversed too.
        return childrenFirst(
            parts.sorted { inverted ? $0.lastSeq < $1.lastSeq : $0.lastSeq > $1.lastSeq })
    }

    /// Whether a trigger of the table may skip a row of the part's statements (`kind`; an
    /// update setting the columns of `mask`), which a set-wide statement could not tell: the
    /// row-by-row replay then does the entry (`SkippingTriggers`).
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

    /// The masks of the entry's updates of `table` (`rows` log rows) when they change each
    /// column of a row once, nil otherwise: an UPDATE setting several columns logs a row per
    /// column, so a row may appear once per mask, when the masks have no column in common.
    private func masksLoggingEachColumnOnce(_ table: TrackedTable, rows: Int) throws -> [Int64]? {
        let masks = try log.masks(of: table, .update)
        let columns = masks.reduce(0) { $0 + $1.nonzeroBitCount }
        guard masks.reduce(0, |).nonzeroBitCount == columns else { return nil }
        return try log.distinctUpdatedRowsAndMasks(of: table) == rows ? masks : nil
    }

    // MARK: Updates

    /// The part's masks: each one its log rows have.
    func masks(_ part: Part) throws -> [Int64] {
        try part.masks ?? log.masks(of: part.table, part.stored)
    }

    /// Restores the columns each logged update changed where they still hold what the entry
    /// left; reports and keeps the others' changes.
    private mutating func restoreUpdated(_ part: Part) throws {
        for mask in try masks(part) {
            conflicts += try log.updateConflicts(of: part.table, part.stored, mask: mask)
            let changedBefore = changedRows()
            try log.restoreUpdated(of: part.table, part.stored, mask: mask)
            try expectChanged(db.changesCount, rowsOf: part, since: changedBefore)
        }
    }

    // MARK: Deletes and inserts

    /// Rows the entry deleted come back, unless someone re-created their rowid; returns the
    /// rows that came back. `reporting` reports the re-created ones.
    @discardableResult
    mutating func restoreDeleted(_ part: Part, reporting: Bool) throws -> [Int64] {
        if reporting {
            for rowid in try log.recreatedRows(of: part.table, part.stored) {
                conflicts.append(
                    UndoConflict(table: part.table.name, rowid: rowid, column: nil, kept: nil))
            }
        }
        return try log.restoreDeleted(of: part.table, part.stored)
    }

    /// Rows the entry inserted go, unless someone changed them since.
    private mutating func removeInserted(_ part: Part) throws {
        for rowid in try log.changedInsertedRows(of: part.table, part.stored) {
            conflicts.append(
                UndoConflict(table: part.table.name, rowid: rowid, column: nil, kept: nil))
        }
        try log.removeUnchangedInserted(of: part.table, part.stored)
    }
}
