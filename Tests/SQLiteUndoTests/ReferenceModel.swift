import SQLiteDatabase

/// A small reference model of the undo semantics, independent of the engine's triggers, log and
/// SQL: tables as dictionaries, each barrier's net change tracked directly from the operations it
/// performs, and the conflict rule applied column by column.
///
/// Every cell remembers which record wrote its value last (for conflicts' `keptFrom`), and every
/// row when it last changed and by whom (for coalescing). The application's triggers are
/// simulated by `ReferenceModel+App` for forward writes only: a replay restores exactly what the
/// undo promises, whatever the triggers write meanwhile.
struct ReferenceModel {
    typealias Values = [String: SQLiteValue]

    /// A row of a table, by its rowid.
    struct RowKey: Hashable {
        var table: String
        var rowid: Int64
    }

    /// A row's values and who made them.
    struct StoredRow {
        var values: Values
        /// The record that wrote each column's value last (0: no record).
        var writers: [String: Int]
        /// The record of the last change to the row (0: no record), and the change's sequence.
        /// An update outside any barrier is noted per column instead (`outsideWrites`): the
        /// engine sees it only in the values it left.
        var changedBy: Int
        var changedAt: Int
        /// When an update outside any barrier last wrote each column.
        var outsideWrites: [String: Int] = [:]
        /// The values each column held before its current one (since the row was inserted).
        var heldValues: [String: Set<SQLiteValue>] = [:]
        /// Columns whose writer the engine cannot know: the row took another key outside any
        /// barrier (another program's change, which the log does not see), so the log's writes
        /// at that key may be another row's, until a recorded write of the column.
        var untraceable: Set<String> = []
    }

    /// A column of a row whose value a replay kept.
    struct KeptCell: Hashable {
        var row: RowKey
        var column: String
    }

    /// What one barrier did to one row (identified by its rowid when the barrier began).
    struct RowChange {
        var table: String
        var original: Int64?  // nil: inserted by the barrier
        var current: Int64?  // nil: deleted by the barrier
        var before: Values = [:]  // first original of each column written
        var beforeWriters: [String: Int] = [:]  // the record that wrote each of those originals
        var after: Values = [:]  // last value written to each column
        var fullBefore: Values?  // the whole original row (for a delete)
        var fullAfter: Values?  // the whole row as inserted (for an insert)
        var lastTouch = 0  // the sequence of the barrier's last change to the row
        var moved = false  // the barrier changed its key (maybe back)
    }

    struct BarrierRecord {
        var name: String
        /// Tells records apart: the writer of a cell, a barrier's entry while its block runs.
        var id: Int
        var coalescingKey: String? = nil
        /// A replay's inverse (never merged into).
        var isInverse = false
        /// The barrier a replay's inverse takes back or applies again (0: this one): the same
        /// action in history, whose writes stay attributed to its stack.
        var action = 0
        /// Filed (its first change committed) but not registered: its block still runs.
        var isOpen = false
        var changes: [RowChange] = []
        /// Which change each row the barrier touched belongs to now.
        var byRow: [RowKey: Int] = [:]
        /// Whether the barrier wrote anything (the engine registers a barrier that logged rows).
        var wrote = false
        /// The clock when it was filed or last merged into (milliseconds).
        var closedAt: Int64 = 0
        /// A replay's inverse: when the action was done (the `closedAt` of its first record).
        var doneAt: Int64? = nil
        /// The action it was done on (the top of the undo list then; 0: the history's start).
        var parent = 0
        /// The sequence of the barrier's first change to each row.
        var firstTouch: [RowKey: Int] = [:]
        /// Who changed each row it changed, and when, last before it (`StoredRow.changedBy`,
        /// `changedAt`): what the row reads as again when the barrier's writes cancel out.
        var touchedBefore: [RowKey: (by: Int, at: Int)] = [:]
        /// The counts of `recordedTouches` at its first and last change, and its own changes:
        /// others changed rows in between when the range holds more.
        var touches: ClosedRange<Int>?
        var ownTouches = 0

