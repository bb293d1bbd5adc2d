import SQLiteDatabase

extension UndoLogSchema {
    /// The numbers by which the engine names the rows of a table keyed by anything but an
    /// `INTEGER PRIMARY KEY`: a text key (a UUID), a key of several columns (a join table), a
    /// `WITHOUT ROWID` table, an `INTEGER PRIMARY KEY DESC` column.
    ///
    /// Such a table's rowid, when it has one, is no name for a row: `VACUUM` may renumber it. So
    /// each key value gets a number of its own the first time the log names it, kept in the file
    /// (one table per tracked table, `sqliteundo_keys_<table id>`) and never given to another key.
    /// The log, the replay and the events then use that number where an `INTEGER PRIMARY KEY` table
    /// uses its rowid: a row whose key changes moves to the number of its new key, as a row whose
    /// integer key changes moves to another rowid.
    ///
    /// The map's key columns compare with the collations of the table's key (a key declared
    /// `COLLATE NOCASE` finds its number in any case). A key holding NULL, which SQLite allows in a
    /// rowid table's key that is not declared NOT NULL, has no number: such a row is not recorded.
    struct KeyMap: Sendable {
        /// A column of the table's primary key, in key order.
        struct Column: Sendable {
            let name: String
            let collation: String
            /// The type the column was declared with: the map's column has the same affinity, so a
            /// key given as text finds an integer key's number as SQLite would find its row.
            let declaredType: String
        }

        /// The map's table in the main schema.
        let name: String
        let columns: [Column]

        init(tableId: Int64, columns: [Column]) {
            name = "\(TrackedTable.reservedPrefix)keys_\(tableId)"
            self.columns = columns
        }

        /// Unqualified: a TEMP trigger writes it (SQLite refuses a schema name there).
        private var sqlName: String { name.quotedIdentifier }
        private var keyNames: [String] { columns.indices.map { "k\($0)" } }

        /// The columns of `table`'s primary key with their collations, in key order, read from the
        /// key's own index (every primary key but a rowid alias has one).
        static func keyColumns(of table: String, _ db: Database) throws -> [Column] {
            let index = try db.fetchOne(
                String.self, "SELECT name FROM pragma_index_list(?) WHERE origin = 'pk'",
                [.text(table)])
            guard let index else { return [] }
            return try db.fetchAll(
                Row.self,
                """
                SELECT x.name, x.coll, c.type FROM pragma_index_xinfo(?1) x
                JOIN pragma_table_xinfo(?2) c ON c.cid = x.cid
                WHERE x.key = 1 ORDER BY x.seqno
                """, [.text(index), .text(table)]
            ).map {
                Column(
                    name: try $0.decode("name"), collation: try $0.decode("coll"),
                    declaredType: try $0.decode("type"))
            }
        }

        /// Creates the map when the file has none yet, or has one for another key (a migration
        /// changed the table's primary key: its columns, their types or collations). Rows are then
        /// other rows: the new map numbers them above every number the old one gave (it keeps its
        /// highest, with no key), so the history of the old key names none of them.
        func prepare(_ db: Database) throws {
            let existing = try db.fetchOne(
                String.self, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
                [.text(name)])
            guard let existing else {
                try db.execute(createSQL)
                return
            }
            guard !existing.contains(signature) else { return }
            let highest = try db.fetchOne(Int64.self, "SELECT max(id) FROM main.\(sqlName)") ?? 0
            try db.execute("DROP TABLE main.\(sqlName)")
            try db.execute(createSQL)
            try db.execute("INSERT INTO main.\(sqlName)(id) VALUES (?)", [.integer(highest)])
        }

        /// The key the map numbers, written into its schema as a comment.
        private var signature: String {
            let described = columns.map {
                "\($0.name.quotedIdentifier) \($0.declaredType.quotedIdentifier) "
                    + $0.collation.quotedIdentifier
            }
            // A name holding "*/" would end the comment early.
            let text = described.joined(separator: ", ").replacingOccurrences(of: "*/", with: "* /")
            return "/* key: \(text) */"
        }

