import SQLiteDatabase

/// Filings taken back when a barrier's block returns: a block that threw records nothing, and
/// one whose writes cancelled out registers nothing.
extension UndoStack {
    /// Takes back what `record` filed for a barrier whose block then threw (a later transaction
    /// of the same block failed): its entry and log rows, or the rows it merged into another.
    func unrecord(_ barrier: Barrier, _ recorded: Barrier.Recorded) throws {
        do {
            try engine.database.write { db in
                if let first = recorded.mergedFromSeq {
                    // A collapsed row holds the run's earlier writes of its cell as well: it
                    // stays, and the run takes back what the barrier committed there with them.
                    try UndoLogSchema.deleteLog(
                        of: recorded.entry, from: first, except: recorded.collapsed, db)
                    return
                }
                try unfile(barrier, recorded, db)
            }
        } catch {
            try? reload()
            throw error
        }
    }

    /// Takes back the filing of a barrier whose block returned when its writes cancelled out
    /// (a row inserted and deleted, a value set and set back): like a barrier that wrote
    /// nothing, it does not register, and the redo list stays. Returns whether it did; an
    /// entry spanning more than `rowsReadForCancelling` log rows is not read, and registers.
    func unregisterIfCancelledOut(_ barrier: Barrier, _ recorded: Barrier.Recorded) -> Bool {
        do {
            return try engine.database.write { db in
                guard entries.withLock({ $0.undo.last { $0.id == barrier.id }?.inverted == false }),
                    try UndoLogSchema.cancelsOut(
                        entry: barrier.id, readingAtMost: Self.rowsReadForCancelling, db)
                else { return false }
                try unfile(barrier, recorded, db)
                return true
            }
        } catch {
            // It registers as it is: its undo then finds nothing to change.
            try? reload()
            return false
        }
    }

    /// The most log rows of an action read when its block returns, to tell whether its writes
    /// cancelled out: an action larger than that registers unread (reading it would cost a
    /// large action a fraction of its own time).
    static let rowsReadForCancelling = 1000

    /// Takes the entry of `barrier` (filed on its own, not merged) off the stack with its log
    /// rows, puts back the redo entries its filing set aside, and makes the steps done on it
    /// done on the one it was done on.
    private func unfile(_ barrier: Barrier, _ recorded: Barrier.Recorded, _ db: Database) throws {
        try UndoLogSchema.restoreRedo(recorded.setAsideRedo, db)
        if let unfiled = entries.withLock({ $0.undo.last { $0.id == barrier.id } }) {
            try UndoLogSchema.repointChildren(
                of: unfiled.stepID, to: unfiled.parent, stack: id, db)
        }
        try UndoLogSchema.deleteEntries([barrier.id], db)
        // As the file has them now (a reading of the lists while the block ran counts the redo
        // entries it set aside as kept).
        try reload(db)
        settings.withLock { if $0.coalescible == barrier.id { $0.coalescible = nil } }
    }
}
