import Foundation
import SQLiteDatabase
import Synchronization

/// An independent undo history (one per window, pane or document) over the engine's database.
///
/// Barriers are filed with the stack current at their first change (`withUndoStack`), in that
/// order, and register when their block returns; `undo()` and `redo()` replay this stack's
/// registered barriers only, and tell this stack's subscribers what they did. The lists live in
/// the database file: the same id after a restart has the same history.
public final class UndoStack: Sendable {
    /// The stack's id, stored with its history.
    public let id: String
    let engine: UndoEngine
    let entries: Mutex<StackEntries>
    let settings = Mutex(Settings())
    private let subscribers = Mutex<[UInt64: AsyncStream<UndoEvent>.Continuation]>([:])
    private let observers = Mutex<[UInt64: @Sendable (UndoEvent) -> Void]>([:])
    private let nextSubscriberID = Atomic<UInt64>(0)

    struct Settings {
        var levelsOfUndo = 1000
        var maxHistoryBytes: Int?
        var mergeInterval: TimeInterval = 1
        /// The last barrier registered with no undo or redo since: the only one a coalescing
        /// barrier may merge into.
        var coalescible: Int64?
        /// Whether the file may hold entries of this stack open to merging other than the
        /// coalescible one (`closedToMerging`): unknown when the lists are read.
        var fileMayHoldOpenEntries = true
        /// The engine connection's `dataVersion` when a replay last read these lists (nil: not
        /// read so), by `reloadIfAnotherConnectionCommitted`.
        var readAtDataVersion: Int64?
        /// The time of the stack's newest step (`stamp()`), nil until worked out from the
        /// lists, and after they were read again.
        var newestStamp: Double?
    }

    init(engine: UndoEngine, id: String, entries: StackEntries) {
        self.engine = engine
        self.id = id
        self.entries = Mutex(entries)
    }

    // MARK: State

    /// Whether there is something to undo.
    public var canUndo: Bool { top(of: .undo) != nil }
    /// Whether there is something to redo.
    public var canRedo: Bool { top(of: .redo) != nil }
    /// The name of the action `undo()` would take back, or nil.
    public var undoActionName: String? { top(of: .undo)?.name }
    /// The name of the action `redo()` would apply again, or nil.
    public var redoActionName: String? { top(of: .redo)?.name }

    /// Both lists' names, most recent first (actions whose block still runs are not listed yet).
    public var state: UndoStackState {
        let open = runningEntryIDs()
        return entries.withLock {
            UndoStackState(
                undo: $0.undo.reversed().filter { !open.contains($0.id) }.map(\.name),
                redo: $0.redo.reversed().map(\.name))
        }
    }

    /// The most recent entry of a list whose barriers all returned: what undo or redo replays.
    func top(of list: UndoLogSchema.List) -> StackEntry? {
        let open = runningEntryIDs()
        return entries.withLock { $0[list].last { !open.contains($0.id) } }
    }

    /// Ids of the entries a barrier still running filed to (a few, `LiveBarriers`).
    func runningEntryIDs() -> [Int64] { LiveBarriers.runningEntries(on: self) }

    /// How soon after the previous barrier a coalescing barrier may merge into it (default 1 s).
    public var mergeInterval: TimeInterval {
        get { settings.withLock { $0.mergeInterval } }
        set { settings.withLock { $0.mergeInterval = newValue } }
    }

    // MARK: Undo and redo

    /// Takes back the most recent action of this stack.
    ///
    /// What others changed since is kept and reported (`UndoEvent.conflicts`). When they
    /// changed all of it, the undo writes nothing and the action leaves the stack's history
    /// (there is nothing to redo): the event lists what was kept, and the next undo takes back
    /// the action beneath. The same holds for a redo.
    /// - Returns: what the undo did, or nil when there is nothing to undo.
    /// - Throws: `UndoError.replayFailed` (everything rolled back, the stack unchanged).
    @discardableResult
    public func undo() throws -> UndoEvent? { try replay(from: .undo) }

