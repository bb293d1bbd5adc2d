/// The SQL of a tracked table's capture triggers.
///
/// They are TEMP triggers: they live on the engine's connection only, so the file stays usable
/// by connections without the engine's functions (the `sqlite3` shell, another program).
///
/// Every capture trigger is an AFTER trigger: it fires only for a row SQLite really wrote, and
/// sees the row as stored. A row an `OR IGNORE` skipped, or an application's BEFORE trigger
/// skipped with `RAISE(IGNORE)`, is not logged; a value is logged as stored (a NULL an
/// `OR REPLACE` turned into a column's default is logged as the default; a generated column's
/// inputs are logged as written), and OLD is still the row before.
///
/// - AFTER INSERT logs the new row; AFTER DELETE logs the whole row.
/// - An update that keeps the rowid and unique keys is logged column by column: each column
///   other than the keys has its own AFTER UPDATE trigger, declared `UPDATE OF` that column,
///   which logs its value before and after when it changed (a no-op update logs nothing). An
///   UPDATE contains only the triggers of the columns it sets, and each is a few straight
///   instructions: in plain SQL, a bulk UPDATE of one column logs in about half the time one
///   trigger comparing and logging every column takes (measured). An UPDATE setting several
///   columns logs one row per changed column. An update that changes the rowid or a unique key
///   logs every column it changed, in one row, in a trigger of its own declared `UPDATE OF`
///   those keys.
/// - The rows an `OR REPLACE` deletes to make room fire no delete trigger (unless recursive
///   triggers are on): a BEFORE trigger of every write that may replace rows arms
///   `ReplacedRows`, which keeps them from the pre-update hook, and the AFTER trigger of the same
///   write logs them first (`ReplacedRows.logFunction`). An update may replace rows only through
///   a unique index, or by moving the rowid onto another row's: when every unique index is on
///   stored columns, only an update that sets one of them (or the rowid) is watched.
/// - A table keyed otherwise than by an `INTEGER PRIMARY KEY` names its rows by the numbers of
///   their keys (`KeyMap`): each trigger first gives the keys it logs a number when they have
///   none, and logs numbers where other tables log rowids; a change of key logs a move from the
///   old key's number to the new one's. A row whose key holds NULL is not logged.
/// - The exact replay of a large barrier drops the update triggers of the columns it restores
///   for its statement (`BatchReplay`): outside a barrier they log nothing, and their presence
///   slows every row.
extension TrackedTable {
    private var names: [String] { columns.map { $0.name.quotedIdentifier } }

    /// The capture triggers of a table, by what they log.
    private enum Trigger {
        case insert, keyUpdate, delete, armInsert, armUpdate, replacedByUpdate
        /// The update of one column, by its slot.
        case update(slot: Int)

        var name: String {
            switch self {
            case .insert: "insert"
            case .keyUpdate: "key_update"
            case .delete: "delete"
            case .armInsert: "arm_insert"
            case .armUpdate: "arm_update"
            case .replacedByUpdate: "replaced_by_update"
            case .update(let slot): "update_\(slot)"
            }
        }
    }

    private func triggerName(_ trigger: Trigger) -> String {
        "sqliteundo_\(id)_\(trigger.name)".quotedIdentifier
    }

    /// SQL that drops this table's capture triggers.
    var dropTriggersSQL: String {
        let triggers: [Trigger] =
            [.insert, .keyUpdate, .delete, .armInsert, .armUpdate, .replacedByUpdate]
            + updatedColumns.map { .update(slot: $0.slot) }
        return triggers.map { "DROP TRIGGER IF EXISTS temp.\(triggerName($0));" }
            .joined(separator: "\n")
    }

    /// The columns logged by the update triggers: all but the rowid alias and the unique keys,
    /// whose change the key update trigger logs.
    private var updatedColumns: [Column] {
        let keys = Set(uniqueKeyColumns.map(\.name))
        return columns.filter { !namesRow($0) && !keys.contains($0.name) }
    }

    /// SQL true when the update changes the column: its value, or (typeless columns only, see
    /// `Column.isTypeless`) its storage class or the sign of a real zero. Only a typeless column
    /// can hold -0.0: REAL affinity stores it as the integer 0 (read back as 0.0), and INTEGER,
    /// NUMERIC and TEXT affinity convert it too. The sign is compared last, only for equal
    /// zeros, so other updates pay nothing for it.
    private func changed(_ column: Column) -> String {
        let name = column.name.quotedIdentifier
        let value = "OLD.\(name) IS NOT NEW.\(name) COLLATE BINARY"
        guard column.isTypeless else { return "(\(value))" }
        let negativeZero = { (row: String) in "\(UndoEngine.negativeZeroFunction)(\(row).\(name))" }
        return "(\(value) OR typeof(OLD.\(name)) IS NOT typeof(NEW.\(name)) "
            + "OR (NEW.\(name) = 0 AND \(negativeZero("OLD")) IS NOT \(negativeZero("NEW"))))"
    }

