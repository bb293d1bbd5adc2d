import SQLiteDatabase

/// A table the engine records: its columns as they are now, each with its log slot, and the
/// capture triggers built from them.
struct TrackedTable: Sendable {
    struct Column: Sendable {
        let name: String
        let slot: Int
    }

    let id: Int64
    let name: String
    let columns: [Column]
    /// The column that is an alias of the rowid (`INTEGER PRIMARY KEY`), if there is one.
    let rowidAlias: String?

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
            columns.append(Column(name: column, slot: slot))
        }
        let keys = stored.filter { (try? $0.decode("pk", as: Int.self)) ?? 0 > 0 }
        var alias: String?
        if keys.count == 1, (try keys[0].decode("type", as: String.self)).uppercased() == "INTEGER"
        {
            alias = try keys[0].decode("name", as: String.self)
        }
        return TrackedTable(id: id, name: name, columns: columns, rowidAlias: alias)
    }

    var slotCount: Int { (columns.map(\.slot).max() ?? -1) + 1 }

    /// The bits of every slot this table has now.
    var fullMask: Int64 { columns.reduce(0) { $0 | 1 << Int64($1.slot) } }

    /// The table's qualified, quoted name for SQL.
    var sqlName: String { "main." + name.quotedIdentifier }

    private func triggerName(_ kind: String) -> String {
        "sqliteundo_\(id)_\(kind)".quotedIdentifier
    }

    /// SQL that drops this table's capture triggers.
    var dropTriggersSQL: String {
        ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS temp.\(triggerName($0));" }
            .joined(separator: "\n")
    }

    /// SQL that creates this table's capture triggers, as TEMP triggers: they live on the engine's
    /// connection only, so the file stays usable by connections without the engine's functions.
    var createTriggersSQL: String {
        let log = UndoLogSchema.log
        let barrier = UndoEngine.barrierFunction
        let all = columns.map { $0.name.quotedIdentifier }
        let oldSlots = columns.map { "o\($0.slot)" }.joined(separator: ", ")
        let newSlots = columns.map { "n\($0.slot)" }.joined(separator: ", ")
        func changed(_ column: String) -> String {
            "(OLD.\(column) IS NOT NEW.\(column) COLLATE BINARY "
                + "OR typeof(OLD.\(column)) IS NOT typeof(NEW.\(column)))"
        }
        let anyChange = (["OLD.rowid IS NOT NEW.rowid"] + all.map(changed)).joined(
            separator: " OR ")
        let mask = columns.map {
            "(CASE WHEN \(changed($0.name.quotedIdentifier)) THEN \(1 << Int64($0.slot)) ELSE 0 END)"
        }.joined(separator: " | ")
        let oldChanged = all.map { "CASE WHEN \(changed($0)) THEN OLD.\($0) END" }
            .joined(separator: ", ")
        let newChanged = all.map { "CASE WHEN \(changed($0)) THEN NEW.\($0) END" }
            .joined(separator: ", ")
        return """
            CREATE TEMP TRIGGER \(triggerName("insert")) AFTER INSERT ON \(sqlName)
            WHEN \(barrier) IS NOT NULL BEGIN
                INSERT INTO \(log)(barrier, tableId, kind, newRowid, mask, \(newSlots))
                VALUES (\(barrier), \(id), \(UndoLogSchema.Kind.insert.rawValue), NEW.rowid,
                        \(fullMask), \(all.map { "NEW.\($0)" }.joined(separator: ", ")));
            END;
            CREATE TEMP TRIGGER \(triggerName("update")) BEFORE UPDATE ON \(sqlName)
            WHEN \(barrier) IS NOT NULL AND (\(anyChange)) BEGIN
                INSERT INTO \(log)(barrier, tableId, kind, oldRowid, newRowid, mask,
                                   \(oldSlots), \(newSlots))
                VALUES (\(barrier), \(id), \(UndoLogSchema.Kind.update.rawValue), OLD.rowid,
                        NEW.rowid, \(mask), \(oldChanged), \(newChanged));
            END;
            CREATE TEMP TRIGGER \(triggerName("delete")) BEFORE DELETE ON \(sqlName)
            WHEN \(barrier) IS NOT NULL BEGIN
                INSERT INTO \(log)(barrier, tableId, kind, oldRowid, mask, \(oldSlots))
                VALUES (\(barrier), \(id), \(UndoLogSchema.Kind.delete.rawValue), OLD.rowid,
                        \(fullMask), \(all.map { "OLD.\($0)" }.joined(separator: ", ")));
            END;
            """
    }
}
