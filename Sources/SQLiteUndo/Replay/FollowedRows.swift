import SQLiteDatabase

/// Where the rows an entry changed in place or inserted are now, when other actions (or
/// replays) moved them to another key since: an undo restores a row's columns where the row
/// is, as it takes back what is still the entry's wherever the row's key went, and keeps a row
/// it inserted that moved since, as someone else's change (its key differs from the one
/// inserted). Rows whose key the entry itself changed, and rows it deleted, are read at the
/// keys it left them.
struct FollowedRows {
    /// When the entry took effect; nil when no key change followed it (nothing to follow).
    let time: UndoLogSchema.EffectTime?
    let db: Database

    /// The rows of the entry `id`, in the tables `tables`.
    init(entry id: Int64, tables: [Int64], _ db: Database) throws {
        time = try UndoLogSchema.timeToFollow(entry: id, inTables: tables, db)
        self.db = db
    }

    /// The entry's net `changes` with each row it updated in place or inserted that moved since
    /// named by the key it has now (before and after the replay), unless another of the changes
    /// names that key too; nil when none moved.
    func following(_ changes: [NetChange]) throws -> [NetChange]? {
        guard time != nil else { return nil }
        let followable = changes.indices.filter { index in
            let change = changes[index]
            switch change.kind {
            case .insert: return change.currentRowid != nil
            case .update:
                return change.originalRowid != nil && change.originalRowid == change.currentRowid
            case .delete: return false
            }
        }
        var followed = changes
        var movedAny = false
        for table in Set(followable.map { changes[$0].tableId }).sorted() {
            let indices = followable.filter { changes[$0].tableId == table }
            let now = try keysNow(ofTable: table, indices.compactMap { changes[$0].currentRowid })
            // A key another change of the entry names stays that change's alone.
            let named = Set(
                changes.filter { $0.tableId == table }.flatMap {
                    [$0.originalRowid, $0.currentRowid].compactMap { $0 }
                })
            for index in indices {
                guard let key = changes[index].currentRowid, let moved = now[key],
                    !named.contains(moved)
                else { continue }
                if followed[index].kind == .update { followed[index].originalRowid = moved }
                followed[index].currentRowid = moved
                movedAny = true
            }
        }
        return movedAny ? followed : nil
    }

    /// Where the rows at `keys` of `table` when the entry took effect are now, for those that
    /// moved. The key changes are applied in the order they took effect, each to the row then
    /// at its old key. A recorded delete ends a row's path; a row that another row came to the
    /// key of (it left that key unrecorded: outside any barrier) stays named by that key, its
    /// path no longer followed. Rows ending at one key together are left out, as are rows
    /// deleted since.
    func keysNow(ofTable table: Int64, _ keys: [Int64]) throws -> [Int64: Int64] {
        guard let time, !keys.isEmpty else { return [:] }
        // A row leaves its key only by a key change from it: where none left one of `keys`,
        // the log's inserts and deletes (every row since, not indexed) need not be read.
        let starts = Set(keys)
        guard
            try UndoLogSchema.keyMoves(
                ofTable: table, after: time, insertsAndDeletes: false, db
            ).contains(where: { $0.old.map(starts.contains) ?? false })
        else { return [:] }
        var followed = Dictionary(grouping: keys) { $0 }
        var stopped: [(key: Int64, rows: [Int64])] = []
        for move in try UndoLogSchema.keyMoves(
            ofTable: table, after: time, insertsAndDeletes: true, db)
        {
            if let new = move.new, move.old != new, let rows = followed.removeValue(forKey: new) {
                stopped.append((new, rows))
            }
            guard let old = move.old, let rows = followed.removeValue(forKey: old) else { continue }
            if let new = move.new { followed[new, default: []] += rows }
        }
        let ends = Dictionary(
            followed.map { ($0.key, $0.value) } + stopped.map { ($0.key, $0.rows) },
            uniquingKeysWith: +)
        var now: [Int64: Int64] = [:]
        for (key, rows) in ends where rows.count == 1 && key != rows[0] { now[rows[0]] = key }
        return now
    }
}
