import Foundation
import SQLiteDatabase
import Synchronization
import TestSupport

@testable import SQLiteUndo

/// One seeded run: the database (a file, reopened now and then), its engine, the test's clock,
/// and the model. Each `step()` makes one random operation in both; `ModelRun+Checks` compares.
struct ModelRun {
    static let stackIDs = ["pane-1", "pane-2", "pane-3", "pane-4"]
    static let pool: [SQLiteValue] = [
        .null, 0, 1, 42, .integer(Int64.min), .integer(Int64.max), 0.5, -2.25, 1e300,
        "", "a", "tab\there", "line\nbreak", "quote'\"", "emoji 😀", "漢字",
        .blob([]), .blob([0, 1, 255]),
    ]
    static let words = ["alpha", "beta", "gamma", "漢字", "emoji😀", "tab\there", "o'clock"]
    /// 600 bytes a body may start with.
    static let longText = String(
        repeating: "lorem ipsum\tdolor sit amet,\nconsectetur 漢字 ", count: 12)
    /// How far the clock moves at a time (ms): often not at all, sometimes past the merge
    /// interval.
    static let clockSteps: [Int64] = [0, 0, 250, 250, 500, 1000, 1250, 60_000]

    /// The engine's clock, set from `now`.
    final class Clock: Sendable {
        let now: Mutex<Int64>
        init(_ now: Int64) { self.now = Mutex(now) }
    }

    var random: SeededRandom
    let folder: TemporaryFolder
    var db: DatabaseQueue
    var engine: UndoEngine
    var model: ReferenceModel
    /// The test's clock in milliseconds: the `clock` table, the engine's clock, and the model's.
    var now: Int64 = 1_700_000_000_000
    let clock: Clock
    var nextRowid: Int64 = 1
    var deletedRowids: [Int64] = []
    var nextRecordID = 0
    var nextCode = 0
    var nextColumn = 0
    /// The row each stack types into (coalescing runs).
    var typing: [String: Int64] = [:]
    /// A mismatch seen inside a step (an undo's event, an unexpected error), reported after it.
    var issue: String?
    /// The engine's threshold for dropping the capture trigger.
    let rowsWorthSuspendingCapture: Int
    /// The coalescing merge interval the model applies (ms).
    let mergeInterval: Int64 = 1000  // ms: `UndoStack.mergeInterval`'s default

    /// The parts of the schema and operations this run has.
    let features: Set<ModelSchema.Feature>

    init(seed: UInt64, rowsWorthSuspendingCapture: Int, features: Set<ModelSchema.Feature>) throws {
        self.features = features
        random = SeededRandom(seed: seed)
        folder = try TemporaryFolder(prefix: "model")
        self.rowsWorthSuspendingCapture = rowsWorthSuspendingCapture
        clock = Clock(now)
        model = ModelSchema.initialModel(now: now, features: features)
        let created = try DatabaseQueue(path: folder.path("model.db"))
        try created.write { [now] in try ModelSchema.create($0, now: now, features: features) }
        created.close()
        (db, engine) = try Self.open(folder, rowsWorthSuspendingCapture, clock)
    }

    static func open(
        _ folder: TemporaryFolder, _ rowsWorthSuspendingCapture: Int, _ clock: Clock
    ) throws -> (DatabaseQueue, UndoEngine) {
        let db = try DatabaseQueue(path: folder.path("model.db"))
        // A row an `OR REPLACE` deletes fires the delete triggers (which keep the FTS5 index).
        try db.write { try $0.execute("PRAGMA recursive_triggers = ON") }
        let engine = try UndoEngine(
            for: db, tableNames: ModelSchema.trackedTables,
            rowsWorthSuspendingCapture: rowsWorthSuspendingCapture)
        engine.clock = { ModelSchema.date(clock.now.withLock { $0 }) }
        return (db, engine)
    }

