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

    /// Whether the log rows of the filed entry `entry` cancel out: every row they insert they
    /// delete, every value they change they set back (a text or blob compared by its
    /// fingerprint, as a packed row keeps it), and no row keeps another key. An entry whose span
    /// holds more than `limit` log rows is taken as changing something, unread.
    static func cancelsOut(entry: Int64, readingAtMost limit: Int, _ db: Database) throws -> Bool {
        guard
            let span = try db.fetchOne(
                Row.self, "SELECT firstSeq, lastSeq FROM \(barriers) WHERE id = ?",
                [.integer(entry)])
        else { return false }
        let first: Int64 = try span.decode(at: 0)
        let last: Int64 = try span.decode(at: 1)
        guard last - first < limit else { return false }
        let slots = try slotCount(db)
        let cursor = try db.fetchCursor(
            "\(selectingEntries(slots: slots)) WHERE \(filedRows()) ORDER BY seq",
            [.integer(entry)])
        var reducer = NetChangeReducer()
        var position: Int64 = 0
        while let row = try cursor.next() {
            position += 1
            if let entry = try LogEntry(row: row, slots: slots, inverted: false, order: position) {
                reducer.add(entry.fingerprinted)
            }
        }
        return reducer.result.isEmpty
    }

    /// Log rows reduced to one net change per row (see `netChanges(ofEntry:inverted:_:)`).
    /// `rows` is SQL selecting them, with its `arguments`.
    private static func netChanges(
        ofRows rows: String, _ arguments: [SQLiteValue], inverted: Bool, _ db: Database
    ) throws -> [NetChange] {
        let slots = try slotCount(db)
        let cursor = try db.fetchCursor(
            "\(selectingEntries(slots: slots)) WHERE \(rows) ORDER BY seq "
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

    /// The start of a query reading log rows as `LogEntry(row:slots:inverted:order:)` decodes
    /// them.
    private static func selectingEntries(slots: Int) -> String {
        let values = (0..<slots).map { "o\($0)" } + (0..<slots).map { "n\($0)" }
        return "SELECT seq, tableId, kind, oldRowid, newRowid, mask, "
            + "\(values.joined(separator: ", ")), splice IS NOT NULL FROM \(log)"
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

extension LogEntry {
    /// The entry with each text and blob value as its fingerprint (`PackedChange.Fingerprint`),
    /// as a packed row's cells already hold theirs: two values compare equal when the values
    /// they stand for do, packed or not.
    var fingerprinted: LogEntry {
        let isPacked = old.values.contains(where: \.packed)
        func fingerprint(_ value: SQLiteValue) -> SQLiteValue {
            guard !isPacked else { return value }
            let packable: PackedChange.Value
            switch value {
            case .text(let text):
                packable = PackedChange.Value(storage: .text, bytes: Array(text.utf8))
            case .blob(let bytes): packable = PackedChange.Value(storage: .blob, bytes: bytes)
            default: return value
            }
            return .blob(PackedChange.Fingerprint(of: packable).encoded)
        }
        return LogEntry(
            seq: seq, tableId: tableId, kind: kind, oldRowid: oldRowid, newRowid: newRowid,
            old: old.mapValues { logged in
                LoggedValue(
                    value: fingerprint(logged.value), seq: logged.seq, column: logged.column,
                    packed: logged.packed)
            },
            new: new.mapValues(fingerprint))
    }
}

extension LoggedValue {
    /// SQL reading the value from its cell of the log (the log row bound, so that the text is
    /// the same for every row).
    var expression: BoundSQL {
        BoundSQL("(SELECT \(column) FROM \(UndoLogSchema.log) WHERE seq = ?)", [.integer(seq)])
    }
}
