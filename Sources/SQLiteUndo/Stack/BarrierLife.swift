import Foundation
import Synchronization

/// Where a barrier is in its life, changed only by the verbs below.
///
/// ```
/// running ───close───▶ registered    its block returned: its stack lists it
///    └──────discard───▶ discarded     its block threw: its filings and log rows are taken back
/// ```
///
/// `Barrier.close()` and `Barrier.discard()` are these two verbs with what they write: the
/// stacks' registrations, or the filings and log rows taken back.
///
/// Apart from the phase, a barrier is filed per engine (its writes may reach several databases):
/// the transaction that commits its first change there files it on a stack (`file`, by
/// `UndoStack.record`), so a crash never keeps a change without its entry, and a rolled-back
/// transaction unfiles it (`unfile`). Stacks pass the entries of a running barrier's filings by
/// (undo, redo, `state`: `LiveBarriers.runningEntries(on:)`); a discarded barrier files nothing
/// more.
struct BarrierLife: Sendable {
    enum Phase: Sendable, Equatable {
        /// Its block runs: its transactions file it, stacks pass it by.
        case running
        /// Its block returned: the stack it is filed with lists it.
        case registered
        /// Its block threw: nothing of it is kept.
        case discarded
    }

    private(set) var phase = Phase.running
    /// Where each engine's recorder filed it, by the recorder.
    private var filings: [ObjectIdentifier: Barrier.Recorded] = [:]

    /// Where `recorder`'s transactions filed it, or nil.
    func filing(by recorder: BarrierRecorder) -> Barrier.Recorded? {
        filings[ObjectIdentifier(recorder)]
    }

    /// The entries it is filed to on `stack`.
    func entries(on stack: UndoStack) -> [Int64] {
        filings.values.filter { $0.stack === stack }.map(\.entry)
    }

    /// A transaction of `recorder`'s engine filed it at `recorded`.
    mutating func file(_ recorded: Barrier.Recorded, by recorder: BarrierRecorder) {
        filings[ObjectIdentifier(recorder)] = recorded
    }

    /// A later transaction of its block added log rows to its entry.
    mutating func grow(by recorder: BarrierRecorder) {
        filings[ObjectIdentifier(recorder)]?.mayCancelOut = true
    }

    /// The transaction that filed it rolled back.
    mutating func unfile(by recorder: BarrierRecorder) {
        filings[ObjectIdentifier(recorder)] = nil
    }

    /// Its block returned.
    mutating func close() {
        if phase == .running { phase = .registered }
    }

    /// Its block threw.
    mutating func discard() {
        phase = .discarded
    }
}

/// The barriers of this process that still exist, by id: the stacks' running entries are read
/// from them, and an engine opening a file keeps the log rows of those not filed yet.
enum LiveBarriers {
    private final class WeakBarrier: Sendable {
        weak let barrier: Barrier?
        init(_ barrier: Barrier) { self.barrier = barrier }
    }

    private static let barriers = Mutex<[Int64: WeakBarrier]>([:])

    /// A barrier was made.
    static func add(_ barrier: Barrier) {
        barriers.withLock { $0[barrier.id] = WeakBarrier(barrier) }
    }

    /// The barrier `id` is gone.
    static func remove(_ id: Int64) {
        _ = barriers.withLock { $0.removeValue(forKey: id) }
    }

    /// The entries of `stack` that barriers whose blocks still run filed to (a few): `undo()`
    /// passes them by and `state` leaves them out until the last of those barriers returns.
    static func runningEntries(on stack: UndoStack) -> [Int64] {
        let live = barriers.withLock { $0.isEmpty ? [] : $0.values.compactMap(\.barrier) }
        return live.isEmpty ? [] : live.flatMap { $0.runningEntries(on: stack) }
    }

    /// Whether the barrier `id`'s block may still be running: in this process and not gone, or
    /// in another process that is alive.
    static func mayBeRunning(_ id: Int64) -> Bool {
        let owner = id >> 32
        if owner == BarrierID.processID { return barriers.withLock { $0[id] != nil } }
        guard owner > 0, owner <= Int64(Int32.max) else { return false }
        return kill(pid_t(owner), 0) == 0 || errno == EPERM
    }
}
