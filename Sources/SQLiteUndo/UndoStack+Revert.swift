import Foundation
import SQLiteDatabase

extension UndoStack {
    /// Takes back one past step of the undo list, keeping every later step: a selective undo.
    ///
    /// The step's changes are replayed backwards with the same rule as `undo()`: a value is
    /// restored only where it is still what the step left ("still yours"); what a later step of
    /// this stack or another changed since is kept, and reported in the event's `conflicts`
    /// with the stack that changed it. The take-back is itself a new step on top of the undo
    /// list, named "Take back <name>", so `undo()` takes it back; like any new action, it clears
    /// the redo list. The step taken back stays where it was.
    /// - Returns: what the take-back did (`kind` is `.undo`, `name` the take-back's). When every
    ///   change of the step was kept, nothing is written and no step is filed: the event lists
    ///   what was kept.
    /// - Throws: `UndoError.stepNotFound` when `step` is not on the undo list (nothing is
    ///   changed); `UndoError.replayFailed` (everything rolled back).
    @discardableResult
    public func revert(_ step: UndoStep) throws -> UndoEvent? {
        guard history.undo.contains(where: { $0.id == step.id }) else {
            throw UndoError.stepNotFound(step.name)
        }
        let name = "Take back \(step.name)"
        let event: UndoEvent?
        do {
            event = try engine.database.write { db -> UndoEvent? in
                // Found again inside the transaction: a queued action may have changed the list.
                guard let entry = entries.withLock({ $0.undo.last { $0.stepID == step.id } })
                else { throw UndoError.stepNotFound(step.name) }
                try closeMergingInFile(except: nil, db)
                let unpacked = try engine.unpackForReplay(
                    entry: entry.id, inverted: entry.inverted, db)
                let (inverse, reverted) = try engine.revert(
                    barrier: entry.id, inverted: entry.inverted, named: name,
                    recordingInverse: true, db)
                let conflicts =
                    reverted.conflicts.isEmpty
                    ? [] : try engine.attribute(reverted.conflicts, replaying: entry.id, db)
                try UndoLogSchema.pack(entry: entry.id, seqs: unpacked, db)
                // A take-back that restored nothing files nothing.
                if let added = try insertEntry(inverse, list: .undo, db) {
                    if let start = inverse.logStart(in: engine) {
                        try UndoLogSchema.pack(
                            entry: added.id, from: start, slots: engine.mostSlots, db)
                    }
                    entries.withLock { $0.undo.append(added) }
                    try clearRedoAndTrim(db)
                }
                settings.withLock { $0.coalescible = nil }
                return UndoEvent(
                    kind: .undo, name: name, affectedRows: reverted.affected,
                    conflicts: conflicts)
            }
        } catch let error as UndoError {
            try? reload()
            throw error
        } catch {
            try? reload()
            throw UndoError.replayFailed(
                barrier: name, reason: "\(error)", underlying: SQLiteError(unwrapping: error))
        }
        if let event { deliver(event) }
        return event
    }
}
