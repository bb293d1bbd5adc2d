import SQLiteDatabase

/// Going anywhere in a stack's history tree: to a step of any branch (`go(to:)`), and back and
/// forward through the states the stack was in, in the order they were done (`back(inTime:)`,
/// as vim's `g-` and `g+`). Each is made of plain undos and redos (each its own transaction,
/// conflict rule and event) and, to change branch, one transaction that makes the branch the
/// redo list and keeps the old redo list as a branch.
extension UndoStack {
    /// Goes to `step`, on any branch: undoes to where its branch forks from the current step,
    /// then redoes down to it, so that `step` is the newest done. Returns what each undo and redo
    /// did, in order (none when `step` is the current step).
    /// - Throws: `UndoError.stepNotFound` when the history has no such step (nothing is
    ///   replayed); what `undo()` and `redo()` throw, after the replays before it.
    @discardableResult
    public func go(to step: UndoStep) throws -> [UndoEvent] {
        try go(to: step, reporting: nil)
    }

    /// `go(to:)`, telling `report` how far each replay has come (as
    /// `undo(reportingEvery:progress:)` does).
    /// - Throws: what `go(to:)` throws.
    @discardableResult
    public func go(
        to step: UndoStep, reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> [UndoEvent] {
        try withoutActuallyEscaping(report) {
            try go(to: step, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    /// `go(to:)`, on the lists as the file has them (read again when another program deleted
    /// some of their entries).
    private func go(to step: UndoStep, reporting report: ProgressReport?) throws -> [UndoEvent] {
        try reloadIfTheFileLostEntries()
        return try go(toStep: step.id, named: step.name, reporting: report)
    }

    /// What `go(to:)` would do, without doing it: the event of each undo and redo it would
    /// make, read in one transaction that is rolled back; the stack and the database are left as
    /// they were.
    /// - Throws: what `go(to:)` throws.
    public func previewGo(to step: UndoStep) throws -> [UndoEvent] {
        try preview { db in
            try walk(
                toStep: step.id, named: step.name, replaying: { try replayTop(of: $0, db) },
                switchingTo: { try makeRedo($0, db) })
        }
    }

    /// Goes `count` states back in time: to the step done before the current one, whichever
    /// branch it is on (at the first, to the history's start). Returns what each replay did.
    /// - Throws: what `go(to:)` throws.
    @discardableResult
    public func back(inTime count: Int = 1) throws -> [UndoEvent] {
        try travel(count, forward: false, reporting: nil)
    }

    /// Goes `count` states forward in time: to the step done after the current one (from the
    /// start, the first step done), whichever branch it is on. Returns what each replay did.
    /// - Throws: what `go(to:)` throws.
    @discardableResult
    public func forward(inTime count: Int = 1) throws -> [UndoEvent] {
        try travel(count, forward: true, reporting: nil)
    }

    /// `back(inTime:)`, telling `report` how far each replay has come (as
    /// `undo(reportingEvery:progress:)` does).
    /// - Throws: what `go(to:)` throws.
    @discardableResult
    public func back(
        inTime count: Int = 1, reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> [UndoEvent] {
        try withoutActuallyEscaping(report) {
            try travel(
                count, forward: false, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    /// `forward(inTime:)`, telling `report` how far each replay has come.
    /// - Throws: what `go(to:)` throws.
    @discardableResult
    public func forward(
        inTime count: Int = 1, reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> [UndoEvent] {
        try withoutActuallyEscaping(report) {
            try travel(
                count, forward: true, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    /// Whether `back(inTime:)` has somewhere to go: some step is done.
    public var canGoBackInTime: Bool { canUndo }

    /// Whether `forward(inTime:)` has somewhere to go: a step was done after the current one.
    public var canGoForwardInTime: Bool { destination(1, forward: true) != .stay }

    private func travel(_ count: Int, forward: Bool, reporting report: ProgressReport?) throws
        -> [UndoEvent]
    {
        try reloadIfTheFileLostEntries()
        switch destination(count, forward: forward) {
        case .stay: return []
        case .start: return try go(toStep: nil, named: "", reporting: report)
        case .step(let id, let name): return try go(toStep: id, named: name, reporting: report)
        }
    }

    private enum Destination: Equatable {
        case stay
        case start
        case step(Int64, String)
    }

    /// The state `count` steps from the current one in time order: one pass over the steps for
    /// each step moved, not a sort of the whole history.
    private func destination(_ count: Int, forward: Bool) -> Destination {
        let open = runningEntryIDs()
        return entries.withLock { entries in
            let current = entries.undo.last { !open.contains($0.id) }
            var reached = current
            for _ in 0..<count {
                var next: StackEntry?
                for list in [entries.undo, entries.redo, entries.kept] {
                    for entry in list where !open.contains(entry.id) {
                        let beyond =
                            forward
                            ? reached.map { $0.isDone(before: entry) } ?? true
                            : reached.map { entry.isDone(before: $0) } ?? false
                        guard beyond else { continue }
                        if let found = next,
                            forward ? found.isDone(before: entry) : entry.isDone(before: found)
                        {
                            continue
                        }
                        next = entry
                    }
                }
                guard let next else {
                    if !forward { reached = nil }
                    break
                }
                reached = next
            }
            switch reached {
            case nil: return current == nil ? .stay : .start
            case let entry? where entry.id == current?.id: return .stay
            case let entry?: return .step(entry.stepID, entry.name)
            }
        }
    }

    /// Goes to the step `id` (nil: the history's start, every step undone), each replay in a
    /// transaction of its own. The caller has read the lists again if the file lost entries.
    private func go(toStep id: Int64?, named name: String, reporting report: ProgressReport?)
        throws -> [UndoEvent]
    {
        try walk(
            toStep: id, named: name, replaying: { try replay(from: $0, reporting: report) },
            switchingTo: { path in
                do {
                    try engine.database.write { db in try makeRedo(path, db) }
                } catch {
                    try? reload()
                    throw error
                }
            })
    }

    /// The way to the step `id`: undos of the top of the undo list (`replaying(.undo)`) down to
    /// it, or to where its branch forks, then `switchingTo` the branch, then redos
    /// (`replaying(.redo)`) down to it. Returns the replays' events.
    private func walk(
        toStep id: Int64?, named name: String,
        replaying: (UndoLogSchema.List) throws -> UndoEvent?,
        switchingTo: ([Int64]) throws -> Void
    ) throws -> [UndoEvent] {
        guard let route = route(to: id) else { throw UndoError.stepNotFound(name) }
        var events: [UndoEvent] = []
        // Redoes up to the step `id`, included; stops after the step's own redo, though one
        // that restored nothing files nothing.
        func redo(_ id: Int64?) throws {
            while let next = top(of: .redo), let event = try replaying(.redo) {
                events.append(event)
                if next.stepID == id { break }
            }
        }
        switch route {
        case .undo:
            while let top = top(of: .undo), top.stepID != id {
                guard let event = try replaying(.undo) else { break }
                events.append(event)
            }
        case .redo:
            try redo(id)
        case .branch(let fork, let path):
            events += try walk(
                toStep: fork, named: name, replaying: replaying, switchingTo: switchingTo)
            try switchingTo(path)
            try redo(id)
        }
        return events
    }

    private enum Route {
        /// The step is on the undo list (or is the start).
        case undo
        /// The step is on the redo list.
        case redo
        /// The step is kept: go to `fork` (on a list, or the start), then redo `path` (the
        /// step first, the next redo last).
        case branch(fork: Int64?, path: [Int64])
    }

    /// How to reach the step `id`, or nil when the history has no such step.
    private func route(to id: Int64?) -> Route? {
        let open = runningEntryIDs()
        return entries.withLock { entries -> Route? in
            guard let id else { return .undo }
            if entries.undo.contains(where: { $0.stepID == id && !open.contains($0.id) }) {
                return .undo
            }
            if entries.redo.contains(where: { $0.stepID == id }) { return .redo }
            let kept = Dictionary(
                entries.kept.map { ($0.stepID, $0) }, uniquingKeysWith: { _, last in last })
            guard var step = kept[id] else { return nil }
            var path = [step.id]
            while let parent = step.parent, let above = kept[parent] {
                path.append(above.id)
                step = above
            }
            let onLists = (entries.undo + entries.redo).contains { $0.stepID == step.parent }
            return .branch(fork: onLists ? step.parent : nil, path: path)
        }
    }

    /// Makes the kept entries `path` (the deepest first) the redo list, and keeps the redo list
    /// as a branch, in the open transaction and in memory.
    private func makeRedo(_ path: [Int64], _ db: Database) throws {
        let (left, redo) = entries.withLock { entries -> ([Int64], [StackEntry]) in
            var redo = path.compactMap { id in entries.kept.first { $0.id == id } }
            for index in redo.indices { redo[index].position = Int64(index + 1) }
            let left = entries.redo
            entries.kept.removeAll { path.contains($0.id) }
            entries.kept += left
            entries.kept.sort { $0.isDone(before: $1) }
            entries.redo = redo
            return (left.map(\.id), redo)
        }
        try UndoLogSchema.keep(left, db)
        try UndoLogSchema.makeRedo(redo, db)
    }
}
