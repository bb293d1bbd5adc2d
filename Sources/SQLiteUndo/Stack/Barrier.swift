import Foundation
import Synchronization

/// One user action being recorded: the writes made inside one `undoable` block.
final class Barrier: Sendable {
    let id: Int64
    let name: String
    let coalescingKey: String?
    /// Whether the transactions it writes in also file it with its stack (`BarrierRecorder`);
    /// false for the barrier a replay records its inverse under, which the stack files itself.
    let recordsAtCommit: Bool
    private let engines = Mutex<[ObjectIdentifier: Capturing]>([:])
    /// Its state: running, registered or discarded, and where it is filed (see `BarrierLife`).
    private let life = Mutex(BarrierLife())

    /// Where a barrier's log went on a stack: its own entry, or merged into the entry before it
    /// (coalescing), with the first of its log rows there.
    struct Recorded: Sendable {
        let stack: UndoStack
        let entry: Int64
        let mergedFromSeq: Int64?
        /// The rows of the run the merge collapsed (`UndoLogSchema.collapseRun`): they hold the
        /// run's earlier writes too, so taking the barrier back keeps them.
        var collapsed: [Int64] = []
        /// The redo entries kept as a branch when it was filed while its block ran: put back on
        /// the redo list if the block throws.
        var setAsideRedo: [Int64] = []
        /// Whether its own entry holds more than one log row, so that its writes may cancel out
        /// (checked when its block returns: `UndoStack.unregisterIfCancelledOut`).
        var mayCancelOut = false
    }

    init(name: String, coalescingKey: String? = nil, recordsAtCommit: Bool = true) {
        self.id = BarrierID.next()
        self.name = name
        self.coalescingKey = coalescingKey
        self.recordsAtCommit = recordsAtCommit
        LiveBarriers.add(self)
    }

    deinit { LiveBarriers.remove(id) }

    /// An engine this barrier wrote to, and where its log rows there start; the handovers of
    /// its log (`BarrierRecorder.handover`) at its first and last logged row there.
    private struct Capturing {
        let engine: UndoEngine
        var logStart: Int64
        var handovers: ClosedRange<UInt64>?
    }

    /// The engine that captured last, as a bit pattern: a repeat capture (every row of a bulk
    /// statement) skips the lock.
    private let lastEngine = Atomic<UInt>(0)

    /// Called by an engine's capture function: this barrier wrote to that engine's database.
    /// `nextSeq` reads the `seq` the log row being captured will get; it is read on the first
    /// capture, and again when `isFirstInTransaction` (a rolled-back transaction may have taken
    /// back the rows the first bound counted on).
    func didCapture(
        for engine: UndoEngine, isFirstInTransaction: Bool, nextSeq: () -> Int64
    ) {
        let key = ObjectIdentifier(engine)
        let bits = UInt(bitPattern: key)
        guard lastEngine.exchange(bits, ordering: .relaxed) != bits || isFirstInTransaction else {
            return
        }
        engines.withLock { engines in
            if let known = engines[key] {
                guard isFirstInTransaction else { return }
                engines[key]?.logStart = min(known.logStart, nextSeq())
            } else {
                engines[key] = Capturing(engine: engine, logStart: nextSeq())
            }
        }
    }

    /// Notes that this barrier logs a row in `engine` after `handovers` of its log.
    func noteLogging(afterHandovers handovers: UInt64, in engine: UndoEngine) {
        engines.withLock { engines in
            let key = ObjectIdentifier(engine)
            let first = engines[key]?.handovers?.lowerBound ?? handovers
            engines[key]?.handovers = first...max(first, handovers)
        }
    }

    /// Whether another action's barrier logged a row, or a replay changed rows, in `engine`
    /// between this barrier's first and last logged row there: its writes there, even if they
    /// cancel out, then wrote over another's.
    func othersActedBetweenItsWrites(in engine: UndoEngine) -> Bool {
        engines.withLock { $0[ObjectIdentifier(engine)]?.handovers.map { $0.count > 1 } ?? false }
    }

    /// The engines whose tables this barrier wrote.
    var capturingEngines: [UndoEngine] { engines.withLock { $0.values.map(\.engine) } }

    /// The lowest `seq` of this barrier's log rows in `engine`'s log; nil when it wrote none.
    func logStart(in engine: UndoEngine) -> Int64? {
        engines.withLock { $0[ObjectIdentifier(engine)]?.logStart }
    }

    /// Where a transaction filed this barrier on the stacks of the recorder's engine, or nil.
    func recorded(by recorder: BarrierRecorder) -> Recorded? {
        life.withLock { $0.filing(by: recorder) }
    }

    /// The entries of `stack` this barrier filed to while its block runs (none once it
    /// returned): the stack passes them by.
    func runningEntries(on stack: UndoStack) -> [Int64] {
        guard recordsAtCommit else { return [] }
        return life.withLock { life in
            life.phase == .running ? life.entries(on: stack) : []
        }
    }