    mutating func step() throws -> String {
        if random.next(below: 2) == 0 { try advanceClock() }
        let stackID = Self.stackIDs[random.next(below: 4)]
        let stack = try engine.stack(id: stackID)
        switch random.next(below: 100) {
        case 30..<40 where features.contains(.typing):
            return try typingRun(on: stack)
        case 40..<45 where features.contains(.untracked):
            var none: ReferenceModel.BarrierRecord?
            return "untracked " + (try write(&none))
        case 45..<47 where features.contains(.untracked):
            return try writeWithUndoDisabled()
        case 0..<47:
            return try barrier(on: stack, nested: random.next(below: 8) == 0)
        case 47..<52 where features.contains(.history):
            return try takeBack()
        case 52..<54 where features.contains(.history):
            return try replayToAStep(undoing: true)
        case 47..<72:
            return try replay(stackID, undoing: true).described
        case 72..<74 where features.contains(.history):
            return try replayToAStep(undoing: false)
        case 74..<76 where features.contains(.history):
            return try goToAStep()
        case 76..<77 where features.contains(.history):
            return try travelInTime()
        case 72..<100 where random.next(below: 2000) == 0:
            try reopen()
            return "reopen"
        case 72..<100 where random.next(below: 2000) == 0:
            return try migrate()
        default:
            return try replay(stackID, undoing: false).described
        }
    }

    /// Closes the database; its folder goes with the run, unless kept (`folder.keep()`).
    func close() {
        db.close()
    }

    mutating func reopen() throws {
        db.close()
        (db, engine) = try Self.open(folder, rowsWorthSuspendingCapture, clock)
        // What a coalescing barrier may merge into is kept in memory only.
        model.coalescible = [:]
    }

    /// Moves the test's clock (the `clock` table, untracked, and the engine's clock).
    mutating func advanceClock() throws {
        now += Self.clockSteps[random.next(below: Self.clockSteps.count)]
        clock.now.withLock { [now] in $0 = now }
        try db.write { [now] in try $0.execute("UPDATE clock SET now = ?", [.integer(now)]) }
    }

    // MARK: Barriers

    mutating func barrier(on stack: UndoStack, nested: Bool) throws -> String {
        var record: ReferenceModel.BarrierRecord? = newRecord("B")
        var inner: ReferenceModel.BarrierRecord? = newRecord("Inner")
        var described: [String] = []
        // A barrier is filed when its first change commits (an outer one that changed something
        // before its inner one began is listed below it), and registers when its block returns:
        // until then an undo or redo between its writes passes it by.
        try withUndoStack(stack) {
            try undoable("B") {
                for _ in 0..<(1 + random.next(below: 3)) {
                    described.append(try write(&record))
                    if let record { model.file(record, on: stack.id, at: now) }
                    if random.next(below: 3) == 0 { try advanceClock() }
                    if random.next(below: 12) == 0 { described.append(try replayMeanwhile()) }
                }
                if nested {
                    try undoable("Inner") { described.append("[" + (try write(&inner)) + "]") }
                    if let inner { model.file(inner, on: stack.id, at: now) }
                    if let inner { model.register(inner, on: stack.id) }
                    described.append(try write(&record))
                    if let record { model.file(record, on: stack.id, at: now) }
                }
            }
        }
        if let record { model.register(record, on: stack.id) }
        return "barrier on \(stack.id): " + described.joined(separator: ", ")
    }

    /// A barrier's record in the model, with an id of its own.
    mutating func newRecord(_ name: String, coalescing key: String? = nil)
        -> ReferenceModel.BarrierRecord
    {
        nextRecordID += 1
        return ReferenceModel.BarrierRecord(name: name, id: nextRecordID, coalescingKey: key)
    }