    /// Applies again the most recently undone action of this stack.
    /// - Returns: what the redo did, or nil when there is nothing to redo.
    /// - Throws: `UndoError.replayFailed` (everything rolled back, the stack unchanged).
    @discardableResult
    public func redo() throws -> UndoEvent? { try replay(from: .redo) }

    /// Forgets this stack's whole history, in memory and in the file.
    public func removeAll() throws {
        try engine.database.write { db in
            try UndoLogSchema.deleteEntries(try UndoLogSchema.entryIDs(ofStack: id, db), db)
            entries.withLock { $0 = StackEntries() }
            settings.withLock { $0.coalescible = nil }
        }
    }

    /// Replays the top entry of `list` in a transaction of its own, telling `report` (when
    /// given) how far it has come.
    func replay(
        from list: UndoLogSchema.List, reporting report: ProgressReport? = nil
    ) throws -> UndoEvent? {
        // Its name names an error even when the transaction cannot begin.
        guard let expected = top(of: list) else { return nil }
        var replayed: StackEntry?
        let event: UndoEvent?
        do {
            event = try engine.database.write { db -> UndoEvent? in
                try metering(top(of: list), reporting: report, db) {
                    try replayTop(of: list, db) { replayed = $0 }
                }
            }
        } catch {
            try? reload()
            throw UndoError.replayFailed(
                barrier: (replayed ?? expected).name, reason: "\(error)",
                underlying: SQLiteError(unwrapping: error))
        }
        if let event { deliver(event) }
        return event
    }

    /// Replays the top entry of `list` inside the open transaction and moves it (or its
    /// inverse) to the other list, in the file and in `entries`; `noting` is told which entry
    /// it replays. nil when the list is empty.
    func replayTop(
        of list: UndoLogSchema.List, _ db: Database, noting: (StackEntry) -> Void = { _ in }
    ) throws -> UndoEvent? {
        let target: UndoLogSchema.List = list == .undo ? .redo : .undo
        // Chosen inside the transaction: one queued before it may have filed a barrier (merged
        // into this entry) or replayed this entry already.
        try reloadIfAnotherConnectionCommitted(db)
        guard let top = try inFile({ self.top(of: list) }, on: list, db) else { return nil }
        noting(top)
        let brokenBefore = UndoDiagnostics.isOn ? try UndoDiagnostics.brokenReferences(db) : []
        try closeMergingInFile(except: nil, db)
        let unpacked = try engine.unpackForReplay(entry: top.id, inverted: top.inverted, db)
        let (inverse, reverted) = try engine.revert(
            entry: top.id, inverted: top.inverted, named: top.name, db)
        let conflicts = reverted.conflicts
        let attributed =
            conflicts.isEmpty ? [] : try engine.attribute(conflicts, replaying: top.id, db)
        var added: StackEntry?
        if reverted.exact {
            // Restored exactly: the entry, read the other way, is its own inverse.
            added = try move(top, to: target, db)
        } else {
            // The inverse takes the entry's place (`UndoLogSchema.supersede`). An inverse that
            // restored nothing is not filed.
            added = try insertEntry(inverse, list: target, parent: top.parent, db)?.entry
            added?.step = top.stepID
            added?.stepAt = top.stepDate
            added?.takesBack = top.takesBack
            if let added {
                // A replay's log (not its action's first) goes once another replay supersedes
                // the inverse, unless this replay kept some of what it wrote, a conflict or a
                // row it could not reach.
                let keptChanges =
                    try !conflicts.isEmpty
                    || (top.step != nil
                        && !UndoLogSchema.replay(
                            by: added.id, reachedEveryRowOf: top.id, inverted: top.inverted, db))
                try UndoLogSchema.supersede(top.id, by: added.id, keptChanges: keptChanges, db)
            } else {
                // The step leaves history: the steps done on it fork where it did.
                try UndoLogSchema.deleteEntries([top.id], db)
                try UndoLogSchema.repointChildren(
                    of: top.stepID, to: top.parent, stack: id, db)
            }
        }
        // What the replay rebuilt kept as edits (`insertEntry` packed its inverse's edits).
        try UndoLogSchema.pack(entry: top.id, seqs: unpacked, db)
        entries.withLock { entries in
            entries.remove(top.id, from: list)
            if let added {
                entries[target].append(added)
            } else {
                entries.repointChildren(of: top)
            }
        }
        if UndoDiagnostics.isOn {
            try UndoDiagnostics.check(
                stack: self, entries: entries.withLock { $0 }, brokenBefore: brokenBefore, db)
        }
        settings.withLock { $0.coalescible = nil }
        return UndoEvent(
            kind: list == .undo ? .undo : .redo, name: top.name, affectedRows: reverted.affected,
            conflicts: attributed, affectedKeys: try engine.keys(of: reverted.affected, db))
    }

