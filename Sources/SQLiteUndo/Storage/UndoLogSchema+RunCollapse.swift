import SQLiteDatabase

/// A typing run, however long, keeps one log row per cell it writes: the value before the run
/// and the value it left (packed once filed, see `PackedChange`), instead of two whole values
/// per key.
extension UndoLogSchema {
    /// An in-place update of one column by one log row.
    private struct CellWrite {
        let seq: Int64
        let table: Int64
        let rowid: Int64
        let slot: Int
    }

    /// The cells whose value before them the log rows of `barrier` at `first` or later hold
    /// (updates, key changes and deletes: each column in their mask), one per row and column.
    private static func cellsFound(by barrier: Int64, from first: Int64, _ db: Database) throws
        -> [CellWrite]
    {
        let rows = try db.fetchAll(
            Row.self,
            """
            SELECT seq, tableId, oldRowid, mask FROM \(log)
            WHERE \(rows(of: "?2", from: "?1")) AND kind != \(Kind.insert.rawValue)
            """, [.integer(first), .integer(barrier)])
        return try rows.flatMap { row in
            let mask: Int64 = try row.decode(at: 3)
            let (seq, table, rowid): (Int64, Int64, Int64) = (
                try row.decode(at: 0), try row.decode(at: 1), try row.decode(at: 2)
            )
            return (0..<ColumnSlots.limit).filter { mask & Int64(1) << Int64($0) != 0 }.map {
                CellWrite(seq: seq, table: table, rowid: rowid, slot: $0)
            }
        }
    }

    /// The in-place updates of one column among the log rows of `barrier` at `first` or later.
    private static func cellWrites(of barrier: Int64, from first: Int64, _ db: Database) throws
        -> [CellWrite]
    {
        let rows = try db.fetchAll(
            Row.self,
            """
            SELECT seq, tableId, oldRowid, mask FROM \(log)
            WHERE \(rows(of: "?2", from: "?1")) AND kind = \(Kind.update.rawValue)
                AND oldRowid = newRowid AND mask & (mask - 1) = 0
            """, [.integer(first), .integer(barrier)])
        return try rows.compactMap { row in
            let mask: Int64 = try row.decode(at: 3)
            guard let slot = singleSlot(of: mask)
            else { return nil }
            return CellWrite(
                seq: try row.decode(at: 0), table: try row.decode(at: 1),
                rowid: try row.decode(at: 2), slot: slot)
        }
    }

    /// The entry's latest log row before `before` that writes the cell or moves its row: its
    /// `seq`, whether it is an in-place update of that column alone, and whether it is packed.
    private static func latestWrite(
        ofEntry id: Int64, _ cell: CellWrite, before: Int64, _ db: Database
    ) throws -> (seq: Int64, alone: Bool, packed: Bool)? {
        let bit = Int64(1) << Int64(cell.slot)
        let row = try db.fetchOne(
            Row.self,
            """
            SELECT seq, kind = \(Kind.update.rawValue) AND oldRowid = newRowid AND mask = ?4,
                splice IS NOT NULL
            FROM \(log) WHERE \(filedRows()) AND seq < ?5 AND tableId = ?2
                AND ?3 IN (oldRowid, newRowid)
                AND (mask & ?4 != 0 OR kind != \(Kind.update.rawValue) OR oldRowid IS NOT newRowid)
            ORDER BY seq DESC LIMIT 1
            """,
            [
                .integer(id), .integer(cell.table), .integer(cell.rowid), .integer(bit),
                .integer(before),
            ])
        guard let row else { return nil }
        return (try row.decode(at: 0), try row.decode(at: 1), try row.decode(at: 2))
    }

    /// Before the log rows of `barrier` from `first` join the entry `top` (a key merged into a
    /// run, or a later transaction of the same block): rebuilds the entry's packed last writes
    /// of the cells those rows update, move or delete, from the values the rows found there (for
    /// a text taken into runs, `mergingText`, also where someone changed it elsewhere since), so
    /// that the entry's writes of a cell read whole, one after the other. Returns the rows
    /// rebuilt (to pack again if the barrier does not merge), or nil when one cannot be: someone
    /// changed that cell since (a run is cut there; a replay keeps the cell, `LoggedValue.packed`).
    static func unpackRun(
        of top: Int64, under barrier: Int64, from first: Int64,
        mergingText: (_ table: Int64, _ slot: Int) -> Bool, _ db: Database
    ) throws -> [Int64]? {
        var unpacked: [Int64] = []
        for cell in try cellsFound(by: barrier, from: first, db) {
            guard let latest = try latestWrite(ofEntry: top, cell, before: cell.seq, db),
                latest.packed,
                let row = try packedRows(where: "seq = ?", [.integer(latest.seq)], db).first
            else { continue }
            let found = try db.fetchOne(
                Row.self,
                "SELECT typeof(o\(cell.slot)), CAST(o\(cell.slot) AS BLOB) FROM \(log) WHERE seq = ?",
                [.integer(cell.seq)])
            guard let found, let value = try packable(found, at: 0),
                try unpack(
                    row, against: value, isNew: true,
                    mergesText: mergingText(cell.table, cell.slot), db)
            else {
                try pack(entry: top, seqs: unpacked, db)
                return nil
            }
            unpacked.append(row.seq)
        }
        return unpacked
    }

    /// After a barrier's log rows (at `first` or later) merged into the run `top`: each in-place
    /// update of a cell the run last wrote in place, with the value the run left, takes the
    /// run's value before into its own row, and the run's older row goes. Returns the rows that
    /// took in an older one.
    static func collapseRun(_ top: Int64, from first: Int64, _ db: Database) throws -> [Int64] {
        var collapsed: [Int64] = []
        for cell in try cellWrites(of: top, from: first, db) {
            guard let latest = try latestWrite(ofEntry: top, cell, before: cell.seq, db),
                latest.alone, !latest.packed
            else { continue }
            let old = "o\(cell.slot)"
            let continues = try db.fetchOne(
                Int.self,
                """
                SELECT \(same("l.n\(cell.slot)", "nw.\(old)"))
                FROM \(log) l, \(log) nw WHERE l.seq = ? AND nw.seq = ?
                """, [.integer(latest.seq), .integer(cell.seq)])
            guard continues == 1 else { continue }
            try db.execute(
                """
                UPDATE \(log) SET \(old) = (SELECT \(old) FROM \(log) WHERE seq = ?1) WHERE seq = ?2
                """, [.integer(latest.seq), .integer(cell.seq)])
            try db.execute("DELETE FROM \(log) WHERE seq = ?", [.integer(latest.seq)])
            collapsed.append(cell.seq)
        }
        return collapsed
    }
}