    /// A few typing steps on one stack close together, sometimes interrupted by another stack's
    /// typing into, or editing, the same row.
    mutating func typingRun(on stack: UndoStack) throws -> String {
        var described: [String] = []
        for index in 0..<(1 + random.next(below: 4)) {
            if index > 0, random.next(below: 2) == 0 { try advanceClock() }
            if index > 0, random.next(below: 4) == 0, let rowid = typing[stack.id] {
                let other = try engine.stack(id: Self.stackIDs[random.next(below: 4)])
                if random.next(below: 2) == 0 {
                    typing[other.id] = rowid
                    described.append("(" + (try type(on: other)) + ")")
                } else {
                    var record: ReferenceModel.BarrierRecord? = newRecord("B")
                    // A plain column (a migration may have renamed or dropped "a").
                    let column =
                        model.columns["t", default: []].first {
                            !ModelSchema.fixedColumns.contains($0)
                        } ?? "stamp"
                    let set: ReferenceModel.Values = [column: value(for: column)]
                    try withUndoStack(other) {
                        try undoable("B") { try updateItems([(rowid, rowid, set)], &record) }
                    }
                    if let record { model.file(record, on: other.id, at: now) }
                    if let record { model.register(record, on: other.id) }
                    described.append("(update \(rowid) [\(column)] on \(other.id))")
                }
            }
            described.append(try type(on: stack))
        }
        return described.joined(separator: ", ")
    }

    /// One step of typing into a row's body, coalescing with the stack's previous step. A stack
    /// mostly keeps typing into its row; sometimes it types into another stack's, which must
    /// keep that stack's next step from merging.
    mutating func type(on stack: UndoStack) throws -> String {
        var rowid = typing[stack.id]
        if random.next(below: 4) == 0 { rowid = typing[Self.stackIDs[random.next(below: 4)]] }
        if rowid.map({ model.row("t", $0) == nil }) ?? true || random.next(below: 10) == 0 {
            rowid = existingRowid()
        }
        guard let rowid, let old = model.row("t", rowid) else { return "skip" }
        typing[stack.id] = rowid
        let key = "t\(rowid).body"
        var text = Self.words[random.next(below: Self.words.count)]
        if case .text(let typed) = old["body"] {
            if features.contains(.longBodies) {
                // At the start, in the middle or at the end.
                var words = typed.split(separator: " ", omittingEmptySubsequences: false).map(
                    String.init)
                words.insert(text, at: random.next(below: words.count + 1))
                text = words.joined(separator: " ")
            } else {
                text = typed + " " + text
            }
        }
        try withUndoStack(stack) {
            try undoable("Type", coalescing: key) {
                try db.write {
                    try $0.execute(
                        "UPDATE t SET body = ? WHERE id = ?", [.text(text), .integer(rowid)])
                }
            }
        }
        let before = model
        var step: ReferenceModel.BarrierRecord? = newRecord("Type", coalescing: key)
        model.updateItem(rowid, to: rowid, set: ["body": .text(text)], now: now, in: &step)
        guard let step, step.wrote else { return "type into \(rowid) on \(stack.id): no change" }
        let refusal = before.mergeRefusal(step, on: stack.id, at: now, interval: mergeInterval)
        if refusal == nil, let target = before.mergeTarget(on: stack.id) {
            model = before
            var merged: ReferenceModel.BarrierRecord? = target
            model.updateItem(rowid, to: rowid, set: ["body": .text(text)], now: now, in: &merged)
            if let merged { model.replaceTop(with: merged, on: stack.id, at: now) }
            return "type into \(rowid) on \(stack.id), merged"
        }
        model.file(step, on: stack.id, at: now)
        model.register(step, on: stack.id)
        return "type into \(rowid) on \(stack.id) (not merged: \(refusal ?? "-"))"
    }

    /// A write inside `withUndoDisabled`, sometimes in a barrier: not recorded anywhere.
    mutating func writeWithUndoDisabled() throws -> String {
        var none: ReferenceModel.BarrierRecord?
        var described = ""
        let inBarrier = random.next(below: 2) == 0
        try withUndoDisabled {
            if inBarrier {
                try undoable("Disabled") { described = try write(&none) }
            } else {
                described = try write(&none)
            }
        }
        return "undo disabled\(inBarrier ? ", in a barrier" : ""): " + described
    }