    // MARK: Registration

    /// Registers a closed barrier in a transaction of its own (see `record`).
    func register(_ barrier: Barrier) throws {
        do {
            _ = try engine.database.write { db in try record(barrier, db) }
        } catch {
            barrier.unfile(by: engine.recorder)
            try? reload()
            throw error
        }
    }

    /// Files a barrier inside the caller's transaction: merges it into the previous one when it
    /// coalesces, otherwise pushes it, keeps the redo list as a branch and trims the history to
    /// `levelsOfUndo`. A barrier whose block still runs is only pushed: it registers (keeps the
    /// redo list, trims the history) when its block returns (`registerFiled`). The barrier is
    /// filed where it went (`Barrier.file`). The caller reloads the lists, and unfiles the
    /// barrier, if the transaction rolls back.
    /// - Returns: where it went, or nil when it has no log (nothing to undo).
    @discardableResult
    func record(_ barrier: Barrier, _ db: Database) throws -> Barrier.Recorded? {
        if let merged = try merge(barrier, db) {
            barrier.file(merged, by: engine.recorder)
            try packLog(of: barrier, in: merged.entry, db)
            try keepWithinByteBudget(measuringAgain: merged.entry, db)
            return merged
        }
        let parent = entries.withLock { $0.undo.last?.stepID }
        guard let (entry, logEnd) = try insertEntry(barrier, list: .undo, parent: parent, db)
        else { return nil }
        try closeMergingInFile(except: entry, db)
        var recorded = Barrier.Recorded(stack: self, entry: barrier.id, mergedFromSeq: nil)
        recorded.mayCancelOut = logEnd > barrier.logStart(in: engine) ?? logEnd
        if barrier.isRunning {
            // Kept as a branch in the file now; the stack lists them as redo until the block
            // returns (a crash meanwhile never offers to redo over the action), and puts them
            // back if it throws.
            recorded.setAsideRedo = entries.withLock { $0.redo.map(\.id) }
            try UndoLogSchema.keep(recorded.setAsideRedo, db)
        }
        barrier.file(recorded, by: engine.recorder)
        entries.withLock { $0.undo.append(entry) }
        if barrier.isRunning {
            // Measured now, in the transaction that filed it: its block's return then knows,
            // without reading the file, whether older entries have to go.
            try keepWithinByteBudget(db)
        } else {
            try keepRedoAndTrim(db)
        }
        // An undo or redo before the next barrier resets it: that one does not merge.
        settings.withLock { $0.coalescible = barrier.id }
        return recorded
    }

    /// Keeps the edits a barrier's log rows (now the entry's) hold as edits (see `PackedChange`).
    func packLog(of barrier: Barrier, in entry: Int64, _ db: Database) throws {
        guard let start = barrier.logStart(in: engine) else { return }
        try UndoLogSchema.pack(entry: entry, from: start, slots: engine.mostSlots, db)
    }