        /// Whether its writes cancel out, and nobody else's recorded write came between them
        /// (its own then wrote over theirs): it does not register.
        var cancelsOut: Bool {
            wrote && !changes.contains(where: ReferenceModel.isEffective)
                && (touches?.count ?? 0) == ownTouches
        }

        var actionID: Int { action == 0 ? id : action }
        /// When the action was done, as the engine orders steps in time.
        var stepDate: Int64 { doneAt ?? closedAt }

        /// Whether the action was done before `other`'s: by time, then by id, as the engine.
        func isDone(before other: BarrierRecord) -> Bool {
            (stepDate, actionID) < (other.stepDate, other.actionID)
        }
    }

    /// The stack and action of each record id, in chunks of consecutive ids: a replay keeps a
    /// copy of the model (`before`) and then writes an entry, which copies one chunk, not the
    /// entries of every record of the run (a dictionary copy that grew with the run's length).
    struct RecordStacks {
        static let chunkSize = 1024
        private var chunks: [[Int: (stack: String, action: Int)]] = []

        subscript(id: Int) -> (stack: String, action: Int)? {
            get {
                let chunk = id / Self.chunkSize
                return chunks.indices.contains(chunk) ? chunks[chunk][id] : nil
            }
            set {
                let chunk = id / Self.chunkSize
                if chunk >= chunks.count {
                    chunks.append(contentsOf: repeatElement([:], count: chunk - chunks.count + 1))
                }
                chunks[chunk][id] = newValue
            }
        }
    }

    var tables: [String: [Int64: StoredRow]] = [:]
    /// Each table's columns, in order, without the rowid.
    var columns: [String: [String]] = [:]
    /// Values of columns added by a migration, for rows recorded before.
    var defaults: [String: Values] = [:]
    var undo: [String: [BarrierRecord]] = [:]
    var redo: [String: [BarrierRecord]] = [:]
    /// Undone steps of the branches new actions left, in the order they were done.
    var kept: [String: [BarrierRecord]] = [:]
    /// The stack and action of each record id.
    var recordStacks = RecordStacks()
    /// The record a coalescing barrier of each stack may merge into.
    var coalescible: [String: Int] = [:]
    /// Ids of the barriers filed on each stack whose blocks still run.
    var open: [String: Set<Int>] = [:]
    /// Counts changes, for `StoredRow.changedAt` and `BarrierRecord.firstTouch`.
    var sequence = 0
    /// Counts changes by records (barriers, replays), for `BarrierRecord.touches`.
    var recordedTouches = 0
    /// Every key change, insert and delete a barrier or a replay made (the log's), in the order
    /// they took effect: an undo follows there a row its step changed in place that moved since.
    var keyMoves: [KeyMove] = []

    struct KeyMove {
        var table: String
        /// Nil for an insert.
        var from: Int64?
        /// Nil for a delete.
        var to: Int64?
        /// The `sequence` of the move.
        var at: Int
    }
    /// The row a change outside any barrier last took away from each key (a delete, or a move
    /// to another key), until a recorded change brings a row there: the log saw neither, so to
    /// the engine a row inserted there outside any barrier is that row with new values (see
    /// `keepTrail`).
    var trails: [RowKey: StoredRow] = [:]
    /// The parts of the schema the run has (which application triggers to simulate).
    var features = Set(ModelSchema.Feature.allCases)
    static let levels = 1000

    init(columns: [String: [String]]) {
        self.columns = columns
        for table in columns.keys { tables[table] = [:] }
    }

    func row(_ table: String, _ rowid: Int64) -> Values? { tables[table]?[rowid]?.values }

    /// Notes a change to a row by the record `writer` (0: none).
    private mutating func touch(_ key: RowKey, in record: inout BarrierRecord?) {
        if let id = record?.id, let row = tables[key.table]?[key.rowid], row.changedBy != id {
            record?.touchedBefore[key] = (row.changedBy, row.changedAt)
        }
        sequence += 1
        tables[key.table]?[key.rowid]?.changedBy = record?.id ?? 0
        tables[key.table]?[key.rowid]?.changedAt = sequence
        guard record != nil else { return }
        record?.wrote = true
        recordedTouches += 1
        record?.ownTouches += 1
        let first = record?.touches?.lowerBound ?? recordedTouches
        record?.touches = first...recordedTouches
        if record?.firstTouch[key] == nil { record?.firstTouch[key] = sequence }
    }