    // MARK: Undo and redo

    /// An undo or redo in the database and in the model; an unexpected outcome or a conflict
    /// naming the wrong change is noted in `issue`.
    mutating func replay(_ stackID: String, undoing: Bool) throws
        -> (described: String, outcome: ReferenceModel.Replay)
    {
        let stack = try engine.stack(id: stackID)
        nextRecordID += 1
        let verb = undoing ? "undo" : "redo"
        // Conflicts name rows by their keys when the replay began (a row the replay moves back
        // to its old key is named by the key it left), so they are checked in the model then:
        // the engine replays first, and the model after (a copy of the model kept for the
        // check would make its replay copy the stack's list and the tables it changes).
        let event: Result<UndoEvent?, Error> = Result {
            try byModelIDs(undoing ? stack.undo() : stack.redo())
        }
        var conflictMismatch: String?
        if case .success(let event?) = event, features.contains(.attribution) {
            let action = model.top(of: stackID, undoing: undoing)?.actionID ?? 0
            conflictMismatch = Self.conflictMismatch(event, in: model, replaying: action)
        }
        let expected = model.replay(stack: stackID, undoing: undoing, inverseID: nextRecordID)
        switch event {
        case .success(let event):
            if expected == .failed {
                note(
                    "\(verb) succeeded where the model's would break UNIQUE(code), keeping "
                        + "\(event?.conflicts ?? [])")
            } else if (event == nil) != (expected == .nothing) {
                note("\(verb) returned \(event == nil ? "nil" : "an event"), model: \(expected)")
            }
            note(conflictMismatch)
            if let event { note(Self.holderMismatch(event, in: model)) }
        case .failure(let error):
            if expected != .failed { note("\(verb) threw \(error)") }
        }
        return ("\(verb) \(stackID)\(expected == .failed ? " (fails: UNIQUE)" : "")", expected)
    }

    /// The event with the rows of the tables the engine names by key number (`keyedTables`)
    /// named by their ids, as the model names them: the last value of each key.
    func byModelIDs(_ event: UndoEvent?) throws -> UndoEvent? {
        guard let event, features.contains(.keyedTables) else { return event }
        func id(_ table: String, _ number: Int64) throws -> Int64 {
            guard table != "t",
                case .integer(let id) = try engine.key(ofTable: table, id: number)?.last
            else { return number }
            return id
        }
        var rows: [String: Set<Int64>] = [:]
        for (table, numbers) in event.affectedRows {
            rows[table] = Set(try numbers.map { try id(table, $0) })
        }
        let conflicts = try event.conflicts.map { conflict in
            UndoConflict(
                table: conflict.table, rowid: try id(conflict.table, conflict.rowid),
                column: conflict.column, kept: conflict.kept, keptFrom: conflict.keptFrom,
                reason: conflict.reason, restoring: conflict.restoring,
                heldBy: try conflict.heldBy.map { try id(conflict.table, $0) })
        }
        return UndoEvent(
            kind: event.kind, name: event.name, affectedRows: rows, conflicts: conflicts)
    }

    /// An undo or redo on a random stack while a barrier runs.
    mutating func replayMeanwhile() throws -> String {
        if random.next(below: 2) == 0 { try advanceClock() }
        let stackID = Self.stackIDs[random.next(below: 4)]
        return "(" + (try replay(stackID, undoing: random.next(below: 2) == 0).described) + ")"
    }

    // MARK: History

    /// A random stack whose undo (or redo) list has a step, and its steps, newest first.
    mutating func stackWithSteps(undoing: Bool) throws -> (UndoStack, UndoSteps)? {
        var lists: [(UndoStack, UndoSteps)] = []
        for id in Self.stackIDs {
            let stack = try engine.stack(id: id)
            let steps = undoing ? stack.history.undo : stack.history.redo
            if !steps.isEmpty { lists.append((stack, steps)) }
        }
        return lists.isEmpty ? nil : lists[random.next(below: lists.count)]
    }

