import SQLiteDatabase

extension UndoEngine {
    /// Rebuilds the packed rows of an entry about to be replayed (read `inverted` or not) from
    /// the values their cells hold now, where the rows are now (`FollowedRows`); returns the
    /// rows rebuilt, to pack again after the replay.
    /// A row whose value someone changed since stays packed: the replay keeps that value.
    func unpackForReplay(entry id: Int64, inverted: Bool, _ db: Database) throws -> [Int64] {
        let rows = try UndoLogSchema.packedRows(ofEntry: id, db)
        guard !rows.isEmpty else { return [] }
        let tables = trackedTables.withLock { $0 }
        // Rows another action moved since are read where they are (as the replay reads them).
        let followed = try FollowedRows(entry: id, tables: Array(tables.keys), db)
        var unpacked: [Int64] = []
        for row in rows {
            guard let table = tables[row.table],
                let column = table.columns.first(where: { $0.slot == row.slot }),
                let left = try UndoLogSchema.rowidNow(
                    of: row, inEntry: id, inverted: inverted, db)
            else { continue }
            let rowid = try followed.keysNow(ofTable: row.table, [left])[left] ?? left
            guard
                let current = try UndoLogSchema.currentValue(
                    of: table, rowid: rowid, slot: row.slot, db)
            else { continue }
            if try UndoLogSchema.unpack(
                row, against: current, isNew: !inverted,
                mergesText: mergesText(table: table.name, column: column.name), db)
            {
                unpacked.append(row.seq)
            }
        }
        return unpacked
    }
}
