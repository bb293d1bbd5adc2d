import SQLiteDatabase

/// The application's triggers (see `ModelSchema`), as forward writes do them: a write inside a
/// barrier makes them write inside it too. Replays never run them here: whatever they write
/// during a replay, the engine sets back.
extension ReferenceModel {
    /// The columns of `t` whose change stamps the row: all but the key and the stamp.
    var contentColumns: [String] { columns["t", default: []].filter { $0 != "stamp" } }

    /// `INSERT INTO t` with `stamp` from the clock; counts it, and touches its parent.
    mutating func insertItem(
        _ rowid: Int64, _ values: Values, now: Int64, into barrier: inout BarrierRecord?
    ) {
        var inserted = values
        inserted["stamp"] = .integer(now)
        insert("t", rowid, inserted, into: &barrier)
        addToCount(1, in: &barrier)
        touchParent(inserted["parentId"], now: now, in: &barrier)
    }

    /// `UPDATE t` of one row (and its key when `newRowid` differs): stamps it when a content
    /// column changed, and touches its old and new parents (the trigger fires for any update).
    mutating func updateItem(
        _ rowid: Int64, to newRowid: Int64, set: Values, now: Int64,
        in barrier: inout BarrierRecord?
    ) {
        guard let old = row("t", rowid) else { return }
        update("t", rowid, to: newRowid, set: set, in: &barrier)
        guard let new = row("t", newRowid) else { return }
        if features.contains(.stamp), new["stamp"] == old["stamp"],
            contentColumns.contains(where: { new[$0] != old[$0] })
        {
            update("t", newRowid, to: newRowid, set: ["stamp": .integer(now)], in: &barrier)
        }
        touchParent(old["parentId"], now: now, in: &barrier)
        touchParent(new["parentId"], now: now, in: &barrier)
    }

    /// `DELETE FROM t` of one row: uncounts it and touches its parent.
    mutating func deleteItem(_ rowid: Int64, now: Int64, in barrier: inout BarrierRecord?) {
        guard let old = row("t", rowid) else { return }
        delete("t", rowid, in: &barrier)
        addToCount(-1, in: &barrier)
        touchParent(old["parentId"], now: now, in: &barrier)
    }

    private mutating func addToCount(_ delta: Int64, in barrier: inout BarrierRecord?) {
        guard features.contains(.counter), case .integer(let count) = row("counts", 1)?["n"] else {
            return
        }
        update("counts", 1, to: 1, set: ["n": .integer(count + delta)], in: &barrier)
    }

    private mutating func touchParent(
        _ parent: SQLiteValue?, now: Int64, in barrier: inout BarrierRecord?
    ) {
        guard features.contains(.parent), case .integer(let id) = parent else { return }
        update("parents", id, to: id, set: ["modifiedAt": .integer(now)], in: &barrier)
    }

    /// Whether the application's trigger skips a rename of the parent `id` to `name`: both its
    /// name and the new one start with "locked" (`ModelSchema.Feature.lockedParents`).
    func isLocked(_ id: Int64, renamedTo name: SQLiteValue?) -> Bool {
        func locked(_ value: SQLiteValue?) -> Bool {
            guard case .text(let text) = value else { return false }
            return text.lowercased().hasPrefix("locked")
        }
        return features.contains(.lockedParents) && locked(row("parents", id)?["name"])
            && locked(name)
    }
}
