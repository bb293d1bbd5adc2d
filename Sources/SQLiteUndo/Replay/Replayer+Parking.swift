import SQLiteDatabase

/// Rows in the way of a replay: a row holding a unique value or a rowid (or a key the key map
/// numbers) another row of the replay needs first is parked (moved to a free rowid, its unique
/// columns set to a placeholder) and goes back at the end where its own restores did not take
/// it.
extension Replayer {
    /// Whether the row at `rowid` is one this replay moves elsewhere or deletes (its rowid is
    /// taken only until then).
    func isMovedByThisReplay(_ rowid: SQLiteValue, in table: TrackedTable) -> Bool {
        guard case .integer(let rowid) = rowid else { return false }
        let key = RowKey(tableId: table.id, rowid: rowid)
        return leavingRows.contains(key) && moved[key] == nil && parkedColumns[key] == nil
    }

    /// Moves the row of a failed update out of the way of the others: to a free rowid when its
    /// change moves it, and with its unique columns that the change restores set to a value no
    /// other row has (unless that led nowhere before: `parkedByRowidOnly`). Returns false when
    /// the change has nothing to park or was parked already.
    mutating func park(_ change: NetChange) throws -> Bool {
        guard change.kind == .update, let table = tables[change.tableId],
            let rowid = change.currentRowid
        else { return false }
        let key = RowKey(tableId: table.id, rowid: rowid)
        guard parkedColumns[key] == nil, !unparkable.contains(key) else { return false }
        let unique = uniqueColumns(of: table)
        // Only what the change will restore: a column someone else changed since stays as it is.
        let current = try before(rowid, of: table) ?? [:]
        let restored = table.columns.filter { column in
            guard let left = change.after[column.slot],
                let before = change.before[column.slot]?.value
            else { return false }
            return current[column.slot] == left && left != before
        }
        let moves = restored.contains { $0.name == table.rowidAlias }
        let keys =
            parkedByRowidOnly.contains(key)
            ? [] : restored.filter { unique.contains($0.name.lowercased()) }
        // A key the key map names the row by moves it to the number of its placeholder.
        let movesKey = keys.contains { table.namesRow($0) }
        guard moves || !keys.isEmpty else { return false }
        // Where the row is now: an earlier column of its change may have moved it already.
        let at = now(rowid, of: table)
        var free = at
        if moves {
            let highest = try db.fetchOne(Int64.self, "SELECT max(rowid) FROM \(table.sqlName)")
            free = max(highest ?? rowid, highestTargets[table.id] ?? rowid) + 1
        }
        // A placeholder for the key columns: NULL where allowed (never in a key that names the
        // row), else a value no other row holds, of a type the column takes.
        let unheld = ["randomblob(16)", "hex(randomblob(16))", "random()"]
        let placeholders = keys.isEmpty ? ["NULL"] : movesKey ? unheld : ["NULL"] + unheld
        for placeholder in placeholders {
            var set = keys.map { "\($0.name.quotedIdentifier) = \(placeholder)" }
            if moves { set.append("rowid = \(free)") }
            do {
                let parkedAt = try update(
                    table, set: set.joined(separator: ", "), at: at, returningNumber: movesKey)
                if movesKey {
                    guard let parkedAt else { return false }
                    moved[key] = parkedAt
                } else {
                    moved[key] = free
                }
                parkedColumns[key] = Set(keys.map(\.slot))
                return true
            } catch let error as SQLiteError where error.code.primary == .constraint {
                continue
            }
        }
        return false
    }

    /// The columns of the table's unique keys, lowercased.
    func uniqueColumns(of table: TrackedTable) -> Set<String> {
        Set(table.uniqueKeys.joined().map { $0.lowercased() })
    }

    func aliasSlot(of table: TrackedTable) -> Int? {
        table.columns.first { $0.name == table.rowidAlias }?.slot
    }

    /// Puts back each parked row that its own restores did not: the unique columns it had set
    /// to a placeholder (to what they held when the replay began), and its rowid. Throws
    /// `ParkedRowStuck` when that breaks a rule: the replay gave its place or value to another
    /// row.
    mutating func unparkLeftovers() throws {
        for (key, placeholders) in parkedColumns {
            guard let table = tables[key.tableId], let at = moved[key] else { continue }
            let restored = restoredSlots[key] ?? []
            let values = try before(key.rowid, of: table) ?? [:]
            var set: [(String, SQLiteValue)] = table.columns.compactMap { column in
                guard placeholders.contains(column.slot), !restored.contains(column.slot)
                else { return nil }
                return (column.name.quotedIdentifier, values[column.slot] ?? .null)
            }
            var movesBack = aliasSlot(of: table).map { !restored.contains($0) } ?? false
            if table.keyMap != nil {
                movesBack = table.columns.contains { column in
                    table.namesRow(column) && set.contains { $0.0 == column.name.quotedIdentifier }
                }
            } else if movesBack, at != key.rowid {
                set.append(("rowid", .integer(key.rowid)))
            }
            guard !set.isEmpty else { continue }
            var back = key.rowid
            do {
                try db.savepoint {
                    // SQL writing the values kept in the log cells (bound, as they were read).
                    let assignments = set.map { "\($0.0) = ?" }.joined(separator: ", ")
                    if table.keyMap != nil, movesBack {
                        // Where the key puts it: its other key columns may be restored already.
                        back =
                            try update(
                                table, set: assignments, binding: set.map(\.1), at: at,
                                returningNumber: true) ?? key.rowid
                    } else {
                        try write(
                            "UPDATE \(table.sqlName) SET \(assignments) WHERE \(table.rowMatch())",
                            set.map(\.1) + [.integer(at)])
                    }
                }
            } catch let error as SQLiteError where error.code.primary == .constraint {
                throw ParkedRowStuck(row: key)
            }
            if movesBack {
                moved[key] = back
                record.moveIntendedColumns(
                    from: RowKey(tableId: table.id, rowid: at),
                    to: RowKey(tableId: table.id, rowid: back))
            }
        }
    }
}
