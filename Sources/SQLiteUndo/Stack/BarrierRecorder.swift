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
    /// Counts the times the log changed hands: a row logged by another action's barrier than
    /// the last row, or a replay that changed rows (it flipped an entry, or filed its inverse;
    /// the rows a replay logs count only then: one that restored nothing files nothing).
    private let handoverCount = Atomic<UInt64>(0)
    private let lastLogger = Atomic<Int64>(0)

    /// The count of handovers so far.
    var handovers: UInt64 { handoverCount.load(ordering: .relaxed) }

    /// Notes that `barrier` logs a row, and returns the count of handovers: the same for two
    /// rows of one barrier when no other action's barrier logged a row, and no replay changed
    /// rows, in between.
    func handover(to barrier: Int64) -> UInt64 {
        guard lastLogger.exchange(barrier, ordering: .relaxed) != barrier else { return handovers }
        return handoverCount.add(1, ordering: .relaxed).newValue
    }

    /// A replay changed rows: it flipped an entry, or filed its inverse.
    func noteReplay() {
        lastLogger.store(0, ordering: .relaxed)
        handoverCount.add(1, ordering: .relaxed)
    }

    /// Where the log ended when this connection last committed, if that transaction filed
    /// barriers (filing read it), with the file's data version then. While the version stays
    /// the same nobody else committed, and the engine keeps the log's highest `seq` from going
    /// down (`UndoLogSchema.keepingHighestSeq`): the next log row gets the `seq` after it, and a
    /// capture need not read it (a query costing a 1-row action about 1 µs). Once another
    /// connection committed (it may have emptied the log), it is read again.
    private let committedLogEnd = Mutex<LogEnd?>(nil)

    private struct LogEnd {
        let seq: Int64
        let fileVersion: UInt32
    }

    private struct State {
        var inTransaction = false
        /// Barriers that captured in the open transaction, with the stack current then.
        var pending: [(barrier: Barrier, stack: UndoStack)] = []
        /// What this transaction filed, set right again if it rolls back.
        var filed: [(barrier: Barrier, stack: UndoStack)] = []
        /// Whether the transaction is filing its barriers (`willCommit` runs).
        var isFiling = false
        /// The log's highest `seq` its filings read.
        var filedLogEnd: Int64?
    }

    /// The `seq` the open transaction's next log row gets, when no other connection committed
    /// since this one's last commit, which filed barriers; nil when it has to be read.
    func nextSeq(_ db: Database) -> Int64? {
        committedLogEnd.withLock { end in
            guard let end, let version = db.fileDataVersion, version == end.fileVersion else {
                return nil
            }
            return end.seq + 1
        }
    }

    /// A stack filed an entry at commit, reading the log's highest `seq`.
    func noteFiling(logEnd: Int64) {
        state.withLock { state in
            guard state.isFiling else { return }
            state.filedLogEnd = max(state.filedLogEnd ?? logEnd, logEnd)
        }
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
                state.isFiling = true
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
                if recorded.entry == barrier.id { barrier.noteGrown(by: self) }
                try stack.packLog(of: barrier, in: recorded.entry, db)
                continue
            }
            state.withLock { $0.filed.append((barrier, stack)) }
            try stack.record(barrier, db)
        }
    }

    func didCommit(_ db: Database) {
        let end = state.withLock { state in
            defer { state = State() }
            return state.filedLogEnd
        }
        committedLogEnd.withLock { known in
            known = end.flatMap { seq in
                db.fileDataVersion.map { LogEnd(seq: seq, fileVersion: $0) }
            }
        }
    }

    func didRollback(_ db: Database) {
        lastPending.store(0, ordering: .relaxed)
        transactionEdges.add(1, ordering: .relaxed)
        committedLogEnd.withLock { $0 = nil }
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
