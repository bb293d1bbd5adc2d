import SQLiteDatabase

/// A text edit a step made in one value: the text it took out and the text it put in its place
/// (the rest of the value, before and after the edit, is left out).
public struct UndoTextEdit: Sendable, Equatable {
    /// The text the step took out ("" when it only typed).
    public let removed: String
    /// The text the step put in ("" when it only deleted).
    public let inserted: String

    public init(removed: String, inserted: String) {
        self.removed = removed
        self.inserted = inserted
    }

    /// The edit from `old` to `new`: what lies between their common start and common end.
    init(from old: [UInt8], to new: [UInt8]) {
        var (prefix, suffix) = CommonPrefixAndSuffix.of(old, new)
        // Whole characters: the common ends stop short of a character they would cut.
        let continues = { (bytes: [UInt8], index: Int) in
            bytes.indices.contains(index) && bytes[index] & 0xC0 == 0x80
        }
        while prefix > 0, continues(old, prefix) || continues(new, prefix) { prefix -= 1 }
        while suffix > 0, continues(old, old.count - suffix) || continues(new, new.count - suffix) {
            suffix -= 1
        }
        removed = String(decoding: old[prefix..<(old.count - suffix)], as: UTF8.self)
        inserted = String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self)
    }
}

/// What a step wrote, read from its log as the action did it, whichever list the step is on: a
/// history view says with them what each step changed ("Set Rating · ★★★", "Typing "second"").
extension UndoStack {
    /// The values `column` of `table` held before `step` was done, by rowid, for the rows the
    /// step changed that column of or deleted; for rows it inserted, the values it wrote. A
    /// history view names what a step touched with them when the rows are gone now ("Delete
    /// Author · Jane Doe"). Text kept as an edit (`UndoEngine.mergeText`) is not listed.
    /// - Throws: `SQLiteError`.
    public func values(of step: UndoStep, column: String, in table: any Table.Type) throws
        -> [Int64: SQLiteValue]
    {
        try read([step], column: column, in: table) { changes, _, slot, _ in
            var values: [Int64: SQLiteValue] = [:]
            for change in changes {
                if change.kind == .insert, let rowid = change.currentRowid,
                    let value = change.after[slot.slot]
                {
                    values[rowid] = value
                } else if let rowid = change.originalRowid, let value = change.before[slot.slot],
                    !value.packed
                {
                    values[rowid] = value.value
                }
            }
            return values
        }[0]
    }

    /// The values `step` left in `column` of `table`, by rowid (where the row was when the step
    /// was done), for the rows it inserted or changed that column of. Text kept as an edit
    /// (`UndoEngine.mergeText`) is not listed: `textEdits(of:column:in:)` gives its edits.
    /// - Throws: `SQLiteError`.
    public func newValues(of step: UndoStep, column: String, in table: any Table.Type) throws
        -> [Int64: SQLiteValue]
    {
        try newValues(of: [step], column: column, in: table)[0]
    }

    /// `newValues(of:column:in:)` of each of `steps`, in order, read in one go (the lines a
    /// history view shows).
    /// - Throws: `SQLiteError`.
    public func newValues(of steps: [UndoStep], column: String, in table: any Table.Type) throws
        -> [[Int64: SQLiteValue]]
    {
        try read(steps, column: column, in: table) { changes, _, slot, _ in
            var values: [Int64: SQLiteValue] = [:]
            for change in changes {
                guard change.kind != .delete, let rowid = change.currentRowid,
                    let value = change.after[slot.slot], change.before[slot.slot]?.packed != true
                else { continue }
                values[rowid] = value
            }
            return values
        }
    }

    /// The edits `step` made to the text of `column` in `table`, by rowid, in the order it made
    /// them: for each value it changed, what it took out and put in ("typed "second""), also
    /// where the text is kept as an edit (`UndoEngine.mergeText`). A row it inserted put in its
    /// whole text, and a row it deleted took out its whole text.
    /// - Throws: `SQLiteError`.
    public func textEdits(of step: UndoStep, column: String, in table: any Table.Type) throws
        -> [Int64: [UndoTextEdit]]
    {
        try textEdits(of: [step], column: column, in: table)[0]
    }