    /// Registers the entry `id` that a transaction filed while the block of a barrier writing to
    /// it ran, now that the last such block returned. As any new action, it keeps the redo list
    /// as a branch (an undo may have run meanwhile) and trims the history, in a transaction of their own
    /// when that changes anything. It keeps its place: stacks list actions in the order they
    /// first changed the database.
    ///
    /// It does not throw: the change and its entry are committed, and the block succeeded. When
    /// that transaction fails (another program holding the file past the busy timeout), the lists
    /// are read again from the file, and the next action keeps and trims them.
    func registerFiled(entry id: Int64) {
        let open = runningEntryIDs()
        guard !open.contains(id) else { return }
        let levels = levelsOfUndo
        let changesLists = entries.withLock { entries in
            entries.undo.last { $0.id == id } != nil
                && (!entries.redo.isEmpty
                    || Self.registeredCount(entries.undo, open: open) + entries.kept.count
                        > levels
                    || mayExceedByteBudget(entries.undo, entries.kept))
        }
        guard changesLists else { return }
        do {
            try engine.database.write { db in try keepRedoAndTrim(db) }
        } catch {
            try? reload()
        }
    }

    /// Moves an entry to the top of the other list, its log now read the other way.
    private func move(_ entry: StackEntry, to list: UndoLogSchema.List, _ db: Database) throws
        -> StackEntry
    {
        var moved = entry
        moved.position = (entries.withLock { $0[list].last?.position } ?? 0) + 1
        moved.inverted.toggle()
        try UndoLogSchema.move(moved, to: list, db)
        engine.recorder.noteReplay()
        return moved
    }

    /// The time to stamp a step done now with: the engine's clock, or, when the clock went back
    /// (set back by hand, or by the network's time), the time of the stack's newest step, so
    /// that the steps' times keep the order they were done in (`UndoHistory.inTimeOrder`,
    /// `back(inTime:)`; equal times go by step id).
    func stamp() -> Double {
        let now = engine.clock().timeIntervalSince1970
        let newest =
            settings.withLock { $0.newestStamp }
            ?? entries.withLock { ($0.undo + $0.redo + $0.kept).map(\.stepDate).max() }
        return settings.withLock { settings in
            let stamp = max(now, newest ?? now, settings.newestStamp ?? now)
            settings.newestStamp = stamp
            return stamp
        }
    }

    /// Files `barrier` at the top of `list`, done on the step `parent` (a take-back: taking back
    /// the step `takesBack`), and keeps the edits its log rows hold as edits (see
    /// `PackedChange`); returns its entry with the log's highest `seq` (its last row's), or nil
    /// (nothing filed) when it has no log rows.
    func insertEntry(
        _ barrier: Barrier, list: UndoLogSchema.List, parent: Int64?, takesBack: Int64? = nil,
        _ db: Database
    ) throws -> (entry: StackEntry, logEnd: Int64)? {
        guard let start = barrier.logStart(in: engine) else { return nil }
        let position = (entries.withLock { $0[list].last?.position } ?? 0) + 1
        let entry = StackEntry(
            id: barrier.id, name: barrier.name, coalescingKey: barrier.coalescingKey,
            position: position, closedAt: stamp(), parent: parent,
            takesBack: takesBack)
        guard
            let filed = try UndoLogSchema.file(
                entry, stack: id, list: list, logStart: start, slots: engine.mostSlots,
                report: engine.filingReport, db)
        else { return nil }
        engine.recorder.noteFiling(logEnd: filed.logEnd)
        if !barrier.recordsAtCommit { engine.recorder.noteReplay() }
        if filed.mayPack {
            try UndoLogSchema.packNewEntry(entry.id, from: start, slots: engine.mostSlots, db)
        }
        return (entry, filed.logEnd)
    }

    /// Reads the lists again from the file (after a transaction that changed them rolled back).
    func reload() throws {
        try engine.database.read { try reload($0) }
    }