    // MARK: Writes, recorded into the innermost open barrier (if any)

    mutating func insert(
        _ table: String, _ rowid: Int64, _ values: Values, into barrier: inout BarrierRecord?
    ) {
        let writer = barrier?.id ?? 0
        let key = RowKey(table: table, rowid: rowid)
        let trail = trails.removeValue(forKey: key)
        tables[table]?[rowid] = StoredRow(
            values: values, writers: values.mapValues { _ in writer }, changedBy: writer,
            changedAt: 0)
        touch(key, in: &barrier)
        guard var record = barrier else {
            if let trail { keepTrail(of: trail, replacedAt: rowid, in: table) }
            return
        }
        keyMoves.append(KeyMove(table: table, from: nil, to: rowid, at: sequence))
        if let index = record.byRow[key], record.changes[index].current == nil {
            // deleted then inserted again at the same rowid: an update from the original
            record.changes[index].current = rowid
            record.changes[index].fullAfter = values
            record.changes[index].lastTouch = sequence
            for (column, value) in values {
                record.changes[index].before[column] = record.changes[index].fullBefore?[column]
                record.changes[index].after[column] = value
            }
        } else {
            record.byRow[key] = record.changes.count
            record.changes.append(
                RowChange(
                    table: table, original: nil, current: rowid, fullAfter: values,
                    lastTouch: sequence))
        }
        barrier = record
    }

    /// Updates (and moves, when `newRowid` differs) a row; false when there is no such row.
    @discardableResult
    mutating func update(
        _ table: String, _ rowid: Int64, to newRowid: Int64, set: Values,
        in barrier: inout BarrierRecord?
    ) -> Bool {
        guard var stored = tables[table]?[rowid] else { return false }
        let found = stored
        let old = stored.values
        let written = set.keys.filter { old[$0] != set[$0] }
        guard !written.isEmpty || rowid != newRowid else { return true }
        let oldWriters = stored.writers
        let writer = barrier?.id ?? 0
        for column in written {
            stored.heldValues[column, default: []].insert(old[column] ?? .null)
            stored.values[column] = set[column]
            stored.writers[column] = writer
            if writer != 0 { stored.untraceable.remove(column) }
        }
        if barrier == nil, rowid == newRowid {
            sequence += 1
            for column in written { stored.outsideWrites[column] = sequence }
            tables[table]?[rowid] = stored
            return true
        }
        // A key change outside any barrier is not in the log: what the row brings to its new key
        // was put there by a write outside any barrier.
        if barrier == nil {
            stored.writers = stored.writers.mapValues { _ in 0 }
            stored.untraceable = Set(stored.values.keys)
        }
        trails[RowKey(table: table, rowid: rowid)] = barrier == nil ? found : nil
        trails[RowKey(table: table, rowid: newRowid)] = nil
        tables[table]?[rowid] = nil
        tables[table]?[newRowid] = stored
        touch(RowKey(table: table, rowid: rowid), in: &barrier)
        touch(RowKey(table: table, rowid: newRowid), in: &barrier)
        guard var record = barrier else { return true }
        if rowid != newRowid {
            keyMoves.append(KeyMove(table: table, from: rowid, to: newRowid, at: sequence))
        }
        let key = RowKey(table: table, rowid: rowid)
        let index: Int
        if let existing = record.byRow[key], record.changes[existing].current == rowid {
            index = existing
            record.byRow[key] = nil
        } else {
            index = record.changes.count
            record.changes.append(RowChange(table: table, original: rowid, current: rowid))
        }
        var change = record.changes[index]
        for column in written {
            if change.original != nil, change.before[column] == nil {
                change.before[column] = old[column]
                change.beforeWriters[column] = oldWriters[column]
            }
            change.after[column] = stored.values[column]
            if change.original == nil { change.fullAfter?[column] = stored.values[column] }
            // Writes that net to nothing (a count up, then down) did not make the value.
            if change.before[column] == stored.values[column] {
                tables[table]?[newRowid]?.writers[column] = change.beforeWriters[column]
            }
        }
        if rowid != newRowid { change.moved = true }
        change.current = newRowid
        change.lastTouch = sequence
        record.changes[index] = change
        record.byRow[RowKey(table: table, rowid: newRowid)] = index
        barrier = record
        return true
    }

