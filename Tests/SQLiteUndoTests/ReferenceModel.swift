import SQLiteDatabase

/// A small reference model of the undo semantics, independent of the engine's triggers, log and
/// SQL: rows as dictionaries, each barrier's net change tracked directly from the operations it
/// performs, and the conflict rule applied column by column.
struct ReferenceModel {
    typealias Values = [SQLiteValue]  // the columns a, b, c

    /// What one barrier did to one row (identified by its rowid when the barrier began).
    struct RowChange {
        var original: Int64?  // nil: inserted by the barrier
        var current: Int64?  // nil: deleted by the barrier
        var before: [Int: SQLiteValue] = [:]  // first original of each column written
        var after: [Int: SQLiteValue] = [:]  // last value written to each column
        var fullBefore: Values?  // the whole original row (for a delete)
        var fullAfter: Values?  // the whole row as inserted (for an insert)
    }

    struct BarrierRecord {
        var name: String
        /// Tells a barrier's entry from the others while its block runs (0: a replay's inverse).
        var id = 0
        /// Filed (its first change committed) but not registered: its block still runs.
        var isOpen = false
        var changes: [RowChange] = []
        /// Which change each rowid the barrier touched belongs to now.
        var byRowid: [Int64: Int] = [:]
        /// Whether the barrier wrote anything (the engine registers a barrier that logged rows).
        var wrote = false
    }

    var rows: [Int64: Values] = [:]
    var undo: [String: [BarrierRecord]] = [:]
    var redo: [String: [BarrierRecord]] = [:]
    static let levels = 1000
    /// Ids of the barriers filed on each stack whose blocks still run.
    private var open: [String: Set<Int>] = [:]

    // MARK: Writes, recorded into the innermost open barrier (if any)

    mutating func insert(_ rowid: Int64, _ values: Values, into barrier: inout BarrierRecord?) {
        rows[rowid] = values
        guard var record = barrier else { return }
        record.wrote = true
        if let index = record.byRowid[rowid], record.changes[index].current == nil {
            // deleted then inserted again at the same rowid: an update from the original
            record.changes[index].current = rowid
            record.changes[index].fullAfter = values
            for column in 0..<3 {
                record.changes[index].before[column] = record.changes[index].fullBefore?[column]
                record.changes[index].after[column] = values[column]
            }
        } else {
            record.byRowid[rowid] = record.changes.count
            record.changes.append(RowChange(original: nil, current: rowid, fullAfter: values))
        }
        barrier = record
    }

    mutating func update(
        _ rowid: Int64, to newRowid: Int64, set: [Int: SQLiteValue],
        in barrier: inout BarrierRecord?
    ) {
        guard let old = rows[rowid] else { return }
        var new = old
        for (column, value) in set { new[column] = value }
        rows[rowid] = nil
        rows[newRowid] = new
        let written = set.keys.filter { old[$0] != new[$0] }
        guard var record = barrier, !written.isEmpty || rowid != newRowid else { return }
        record.wrote = true
        let index: Int
        if let existing = record.byRowid[rowid], record.changes[existing].current == rowid {
            index = existing
            record.byRowid[rowid] = nil
        } else {
            index = record.changes.count
            record.changes.append(RowChange(original: rowid, current: rowid))
        }
        var change = record.changes[index]
        for column in written {
            if change.original != nil, change.before[column] == nil {
                change.before[column] = old[column]
            }
            change.after[column] = new[column]
            if change.original == nil { change.fullAfter?[column] = new[column] }
        }
        change.current = newRowid
        record.changes[index] = change
        record.byRowid[newRowid] = index
        barrier = record
    }