    /// Takes back a random past step of a random stack (`UndoStack.revert`): often one of the
    /// last few, sometimes any, deep in a list of up to 1,000; now and then through another
    /// stack (`revert(_:of:)`), whose step the take-back then is. In the model, the same
    /// take-back (`ReferenceModel.takeBack`); an outcome or event it does not expect is noted in
    /// `issue`. Sometimes previewed first (`previewRevert`): the same event, and the tables the
    /// model has after the take-back.
    mutating func takeBack() throws -> String {
        guard let (owner, steps) = try stackWithSteps(undoing: true) else {
            return "take back: no stack has a step"
        }
        let reach = [3, 40, steps.count][random.next(below: 3)]
        let depth = random.next(below: min(steps.count, reach))
        let step = steps[depth]
        let taker =
            random.next(below: 4) == 0
            ? try engine.stack(id: Self.stackIDs[random.next(below: 4)]) : owner
        let previewing = random.next(below: 4) == 0
        nextRecordID += 1
        // Conflicts are read in the model as it was when the take-back began (see `replay`).
        let before = model
        var described = "take back \(step.name) (\(depth) below the top) of \(owner.id)"
        if taker !== owner { described += " on \(taker.id)" }
        guard
            let expected = model.takeBack(
                depth, of: owner.id, by: taker.id, recordID: nextRecordID, at: now),
            expected.step.name == step.name
        else {
            note("\(described): the model's step \(depth) is another")
            return described
        }
        var preview: (event: UndoEvent, restores: Bool, value: Snapshot)?
        do {
            if previewing {
                let previewed = try taker.previewRevert(step, of: owner) { try snapshot(in: $0) }
                if let event = try byModelIDs(previewed.event) {
                    preview = (event, previewed.restores, previewed.value)
                }
            }
        } catch {
            if expected.outcome != .failed { note("\(described): its preview threw \(error)") }
        }
        do {
            let event = try byModelIDs(taker.revert(step, of: owner))
            if expected.outcome == .failed {
                note("\(described) succeeded where the model's would break UNIQUE(code)")
            } else if let event {
                note(Self.takeBackMismatch(event, expected))
                if features.contains(.attribution) {
                    note(
                        Self.conflictMismatch(event, in: before, replaying: expected.step.actionID))
                }
                if let preview {
                    note(previewMismatch(preview, of: event, restoring: expected.record.wrote))
                }
            } else {
                note("\(described) returned nil")
            }
        } catch {
            if expected.outcome != .failed { note("\(described) threw \(error)") }
        }
        switch expected.outcome {
        case .failed: return described + " (fails: UNIQUE)"
        case _ where !expected.record.wrote: return described + ", nothing filed"
        default: return described
        }
    }