    private func slots(_ prefix: String) -> String {
        columns.map { "\(prefix)\($0.slot)" }.joined(separator: ", ")
    }

    /// The columns an UPDATE that may replace rows sets, with the condition under which it
    /// may: one moving the rowid; with unique indexes on columns only, one setting the rowid or
    /// a column of theirs; with any other unique index, any update.
    private var replacingUpdate: (of: String, when: String) {
        guard hasUniqueIndex else {
            return (
                " OF \(rowidNames.map(\.quotedIdentifier).joined(separator: ", "))",
                " AND OLD.rowid IS NOT NEW.rowid"
            )
        }
        guard replacesOnlyThroughKeys else { return ("", "") }
        // A key map's table with a rowid still replaces the row whose rowid an update takes.
        let rowid =
            hasRowid && rowidAlias == nil
            ? ["rowid", "oid", "_rowid_"].map(\.quotedIdentifier) : []
        return (" OF \((rowid + [uniqueKeyNames]).joined(separator: ", "))", "")
    }

    /// SQL that creates this table's capture triggers.
    var createTriggersSQL: String {
        let log = UndoLogSchema.log
        let barrier = UndoEngine.barrierFunction
        let capturing = UndoEngine.capturingBarrierFunction
        let kind = (
            insert: UndoLogSchema.Kind.insert.rawValue, delete: UndoLogSchema.Kind.delete.rawValue
        )
        let replacing = replacingUpdate
        let new = rowidSQL("NEW")
        return """
            CREATE TEMP TRIGGER \(triggerName(.armInsert)) BEFORE INSERT ON \(sqlName)
            WHEN \(barrier) IS NOT NULL BEGIN
                SELECT \(ReplacedRows.armFunction);
            END;
            CREATE TEMP TRIGGER \(triggerName(.insert)) AFTER INSERT ON \(sqlName)
            WHEN \(barrier) IS NOT NULL\(named("NEW")) BEGIN
                \(numbering("NEW"))
                SELECT \(ReplacedRows.logFunction(table: id, rowid: new, disarming: true));
                INSERT INTO \(log)(barrier, tableId, kind, newRowid, mask, \(slots("n")))
                VALUES (\(capturing), \(id), \(kind.insert), \(new), \(fullMask),
                        \(names.map { "NEW.\($0)" }.joined(separator: ", ")));
            END;
            CREATE TEMP TRIGGER \(triggerName(.armUpdate)) BEFORE UPDATE\(replacing.of)
            ON \(sqlName) WHEN \(barrier) IS NOT NULL\(replacing.when) BEGIN
                SELECT \(ReplacedRows.armFunction);
            END;
            CREATE TEMP TRIGGER \(triggerName(.replacedByUpdate)) AFTER UPDATE\(replacing.of)
            ON \(sqlName) WHEN \(barrier) IS NOT NULL\(replacing.when)\(named("NEW")) BEGIN
                \(numbering("NEW"))
                SELECT \(ReplacedRows.logFunction(table: id, rowid: new, disarming: true));
            END;
            \(createUpdateTriggersSQL(mask: fullMask))
            CREATE TEMP TRIGGER \(triggerName(.keyUpdate)) AFTER UPDATE OF \(uniqueKeyNames)
            ON \(sqlName) WHEN \(barrier) IS NOT NULL AND (\(keyChange))\(named("OLD"))\(named("NEW"))
            BEGIN
                \(numbering("OLD"))
                \(numbering("NEW"))
                SELECT \(ReplacedRows.logFunction(table: id, rowid: new, disarming: false));
                \(logUpdate);
            END;
            CREATE TEMP TRIGGER \(triggerName(.delete)) AFTER DELETE ON \(sqlName)
            WHEN \(barrier) IS NOT NULL\(named("OLD")) BEGIN
                \(numbering("OLD"))
                INSERT INTO \(log)(barrier, tableId, kind, oldRowid, mask, \(slots("o")))
                VALUES (\(capturing), \(id), \(kind.delete), \(rowidSQL("OLD")), \(fullMask),
                        \(names.map { "OLD.\($0)" }.joined(separator: ", ")));
            END;
            """
    }

    /// SQL that creates the update triggers of the columns in `mask` (see `updatedColumns`).
    func createUpdateTriggersSQL(mask: Int64) -> String {
        let log = UndoLogSchema.log
        return updatedColumns(in: mask).map { column in
            let name = column.name.quotedIdentifier
            return """
                CREATE TEMP TRIGGER \(triggerName(.update(slot: column.slot)))
                AFTER UPDATE OF \(name) ON \(sqlName)
                WHEN \(UndoEngine.barrierFunction) IS NOT NULL AND \(changed(column))
                    AND NOT (\(keyChange))\(named("NEW")) BEGIN
                    \(numbering("NEW"))
                    \(logReplaced)
                    INSERT INTO \(log)(barrier, tableId, kind, oldRowid, newRowid, mask,
                                       o\(column.slot), n\(column.slot))
                    \(rowValues(
                        UndoEngine.capturingBarrierFunction, "\(id)",
                        "\(UndoLogSchema.Kind.update.rawValue)", "r", "r",
                        "\(Int64(1) << Int64(column.slot))", "OLD.\(name)", "NEW.\(name)"));
                END;
                """
        }.joined(separator: "\n")
    }

