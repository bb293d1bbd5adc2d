import Foundation
import SQLiteDatabase

/// One step of a stack's history: an action the stack can undo, or redo.
///
/// Its `id` stays the same when it is undone and redone (and after a restart), however the
/// engine replays it, so a history view keeps its selection across Ctrl-Z and Ctrl-Y.
public struct UndoStep: Sendable, Hashable, Identifiable {
    /// The step's id, stable across undo, redo and restarts.
    public let id: Int64
    /// The action's name ("Set Rating").
    public let name: String
    /// When the action was registered (for a typing run: its last key), by `UndoEngine.clock`.
    public let date: Date
    /// The id of the step it was done on, nil for a step done at the history's start: the
    /// history is a tree, and a branch forks where steps share a parent.
    public let parent: Int64?
    /// For a take-back (`UndoStack.revert`, "Take back <name>"), the id of the step it took back.
    public let takesBack: Int64?
    /// The entry that holds the step now (it changes when a replay files an inverse).
    let entry: Int64

    init(_ entry: StackEntry) {
        id = entry.stepID
        name = entry.name
        date = Date(timeIntervalSince1970: entry.stepDate)
        parent = entry.parent
        takesBack = entry.takesBack
        self.entry = entry.id
    }

    /// The same step: its id, name and time (not where the engine keeps it now).
    public static func == (a: UndoStep, b: UndoStep) -> Bool {
        a.id == b.id && a.name == b.name && a.date == b.date
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

/// A stack's steps, newest first: a view of the stack's lists as they were when read, which
/// makes a step only when one is asked for (a history of 100k steps is not copied to show 20).
public struct UndoSteps: RandomAccessCollection, Sendable {
    /// The list's entries, oldest first, as the stack keeps them.
    let entries: [StackEntry]

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }
    public subscript(position: Int) -> UndoStep { UndoStep(entries[entries.count - 1 - position]) }
}

/// A stack's history, a tree: the steps `undo()` would take back, newest first (the path from
/// the start to the current step), those `redo()` would apply again, the next one first, and the
/// steps of the other branches, which `UndoStack.go(to:)` reaches.
public struct UndoHistory: Sendable {
    /// The steps done, newest (the current step) first.
    public let undo: UndoSteps
    /// The undone steps `redo()` applies again, the next one first.
    public let redo: UndoSteps
    /// The undone steps on neither list (a later action branched away from them), newest first.
    public let kept: UndoSteps

    /// The step the stack's state is at, nil at the history's start.
    public var current: UndoStep? { undo.first }

    /// Every step, in the order they were done (`UndoStack.back(inTime:)` walks it).
    public var inTimeOrder: [UndoStep] {
        (undo.entries + redo.entries + kept.entries).sorted { $0.isDone(before: $1) }
            .map(UndoStep.init)
    }

    /// The kept steps by where they fork from the lists: each branch's steps, newest first,
    /// with the place of the step its first step was done on. Costs what the kept steps cost,
    /// not the lists' length (a history view of 100k steps reads it at every change).
    public var branches: [UndoBranch] {
        // A kept step's parent, and the step its branch forks at (up through kept parents:
        // a barrier nested in another may be listed before the step it was done on).
        let parents = Dictionary(
            kept.entries.map { ($0.stepID, $0.parent) }, uniquingKeysWith: { first, _ in first })
        var forks: [Int64: Int64?] = [:]
        func fork(of id: Int64) -> Int64? {
            if let known = forks[id] { return known }
            var chain: [Int64] = []
            var step: Int64? = id
            while let current = step, let parent = parents[current], forks[current] == nil,
                chain.count <= parents.count
            {
                chain.append(current)
                step = parent
            }
            let found = step.flatMap { forks[$0] } ?? step
            for id in chain { forks[id] = found }
            return found
        }
        var branches: [UndoBranch] = []
        var branchOfFork: [Int64?: Int] = [:]
        for entry in kept.entries {
            let fork = fork(of: entry.stepID)
            if let index = branchOfFork[fork] {
                branches[index].steps.append(UndoStep(entry))
            } else {
                branchOfFork[fork] = branches.count
                branches.append(
                    UndoBranch(fork: place(of: fork, doneBy: entry), steps: [UndoStep(entry)]))
            }
        }
        for index in branches.indices { branches[index].steps.reverse() }
        return branches
    }

