import SQLiteDatabase

@testable import SQLiteUndo

/// What a run checks after each step: the tracked tables against the model (every column, exact
/// values), the stacks' names, the FTS5 index's integrity, each undo's conflicts, each take-back's
/// event, previews against what was then done, and now and then a round trip of undos and redos.
extension ModelRun {
    /// Every tracked table's rows, ordered by key, with the model's columns in order.
    typealias Snapshot = [String: [[SQLiteValue]]]

    func snapshot() throws -> Snapshot {
        try db.read { try snapshot(in: $0) }
    }

    /// The tracked tables as `db` reads them (inside a transaction: with what it wrote).
    func snapshot(in db: Database) throws -> Snapshot {
        var tables: Snapshot = [:]
        for table in ModelSchema.trackedTables {
            let columns = (["id"] + model.columns[table, default: []]).joined(separator: ", ")
            tables[table] = try db.fetchAll(
                Row.self, "SELECT \(columns) FROM \(table) ORDER BY id"
            ).map(\.values)
        }
        return tables
    }

    func modelSnapshot() -> Snapshot {
        var tables: Snapshot = [:]
        for table in ModelSchema.trackedTables {
            let rows = model.tables[table, default: [:]]
            tables[table] = rows.keys.sorted().map { rowid in
                [.integer(rowid)]
                    + model.columns[table, default: []].map { rows[rowid]?.values[$0] ?? .null }
            }
        }
        return tables
    }

    /// What differs between the database and the model, or nil. Stacks are compared by their
    /// next names and sizes; `fullStacks` compares every name (slower: lists grow to 1000).
    /// `searchIndex` checks the FTS5 index against its table (a whole scan; a broken index stays
    /// broken, so a check every few steps finds it).
    mutating func mismatch(fullStacks: Bool, searchIndex: Bool = true) throws -> String? {
        let issue = self.issue
        self.issue = nil
        let actual = try snapshot()
        let expected = modelSnapshot()
        for table in ModelSchema.trackedTables where actual[table] != expected[table] {
            return "\(table) \(Self.difference(actual[table] ?? [], expected[table] ?? []))"
                + (issue.map { "; and \($0)" } ?? "")
        }
        if let issue { return issue }
        do {
            if searchIndex {
                try db.write { try $0.execute("INSERT INTO fts(fts) VALUES ('integrity-check')") }
            }
        } catch {
            return "the FTS5 index is not the table's: \(error)"
        }
        for id in Self.stackIDs {
            let stack = try engine.stack(id: id)
            let summary = "\(stack.undoActionName ?? "-") \(stack.redoActionName ?? "-")"
            let modelSummary =
                "\(model.top(of: id, undoing: true)?.name ?? "-") "
                + "\(model.top(of: id, undoing: false)?.name ?? "-")"
            if summary != modelSummary {
                return "stack \(id) next \(summary) != model \(modelSummary)"
            }
            guard fullStacks else { continue }
            let undo = model.undo[id, default: []].filter { !$0.isOpen }
            let redo = model.redo[id, default: []]
            let state = UndoStackState(
                undo: undo.reversed().map(\.name), redo: redo.reversed().map(\.name))
            if stack.state != state { return "stack \(id) \(stack.state) != model \(state)" }
            let kept = stack.history.kept.map(\.name)
            let modelKept = model.kept[id, default: []].reversed().map(\.name)
            if kept != modelKept { return "stack \(id) kept \(kept) != model \(modelKept)" }
        }
        return nil
    }

    /// The rows only one side has, and the rows both have with different values.
    static func difference(_ actual: [[SQLiteValue]], _ expected: [[SQLiteValue]]) -> String {
        let actualRows = Dictionary(actual.map { ($0[0], $0) }) { first, _ in first }
        let expectedRows = Dictionary(expected.map { ($0[0], $0) }) { first, _ in first }
        var lines: [String] = []
        for (key, row) in actualRows.sorted(by: { "\($0.key)" < "\($1.key)" })
        where expectedRows[key] != row {
            lines.append("row \(row) != model \(expectedRows[key].map { "\($0)" } ?? "none")")
        }
        for (key, row) in expectedRows where actualRows[key] == nil {
            lines.append("no row, model \(row)")
        }
        return lines.joined(separator: "; ")
    }

    /// The first conflict of an undo or redo that does not name the value kept and the change
    /// that made it (the stack of the barrier that last wrote it, or nil when none in history
    /// did), both read in `model` as it was before the replay of the action `replaying`: a
    /// conflict names a row by its key then, and the replay leaves the kept value as it was.
    static func conflictMismatch(
        _ event: UndoEvent, in model: ReferenceModel, replaying action: Int
    ) -> String? {
        for conflict in event.conflicts where conflict.reason == .changedSince {
            guard let column = conflict.column,
                let keptFrom = model.keptFrom(
                    conflict.table, conflict.rowid, column, replaying: action)
            else { continue }
            let kept = model.row(conflict.table, conflict.rowid)?[column]
            if conflict.kept != kept || conflict.keptFrom != keptFrom {
                return "\(event.kind) \(event.name) kept \(conflict.table).\(column) of row "
                    + "\(conflict.rowid): \(conflict.kept.map { "\($0)" } ?? "nil") from "
                    + "\(conflict.keptFrom ?? "nil"), model: \(kept.map { "\($0)" } ?? "nil") "
                    + "from \(keptFrom ?? "nil") (\(model.describeWriter(conflict.table, conflict.rowid, column)))"
            }
        }
        return nil
    }

