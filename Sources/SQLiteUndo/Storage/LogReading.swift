import SQLiteDatabase

extension UndoLogSchema {
    /// A filed entry's log rows reduced to one net change per row, in the order to revert them
    /// (the most recently touched first); read `inverted`, they describe the opposite changes,
    /// in the opposite order.
    static func netChanges(ofEntry entry: Int64, inverted: Bool, _ db: Database) throws
        -> [NetChange]
    {
        try netChanges(ofRows: filedRows(), [.integer(entry)], inverted: inverted, db)
    }

    /// The log rows `barrier` wrote from `seq` on (in the open transaction, before it is filed
    /// or extended) reduced to one net change per row, in the order to revert them.
    static func netChanges(ofBarrier barrier: Int64, from seq: Int64, _ db: Database) throws
        -> [NetChange]
    {
        try netChanges(
            ofRows: rows(of: "?1", from: "?2"), [.integer(barrier), .integer(seq)],
            inverted: false, db)
    }

    /// Log rows reduced to one net change per row (see `netChanges(ofEntry:inverted:_:)`).
    /// `rows` is SQL selecting them, with its `arguments`.
    private static func netChanges(
        ofRows rows: String, _ arguments: [SQLiteValue], inverted: Bool, _ db: Database
    ) throws -> [NetChange] {
        let slots = try slotCount(db)
        let values = (0..<slots).map { "o\($0)" } + (0..<slots).map { "n\($0)" }
        let cursor = try db.fetchCursor(
            "SELECT seq, tableId, kind, oldRowid, newRowid, mask, \(values.joined(separator: ", ")), "
                + "splice IS NOT NULL FROM \(log) WHERE \(rows) ORDER BY seq "
                + (inverted ? "DESC" : "ASC"),
            arguments)
        var reducer = NetChangeReducer()
        var position: Int64 = 0
        while let row = try cursor.next() {
            position += 1
            if let entry = try LogEntry(row: row, slots: slots, inverted: inverted, order: position)
            {
                reducer.add(entry)
            }
        }
        return reducer.result
    }
}

extension LogEntry {
    /// Decodes a log row laid out as `seq, tableId, kind, oldRowid, newRowid, mask, o…, n…`,
    /// then whether it is packed.
    /// Read `inverted`, the row describes the opposite change (an insert becomes a delete,
    /// before and after swap). `order` is its place in the order the barrier is replayed.
    init?(row: Row, slots: Int, inverted: Bool, order: Int64) throws {
        guard var kind = UndoLogSchema.Kind(rawValue: try row.decode(at: 2, as: Int64.self)) else {
            return nil
        }
        let seq: Int64 = try row.decode(at: 0)
        let mask: Int64 = try row.decode(at: 5)
        var old: [Int: LoggedValue] = [:]
        var new: [Int: LoggedValue] = [:]
        let packed: Bool = try row.decode(at: 6 + 2 * slots)
        for slot in 0..<slots where mask & (1 << Int64(slot)) != 0 {
            if kind != .insert {
                old[slot] = LoggedValue(
                    value: row[6 + slot], seq: seq, column: "o\(slot)", packed: packed)
            }
            if kind != .delete {
                new[slot] = LoggedValue(
                    value: row[6 + slots + slot], seq: seq, column: "n\(slot)", packed: packed)
            }
        }
        var oldRowid = try row.decode(at: 3, as: Int64?.self)
        var newRowid = try row.decode(at: 4, as: Int64?.self)
        if inverted {
            kind = kind == .insert ? .delete : kind == .delete ? .insert : .update
            swap(&old, &new)
            swap(&oldRowid, &newRowid)
        }
        self.init(
            seq: order, tableId: try row.decode(at: 1), kind: kind, oldRowid: oldRowid,
            newRowid: newRowid, old: old, new: new.mapValues(\.value))
    }
}

extension LoggedValue {
    /// SQL reading the value from its cell of the log (the log row bound, so that the text is
    /// the same for every row).
    var expression: BoundSQL {
        BoundSQL("(SELECT \(column) FROM \(UndoLogSchema.log) WHERE seq = ?)", [.integer(seq)])
    }
}
