import SQLiteDatabase

@testable import SQLiteUndo

/// Writes whose conflict clause decides what SQLite does (`ModelSchema.Feature.conflictClauses`):
/// the model applies what SQLite did (with recursive triggers on, a row REPLACE deletes fires the
/// delete triggers; a NULL written into the `NOT NULL DEFAULT` column stores the default), and
/// the engine must log just that.
extension ModelRun {
    mutating func conflictClauseWrite(_ barrier: inout ReferenceModel.BarrierRecord?) throws
        -> String
    {
        guard let rowid = existingRowid() else { return "skip" }
        switch random.next(below: 8) {
        case 0, 1:
            return try takeCode(into: rowid, replacing: random.next(below: 2) == 0, &barrier)
        case 2:
            return try insertOver(rowid, replacing: true, &barrier)
        case 3:
            return try insertOver(rowid, replacing: false, &barrier)
        case 4:
            return try upsert(at: rowid, &barrier)
        case 5:
            return try insertWithAutomaticRowid(&barrier)
        case 6:
            return try setQuantityToNull(of: rowid, &barrier)
        default:
            return try insertAtNegativeRowid(&barrier)
        }
    }

    /// `UPDATE OR IGNORE` / `UPDATE OR REPLACE` giving `rowid` another row's code: ignored, the
    /// row is left as it is; replaced, the other row is deleted, then the row updated.
    private mutating func takeCode(
        into rowid: Int64, replacing: Bool, _ barrier: inout ReferenceModel.BarrierRecord?
    ) throws -> String {
        let holders = model.tables["t", default: [:]].filter {
            $0.key != rowid && ($0.value.values["code"] ?? .null) != .null
        }.keys.sorted()
        guard !holders.isEmpty else { return "skip" }
        let holder = holders[random.next(below: holders.count)]
        let code = model.row("t", holder)?["code"] ?? .null
        let clause = replacing ? "REPLACE" : "IGNORE"
        try db.write {
            try $0.execute(
                "UPDATE OR \(clause) t SET code = ? WHERE id = ?", [code, .integer(rowid)])
        }
        guard replacing else { return "update \(rowid) code of \(holder) or ignore" }
        model.deleteItem(holder, now: now, in: &barrier)
        deletedRowids.append(holder)
        model.updateItem(rowid, to: rowid, set: ["code": code], now: now, in: &barrier)
        return "update \(rowid) code of \(holder) or replace"
    }

    /// `INSERT OR REPLACE` / `INSERT OR IGNORE` of a new row at an existing row's key (with a
    /// fresh code or none): replaced, the old row is deleted and the new one inserted.
    private mutating func insertOver(
        _ rowid: Int64, replacing: Bool, _ barrier: inout ReferenceModel.BarrierRecord?
    ) throws -> String {
        let (columns, values) = newItem()
        try db.write {
            try $0.execute(
                "INSERT OR \(replacing ? "REPLACE" : "IGNORE") INTO t(id, "
                    + columns.joined(separator: ", ") + ", stamp) VALUES (?"
                    + String(repeating: ", ?", count: columns.count)
                    + ", (SELECT now FROM clock))",
                [.integer(rowid)] + columns.map { values[$0] ?? .null })
        }
        guard replacing else { return "insert over \(rowid) or ignore" }
        // Outside any barrier, the new row keeps the replaced one's trail (`ReferenceModel.trails`).
        model.deleteItem(rowid, now: now, in: &barrier)
        model.insertItem(rowid, values, now: now, into: &barrier)
        return "insert over \(rowid) or replace"
    }

    /// An upsert at an existing key: `DO UPDATE` sets the body, `DO NOTHING` leaves the row.
    private mutating func upsert(at rowid: Int64, _ barrier: inout ReferenceModel.BarrierRecord?)
        throws -> String
    {
        let body = value(for: "body")
        let updating = random.next(below: 2) == 0
        try db.write {
            try $0.execute(
                "INSERT INTO t(id, body) VALUES (?, ?) ON CONFLICT(id) "
                    + (updating ? "DO UPDATE SET body = excluded.body" : "DO NOTHING"),
                [.integer(rowid), body])
        }
        guard updating else { return "upsert \(rowid) do nothing" }
        model.updateItem(rowid, to: rowid, set: ["body": body], now: now, in: &barrier)
        return "upsert \(rowid) body"
    }

    /// `UPDATE OR REPLACE` writing NULL into the `NOT NULL DEFAULT` column: SQLite stores the
    /// default.
    private mutating func setQuantityToNull(
        of rowid: Int64, _ barrier: inout ReferenceModel.BarrierRecord?
    ) throws -> String {
        try db.write {
            try $0.execute("UPDATE OR REPLACE t SET qty = NULL WHERE id = ?", [.integer(rowid)])
        }
        model.updateItem(
            rowid, to: rowid, set: ["qty": ModelSchema.defaultQuantity], now: now, in: &barrier)
        return "update \(rowid) qty NULL or replace"
    }

    /// An insert that lets SQLite pick the rowid: one above the highest (a negative one too).
    private mutating func insertWithAutomaticRowid(
        _ barrier: inout ReferenceModel.BarrierRecord?
    ) throws -> String {
        let rowid = (model.tables["t", default: [:]].keys.max() ?? 0) + 1
        guard rowid > 0 else { return "skip" }
        let (columns, values) = newItem()
        try db.write {
            try $0.execute(
                "INSERT INTO t(" + columns.joined(separator: ", ") + ", stamp) VALUES ("
                    + Array(repeating: "?", count: columns.count).joined(separator: ", ")
                    + ", (SELECT now FROM clock))", columns.map { values[$0] ?? .null })
        }
        nextRowid = max(nextRowid, rowid + 1)
        deletedRowids.removeAll { $0 == rowid }
        model.insertItem(rowid, values, now: now, into: &barrier)
        return "insert \(rowid) (automatic rowid)"
    }

    /// An insert at a negative key (a "Trash" row at -1 is a real pattern).
    private mutating func insertAtNegativeRowid(_ barrier: inout ReferenceModel.BarrierRecord?)
        throws -> String
    {
        let rowid = -1 - Int64(random.next(below: 3))
        guard model.row("t", rowid) == nil else { return "skip" }
        let (columns, values) = newItem()
        try db.write {
            try $0.execute(
                "INSERT INTO t(id, " + columns.joined(separator: ", ") + ", stamp) VALUES (?"
                    + String(repeating: ", ?", count: columns.count)
                    + ", (SELECT now FROM clock))",
                [.integer(rowid)] + columns.map { values[$0] ?? .null })
        }
        model.insertItem(rowid, values, now: now, into: &barrier)
        return "insert \(rowid)"
    }

    /// The content columns of a new row of `t`, with values drawn for them.
    mutating func newItem() -> (columns: [String], values: ReferenceModel.Values) {
        let columns = model.contentColumns
        var values: ReferenceModel.Values = [:]
        for column in columns { values[column] = value(for: column) }
        return (columns, values)
    }
}
