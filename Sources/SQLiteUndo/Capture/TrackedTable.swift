import SQLiteDatabase

/// A table the engine records: its columns as they are now, each with its log slot, and the
/// capture triggers built from them.
struct TrackedTable: Sendable {
    struct Column: Sendable {
        let name: String
        let slot: Int
        /// The type the column was declared with, as written.
        let declaredType: String
        /// Declared without a type (or as BLOB): the one affinity under which two values can
        /// compare equal yet differ in storage class (1 and 1.0). Any other affinity converts a
        /// value before it is stored (and before a BEFORE trigger sees it as NEW), so equal
        /// values there are identical.
        var isTypeless: Bool { Self.isTypeless(declaredType: declaredType) }

        /// The column as `ColumnRenames` compares it.
        var described: ColumnRenames.Described {
            ColumnRenames.Described(name: name, declaredType: declaredType)
        }

        /// Whether SQLite gives a column declared as `type` no affinity (the rules of
        /// "Determination Of Column Affinity": the INTEGER and TEXT rules come first), or stores
        /// its values as they are (`ANY` in a STRICT table; counted typeless in any table, which
        /// only costs a comparison).
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
    /// The column that is an alias of the rowid (`INTEGER PRIMARY KEY`), whose value names the
    /// row in the log; nil for a table keyed otherwise, whose rows the key map names.
    let rowidAlias: String?
    /// How the log names the rows of a table without a rowid alias: a number per key value.
    let keyMap: UndoLogSchema.KeyMap?
    /// Whether the table has a rowid (it is not `WITHOUT ROWID`), named or not.
    let hasRowid: Bool
    /// The column lists of the table's unique indexes (not partial, no expressions): the keys on
    /// which `OR REPLACE` may delete another row.
    let uniqueKeys: [[String]]
    /// Whether the table has a unique index of any kind (partial, on expressions, with a
    /// collation): an update may then replace other rows.
    let hasUniqueIndex: Bool
    /// Whether every unique index is one of `uniqueKeys` on stored columns (none partial, on
    /// expressions or on a generated column): an update then replaces rows only when it sets
    /// one of their columns (or the rowid), and any other update need not watch for it.
    let replacesOnlyThroughKeys: Bool

    /// Prefix of the engine's own tables, which it never tracks.
    static let reservedPrefix = "sqliteundo_"

    /// Reads the table's real columns and gives each a slot (`ColumnSlots`): a column renamed since
    /// `previous` (the tables as the engine knew them) keeps its slot. `name` matches the table's
    /// name case-insensitively, as in SQL.
    /// - Throws: `UndoError` for one of the engine's own tables, a missing table, a table without
    ///   a primary key, a column named like the rowid beside an `INTEGER PRIMARY KEY`, or too
    ///   many columns.
    static func load(
        name given: String, previous: [Int64: TrackedTable] = [:], _ db: Database
    ) throws -> TrackedTable {
        guard !given.lowercased().hasPrefix(reservedPrefix) else {
            throw UndoError.engineTable(given)
        }
        let info = try db.fetchOne(
            Row.self,
            "SELECT name, type, wr FROM pragma_table_list "
                + "WHERE schema = 'main' AND name = ? COLLATE NOCASE",
            [.text(given)])
        guard let info, try info.decode("type", as: String.self) == "table" else {
            throw UndoError.unknownTable(given)
        }
        let name: String = try info.decode("name")
        let hasRowid = try info.decode("wr", as: Int.self) == 0
        let alias = hasRowid ? try rowidAlias(of: name, db) : nil
        let keyColumns = alias == nil ? try UndoLogSchema.KeyMap.keyColumns(of: name, db) : []
        guard alias != nil || !keyColumns.isEmpty else { throw UndoError.noPrimaryKey(name) }

        let id = try UndoLogSchema.tableID(named: name, db)

        let described = try db.fetchAll(
            Row.self, "SELECT name, type, hidden FROM pragma_table_xinfo(?)", [.text(name)])
        let stored = try described.filter { (try? $0.decode("hidden", as: Int.self)) == 0 }.map {
            ColumnRenames.Described(
                name: try $0.decode("name"), declaredType: try $0.decode("type"))
        }
        let rowidNames: Set<String> = ["rowid", "oid", "_rowid_"]
        if let alias,
            stored.contains(where: { rowidNames.contains($0.name.lowercased()) && $0.name != alias }
            )
        {
            throw UndoError.columnHidesRowid(name)
        }
        let slots = try UndoLogSchema.ColumnSlots.assign(
            table: name, id: id, columns: stored,
            previous: previous[id]?.columns.map(\.described), db)
        let columns = zip(stored, slots).map { column, slot in
            Column(name: column.name, slot: slot, declaredType: column.declaredType)
        }
        let keyMap = alias == nil ? UndoLogSchema.KeyMap(tableId: id, columns: keyColumns) : nil
        try keyMap?.prepare(db)
        let keys = try uniqueKeys(of: name, db)
        let uniqueIndexes =
            try db.fetchOne(
                Int.self, "SELECT count(*) FROM pragma_index_list(?) WHERE \"unique\" = 1",
                [.text(name)]) ?? 0
        let storedNames = Set(stored.map(\.name))
        return TrackedTable(
            id: id, name: name, columns: columns, rowidAlias: alias, keyMap: keyMap,
            hasRowid: hasRowid,
            uniqueKeys: keys, hasUniqueIndex: uniqueIndexes > 0,
            replacesOnlyThroughKeys: uniqueIndexes == keys.count
                && keys.joined().allSatisfy(storedNames.contains))
    }

    /// The column aliasing the table's rowid, or nil: only a primary key of one column declared
    /// exactly `INTEGER` is one, and not when SQLite gave the key an index of its own (`INTEGER
    /// PRIMARY KEY DESC` as a column constraint, a documented quirk).
    private static func rowidAlias(of table: String, _ db: Database) throws -> String? {
        let keys = try db.fetchAll(
            Row.self, "SELECT name, type FROM pragma_table_info(?) WHERE pk > 0", [.text(table)])
        guard keys.count == 1, try keys[0].decode("type", as: String.self).uppercased() == "INTEGER"
        else { return nil }
        let keyIndexes = try db.fetchOne(
            Int.self, "SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'",
            [.text(table)])
        guard keyIndexes == 0 else { return nil }
        return try keys[0].decode("name", as: String.self)
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

    /// SQL true for the row (qualified by `row` when given) the log names by the number
    /// `parameter`: its rowid, or the number of its key (`KeyMap`).
    func rowMatch(_ parameter: String = "?", row: String? = nil) -> String {
        guard let keyMap else { return "\(row.map { "\($0)." } ?? "")rowid = \(parameter)" }
        return keyMap.matchSQL(parameter, row: row)
    }

    /// SQL giving the number the log names the row `row` (`NEW`, `OLD`, a table alias) by.
    func rowidSQL(_ row: String) -> String {
        keyMap?.numberSQL(row) ?? "\(row).rowid"
    }

    /// Whether the column is part of what names a row: the rowid alias, or a column of the key.
    func namesRow(_ column: Column) -> Bool {
        guard let keyMap else { return column.name == rowidAlias }
        return keyMap.columns.contains { $0.name == column.name }
    }
}
