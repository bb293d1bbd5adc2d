import SQLiteDatabase

/// What the capture writes to the log outside its triggers: the rows an `OR REPLACE` deleted,
/// which fire no trigger (`ReplacedRows`).
extension UndoLogSchema {
    /// Whether the table SQLite names `table` (in a row change it reports) is the log.
    static func isLog(_ table: String) -> Bool { table == log }

    /// The places of `tableId`, `kind` and `oldRowid` among the log's stored columns: where a
    /// row change of the log (`isLog`) holds what a logged delete names. nil when the log has
    /// no such columns.
    static func deletePlaces(_ db: Database) throws -> (tableId: Int, kind: Int, oldRowid: Int)? {
        let names = try db.fetchAll(
            String.self, "SELECT name FROM pragma_table_info(?)", [.text(log)])
        guard let tableId = names.firstIndex(of: "tableId"),
            let kind = names.firstIndex(of: "kind"),
            let oldRowid = names.firstIndex(of: "oldRowid")
        else { return nil }
        return (tableId, kind, oldRowid)
    }

    /// Logs, as deleted by `barrier`, the whole row of `table` at `rowid` (its rowid, or its
    /// key's number), holding `values` by slot.
    static func logDelete(
        by barrier: Int64, of table: TrackedTable, at rowid: Int64,
        values: [(slot: Int, value: SQLiteValue)], _ db: Database
    ) throws {
        let slots = values.map { "o\($0.slot)" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
        try db.execute(
            """
            INSERT INTO \(log)(barrier, tableId, kind, oldRowid, mask, \(slots))
            VALUES (?, ?, \(Kind.delete.rawValue), ?, ?, \(marks))
            """,
            [.integer(barrier), .integer(table.id), .integer(rowid), .integer(table.fullMask)]
                + values.map(\.value))
    }
}
