import SQLiteDatabase

extension UndoLogSchema {
    /// The log slots of a tracked table's columns, kept in `sqliteundo_columns` by column name.
    ///
    /// A column keeps its slot while it exists, through renames (`ColumnRenames`), so its older
    /// history undoes into it. A dropped column's history is taken out of the log (its bits of the
    /// masks, its values, the log rows that held nothing else, and the actions left changing
    /// nothing), so the history restores nothing
    /// for it, and its slot is free: a new column gets the lowest free slot.
    enum ColumnSlots {
        /// Slots a table can have: the log's mask is a 64-bit integer, kept positive.
        static let limit = 62

        /// The slots of `columns` (the table's columns now, in order), recording renames found
        /// against `previous` (the columns this engine knew; when it knew none, the columns the
        /// file records, so that a rename made while no engine ran is recognised too), forgetting
        /// dropped columns and giving new columns slots; records the columns' places and types.
        /// - Throws: `UndoError.tooManyColumns` when a new column finds no free slot.
        static func assign(
            table: String, id: Int64, columns: [ColumnRenames.Described],
            previous: [ColumnRenames.Described]?, _ db: Database
        ) throws -> [Int] {
            if let previous = try previous ?? recorded(ofTable: id, db) {
                for (new, old) in ColumnRenames.detect(before: previous, after: columns) {
                    try db.execute(
                        "UPDATE \(UndoLogSchema.columns) SET name = ?3 WHERE tableId = ?1 AND name = ?2",
                        [.integer(id), .text(old), .text(new)])
                }
            }
            let rows = try db.fetchAll(
                Row.self, "SELECT name, slot FROM \(UndoLogSchema.columns) WHERE tableId = ?",
                [.integer(id)])
            let names = Set(columns.map(\.name))
            var known: [String: Int] = [:]
            var forgot = false
            for row in rows {
                let name: String = try row.decode("name")
                let slot: Int = try row.decode("slot")
                if names.contains(name) {
                    known[name] = slot
                } else {
                    try forget(slot: slot, of: id, db)
                    forgot = true
                }
            }
            // An action that changed only dropped columns, or whose other writes cancelled out (an
            // application trigger's write that a replay set back), has nothing left to undo.
            if forgot { try UndoLogSchema.deleteEntriesThatChangeNothing(db) }
            var taken = Set(known.values)
            var slots: [Int] = []
            for column in columns {
                if let slot = known[column.name] {
                    slots.append(slot)
                    continue
                }
                guard let slot = (0..<limit).first(where: { !taken.contains($0) }) else {
                    throw UndoError.tooManyColumns(table)
                }
                try db.execute(
                    "INSERT INTO \(UndoLogSchema.columns)(tableId, name, slot) VALUES (?, ?, ?)",
                    [.integer(id), .text(column.name), .integer(Int64(slot))])
                taken.insert(slot)
                slots.append(slot)
            }
            // Only what moved is written: an engine starting on a file it knows changes no row, so
            // its first commit need not wait for anything (a check of the file holds commits that
            // change rows, and an UPDATE counts the rows it matches, changed or not).
            for (position, column) in columns.enumerated() {
                try db.execute(
                    """
                    UPDATE \(UndoLogSchema.columns) SET position = ?3, declaredType = ?4
                    WHERE tableId = ?1 AND name = ?2 AND (position IS NOT ?3 OR declaredType IS NOT ?4)
                    """,
                    [
                        .integer(id), .text(column.name), .integer(Int64(position)),
                        .text(column.declaredType),
                    ])
            }
            return slots
        }

        /// The table's columns as the file records them, in order, or nil when it does not record
        /// them all (a file from before the log kept columns' places, or a table never tracked).
        private static func recorded(ofTable id: Int64, _ db: Database) throws
            -> [ColumnRenames.Described]?
        {
            let rows = try db.fetchAll(
                Row.self,
                """
                SELECT name, declaredType FROM \(UndoLogSchema.columns) WHERE tableId = ?
                ORDER BY position
                """, [.integer(id)])
            guard !rows.isEmpty,
                try rows.allSatisfy({ try $0.decode(at: 1, as: String?.self) != nil })
            else { return nil }
            return try rows.map {
                ColumnRenames.Described(
                    name: try $0.decode(at: 0), declaredType: try $0.decode(at: 1))
            }
        }

        /// Takes a dropped column's slot out of the table's log and records: once per drop, it
        /// reads the log once.
        private static func forget(slot: Int, of table: Int64, _ db: Database) throws {
            let log = UndoLogSchema.log
            try db.execute(
                """
                UPDATE \(log) SET mask = mask & ~?2, o\(slot) = NULL, n\(slot) = NULL, splice = NULL
                WHERE tableId = ?1 AND mask & ?2 != 0
                """, [.integer(table), .integer(Int64(1) << Int64(slot))])
            // An update of that column alone now changes nothing.
            try UndoLogSchema.keepingHighestSeq(db) {
                try db.execute(
                    """
                    DELETE FROM \(log) WHERE tableId = ? AND kind = ? AND mask = 0
                        AND oldRowid IS newRowid
                    """, [.integer(table), .integer(UndoLogSchema.Kind.update.rawValue)])
            }
            try db.execute(
                "DELETE FROM \(UndoLogSchema.columns) WHERE tableId = ? AND slot = ?",
                [.integer(table), .integer(Int64(slot))])
        }
    }
}
