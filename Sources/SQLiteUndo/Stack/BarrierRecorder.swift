import SQLiteDatabase
import Synchronization

/// Files barriers with their stacks inside the transaction that wrote their changes, just before
/// it commits: the change, its log rows and its undo entry commit together or not at all, so a
/// crash never leaves a change without its undo, or an undo entry without its change.
final class BarrierRecorder: WriteTransactionObserver, Sendable {
    private let state = Mutex(State())
    /// The barrier that captured last in this transaction: repeat captures skip the lock.
    private let lastPending = Atomic<Int64>(0)
    /// Counts transactions begun and ended: the capture function keeps its answer while this
    /// stays the same (see `CaptureScope`).
    private let transactionEdges = Atomic<UInt64>(0)
    /// A number that changes whenever a write transaction begins or ends.
    var transactionEdge: UInt64 { transactionEdges.load(ordering: .relaxed) }

    private struct State {
        var inTransaction = false
        /// Barriers that captured in the open transaction, with the stack current then.
        var pending: [(barrier: Barrier, stack: UndoStack)] = []
        /// What this transaction filed, set right again if it rolls back.
        var filed: [(barrier: Barrier, stack: UndoStack)] = []
    }

    /// Called by the capture function for every captured row; true for the barrier's first
    /// capture in the open transaction.
    func noteCapture(_ barrier: Barrier, stack: @autoclosure () -> UndoStack) -> Bool {
        guard lastPending.exchange(barrier.id, ordering: .relaxed) != barrier.id else {
            return false
        }
        return state.withLock { state in
            guard state.inTransaction, !state.pending.contains(where: { $0.barrier === barrier })
            else { return false }
            state.pending.append((barrier, stack()))
            return true
        }
    }

    /// Whether `barrier` captured in the transaction still open (it files it at commit).
    func isPending(_ barrier: Barrier) -> Bool {
        state.withLock { $0.pending.contains { $0.barrier === barrier } }
    }

    func didBeginWrite() {
        lastPending.store(0, ordering: .relaxed)
        transactionEdges.add(1, ordering: .relaxed)
        state.withLock { $0 = State(inTransaction: true) }
    }

    func willCommit(_ db: Database) throws {
        lastPending.store(0, ordering: .relaxed)
        transactionEdges.add(1, ordering: .relaxed)
        let pending = state.withLock { state in
            defer {
                state.pending = []
                state.inTransaction = false
            }
            return state.pending
        }
        for (barrier, stack) in pending where barrier.recordsAtCommit {
            let start = barrier.logStart(in: stack.engine) ?? 0
            if barrier.isDiscarded {
                try UndoLogSchema.deleteLog(of: barrier.id, from: start, db)
                continue
            }
            // Filed by an earlier transaction of the same block: its entry's span grows over this
            // transaction's rows (given to it when the barrier was merged), unless the entry is
            // gone (the stack's history was removed meanwhile) and it is filed anew.
            if let recorded = barrier.recorded(by: self),
                recorded.entry == barrier.id
                    ? try UndoLogSchema.extendSpan(of: barrier.id, from: start, db)
                    : try UndoLogSchema.moveLog(of: barrier.id, from: start, to: recorded.entry, db)
            {
                try stack.packLog(of: barrier, in: recorded.entry, db)
                continue
            }
            state.withLock { $0.filed.append((barrier, stack)) }
            try stack.record(barrier, db)
        }
    }

    func didRollback(_ db: Database) {
        lastPending.store(0, ordering: .relaxed)
        transactionEdges.add(1, ordering: .relaxed)
        let filed = state.withLock { state in
            defer { state = State() }
            return state.filed
        }
        for (barrier, stack) in filed {
            barrier.unfile(by: self)
            try? stack.reload(db)
        }
    }
}
