import SQLiteDatabase

/// The replay's reads and writes of rows that the key map names (their number changes with
/// their key), and of the rows holding a unique value.
extension Replayer {
    /// Sets `set` (SQL assignments, their `?` bound to `values`) on the row at `at`; returns where the row is then (the
    /// number of its new key when `returningNumber`, for a table the key map names), or nil when
    /// an application's trigger skipped the row (`RAISE(IGNORE)`).
    mutating func update(
        _ table: TrackedTable, set: String, binding values: [SQLiteValue] = [], at: Int64,
        returningNumber: Bool
    ) throws -> Int64? {
        let sql = "UPDATE \(table.sqlName) SET \(set) WHERE \(table.rowMatch())"
        guard returningNumber, let keyMap = table.keyMap else {
            return try write(sql, values + [.integer(at)]) ? at : nil
        }
        let names = keyMap.columns.map(\.name.quotedIdentifier).joined(separator: ", ")
        let keys = try checkingReferences {
            try db.fetchReplayRows(sql + " RETURNING \(names)", values + [.integer(at)])
        }
        record.noteWrites(keys.count)
        guard let key = keys.first else { return nil }
        return try keyMap.number(of: keyMap.columns.indices.map { key[$0] }, db)
    }

    /// The row other than the one at `rowid` that holds `value` in `column`, by what the log
    /// names it, with the value it holds there: `value` as the column compares it (in another
    /// case, under `COLLATE NOCASE`).
    func holder(
        of value: SQLiteValue, in column: TrackedTable.Column, of table: TrackedTable,
        besides rowid: Int64
    ) throws -> (id: Int64, value: SQLiteValue)? {
        let name = column.name.quotedIdentifier
        let other = "\(name) = ? AND NOT (\(table.rowMatch()))"
        let at: [SQLiteValue] = [value, .integer(now(rowid, of: table))]
        guard let keyMap = table.keyMap else {
            let held = try db.fetchOne(
                Row.self, "SELECT rowid, \(name) FROM \(table.sqlName) WHERE \(other) LIMIT 1", at)
            return try held.map { (try $0.decode(at: 0), $0[1]) }
        }
        let names = keyMap.columns.map(\.name.quotedIdentifier).joined(separator: ", ")
        guard
            let held = try db.fetchOne(
                Row.self, "SELECT \(name), \(names) FROM \(table.sqlName) WHERE \(other) LIMIT 1",
                at)
        else { return nil }
        let key = keyMap.columns.indices.map { held[$0 + 1] }
        return try keyMap.number(of: key, db).map { ($0, held[0]) }
    }

    /// Whether a row the key map names, which the change moves back to another key, is there
    /// already, as it was, and gone from where it was: an `ON UPDATE CASCADE` from a parent key
    /// this replay restored carried it back (its key holds the parent's key).
    func isMovedBackByACascade(_ change: NetChange, _ table: TrackedTable) throws -> Bool {
        guard table.keyMap != nil, let rowid = change.currentRowid,
            let original = change.originalRowid, original != rowid,
            !change.before.values.contains(where: \.packed),
            let there = try row(original, of: table)
        else { return false }
        let isAsItWas = change.before.allSatisfy { slot, logged in there[slot] == logged.value }
        return try isAsItWas && row(now(rowid, of: table), of: table) == nil
    }
}