    mutating func delete(_ rowid: Int64, in barrier: inout BarrierRecord?) {
        guard let old = rows.removeValue(forKey: rowid), var record = barrier else { return }
        record.wrote = true
        if let index = record.byRowid[rowid], record.changes[index].current == rowid {
            if record.changes[index].original == nil {
                record.changes.remove(at: index)
                record.byRowid = record.byRowid.filter { $0.value != index }
                    .mapValues { $0 > index ? $0 - 1 : $0 }
            } else {
                var change = record.changes[index]
                var original = old
                for (column, value) in change.before { original[column] = value }
                change.fullBefore = original
                change.current = nil
                record.changes[index] = change
            }
        } else {
            record.byRowid[rowid] = record.changes.count
            record.changes.append(RowChange(original: rowid, current: nil, fullBefore: old))
        }
        barrier = record
    }

    /// The net form of a change: an update with nothing left is dropped.
    static func isEffective(_ change: RowChange) -> Bool {
        if change.original == nil { return change.current != nil }
        if change.current == nil { return true }
        if change.original != change.current { return true }
        return change.before.contains { change.after[$0.key] != $0.value }
    }

    // MARK: Stacks

    /// Files a barrier whose block runs, once it wrote something: it takes its place on the undo
    /// list, passed by until it registers.
    mutating func file(_ record: BarrierRecord, on stack: String) {
        guard record.wrote, open[stack, default: []].insert(record.id).inserted else { return }
        var placeholder = record
        placeholder.isOpen = true
        undo[stack, default: []].append(placeholder)
    }

    /// Drops the oldest registered barriers of a stack's undo list beyond `levels`.
    private mutating func trim(_ stack: String, to levels: Int) {
        while undo[stack, default: []].count - open[stack, default: []].count > levels,
            let oldest = undo[stack]?.firstIndex(where: { !$0.isOpen })
        {
            undo[stack]?.remove(at: oldest)
        }
    }

    /// Registers a barrier whose block returned, in the place it was filed (or on top), clears
    /// the redo list and drops the oldest registered barriers beyond the levels.
    mutating func register(_ record: BarrierRecord, on stack: String) {
        guard record.wrote else { return }
        if open[stack]?.remove(record.id) != nil,
            let index = undo[stack]?.lastIndex(where: { $0.id == record.id })
        {
            undo[stack]?[index] = record
        } else {
            undo[stack, default: []].append(record)
        }
        redo[stack] = []
        trim(stack, to: Self.levels)
    }

    /// The most recent registered barrier of a stack's list.
    func top(of stack: String, undoing: Bool) -> BarrierRecord? {
        (undoing ? undo[stack] : redo[stack])?.last { !$0.isOpen }
    }

    /// Undo (from: undo list) or redo (from: redo list) on a stack.
    mutating func replay(stack: String, undoing: Bool) {
        let list = (undoing ? undo[stack] : redo[stack]) ?? []
        guard let index = list.lastIndex(where: { !$0.isOpen }) else { return }
        let record = list[index]
        if undoing { undo[stack]?.remove(at: index) } else { redo[stack]?.remove(at: index) }
        var inverse: BarrierRecord? = BarrierRecord(name: record.name)
        for change in record.changes.reversed() where Self.isEffective(change) {
            revert(change, into: &inverse)
        }
        guard let inverse, inverse.wrote else { return }
        if undoing {
            redo[stack, default: []].append(inverse)
        } else {
            undo[stack, default: []].append(inverse)
        }
    }

    private mutating func revert(_ change: RowChange, into inverse: inout BarrierRecord?) {
        switch (change.original, change.current) {
        case (nil, let rowid?):
            if let current = rows[rowid], current == change.fullAfter {
                delete(rowid, in: &inverse)
            }
        case (let rowid?, nil):
            if rows[rowid] == nil, let before = change.fullBefore {
                insert(rowid, before, into: &inverse)
            }
        case (let original?, let rowid?):
            guard let current = rows[rowid] else { return }
            var set: [Int: SQLiteValue] = [:]
            for (column, left) in change.after {
                guard let before = change.before[column], before != left else { continue }
                if current[column] == left { set[column] = before }
            }
            let target = original != rowid && rows[original] == nil ? original : rowid
            if !set.isEmpty || target != rowid {
                update(rowid, to: target, set: set, in: &inverse)
            }
        case (nil, nil): break
        }
    }
}
