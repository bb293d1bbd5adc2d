import SQLiteDatabase

/// Reads of the log for the stacks' histories, take-backs and progress, and the ids of tracked
/// tables: typed answers, so that the code that asks names none of the log's tables.
extension UndoLogSchema {
    /// The id the log knows the tracked table `name` by, given the first time it is asked for
    /// and kept for good (its rows in the log carry it).
    static func tableID(named name: String, _ db: Database) throws -> Int64 {
        try db.execute("INSERT OR IGNORE INTO \(tables)(name) VALUES (?)", [.text(name)])
        return try db.fetchOne(
            Int64.self, "SELECT id FROM \(tables) WHERE name = ?", [.text(name)]) ?? 0
    }

    /// The rows a filed entry's log wrote, each once: its table's id and the row's rowid (after
    /// the write, or before it for a delete).
    static func rowsWritten(byEntry entry: Int64, _ db: Database) throws
        -> [(table: Int64, rowid: Int64)]
    {
        try db.fetchAll(
            Row.self,
            """
            SELECT DISTINCT tableId, coalesce(newRowid, oldRowid)
            FROM \(log) WHERE \(filedRows())
            """, [.integer(entry)]
        ).compactMap { row in
            guard let rowid = try row.decode(at: 1, as: Int64?.self) else { return nil }
            return (try row.decode(at: 0), rowid)
        }
    }

    /// How many log rows a filed entry has: the rows its replay goes through.
    static func logRowCount(ofEntry entry: Int64, _ db: Database) throws -> Int {
        try db.fetchOne(
            Int.self, "SELECT count(*) FROM \(log) WHERE \(filedRows())", [.integer(entry)]) ?? 0
    }

    /// Whether `barrier` has log rows from `seq` on (written in the open transaction since its
    /// log started there): as `file` decides whether there is a step to file.
    static func hasLog(of barrier: Int64, from seq: Int64, _ db: Database) throws -> Bool {
        try db.fetchOne(
            Bool.self, "SELECT EXISTS (SELECT 1 FROM \(log) WHERE \(rows(of: "?1", from: "?2")))",
            [.integer(barrier), .integer(seq)]) == true
    }

    /// Every entry still in a stack's lists (not superseded) whose log touched the row `rowid`
    /// of `table`, with its stack and the list it is on.
    static func entries(touching table: Int64, rowid: Int64, _ db: Database) throws
        -> [(entry: StackEntry, stackID: String, list: List)]
    {
        try db.fetchAll(
            Row.self,
            """
            SELECT id, list, name, coalescingKey, position, closedAt, inverted, step, stepAt,
                stackId, parentStep, takesBack
            FROM \(barriers)
            WHERE supersededBy IS NULL AND id IN (
                SELECT barrier FROM \(log)
                WHERE tableId = ?1 AND (newRowid = ?2 OR oldRowid = ?2))
            """, [.integer(table), .integer(rowid)]
        ).map { row in
            let entry = StackEntry(
                id: try row.decode(at: 0), name: try row.decode(at: 2),
                coalescingKey: try row.decode(at: 3), position: try row.decode(at: 4),
                closedAt: try row.decode(at: 5), inverted: try row.decode(at: 6),
                step: try row.decode(at: 7), stepAt: try row.decode(at: 8),
                parent: try row.decode(at: 10), takesBack: try row.decode(at: 11))
            return (entry, try row.decode(at: 9), List(rawValue: try row.decode(at: 1)) ?? .undo)
        }
    }
}