    /// Undoes a random stack's steps down to one of its undo list (`UndoStack.undo(to:)`), or
    /// redoes them up to one of its redo list (`redo(to:)`), mostly a few, sometimes dozens: in
    /// the model, as many undos or redos, one at a time; each event is checked as `replay`
    /// checks an undo's. Undos are sometimes previewed first (`previewUndo(to:)`): the same
    /// events.
    mutating func replayToAStep(undoing: Bool) throws -> String {
        let verb = undoing ? "undo" : "redo"
        guard let (stack, steps) = try stackWithSteps(undoing: undoing) else {
            return "\(verb) to a step: no stack has one"
        }
        let depth = random.next(below: min(steps.count, random.next(below: 4) == 0 ? 40 : 8))
        let step = steps[depth]
        // Undo to a step: the ones above it; redo to a step: it and the ones before it.
        let count = undoing ? depth : depth + 1
        var expected: [(name: String, before: ReferenceModel, action: Int)] = []
        var outcome = ReferenceModel.Replay.replayed
        for _ in 0..<count where outcome == .replayed {
            nextRecordID += 1
            let before = model
            let record = before.top(of: stack.id, undoing: undoing)
            outcome = model.replay(stack: stack.id, undoing: undoing, inverseID: nextRecordID)
            if outcome == .replayed, let record {
                expected.append((record.name, before, record.actionID))
            }
        }
        let described =
            "\(verb) to \(step.name) (\(depth) from the top, \(count) \(verb)s) on \(stack.id)"
        var preview: [UndoEvent]?
        if undoing, random.next(below: 4) == 0 {
            do {
                preview = try stack.previewUndo(to: step).compactMap { try byModelIDs($0) }
            } catch {
                if outcome != .failed { note("\(described): its preview threw \(error)") }
            }
        }
        do {
            let events = try (undoing ? stack.undo(to: step) : stack.redo(to: step)).compactMap {
                try byModelIDs($0)
            }
            if let preview, preview.count != events.count {
                note("\(described): the preview has \(preview.count) undos, not \(events.count)")
            } else if let preview {
                for (index, (previewed, made)) in zip(preview, events).enumerated() {
                    guard let difference = Self.difference(previewed, made)
                    else { continue }
                    note("\(described): the preview's undo \(index) \(difference)")
                }
            }
            if outcome != .replayed {
                note("\(described) did \(events.count), where the model's stops: \(outcome)")
            } else if events.map(\.name) != expected.map(\.name) {
                note("\(described) did \(events.map(\.name)), model: \(expected.map(\.name))")
            } else if features.contains(.attribution) {
                for (event, replay) in zip(events, expected) {
                    note(Self.conflictMismatch(event, in: replay.before, replaying: replay.action))
                }
            }
        } catch {
            if outcome != .failed { note("\(described) threw \(error)") }
        }
        return described + (outcome == .failed ? " (fails: UNIQUE)" : "")
    }

    mutating func note(_ mismatch: String?) {
        if issue == nil { issue = mismatch }
    }

    // MARK: Migrations

    /// Adds, renames or drops a column of `t` through `UndoEngine.migrate`, or with the engine
    /// closed, recreating the stamp trigger for the new columns (as an app's migration would).
    mutating func migrate() throws -> String {
        let plain = model.columns["t", default: []].filter {
            !ModelSchema.fixedColumns.contains($0)
        }
        nextColumn += 1
        var sql: String
        var described: String
        var columns = model.columns["t", default: []]
        switch plain.count < 2 ? 0 : random.next(below: 3) {
        case 0:
            let column = "x\(nextColumn)"
            let defaults: [(String, SQLiteValue)] = [("NULL", .null), ("7", 7), ("'d'", "d")]
            let (literal, value) = defaults[random.next(below: defaults.count)]
            sql = "ALTER TABLE t ADD COLUMN \(column) DEFAULT \(literal)"
            model.addColumn(column, to: "t", default: value)
            columns.append(column)
            described = "add column \(column) default \(literal)"
        case 1:
            let old = plain[random.next(below: plain.count)]
            let new = "r\(nextColumn)"
            sql = "ALTER TABLE t RENAME COLUMN \(old) TO \(new)"
            model.renameColumn(old, to: new, in: "t")
            columns = columns.map { $0 == old ? new : $0 }
            described = "rename column \(old) to \(new)"
        default:
            let column = plain[random.next(below: plain.count)]
            sql = "ALTER TABLE t DROP COLUMN \(column)"
            model.dropColumn(column, from: "t")
            columns = columns.filter { $0 != column }
            described = "drop column \(column)"
        }
        let stamps = features.contains(.stamp)
        let body = { (db: Database) in
            if stamps { try db.execute("DROP TRIGGER t_stamp") }
            try db.execute(sql)
            if stamps { try db.execute(ModelSchema.createStampTriggerSQL(columns: columns)) }
        }
        guard random.next(below: 2) == 0 else {
            try engine.migrate(body)
            return "migration: " + described
        }
        // Another program's migration (or the app's, before it opens its engine).
        db.close()
        let other = try DatabaseQueue(path: folder.path("model.db"))
        try other.write(body)
        other.close()
        try reopen()
        return "migration while no engine ran: " + described
    }
}
