import SQLiteDatabase

/// A table the engine records: its columns as they are now, each with its log slot, and the
/// capture triggers built from them.
struct TrackedTable: Sendable {
    struct Column: Sendable {
        let name: String
        let slot: Int
        /// Declared without a type (or as BLOB): the one affinity under which two values can
        /// compare equal yet differ in storage class (1 and 1.0). Any other affinity converts a
        /// value before it is stored (and before a BEFORE trigger sees it as NEW), so equal
        /// values there are identical.
        let isTypeless: Bool

        /// Whether SQLite gives a column declared as `type` no affinity (the rules of "Determination
        /// Of Column Affinity": the INTEGER and TEXT rules come first), or stores its values as
        /// they are (`ANY` in a STRICT table; counted typeless in any table, which only costs a
        /// comparison).
        static func isTypeless(declaredType type: String) -> Bool {
            let type = type.uppercased()
            if type.contains("INT") || ["CHAR", "CLOB", "TEXT"].contains(where: type.contains) {
                return false
            }
            return type.isEmpty || type.contains("BLOB") || type == "ANY"
        }
    }

    let id: Int64
    let name: String
    let columns: [Column]
    /// The column that is an alias of the rowid (`INTEGER PRIMARY KEY`), if there is one.
    let rowidAlias: String?
    /// The column lists of the table's unique indexes (not partial, no expressions): the keys on
    /// which `OR REPLACE` may delete another row.
    let uniqueKeys: [[String]]

    /// Reads the table's real columns and gives each a slot (new columns get new slots).
    /// - Throws: `UndoError` for a missing table, a `WITHOUT ROWID` table, or too many columns.
    static func load(name: String, _ db: Database) throws -> TrackedTable {
        let info = try db.fetchOne(
            Row.self, "SELECT type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?",
            [.text(name)])
        guard let info, try info.decode("type", as: String.self) == "table" else {
            throw UndoError.unknownTable(name)
        }
        guard try info.decode("wr", as: Int.self) == 0 else { throw UndoError.withoutRowid(name) }

        try db.execute(
            "INSERT OR IGNORE INTO \(UndoLogSchema.tables)(name) VALUES (?)", [.text(name)])
        let id =
            try db.fetchOne(
                Int64.self, "SELECT id FROM \(UndoLogSchema.tables) WHERE name = ?", [.text(name)])
            ?? 0

        let described = try db.fetchAll(
            Row.self, "SELECT name, type, pk, hidden FROM pragma_table_xinfo(?)", [.text(name)])
        let stored = described.filter { (try? $0.decode("hidden", as: Int.self)) == 0 }
        var columns: [Column] = []
        for row in stored {
            let column: String = try row.decode("name")
            let type: String = try row.decode("type")
            try db.execute(
                """
                INSERT OR IGNORE INTO \(UndoLogSchema.columns)(tableId, name, slot)
                VALUES (?1, ?2, (SELECT coalesce(max(slot) + 1, 0) FROM \(UndoLogSchema.columns)
                                 WHERE tableId = ?1))
                """, [.integer(id), .text(column)])
            let slot =
                try db.fetchOne(
                    Int.self,
                    "SELECT slot FROM \(UndoLogSchema.columns) WHERE tableId = ? AND name = ?",
                    [.integer(id), .text(column)]) ?? 0
            guard slot < 62 else { throw UndoError.tooManyColumns(name) }
            columns.append(
                Column(name: column, slot: slot, isTypeless: Column.isTypeless(declaredType: type)))
        }
        let keys = stored.filter { (try? $0.decode("pk", as: Int.self)) ?? 0 > 0 }
        var alias: String?
        if keys.count == 1, (try keys[0].decode("type", as: String.self)).uppercased() == "INTEGER"
        {
            alias = try keys[0].decode("name", as: String.self)
        }
        return TrackedTable(
            id: id, name: name, columns: columns, rowidAlias: alias,
            uniqueKeys: try uniqueKeys(of: name, db))
    }

    private static func uniqueKeys(of table: String, _ db: Database) throws -> [[String]] {
        let indexes = try db.fetchAll(
            String.self,
            "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND partial = 0",
            [.text(table)])
        return try indexes.compactMap { index in
            let columns = try db.fetchAll(
                Row.self, "SELECT cid, name FROM pragma_index_info(?) ORDER BY seqno",
                [.text(index)])
            guard columns.allSatisfy({ (try? $0.decode("cid", as: Int.self)) ?? -1 >= 0 }) else {
                return nil  // an index on expressions
            }
            return try columns.map { try $0.decode("name", as: String.self) }
        }
    }

    var slotCount: Int { (columns.map(\.slot).max() ?? -1) + 1 }

    /// The bits of every slot this table has now.
    var fullMask: Int64 { columns.reduce(0) { $0 | 1 << Int64($1.slot) } }

    /// The table's qualified, quoted name for SQL.
    var sqlName: String { "main." + name.quotedIdentifier }
}