        private var createSQL: String {
            let keys = zip(keyNames, columns).map { name, column in
                let type =
                    column.declaredType.isEmpty ? "" : " \(column.declaredType.quotedIdentifier)"
                return "\(name)\(type) COLLATE \(column.collation.quotedIdentifier)"
            }
            return """
                CREATE TABLE main.\(sqlName)(
                    id INTEGER PRIMARY KEY, \(keys.joined(separator: ", ")),
                    UNIQUE(\(keyNames.joined(separator: ", "))) \(signature))
                """
        }

        /// A trigger statement giving the key of the row `row` (`NEW`, `OLD`) its number, when it
        /// has none yet. It never meets a conflict: the conflict clause of the statement that fires
        /// the trigger (`OR REPLACE`) would override one of its own, and a replaced number would
        /// rename a row.
        func numberingSQL(_ row: String) -> String {
            let values = columns.map { "\(row).\($0.name.quotedIdentifier)" }
            return "INSERT INTO \(sqlName)(\(keyNames.joined(separator: ", "))) "
                + "SELECT \(values.joined(separator: ", ")) "
                + "WHERE \(notNull(values)) AND \(numberSQL(row)) IS NULL;"
        }

        /// SQL giving the number of the key of the row `row` (`NEW`, `OLD`, a table alias), or NULL
        /// when it has none.
        func numberSQL(_ row: String) -> String {
            let equal = zip(keyNames, columns).map { "\($0) = \(row).\($1.name.quotedIdentifier)" }
            return "(SELECT id FROM \(sqlName) WHERE \(equal.joined(separator: " AND ")))"
        }

        /// SQL true for the row of the table (qualified by `row` when given) whose key has the
        /// number `parameter`.
        func matchSQL(_ parameter: String, row: String? = nil) -> String {
            let qualified = columns.map { column in
                (row.map { "\($0)." } ?? "") + column.name.quotedIdentifier
            }
            let select =
                "(SELECT \(keyNames.joined(separator: ", ")) FROM \(sqlName) WHERE id = \(parameter))"
            guard qualified.count > 1 else { return "\(qualified[0]) = \(select)" }
            return "(\(qualified.joined(separator: ", "))) = \(select)"
        }

        /// The number of a key (its values in key order), given one when it has none yet; nil for
        /// a key holding NULL.
        func number(of key: [SQLiteValue], _ db: Database) throws -> Int64? {
            guard key.count == columns.count, !key.contains(.null) else { return nil }
            let marks = Array(repeating: "?", count: key.count).joined(separator: ", ")
            try db.execute(
                "INSERT OR IGNORE INTO \(sqlName)(\(keyNames.joined(separator: ", "))) VALUES (\(marks))",
                key)
            return try existingNumber(of: key, db)
        }

        /// The number of a key that has one, without giving it one.
        func existingNumber(of key: [SQLiteValue], _ db: Database) throws -> Int64? {
            guard key.count == columns.count else { return nil }
            let equal = keyNames.map { "\($0) = ?" }.joined(separator: " AND ")
            return try db.fetchOne(Int64.self, "SELECT id FROM \(sqlName) WHERE \(equal)", key)
        }

        /// The key numbered `number`, in key order, or nil when no key has that number.
        func key(numbered number: Int64, _ db: Database) throws -> [SQLiteValue]? {
            try keys(numbered: [number], db).first
        }

        /// The keys numbered `numbers`, in the order of their numbers, those without a key left
        /// out: one query for the rows of a replay's event.
        func keys(numbered numbers: [Int64], _ db: Database) throws -> [[SQLiteValue]] {
            guard !numbers.isEmpty else { return [] }
            return try db.fetchAll(
                Row.self,
                """
                SELECT \(keyNames.joined(separator: ", ")) FROM \(sqlName)
                WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id
                """, [.text(numbers.jsonArray)]
            ).map { row in columns.indices.map { row[$0] } }
        }

        /// SQL true when the key of the row `row` (`NEW`, `OLD`) holds no NULL: a key that has a
        /// number.
        func hasNumberSQL(_ row: String) -> String {
            notNull(columns.map { "\(row).\($0.name.quotedIdentifier)" })
        }

        private func notNull(_ values: [String]) -> String {
            values.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        }
    }
}