    /// Where the step `id` is on the lists, found from `child`, a step done on it: along the
    /// undo list, steps come in the order they were done, so the search starts at the last one
    /// done no later than `child`.
    private func place(of id: Int64?, doneBy child: StackEntry) -> UndoBranch.Place {
        guard let id else { return .start }
        let undone = redo.entries
        if let index = undone.lastIndex(where: { $0.stepID == id }) {
            return .redo(undone.count - 1 - index)
        }
        let done = undo.entries
        var low = 0
        var high = done.count
        while low < high {
            let middle = (low + high) / 2
            if done[middle].stepDate <= child.stepDate { low = middle + 1 } else { high = middle }
        }
        // Found at once but for a clock set back, or steps done at one time.
        for index in (0..<low).reversed() where done[index].stepID == id {
            return .undo(done.count - 1 - index)
        }
        for index in low..<done.count where done[index].stepID == id {
            return .undo(done.count - 1 - index)
        }
        return .start
    }
}

/// The kept steps of a stack that fork at one step of its lists (or at the history's start).
public struct UndoBranch: Sendable {
    /// A place on a stack's lists, counted as `UndoHistory` counts them.
    public enum Place: Sendable, Equatable {
        /// The history's start (every step undone).
        case start
        /// The step at this index of `UndoHistory.undo` (0: the current step).
        case undo(Int)
        /// The step at this index of `UndoHistory.redo` (0: the next redo).
        case redo(Int)
    }

    /// Where the branch forks: the step its first steps were done on.
    public let fork: Place
    /// Its steps, newest first (a step comes after the step it was done on); several branches
    /// forking at one step are listed together.
    public fileprivate(set) var steps: [UndoStep]
}

/// The rows a step wrote, by table name.
public struct UndoStepRows: Sendable, Equatable {
    /// Their rowids, or for a table keyed otherwise the numbers the engine gives their keys.
    public let rows: [String: Set<Int64>]
    /// Their primary keys, for the tables keyed otherwise than by an `INTEGER PRIMARY KEY` (the
    /// keys of the others are their rowids: `keys(for:)` gives every table's).
    public let keys: [String: [[SQLiteValue]]]

    /// The rows of a step, by number and by key (`UndoStack.rows(of:)` gives both).
    public init(rows: [String: Set<Int64>], keys: [String: [[SQLiteValue]]] = [:]) {
        self.rows = rows
        self.keys = keys
    }

    /// The primary keys (each its values in the key's order) of the rows of `table` the step
    /// wrote, or nil when it wrote none: for a table with an `INTEGER PRIMARY KEY`, its rowids,
    /// each as a key of one value.
    public func keys(for table: any Table.Type) -> [[SQLiteValue]]? {
        keys(forTable: table.tableName)
    }

    /// The primary keys of the rows of the table named `name` (any case) the step wrote, or
    /// nil (see `keys(for:)`).
    public func keys(forTable name: String) -> [[SQLiteValue]]? {
        keys.keys(ofTableNamed: name, numbered: rows)
    }

    /// The rowids of `table` the step wrote, or nil when it wrote none.
    public func ids(for table: any Table.Type) -> Set<Int64>? {
        ids(forTable: table.tableName)
    }