    /// `textEdits(of:column:in:)` of each of `steps`, in order, read in one go.
    /// - Throws: `SQLiteError`.
    public func textEdits(of steps: [UndoStep], column: String, in table: any Table.Type) throws
        -> [[Int64: [UndoTextEdit]]]
    {
        try read(steps, column: column, in: table) { changes, step, slot, db in
            var edits: [Int64: [UndoTextEdit]] = [:]
            for change in changes {
                let before = change.before[slot.slot].flatMap { $0.packed ? nil : $0.value }
                switch (change.kind, before, change.after[slot.slot]) {
                case (.update, .text(let old), .text(let new)):
                    guard let rowid = change.currentRowid else { continue }
                    edits[rowid, default: []].append(
                        UndoTextEdit(from: Array(old.utf8), to: Array(new.utf8)))
                case (.insert, _, .text(let new)):
                    guard let rowid = change.currentRowid else { continue }
                    edits[rowid, default: []].append(UndoTextEdit(removed: "", inserted: new))
                case (.delete, .text(let old), _):
                    guard let rowid = change.originalRowid else { continue }
                    edits[rowid, default: []].append(UndoTextEdit(removed: old, inserted: ""))
                default:
                    continue
                }
            }
            let packed = try UndoLogSchema.packedRows(ofEntry: step.entry, db)
            let rows = step.inverted ? packed.reversed() : packed
            for row in rows where row.table == slot.table && row.slot == slot.slot {
                let change = row.change
                guard change.old.storage == .text else { continue }
                let (old, new) =
                    step.inverted
                    ? (change.newMiddle, change.oldMiddle) : (change.oldMiddle, change.newMiddle)
                edits[row.rowid, default: []].append(UndoTextEdit(from: old, to: new))
            }
            return edits
        }
    }

    /// A step's entry and how to read its log as the action did it (the `inverted` that
    /// `netChanges` takes).
    private struct ReadStep {
        let entry: Int64
        let inverted: Bool
    }

    /// Reads each of `steps` in one transaction: its net changes to rows of `table`, read as
    /// the action did them, given to `each` with the table's number and the slot of `column`
    /// (for a step the stack no longer has, or a column not tracked, `each` gets no changes).
    private func read<Result>(
        _ steps: [UndoStep], column: String, in table: any Table.Type,
        _ each: ([NetChange], ReadStep, (table: Int64, slot: Int), Database) throws -> Result
    ) throws -> [Result] {
        let slot = slot(of: column, in: table) ?? (table: -1, slot: 0)
        let read = steps.map { step in
            readsForwards(step).map { ReadStep(entry: step.entry, inverted: $0) }
        }
        return try engine.database.read { db in
            try read.map { step in
                guard let step, slot.table >= 0 else {
                    return try each([], ReadStep(entry: 0, inverted: false), slot, db)
                }
                let changes = try UndoLogSchema.netChanges(
                    ofEntry: step.entry, inverted: step.inverted, db)
                return try each(changes.filter { $0.tableId == slot.table }, step, slot, db)
            }
        }
    }

    /// The table's number and the column's slot in the log, or nil when not tracked.
    private func slot(of column: String, in table: any Table.Type) -> (table: Int64, slot: Int)? {
        engine.trackedTables.withLock { tables -> (table: Int64, slot: Int)? in
            guard
                let tracked = tables.values.first(where: {
                    $0.name.caseInsensitiveCompare(table.tableName) == .orderedSame
                }),
                let found = tracked.columns.first(where: {
                    $0.name.caseInsensitiveCompare(column) == .orderedSame
                })
            else { return nil }
            return (tracked.id, found.slot)
        }
    }

    /// How to read the log of `step`'s entry as the action did it (the `inverted` that
    /// `netChanges` takes), whichever list it is on; nil when the stack has no such entry.
    private func readsForwards(_ step: UndoStep) -> Bool? {
        // The short lists first: the undo list may hold 100k steps.
        entries.withLock { entries -> Bool? in
            let undone =
                entries.redo.last { $0.id == step.entry }
                ?? entries.kept.last { $0.id == step.entry }
            if let undone { return !undone.inverted }
            return entries.undo.last { $0.id == step.entry }?.inverted
        }
    }
}