    mutating func delete(_ table: String, _ rowid: Int64, in barrier: inout BarrierRecord?) {
        guard let removed = tables[table]?.removeValue(forKey: rowid) else { return }
        let old = removed.values
        let key = RowKey(table: table, rowid: rowid)
        trails[key] = barrier == nil ? removed : nil
        touch(key, in: &barrier)
        guard var record = barrier else { return }
        keyMoves.append(KeyMove(table: table, from: rowid, to: nil, at: sequence))
        if let index = record.byRow[key], record.changes[index].current == rowid {
            if record.changes[index].original == nil {
                record.changes.remove(at: index)
                record.byRow = record.byRow.filter { $0.value != index }
                    .mapValues { $0 > index ? $0 - 1 : $0 }
            } else {
                var change = record.changes[index]
                var original = old
                for (column, value) in change.before { original[column] = value }
                change.fullBefore = original
                change.current = nil
                change.lastTouch = sequence
                record.changes[index] = change
            }
        } else {
            record.byRow[key] = record.changes.count
            record.changes.append(
                RowChange(
                    table: table, original: rowid, current: nil, fullBefore: old,
                    lastTouch: sequence))
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

    // MARK: Who wrote what

    /// The stack whose recorded action wrote a cell's value, or .some(nil) when a write outside
    /// any barrier did, or the action `replaying` (a value it left that it cannot take back is
    /// nobody else's). Nil (nothing to check) when the writer's action has left history: its
    /// log is gone, and the engine names the last writer it still has a record of; when the
    /// row took another key outside any barrier (`StoredRow.untraceable`); or when a write
    /// outside any barrier set back a value the cell held before (the engine, which does not
    /// see it, names whoever left that value).
    func keptFrom(_ table: String, _ rowid: Int64, _ column: String, replaying: Int) -> String?? {
        guard let stored = tables[table]?[rowid], let writer = stored.writers[column],
            !stored.untraceable.contains(column)
        else { return nil }
        // The log does not see writes outside any barrier: one that set back a value the cell
        // held before (a counter down and up) reads as the work of whoever left that value.
        if writer == 0,
            stored.heldValues[column]?.contains(stored.values[column] ?? .null) ?? false
        {
            return nil
        }
        guard writer != 0, let (stack, action) = recordStacks[writer], action != replaying else {
            return .some(nil)
        }
        let alive =
            undo[stack, default: []].contains { $0.actionID == action }
            || redo[stack, default: []].contains { $0.actionID == action }
            || kept[stack, default: []].contains { $0.actionID == action }
        return alive ? .some(stack) : nil
    }

    /// A row replaced outside any barrier by a new one at its key (`INSERT OR REPLACE`, or a
    /// delete or a move away, then an insert, all outside any barrier: `trails`): the log sees
    /// neither the delete nor the insert, so to the engine the row only took new values, as in an
    /// update outside any barrier. A column left with the value it had keeps its writer;
    /// the others remember the value they held.
    mutating func keepTrail(of replaced: StoredRow, replacedAt rowid: Int64, in table: String) {
        guard var row = tables[table]?[rowid] else { return }
        for (column, value) in row.values {
            let before = replaced.values[column] ?? .null
            if value == before {
                row.writers[column] = replaced.writers[column]
                row.heldValues[column] = replaced.heldValues[column]
            } else {
                row.heldValues[column] = replaced.heldValues[column, default: []].union([before])
            }
            // The log's writes at that key were another row's: whatever the value, the engine
            // may name one of them.
            if replaced.untraceable.contains(column) { row.untraceable.insert(column) }
        }
        tables[table]?[rowid] = row
    }

    /// Which record wrote a cell, for messages.
    func describeWriter(_ table: String, _ rowid: Int64, _ column: String) -> String {
        guard let writer = tables[table]?[rowid]?.writers[column], writer != 0 else {
            return "written outside any barrier"
        }
        let (stack, action) = recordStacks[writer] ?? ("?", 0)
        let record =
            (undo[stack, default: []] + redo[stack, default: []] + kept[stack, default: []])
            .first { $0.actionID == action }
        let by = "record \(writer) (action \(action)) of \(stack)"
        guard let record else { return "written by \(by), since dropped" }
        return
            "written by \(by), in history as \(record.name)\(record.isInverse ? " replayed" : "")"
    }

    // MARK: Migrations

    mutating func addColumn(_ column: String, to table: String, default value: SQLiteValue) {
        columns[table, default: []].append(column)
        defaults[table, default: [:]][column] = value
        for rowid in tables[table, default: [:]].keys {
            tables[table]?[rowid]?.values[column] = value
            tables[table]?[rowid]?.writers[column] = 0
        }
    }

    mutating func renameColumn(_ old: String, to new: String, in table: String) {
        columns[table] = columns[table, default: []].map { $0 == old ? new : $0 }
        if let value = defaults[table]?.removeValue(forKey: old) { defaults[table]?[new] = value }
        func rename(_ values: inout Values) {
            if let value = values.removeValue(forKey: old) { values[new] = value }
        }
        for rowid in tables[table, default: [:]].keys {
            rename(&tables[table]![rowid]!.values)
            if let writer = tables[table]?[rowid]?.writers.removeValue(forKey: old) {
                tables[table]?[rowid]?.writers[new] = writer
            }
            if let held = tables[table]?[rowid]?.heldValues.removeValue(forKey: old) {
                tables[table]?[rowid]?.heldValues[new] = held
            }
        }
        editChanges(of: table) { change in
            rename(&change.before)
            rename(&change.after)
            if change.fullBefore != nil { rename(&change.fullBefore!) }
            if change.fullAfter != nil { rename(&change.fullAfter!) }
        }
    }

    mutating func dropColumn(_ column: String, from table: String) {
        columns[table] = columns[table, default: []].filter { $0 != column }
        defaults[table]?[column] = nil
        for rowid in tables[table, default: [:]].keys {
            tables[table]?[rowid]?.values[column] = nil
            tables[table]?[rowid]?.writers[column] = nil
            tables[table]?[rowid]?.heldValues[column] = nil
        }
        editChanges(of: table) { change in
            change.before[column] = nil
            change.after[column] = nil
            change.fullBefore?[column] = nil
            change.fullAfter?[column] = nil
        }
        // The engine forgets the actions left with nothing to undo; the steps done on one of
        // them fork where it did.
        for lists in [\Self.undo, \Self.redo, \Self.kept] {
            for stack in self[keyPath: lists].keys {
                let empty = self[keyPath: lists][stack, default: []].filter {
                    !$0.changes.contains(where: Self.isEffective)
                }
                // Each as it is now: one repointed before may have been done on another.
                for record in empty {
                    let current = self[keyPath: lists][stack]?.first { $0.id == record.id }
                    repointChildren(of: current ?? record, on: stack)
                }
                self[keyPath: lists][stack]?.removeAll {
                    !$0.changes.contains(where: Self.isEffective)
                }
            }
        }
    }

    private mutating func editChanges(of table: String, _ edit: (inout RowChange) -> Void) {
        Self.editChanges(of: table, in: &undo, edit)
        Self.editChanges(of: table, in: &redo, edit)
        Self.editChanges(of: table, in: &kept, edit)
    }

    private static func editChanges(
        of table: String, in lists: inout [String: [BarrierRecord]],
        _ edit: (inout RowChange) -> Void
    ) {
        for stack in lists.keys {
            for record in lists[stack, default: []].indices {
                for index in lists[stack]![record].changes.indices
                where lists[stack]![record].changes[index].table == table {
                    edit(&lists[stack]![record].changes[index])
                }
            }
        }
    }
}