    /// The first conflict naming a row that holds the unique value (or id) it could not put
    /// back (`heldBy`, `restoring`) where the model's row there, after the replay, holds
    /// another value.
    static func holderMismatch(_ event: UndoEvent, in model: ReferenceModel) -> String? {
        for conflict in event.conflicts {
            guard let column = conflict.column, let holder = conflict.heldBy,
                let restoring = conflict.restoring
            else { continue }
            // The model keeps a row's id as its key, not among its values.
            let row = model.row(conflict.table, holder)
            let held = column == "id" ? row.map { _ in .integer(holder) } : row?[column]
            if held != restoring {
                return "\(event.kind) \(event.name): \(conflict), but the model's row \(holder) "
                    + "holds \(held.map { "\($0)" } ?? "nothing") in \(column)"
            }
        }
        return nil
    }

    /// What a take-back's event says that the model's take-back does not: another kind or name;
    /// among its affected rows, a row the step never wrote, or none for a row the take-back
    /// changed (by its key after the take-back); among its conflicts, none for a column the
    /// model kept. (`conflictMismatch` checks what the conflicts say.)
    static func takeBackMismatch(_ event: UndoEvent, _ expected: ReferenceModel.TakeBack)
        -> String?
    {
        let name = expected.record.name
        guard event.kind == .undo, event.name == name else {
            return "take back gave \(event.kind) \(event.name), model: undo \(name)"
        }
        var written: [String: Set<Int64>] = [:]
        // The step's rows, and where the take-back found them (another action moved them since).
        for change in expected.step.changes + expected.rowsFound {
            written[change.table, default: []].formUnion(
                [change.original, change.current].compactMap { $0 })
        }
        for (table, rowids) in event.affectedRows.sorted(by: { $0.key < $1.key }) {
            let others = rowids.subtracting(written[table] ?? [])
            if !others.isEmpty {
                return
                    "\(name) affected \(table) rows \(others.sorted()), which its step never wrote"
            }
        }
        for change in expected.record.changes where ReferenceModel.isEffective(change) {
            guard let rowid = change.current ?? change.original,
                !(event.affectedRows[change.table]?.contains(rowid) ?? false)
            else { continue }
            return "\(name) changed \(change.table) row \(rowid), not among its affected rows "
                + "\(event.affectedRows)"
        }
        let reported = Set(
            event.conflicts.compactMap { conflict in
                conflict.column.map {
                    ReferenceModel.KeptCell(
                        row: ReferenceModel.RowKey(table: conflict.table, rowid: conflict.rowid),
                        column: $0)
                }
            })
        guard let missing = expected.kept.subtracting(reported).first else { return nil }
        return "\(name) kept \(missing.row.table).\(missing.column) of row \(missing.row.rowid) "
            + "without a conflict; conflicts: \(event.conflicts)"
    }

    /// How a preview's event differs from what was then done, or nil: its name, the rows it
    /// touched, or the changes it kept (value, reason and stack).
    static func difference(_ preview: UndoEvent, _ done: UndoEvent) -> String? {
        func kept(_ event: UndoEvent) -> [String] {
            event.conflicts.map { conflict in
                "\(conflict) (\(conflict.kept.map { "\($0)" } ?? "nil"), \(conflict.reason), "
                    + "from \(conflict.keptFrom ?? "nil"))"
            }
        }
        if preview.kind != done.kind || preview.name != done.name {
            return "is \(preview.kind) \(preview.name), not \(done.kind) \(done.name)"
        }
        if preview.affectedRows != done.affectedRows {
            return "touches \(preview.affectedRows), not \(done.affectedRows)"
        }
        if kept(preview) != kept(done) { return "keeps \(kept(preview)), not \(kept(done))" }
        return nil
    }

    /// What a take-back's preview (made just before it) says that the take-back does not: its
    /// event, whether it changes anything, or the tables with the step taken back (which must
    /// be the model's after the take-back).
    func previewMismatch(
        _ preview: (event: UndoEvent, restores: Bool, value: Snapshot), of event: UndoEvent,
        restoring: Bool
    ) -> String? {
        if let difference = Self.difference(preview.event, event) {
            return "the take-back's preview \(difference)"
        }
        if preview.restores != restoring {
            return "preview says it restores: \(preview.restores), model: \(restoring)"
        }
        let expected = modelSnapshot()
        for table in ModelSchema.trackedTables where preview.value[table] != expected[table] {
            return "preview read \(table) "
                + Self.difference(preview.value[table] ?? [], expected[table] ?? [])
        }
        return nil
    }

    /// Undoes up to 40 of a random stack's actions, then redoes as many: the tables must be
    /// back exactly as before (and match the model on the way).
    mutating func roundTrip() throws -> String? {
        let stackID = Self.stackIDs[random.next(below: Self.stackIDs.count)]
        let registered = model.undo[stackID, default: []].filter { !$0.isOpen }.count
        let count = min(registered, 1 + random.next(below: 40))
        let before = try snapshot()
        let redoCount = model.redo[stackID, default: []].count
        var undone = 0
        while undone < count, try replay(stackID, undoing: true).outcome == .replayed {
            undone += 1
        }
        if let mismatch = try mismatch(fullStacks: true) {
            return "round trip, after \(undone) undos on \(stackID): \(mismatch)"
        }
        // An undo that restored nothing (all of it changed since) leaves nothing to redo.
        let redoable = model.redo[stackID, default: []].count - redoCount
        for _ in 0..<redoable { _ = try replay(stackID, undoing: false) }
        if let mismatch = try mismatch(fullStacks: true) {
            return "round trip, after \(undone) undos and redos on \(stackID): \(mismatch)"
        }
        let after = try snapshot()
        for table in ModelSchema.trackedTables where after[table] != before[table] {
            return "round trip of \(undone) undos and redos on \(stackID) changed \(table): "
                + Self.difference(after[table] ?? [], before[table] ?? [])
        }
        return nil
    }
}