    /// A stack filed it (`UndoStack.record`, in the transaction that wrote it or one of its
    /// own), in `recorder`'s engine (`BarrierLife.file`).
    func file(_ recorded: Recorded, by recorder: BarrierRecorder) {
        life.withLock { $0.file(recorded, by: recorder) }
    }

    /// A later transaction of its block added log rows to the entry it is filed to.
    func noteGrown(by recorder: BarrierRecorder) {
        life.withLock { $0.grow(by: recorder) }
    }

    /// The transaction that filed it rolled back (`BarrierLife.unfile`).
    func unfile(by recorder: BarrierRecorder) {
        life.withLock { $0.unfile(by: recorder) }
    }

    /// Its block threw: a transaction still open must not file it.
    var isDiscarded: Bool { life.withLock { $0.phase == .discarded } }

    /// Whether its block is still running: a transaction that files it then files it early (so
    /// a crash keeps the change's undo), but it registers, for its stack, only when it closes.
    var isRunning: Bool { recordsAtCommit && life.withLock { $0.phase == .running } }

    /// Its block returned (`BarrierLife.close`): it registers with the stack of each engine
    /// it wrote to. A transaction that filed it while the block ran leaves only that entry to
    /// register (`UndoStack.registerFiled`), unless its writes cancelled out; writes made
    /// outside `write` file it now (a transaction still open files it when it commits).
    func close() throws {
        life.withLock { $0.close() }
        for engine in capturingEngines {
            if let recorded = recorded(by: engine.recorder) {
                if recorded.mayCancelOut, !othersActedBetweenItsWrites(in: engine),
                    recorded.stack.unregisterIfCancelledOut(self, recorded)
                {
                    continue
                }
                recorded.stack.registerFiled(entry: recorded.entry)
            } else if !engine.recorder.isPending(self) {
                try engine.currentStack.register(self)
            }
        }
    }

    /// Its block threw (`BarrierLife.discard`): everything filed or logged for it is taken back,
    /// and a transaction still open files nothing of it.
    func discard() throws {
        life.withLock { $0.discard() }
        for engine in capturingEngines {
            if let recorded = recorded(by: engine.recorder) {
                try recorded.stack.unrecord(self, recorded)
            } else {
                try engine.discardLog(of: self)
            }
        }
    }
}

/// Barrier ids: unique across the processes sharing a file, `pid << 32 | counter`, so a process
/// that opens the file can tell the unfinished barriers of a dead process from live ones.
enum BarrierID {
    private static let counter = Atomic<Int64>(0)
    static let processID = Int64(getpid())

    static func next() -> Int64 {
        processID << 32 | counter.add(1, ordering: .relaxed).newValue
    }

    /// Makes sure later ids are above every id this pid already used in a file.
    static func advance(pastUsed id: Int64) {
        guard id >> 32 == processID else { return }
        let used = id & 0xFFFF_FFFF
        var current = counter.load(ordering: .relaxed)
        while current < used {
            let (exchanged, original) = counter.compareExchange(
                expected: current, desired: used, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }
}

/// Records the writes of `body` as one undoable action named `name`.
///
/// The barrier is filed with the stack current at its first change (`withUndoStack`, or the
/// engine's default stack) in the same transaction as that change, so a crash never keeps a change
/// without its undo entry, and stacks list actions in the order they first changed the database.
/// It registers when `body` returns (the stack's redo list kept as a branch): until then `undo()`
/// passes it by, and a later transaction of `body` adds to it. Nested barriers: a write belongs to
/// the innermost. A barrier that wrote nothing is not registered, nor one whose writes cancel out
/// (a row inserted and deleted, a value set and set back; read for actions of up to 1,000 log
/// rows): the redo list stays. If `body` throws, nothing is recorded and the error is rethrown.
/// Inside `withUndoDisabled`, `body` just runs: nothing is recorded or registered.
/// - Parameters:
///   - name: the action's name, shown as "Undo <name>".
///   - coalescing: a key; a barrier with the same name and key right after the previous one (see
///     `UndoStack.mergeInterval`) merges into it and undoes with it as one step.
///   - body: the action's writes.
@discardableResult
public func undoable<R>(
    _ name: String, coalescing: String? = nil, _ body: () throws -> R
) throws -> R {
    if UndoContext.isDisabled { return try body() }
    let barrier = Barrier(name: name, coalescingKey: coalescing)
    let result: R
    do {
        result = try UndoContext.withBarrier(barrier, operation: body)
    } catch {
        try? barrier.discard()
        throw error
    }
    try barrier.close()
    return result
}

/// Async form of `undoable(_:coalescing:_:)`: child tasks' writes belong to the barrier,
/// a `Task.detached`'s do not.
@discardableResult
public func undoable<R>(
    _ name: String, coalescing: String? = nil, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
) async throws -> R {
    if UndoContext.isDisabled { return try await body() }
    let barrier = Barrier(name: name, coalescingKey: coalescing)
    let result: R
    do {
        result = try await UndoContext.withBarrier(
            barrier, isolation: isolation, operation: body)
    } catch {
        try? barrier.discard()
        throw error
    }
    try barrier.close()
    return result
}
