/// The SQL of a tracked table's capture triggers.
///
/// They are TEMP triggers: they live on the engine's connection only, so the file stays usable
/// by connections without the engine's functions (the `sqlite3` shell, another program).
///
/// - AFTER INSERT logs the new row; BEFORE DELETE logs the whole row.
/// - An update that keeps the rowid and unique keys is logged column by column: each column
///   other than the keys has its own BEFORE UPDATE trigger, declared `UPDATE OF` that column,
///   which logs its value before and after when it changed (a no-op update logs nothing). An
///   UPDATE contains only the triggers of the columns it sets, and each is a few straight
///   instructions: in plain SQL, a bulk UPDATE of one column logs in about half the time one
///   trigger comparing and logging every column takes (measured). An UPDATE setting several
///   columns logs one row per changed column.
/// - `OR REPLACE` deletes conflicting rows without firing delete triggers (unless recursive
///   triggers are on): BEFORE INSERT notes the rows a new row could replace in a pending table,
///   and AFTER INSERT (which fires only if the row really was inserted, so not for an upsert's
///   update or an ignored row) logs them as deleted. An update that changes the rowid or a
///   unique key first logs the rows it would replace, then every column it changed, in one row,
///   in a trigger of its own declared `UPDATE OF` those keys. A delete logged twice (recursive
///   triggers on) reduces to one.
/// - The exact replay of a large barrier drops the update triggers of the columns it restores
///   for its statement (`BatchReplay`): outside a barrier they log nothing, and their presence
///   slows every row.
extension TrackedTable {
    static let pendingTable = "sqliteundo_pending"

    private var names: [String] { columns.map { $0.name.quotedIdentifier } }

    /// The capture triggers of a table, by what they log.
    private enum Trigger {
        case insert, keyUpdate, delete, replaceInsert
        /// The update of one column, by its slot.
        case update(slot: Int)

