import SQLiteDatabase

/// The database's single-column foreign keys, which a replay must keep intact: undo never
/// restores a reference to a row that is gone, and never deletes a row that others still
/// reference (with `ON DELETE CASCADE` that would delete their rows too).
///
/// Keys over several columns are not checked here; SQLite still enforces them at commit.
struct ForeignKeys: Sendable {
    struct Key: Sendable {
        let child: String
        let column: String
        let parent: String
        /// The parent's referenced column (its primary key when the key names none).
        let parentColumn: String
    }

    let keys: [Key]
    /// Whether the schema has any foreign key, of one column or several.
    let exist: Bool
    /// The tracked tables the key map names the rows of, by lowercased name: their rows are
    /// found by the numbers of their keys, not by rowid.
    var keyedTables: [String: TrackedTable] = [:]

    /// Reads every foreign key of every table in the main schema.
    static func load(_ db: Database) throws -> ForeignKeys {
        let rows = try db.fetchAll(
            Row.self,
            """
            SELECT t.name AS child, f.id, f."from", f."table", f."to",
                (SELECT count(*) FROM pragma_foreign_key_list(t.name) g WHERE g.id = f.id) AS width,
                (SELECT group_concat(p.name) FROM pragma_table_info(f."table") p WHERE p.pk > 0)
                    AS primaryKey
            FROM pragma_table_list t, pragma_foreign_key_list(t.name) f
            WHERE t.schema = 'main' AND t.type = 'table'
            """)
        let keys = try rows.compactMap { row -> Key? in
            guard try row.decode("width", as: Int.self) == 1 else { return nil }
            let parentColumn =
                try row.decode("to", as: String?.self)
                ?? row.decode("primaryKey", as: String?.self) ?? "rowid"
            return Key(
                child: try row.decode("child"), column: try row.decode("from"),
                parent: try row.decode("table"), parentColumn: parentColumn)
        }
        return ForeignKeys(keys: keys, exist: !rows.isEmpty)
    }

    /// Whether `child` has a foreign key to `parent`.
    func references(_ child: String, _ parent: String) -> Bool {
        keys.contains { sameName($0.child, child) && sameName($0.parent, parent) }
    }

    /// Whether some row of `table` is referenced by a foreign key at all.
    func isParent(_ table: String) -> Bool {
        keys.contains { sameName($0.parent, table) }
    }

    /// Throws `ReferencesBroken` when some of `rows` (rowids per table) reference a row that
    /// does not exist, in columns other than `ignoring`.
    func check(
        _ rows: [String: Set<Int64>], _ db: Database, ignoring: Set<KeptColumn> = []
    ) throws {
        let missing = try missingParents(in: rows, db).subtracting(ignoring)
        if !missing.isEmpty { throw ReferencesBroken(columns: missing) }
    }

    /// The references among `rows` (rowids per table) that point at no row: the columns a
    /// replay must leave as they were.
    func missingParents(in rows: [String: Set<Int64>], _ db: Database) throws -> Set<KeptColumn> {
        var missing: Set<KeptColumn> = []
        for key in keys {
            guard let (table, rowids) = rows.first(where: { sameName($0.key, key.child) }),
                !rowids.isEmpty
            else { continue }
            let column = "c.\(key.column.quotedIdentifier)"
            let found = try db.fetchAll(
                Int64.self,
                """
                SELECT r.value FROM json_each(?) AS r, main.\(key.child.quotedIdentifier) AS c
                WHERE \(rowMatch(of: key.child, "c", "r.value")) AND \(column) IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM main.\(key.parent.quotedIdentifier) AS p
                                    WHERE p.\(key.parentColumn.quotedIdentifier) = \(column))
                """, [.text(rowids.jsonArray)])
            for rowid in found {
                missing.insert(KeptColumn(table: table, rowid: rowid, column: key.column))
            }
        }
        return missing
    }

    /// Whether another row references the row `rowid` of `table`.
    func isReferenced(_ table: String, rowid: Int64, _ db: Database) throws -> Bool {
        for key in keys where sameName(key.parent, table) {
            let itself =
                sameName(key.child, table)
                ? "AND NOT (\(rowMatch(of: key.child, "c")))" : ""
            let referenced = try db.fetchOne(
                Int.self,
                """
                SELECT EXISTS (SELECT 1 FROM main.\(key.child.quotedIdentifier) AS c
                    WHERE c.\(key.column.quotedIdentifier) = (
                        SELECT p.\(key.parentColumn.quotedIdentifier)
                        FROM main.\(key.parent.quotedIdentifier) AS p
                        WHERE \(rowMatch(of: key.parent, "p"))) \(itself))
                """, [.integer(rowid)])
            if referenced == 1 { return true }
        }
        return false
    }
}

extension ForeignKeys {
    /// SQL true for the row `row` of `table` that the log names by the number `number`.
    private func rowMatch(of table: String, _ row: String, _ number: String = "?1") -> String {
        keyedTables[table.lowercased()]?.rowMatch(number, row: row) ?? "\(row).rowid = \(number)"
    }
}

/// SQLite compares table and column names without regard to ASCII case.
private func sameName(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

/// A column of one row that a replay leaves as it is.
struct KeptColumn: Hashable, Sendable {
    let table: String
    let rowid: Int64
    let column: String

    init(table: String, rowid: Int64, column: String) {
        self.table = table.lowercased()
        self.rowid = rowid
        self.column = column.lowercased()
    }
}

/// Thrown inside a replay's savepoint when the replay would break a foreign key: the savepoint
/// rolls back and the row-by-row replay, which keeps those values, runs instead.
struct ReferencesBroken: Error, CustomStringConvertible {
    let columns: Set<KeptColumn>

    var description: String {
        let named = columns.map { "\($0.table).\($0.column) of row \($0.rowid)" }.sorted()
        return "it would reference rows that are gone (\(named.joined(separator: ", ")))"
    }
}
