import SQLiteDatabase

/// Reverts net changes on a connection, restoring only what is still the barrier's: a value
/// someone else changed since is kept and reported as a conflict. So is a reference to a row
/// that is gone (`keeping`), and a row the barrier inserted that others still reference.
struct Replayer {
    let db: Database
    let tables: [Int64: TrackedTable]
    let foreignKeys: ForeignKeys
    /// Columns to leave as they are: restoring them would reference a row that is gone.
    let keeping: Set<KeptColumn>
    private(set) var affectedRows: [String: Set<Int64>] = [:]
    private(set) var conflicts: [UndoConflict] = []
    /// Set for the last round: a row still referenced then is kept instead of waiting.
    private var keepsReferencedRows = false

    init(
        db: Database, tables: [Int64: TrackedTable], foreignKeys: ForeignKeys,
        keeping: Set<KeptColumn> = []
    ) {
        self.db = db
        self.tables = tables
        self.foreignKeys = foreignKeys
        self.keeping = keeping
    }

    /// A row to delete that another row still references, maybe only until a later change of
    /// the same replay moves that reference.
    private struct StillReferenced: Error {}

    /// Reverts the changes in the given order. A change that breaks a unique constraint only
    /// because another change is not reverted yet (two rows swapping a unique value), or that
    /// would delete a row another change still has to stop referencing, is tried again after the
    /// others, until a round makes no progress; then rows still referenced are kept.
    mutating func revertAll(_ changes: [NetChange]) throws {
        var remaining = changes
        while !remaining.isEmpty {
            var failed: [NetChange] = []
            var lastError: (any Error)?
            for change in remaining {
                let saved = (affectedRows, conflicts)
                do {
                    try revert(change)
                } catch let error as SQLiteError where error.code.primary == .constraint {
                    (affectedRows, conflicts) = saved
                    failed.append(change)
                    lastError = error
                } catch is StillReferenced {
                    (affectedRows, conflicts) = saved
                    failed.append(change)
                }
            }
            if failed.count == remaining.count {
                if keepsReferencedRows, let lastError { throw lastError }
                keepsReferencedRows = true
            }
            remaining = failed
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

    private mutating func removeInserted(_ change: NetChange, _ table: TrackedTable) throws {
        guard let rowid = change.currentRowid, let current = try row(rowid, of: table) else {
            return  // already gone
        }
        let changedSince = table.columns.contains { column in
            change.after[column.slot].map { $0 != current[column.slot] } ?? false
        }
        touch(table, rowid)
        if changedSince {
            conflicts.append(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            return
        }
        if try foreignKeys.isReferenced(table.name, rowid: rowid, db) {
            guard keepsReferencedRows else { throw StillReferenced() }
            conflicts.append(
                UndoConflict(
                    table: table.name, rowid: rowid, column: nil, kept: nil, reason: .foreignKey))
            return
        }
        try db.executeReplay("DELETE FROM \(table.sqlName) WHERE rowid = ?", [.integer(rowid)])
    }

    private mutating func restoreDeleted(_ change: NetChange, _ table: TrackedTable) throws {
        guard let rowid = change.originalRowid else { return }
        touch(table, rowid)
        if let current = try row(rowid, of: table) {
            // Already back as it was (a cascade restored it) is no conflict; anything else is.
            if table.columns.contains(where: { current[$0.slot] != change.before[$0.slot]?.value })
            {
                conflicts.append(
                    UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            }
            return
        }
        if table.columns.contains(where: { isKept(table, rowid, $0) }) {
            // It would reference a row that is gone.
            conflicts.append(
                UndoConflict(
                    table: table.name, rowid: rowid, column: nil, kept: nil, reason: .foreignKey))
            return
        }
        let columns = table.columns.filter { change.before[$0.slot] != nil }
        var names = columns.map(\.name.quotedIdentifier)
        var values = columns.compactMap { change.before[$0.slot]?.sql }
        if table.rowidAlias == nil {
            names.append("rowid")
            values.append("\(rowid)")
        }
        try db.executeReplay(
            "INSERT INTO \(table.sqlName)(\(names.joined(separator: ", "))) "
                + "VALUES (\(values.joined(separator: ", ")))", [])
    }

    private mutating func restoreUpdated(_ change: NetChange, _ table: TrackedTable) throws {
        guard let rowid = change.currentRowid, let original = change.originalRowid else { return }
        guard let current = try row(rowid, of: table) else {
            touch(table, rowid)
            conflicts.append(UndoConflict(table: table.name, rowid: rowid, column: nil, kept: nil))
            return
        }
        // Values are read from the log cells they came from (exact bytes).
        var assignments: [(column: String, sql: String)] = []
        var restoredRowid = rowid
        for column in table.columns {
            guard let left = change.after[column.slot], let logged = change.before[column.slot]
            else { continue }
            let before = logged.value
            let kept = current[column.slot] ?? .null
            if kept == before { continue }  // already restored (by a cascade, or by someone)
            let movesRow = column.name == table.rowidAlias && before != kept
            let blocked = movesRow ? !(try isFree(before, in: table)) : false
            if kept != left || blocked {
                conflicts.append(
                    UndoConflict(table: table.name, rowid: rowid, column: column.name, kept: kept))
                continue
            }
            if isKept(table, rowid, column) || isKept(table, original, column) {
                conflicts.append(
                    UndoConflict(
                        table: table.name, rowid: rowid, column: column.name, kept: kept,
                        reason: .foreignKey))
                continue
            }
            assignments.append((column.name.quotedIdentifier, logged.sql))
            if movesRow, case .integer(let target) = before { restoredRowid = target }
        }
        if table.rowidAlias == nil, original != rowid {
            if try isFree(.integer(original), in: table) {
                assignments.append(("rowid", "\(original)"))
                restoredRowid = original
            } else {
                conflicts.append(
                    UndoConflict(
                        table: table.name, rowid: rowid, column: "rowid", kept: .integer(rowid)))
            }
        }
        touch(table, restoredRowid)
        guard !assignments.isEmpty else { return }
        let set = assignments.map { "\($0.column) = \($0.sql)" }.joined(separator: ", ")
        try db.executeReplay(
            "UPDATE \(table.sqlName) SET \(set) WHERE rowid = ?", [.integer(rowid)])
    }

    private func isKept(_ table: TrackedTable, _ rowid: Int64, _ column: TrackedTable.Column)
        -> Bool
    {
        !keeping.isEmpty
            && keeping.contains(KeptColumn(table: table.name, rowid: rowid, column: column.name))
    }

    private mutating func touch(_ table: TrackedTable, _ rowid: Int64) {
        affectedRows[table.name, default: []].insert(rowid)
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

extension Database {
    /// Runs one statement of a replay (logged when the `UndoDiagnostics` trait is on).
    func executeReplay(_ sql: String, _ arguments: [SQLiteValue]) throws {
        #if UndoDiagnostics
            UndoDiagnostics.log(sql, arguments)
        #endif
        try execute(sql, arguments)
    }

    /// `executeReplay` of a statement that returns the rowids it wrote (`RETURNING rowid`).
    func fetchReplay(_ sql: String, _ arguments: [SQLiteValue]) throws -> [Int64] {
        #if UndoDiagnostics
            UndoDiagnostics.log(sql, arguments)
        #endif
        return try fetchAll(Int64.self, sql, arguments)
    }
}