    /// The rowids of the table named `name` (any case) the step wrote, or nil.
    public func ids(forTable name: String) -> Set<Int64>? {
        rows.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

extension UndoStack {
    /// The stack's history (actions whose block still runs are not listed yet).
    public var history: UndoHistory {
        let open = runningEntryIDs()
        return entries.withLock { entries in
            UndoHistory(
                undo: UndoSteps(
                    entries: open.isEmpty
                        ? entries.undo : entries.undo.filter { !open.contains($0.id) }),
                redo: UndoSteps(entries: entries.redo), kept: UndoSteps(entries: entries.kept))
        }
    }

    /// The rows `step` wrote (as they were keyed when it wrote them), read from its log.
    /// - Throws: `SQLiteError`.
    public func rows(of step: UndoStep) throws -> UndoStepRows {
        try rows(of: [step])[0]
    }

    /// The rows each of `steps` wrote, in order, read in one go (the lines a history view shows).
    /// - Throws: `SQLiteError`.
    public func rows(of steps: [UndoStep]) throws -> [UndoStepRows] {
        let names = engine.trackedTables.withLock { $0.mapValues(\.name) }
        return try engine.database.read { db in
            try steps.map { step in
                var found: [String: Set<Int64>] = [:]
                for row in try UndoLogSchema.rowsWritten(byEntry: step.entry, db) {
                    guard let name = names[row.table] else { continue }
                    found[name, default: []].insert(row.rowid)
                }
                return UndoStepRows(rows: found, keys: try engine.keys(of: found, db))
            }
        }
    }

    /// Undoes every step above `step` on the undo list, newest first, so that `step` is the
    /// newest done; returns what each undo did, in order (none when `step` is already the
    /// newest). Each is an `undo()`: its own transaction, conflict rule and event.
    /// - Throws: `UndoError.stepNotFound` when `step` is not on the undo list (nothing is
    ///   undone); what `undo()` throws, after the undos before it.
    @discardableResult
    public func undo(to step: UndoStep) throws -> [UndoEvent] {
        try undo(to: step, reporting: nil)
    }

    /// `undo(to:)`, telling `report` how far each undo has come (as
    /// `undo(reportingEvery:progress:)` does).
    /// - Throws: what `undo(to:)` throws.
    @discardableResult
    public func undo(
        to step: UndoStep, reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> [UndoEvent] {
        try withoutActuallyEscaping(report) {
            try undo(to: step, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    private func undo(to step: UndoStep, reporting report: ProgressReport?) throws
        -> [UndoEvent]
    {
        try reloadIfTheFileLostEntries()
        guard lists(.undo, hold: step) else {
            throw UndoError.stepNotFound(step.name)
        }
        var events: [UndoEvent] = []
        while let newest = history.undo.first, newest.id != step.id {
            guard let event = try replay(from: .undo, reporting: report) else { break }
            events.append(event)
        }
        return events
    }

    /// Redoes the steps of the redo list up to `step`, included, so that `step` is the newest
    /// done; returns what each redo did, in order.
    /// - Throws: `UndoError.stepNotFound` when `step` is not on the redo list (nothing is
    ///   redone); what `redo()` throws, after the redos before it.
    @discardableResult
    public func redo(to step: UndoStep) throws -> [UndoEvent] {
        try redo(to: step, reporting: nil)
    }

    /// `redo(to:)`, telling `report` how far each redo has come (as
    /// `undo(reportingEvery:progress:)` does).
    /// - Throws: what `redo(to:)` throws.
    @discardableResult
    public func redo(
        to step: UndoStep, reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> [UndoEvent] {
        try withoutActuallyEscaping(report) {
            try redo(to: step, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    private func redo(to step: UndoStep, reporting report: ProgressReport?) throws
        -> [UndoEvent]
    {
        try reloadIfTheFileLostEntries()
        guard lists(.redo, hold: step) else {
            throw UndoError.stepNotFound(step.name)
        }
        var events: [UndoEvent] = []
        // Stops after the step's own redo, though one that restored nothing files nothing.
        while let next = history.redo.first, let event = try replay(from: .redo, reporting: report)
        {
            events.append(event)
            if next.id == step.id { break }
        }
        return events
    }

    /// Whether `list` holds `step` (not a step whose block still runs): read from the entries,
    /// no step made, as a take-back 10k steps deep checks it.
    func lists(_ list: UndoLogSchema.List, hold step: UndoStep) -> Bool {
        let open = runningEntryIDs()
        return entries.withLock { entries in
            entries[list].contains { $0.stepID == step.id && !open.contains($0.id) }
        }
    }
}