    /// The rest of an `INSERT` of the values `r` stands in for `NEW`'s row number in: a
    /// `VALUES` row when the number is the rowid (a `SELECT` runs as two coroutines: twice the
    /// instructions at every row), a `SELECT` working out the key map's number once otherwise.
    private func rowValues(_ values: String...) -> String {
        guard keyMap != nil else {
            let row = rowidSQL("NEW")
            return "VALUES (\(values.map { $0 == "r" ? row : $0 }.joined(separator: ", ")))"
        }
        return "SELECT \(values.joined(separator: ", ")) FROM (SELECT \(rowidSQL("NEW")) AS r)"
    }

    /// The statement logging the rows an update replaced through a unique index, for a column's
    /// update trigger (nothing when the table has none, or only unique indexes on columns, which
    /// the column update triggers do not set).
    private var logReplaced: String {
        guard hasUniqueIndex, !replacesOnlyThroughKeys else { return "" }
        return
            "SELECT \(ReplacedRows.logFunction(table: id, rowid: rowidSQL("NEW"), disarming: false));"
    }

    /// A statement giving the key of `row` its number, for a table the key map names (nothing
    /// for a table with a rowid alias).
    private func numbering(_ row: String) -> String {
        keyMap?.numberingSQL(row) ?? ""
    }

    /// A condition of a trigger's WHEN clause, for a table the key map names: the key of `row`
    /// holds no NULL (such a row has no number, and is not recorded).
    private func named(_ row: String) -> String {
        keyMap.map { " AND \($0.hasNumberSQL(row))" } ?? ""
    }

    /// SQL that drops the triggers `createUpdateTriggersSQL(mask:)` creates.
    func dropUpdateTriggersSQL(mask: Int64) -> String {
        updatedColumns(in: mask).map { "DROP TRIGGER temp.\(triggerName(.update(slot: $0.slot)));" }
            .joined(separator: "\n")
    }

    private func updatedColumns(in mask: Int64) -> [Column] {
        updatedColumns.filter { mask & (Int64(1) << Int64($0.slot)) != 0 }
    }

    /// The unique-key columns (besides the rowid).
    private var uniqueKeyColumns: [Column] {
        let keys = Set(uniqueKeys.joined())
        return columns.filter { keys.contains($0.name) }
    }

    /// SQL true when an update changes the rowid or a unique key.
    private var keyChange: String {
        let rowid = rowidAlias == nil ? [] : ["OLD.rowid IS NOT NEW.rowid"]
        return (rowid + uniqueKeyColumns.map(changed)).joined(separator: " OR ")
    }

    /// Every name an UPDATE can set the rowid or a unique key by.
    private var uniqueKeyNames: String {
        (rowidNames + uniqueKeyColumns.map(\.name)).map(\.quotedIdentifier).joined(separator: ", ")
    }

    /// Every name an UPDATE can set the rowid by, for a table whose rowid names its rows.
    private var rowidNames: [String] {
        rowidAlias.map { ["rowid", "oid", "_rowid_", $0] } ?? []
    }

    /// The statement logging an update: the changed columns' values before and after, or
    /// nothing for a no-op update.
    private var logUpdate: String {
        let mask = columns.map {
            "(CASE WHEN \(changed($0)) THEN \(1 << Int64($0.slot)) ELSE 0 END)"
        }.joined(separator: " | ")
        // Each column is compared once, in the mask; the values are picked by its bits. `LIMIT 1`
        // keeps SQLite from pushing the outer WHERE into the subquery, which would compute the
        // mask a second time.
        let oldChanged = columns.map {
            "CASE WHEN m & \(1 << Int64($0.slot)) THEN OLD.\($0.name.quotedIdentifier) END"
        }
        let newChanged = columns.map {
            "CASE WHEN m & \(1 << Int64($0.slot)) THEN NEW.\($0.name.quotedIdentifier) END"
        }
        return """
            INSERT INTO \(UndoLogSchema.log)(barrier, tableId, kind, oldRowid, newRowid, mask,
                               \(slots("o")), \(slots("n")))
            SELECT b, \(id), \(UndoLogSchema.Kind.update.rawValue), \(rowidSQL("OLD")),
                   \(rowidSQL("NEW")), m,
                   \(oldChanged.joined(separator: ", ")), \(newChanged.joined(separator: ", "))
            FROM (SELECT \(UndoEngine.capturingBarrierFunction) AS b, \(mask) AS m LIMIT 1)
            WHERE m != 0\(rowidAlias == nil ? "" : " OR OLD.rowid IS NOT NEW.rowid")
            """
    }
}
