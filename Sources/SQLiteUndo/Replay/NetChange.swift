import SQLiteDatabase

/// One captured row change, as read back from the log. Values are keyed by column slot.
struct LogEntry {
    let seq: Int64
    let tableId: Int64
    let kind: UndoLogSchema.Kind
    let oldRowid: Int64?
    let newRowid: Int64?
    let old: [Int: LoggedValue]
    let new: [Int: SQLiteValue]
}

/// A value read from the log, with the cell it was read from: a replay writes it from there with
/// SQL, so what Swift cannot hold exactly (text that is not valid UTF-8) is restored byte for
/// byte.
struct LoggedValue: Equatable {
    let value: SQLiteValue
    /// The log row (`seq`) and value column (`o3`, `n3`) holding it.
    let seq: Int64
    let column: String
    /// Whether `value` is only the fingerprint of a packed change's value (`PackedChange`), one
    /// the replay could not rebuild: never written back.
    var packed = false
}

/// The net effect of one entry on one row: everything the entry did to that row, reduced.
struct NetChange: Equatable {
    enum Kind: Equatable {
        /// The row did not exist before the entry and does after.
        case insert
        /// The row existed before and after; `before`/`after` hold the changed columns.
        case update
        /// The row existed before and does not after; `before` holds the whole row.
        case delete
    }

    let tableId: Int64
    var kind: Kind
    /// The row's rowid before the entry (nil for an insert).
    var originalRowid: Int64?
    /// The row's rowid after the entry (nil for a delete).
    var currentRowid: Int64?
    var before: [Int: LoggedValue]
    var after: [Int: SQLiteValue]
    var lastSeq: Int64
}

/// Reduces an entry's log, in capture order, to one net change per row, for every order of
/// insert, update (including rowid changes), delete and re-insert.
struct NetChangeReducer {
    private var changes: [NetChange?] = []
    /// Where each row is now (or was deleted), mapped to its change.
    private var byRow: [RowKey: Int] = [:]

    mutating func add(_ entry: LogEntry) {
        switch entry.kind {
        case .insert: addInsert(entry)
        case .update: addUpdate(entry)
        case .delete: addDelete(entry)
        }
    }

    /// The net changes, the most recently touched first (the order to revert them in).
    var result: [NetChange] {
        changes.compactMap { change -> NetChange? in
            guard var change, change.kind == .update else { return change }
            for (slot, value) in change.after where change.before[slot]?.value == value {
                change.after[slot] = nil
                change.before[slot] = nil
            }
            let moved = change.originalRowid != change.currentRowid
            return change.after.isEmpty && !moved ? nil : change
        }
        .sorted { $0.lastSeq > $1.lastSeq }
    }

    private mutating func addInsert(_ entry: LogEntry) {
        guard let rowid = entry.newRowid else { return }
        let key = RowKey(tableId: entry.tableId, rowid: rowid)
        if let index = byRow[key], var change = changes[index], change.kind == .delete {
            // Deleted, then inserted again at the same rowid: an update from the original row.
            change.kind = .update
            change.currentRowid = rowid
            change.after = entry.new
            change.lastSeq = entry.seq
            changes[index] = change
            return
        }
        begin(
            NetChange(
                tableId: entry.tableId, kind: .insert, originalRowid: nil, currentRowid: rowid,
                before: [:], after: entry.new, lastSeq: entry.seq), at: key)
    }

    private mutating func addUpdate(_ entry: LogEntry) {
        guard let oldRowid = entry.oldRowid, let newRowid = entry.newRowid else { return }
        let oldKey = RowKey(tableId: entry.tableId, rowid: oldRowid)
        let index: Int
        if let existing = byRow[oldKey], var change = changes[existing], change.kind != .delete {
            for (slot, value) in entry.old
            where change.kind == .update && change.before[slot] == nil {
                change.before[slot] = value
            }
            change.after.merge(entry.new) { _, new in new }
            change.currentRowid = newRowid
            change.lastSeq = entry.seq
            changes[existing] = change
            byRow[oldKey] = nil
            index = existing
        } else {
            index = changes.count
            changes.append(
                NetChange(
                    tableId: entry.tableId, kind: .update, originalRowid: oldRowid,
                    currentRowid: newRowid, before: entry.old, after: entry.new,
                    lastSeq: entry.seq))
        }
        byRow[RowKey(tableId: entry.tableId, rowid: newRowid)] = index
    }

    private mutating func addDelete(_ entry: LogEntry) {
        guard let rowid = entry.oldRowid else { return }
        let key = RowKey(tableId: entry.tableId, rowid: rowid)
        if let index = byRow[key], changes[index]?.kind == .delete {
            return  // logged twice (a replaced row with recursive triggers on)
        }
        if let index = byRow[key], var change = changes[index] {
            if change.kind == .insert {
                changes[index] = nil  // inserted then deleted: nothing happened
                byRow[key] = nil
                return
            }
            // Updated then deleted: the original row is the deleted one with the first
            // originals of the columns the entry had changed.
            change.kind = .delete
            change.before = entry.old.merging(change.before) { _, original in original }
            change.after = [:]
            change.currentRowid = nil
            change.lastSeq = entry.seq
            changes[index] = change
            return
        }
        begin(
            NetChange(
                tableId: entry.tableId, kind: .delete, originalRowid: rowid, currentRowid: nil,
                before: entry.old, after: [:], lastSeq: entry.seq), at: key)
    }

    /// Starts tracking a row the entry had not touched yet, found at `key`.
    private mutating func begin(_ change: NetChange, at key: RowKey) {
        byRow[key] = changes.count
        changes.append(change)
    }
}