    /// Reads the lists again on the engine's connection (in a transaction, as the file has them
    /// in it).
    func reload(_ db: Database) throws {
        let loaded = try UndoLogSchema.entries(ofStack: id, db)
        entries.withLock { $0 = loaded }
        settings.withLock {
            $0.fileMayHoldOpenEntries = true
            $0.newestStamp = nil
        }
    }

    /// Reads the lists again when another connection committed since a replay last read them:
    /// another program (another window, this stack open in another engine) may have acted,
    /// undone, redone or taken back on this stack. This engine's own writes keep them as the
    /// file has them. Not while a barrier filed on this stack still runs: the file keeps the
    /// redo list as a branch then, while the stack still lists it (its block may yet throw).
    /// One read of the connection's `dataVersion` otherwise.
    func reloadIfAnotherConnectionCommitted(_ db: Database) throws {
        guard runningEntryIDs().isEmpty else { return }
        let version = try db.dataVersion()
        guard settings.withLock({ $0.readAtDataVersion }) != version else { return }
        try reload(db)
        settings.withLock { $0.readAtDataVersion = version }
    }

    /// The entry `find` picks on `list`, as the file has it: when another program deleted it
    /// (cleared the history), or moved it to the other list (the same stack open in another
    /// engine), since the lists were read, they are read again and `find` picks again. One
    /// lookup of the entry in the file.
    func inFile(_ find: () -> StackEntry?, on list: UndoLogSchema.List, _ db: Database) throws
        -> StackEntry?
    {
        guard let entry = find() else { return nil }
        if try UndoLogSchema.hasEntry(entry, ofStack: id, on: list, db) { return entry }
        try reload(db)
        return find()
    }

    /// Reads the lists again when another program deleted some of their entries from the file
    /// (cleared the history) since they were read, so that a move through the history plans its
    /// way on what the file holds. One read of the stack's entry ids.
    func reloadIfTheFileLostEntries() throws {
        let listed = entries.withLock { $0.undo + $0.redo + $0.kept }.map(\.id)
        guard !listed.isEmpty else { return }
        try engine.database.read { db in
            let filed = Set(try UndoLogSchema.entryIDs(ofStack: id, db))
            if !listed.allSatisfy(filed.contains) { try reload(db) }
        }
    }

    /// Ends the typing run in the file (a new action, an undo or a redo): closes this stack's
    /// entries to merging but `entry`, the one a coalescing barrier may merge into next, when
    /// the file may hold any. Other stacks' undos read it (`UndoLogSchema.closeMerging`).
    func closeMergingInFile(except entry: StackEntry?, _ db: Database) throws {
        if settings.withLock({ $0.fileMayHoldOpenEntries }) {
            try UndoLogSchema.closeMerging(ofStack: id, except: entry?.id, db)
        }
        settings.withLock { $0.fileMayHoldOpenEntries = entry?.coalescingKey != nil }
    }

    // MARK: Events

    /// Every undo and redo this stack performs from now on (never past ones), for as long as the
    /// stream is iterated.
    public func events() -> AsyncStream<UndoEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: UndoEvent.self)
        let key = nextSubscriberID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: key) }
        }
        return stream
    }

    /// Calls `observer` synchronously, on the thread that performed it, after each undo and redo
    /// of this stack (for a run loop). Keep the returned observation to keep observing.
    public func observe(_ observer: @escaping @Sendable (UndoEvent) -> Void) -> UndoObservation {
        let key = nextSubscriberID.add(1, ordering: .relaxed).newValue
        observers.withLock { $0[key] = observer }
        return UndoObservation { [weak self] in
            _ = self?.observers.withLock { $0.removeValue(forKey: key) }
        }
    }

    func deliver(_ event: UndoEvent) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
        for observer in observers.withLock({ Array($0.values) }) { observer(event) }
    }
}

/// Keeps a synchronous observer of an `UndoStack` registered until cancelled or released.
public final class UndoObservation: Sendable {
    private let onCancel: @Sendable () -> Void
    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
    /// Stops the notifications.
    public func cancel() { onCancel() }
    deinit { onCancel() }
}