        var name: String {
            switch self {
            case .insert: "insert"
            case .keyUpdate: "key_update"
            case .delete: "delete"
            case .replaceInsert: "replace_insert"
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
            [.insert, .keyUpdate, .delete, .replaceInsert]
            + updatedColumns.map { .update(slot: $0.slot) }
        return triggers.map { "DROP TRIGGER IF EXISTS temp.\(triggerName($0));" }
            .joined(separator: "\n")
    }

    /// The columns logged by the update triggers: all but the rowid alias and the unique keys,
    /// whose change the key update trigger logs.
    private var updatedColumns: [Column] {
        let keys = Set(keyColumns.map(\.name))
        return columns.filter { $0.name != rowidAlias && !keys.contains($0.name) }
    }

    /// SQL true when the update changes the column: its value, or (typeless columns only, see
    /// `Column.isTypeless`) its storage class or the sign of a real zero. Only a typeless column
    /// can hold -0.0: REAL affinity stores it as the integer 0 (read back as 0.0, and converted
    /// before a BEFORE trigger sees it), and INTEGER, NUMERIC and TEXT affinity convert it too.
    /// The sign is compared last, only for equal zeros, so other updates pay nothing for it.
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

    /// Rows other than the one being written that share its rowid or one of its unique keys.
    private var conflictingRows: String {
        let keys = uniqueKeys.map { key in
            "("
                + key.map { "\($0.quotedIdentifier) = NEW.\($0.quotedIdentifier)" }
                .joined(separator: " AND ") + ")"
        }
        return (["rowid = NEW.rowid"] + keys).joined(separator: " OR ")
    }

    /// SQL that (re)creates the connection's pending table with room for `slots` values.
    static func createPendingTableSQL(slots: Int) -> String {
        let values = (0..<slots).map { ", o\($0)" }.joined()
        return "DROP TABLE IF EXISTS temp.\(pendingTable); "
            + "CREATE TEMP TABLE \(pendingTable)(tableId INTEGER NOT NULL, oldRowid INTEGER\(values));"
    }

    /// SQL that creates this table's capture triggers.
    var createTriggersSQL: String {
        let log = UndoLogSchema.log
        let pending = Self.pendingTable
        let barrier = UndoEngine.barrierFunction
        let capturing = UndoEngine.capturingBarrierFunction
        let kind = (
            insert: UndoLogSchema.Kind.insert.rawValue, delete: UndoLogSchema.Kind.delete.rawValue
        )
        let all = names.joined(separator: ", ")
        return """
            CREATE TEMP TRIGGER \(triggerName(.replaceInsert)) BEFORE INSERT ON \(sqlName)
            WHEN \(barrier) IS NOT NULL BEGIN
                DELETE FROM \(pending) WHERE tableId = \(id);
                INSERT INTO \(pending)(tableId, oldRowid, \(slots("o")))
                SELECT \(id), rowid, \(all) FROM \(name.quotedIdentifier) WHERE \(conflictingRows);
            END;
            CREATE TEMP TRIGGER \(triggerName(.insert)) AFTER INSERT ON \(sqlName)
            WHEN \(barrier) IS NOT NULL BEGIN
                INSERT INTO \(log)(barrier, tableId, kind, oldRowid, mask, \(slots("o")))
                SELECT \(capturing), \(id), \(kind.delete), oldRowid, \(fullMask), \(slots("o"))
                FROM \(pending) WHERE tableId = \(id);
                DELETE FROM \(pending) WHERE tableId = \(id);
                INSERT INTO \(log)(barrier, tableId, kind, newRowid, mask, \(slots("n")))
                VALUES (\(capturing), \(id), \(kind.insert), NEW.rowid, \(fullMask),
                        \(names.map { "NEW.\($0)" }.joined(separator: ", ")));
            END;
            \(createUpdateTriggersSQL(mask: fullMask))
            CREATE TEMP TRIGGER \(triggerName(.keyUpdate)) BEFORE UPDATE OF \(keyNames)
            ON \(sqlName) WHEN \(barrier) IS NOT NULL AND (\(keyChange)) BEGIN
                INSERT INTO \(log)(barrier, tableId, kind, oldRowid, mask, \(slots("o")))
                SELECT \(capturing), \(id), \(kind.delete), rowid, \(fullMask), \(all)
                FROM \(name.quotedIdentifier)
                WHERE (\(conflictingRows)) AND rowid != OLD.rowid;
                \(logUpdate);
            END;
            CREATE TEMP TRIGGER \(triggerName(.delete)) BEFORE DELETE ON \(sqlName)
            WHEN \(barrier) IS NOT NULL BEGIN
                INSERT INTO \(log)(barrier, tableId, kind, oldRowid, mask, \(slots("o")))
                VALUES (\(capturing), \(id), \(kind.delete), OLD.rowid, \(fullMask),
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
                BEFORE UPDATE OF \(name) ON \(sqlName)
                WHEN \(UndoEngine.barrierFunction) IS NOT NULL AND \(changed(column))
                    AND NOT (\(keyChange)) BEGIN
                    INSERT INTO \(log)(barrier, tableId, kind, oldRowid, newRowid, mask,
                                       o\(column.slot), n\(column.slot))
                    VALUES (\(UndoEngine.capturingBarrierFunction), \(id),
                            \(UndoLogSchema.Kind.update.rawValue), OLD.rowid, NEW.rowid,
                            \(Int64(1) << Int64(column.slot)), OLD.\(name), NEW.\(name));
                END;
                """
        }.joined(separator: "\n")
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
    private var keyColumns: [Column] {
        let keys = Set(uniqueKeys.joined())
        return columns.filter { keys.contains($0.name) }
    }

    /// SQL true when an update changes the rowid or a unique key.
    private var keyChange: String {
        (["OLD.rowid IS NOT NEW.rowid"] + keyColumns.map(changed)).joined(separator: " OR ")
    }

    /// Every name an UPDATE can set the rowid or a unique key by.
    private var keyNames: String {
        (["rowid", "oid", "_rowid_"] + [rowidAlias] + keyColumns.map(\.name))
            .map(\.quotedIdentifier).joined(separator: ", ")
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
            SELECT b, \(id), \(UndoLogSchema.Kind.update.rawValue), OLD.rowid, NEW.rowid, m,
                   \(oldChanged.joined(separator: ", ")), \(newChanged.joined(separator: ", "))
            FROM (SELECT \(UndoEngine.capturingBarrierFunction) AS b, \(mask) AS m LIMIT 1)
            WHERE m != 0 OR OLD.rowid IS NOT NEW.rowid
            """
    }
}
