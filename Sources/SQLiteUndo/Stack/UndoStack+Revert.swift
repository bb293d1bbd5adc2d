import Foundation
import SQLiteDatabase

extension UndoStack {
    /// Takes back one past step of the undo list, keeping every later step: a selective undo.
    ///
    /// The step's changes are replayed backwards with the same rule as `undo()`: a value is
    /// restored only where it is still what the step left ("still yours"); what a later step of
    /// this stack or another changed since is kept, and reported in the event's `conflicts`
    /// with the stack that changed it. The take-back is itself a new step on top of the undo
    /// list, named "Take back <name>" (its `takesBack` names the step), so `undo()` takes it
    /// back; like any new action, it keeps the redo list as a branch. The step taken back stays where it was.
    /// - Returns: what the take-back did (`kind` is `.undo`, `name` the take-back's). When every
    ///   change of the step was kept, nothing is written and no step is filed: the event lists
    ///   what was kept.
    ///
    /// With `owner`, the step is one of another stack of the same engine (a row's history,
    /// `UndoEngine.history(of:id:)`, lists every stack's): this stack takes it back, as a step
    /// of its own; the owner keeps its step, and its own undo of it later keeps what the
    /// take-back changed.
    /// - Throws: `UndoError.stepNotFound` when `step` is not on the owner's undo list (nothing
    ///   is changed); `UndoError.replayFailed` (everything rolled back).
    @discardableResult
    public func revert(_ step: UndoStep, of owner: UndoStack? = nil) throws -> UndoEvent? {
        try revert(step, of: owner, reporting: nil)
    }

    /// `revert(_:of:)`, telling `report` how far it has come (as
    /// `undo(reportingEvery:progress:)` does).
    /// - Throws: what `revert(_:of:)` throws.
    @discardableResult
    public func revert(
        _ step: UndoStep, of owner: UndoStack? = nil,
        reportingEvery interval: Duration = ReplayProgress.defaultInterval,
        progress report: (ReplayProgress) -> Void
    ) throws -> UndoEvent? {
        try withoutActuallyEscaping(report) {
            try revert(step, of: owner, reporting: ProgressReport(interval: interval, report: $0))
        }
    }

    private func revert(
        _ step: UndoStep, of owner: UndoStack?, reporting report: ProgressReport?
    ) throws -> UndoEvent? {
        let name = "Take back \(step.name)"
        let event: UndoEvent?
        do {
            event = try engine.database.write { db -> UndoEvent? in
                let entry = try undoEntry(of: step, ownedBy: owner, db)
                try closeMergingInFile(except: nil, db)
                let (inverse, event) = try metering(entry, reporting: report, db) {
                    try takeBack(entry, named: name, db)
                }
                // A take-back that restored nothing files nothing.
                let parent = entries.withLock { $0.undo.last?.stepID }
                if let (added, _) = try insertEntry(
                    inverse, list: .undo, parent: parent, takesBack: step.id, db)
                {
                    entries.withLock { $0.undo.append(added) }
                    try keepRedoAndTrim(db)
                }
                settings.withLock { $0.coalescible = nil }
                return event
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

    /// What `revert(step, of: owner)` would do, without doing it: the event it would return
    /// (the rows it would restore, the changes it would keep and who made them), whether it
    /// would change anything (`restores`: false when every change would be kept), and what
    /// `reading` reads with the step taken back (the restored rows' values, for a status
    /// line). Everything is rolled back: nothing is written, filed or delivered.
    /// - Throws: `UndoError.stepNotFound` when `step` is not on the owner's undo list;
    ///   `SQLiteError` (the notebook busy, for one).
    public func previewRevert<Value>(
        _ step: UndoStep, of owner: UndoStack? = nil, reading: (Database) throws -> Value
    ) throws -> (event: UndoEvent, restores: Bool, value: Value) {
        try preview { db in
            let entry = try undoEntry(of: step, ownedBy: owner, db)
            let (inverse, event) = try takeBack(entry, named: "Take back \(step.name)", db)
            // As `UndoLogSchema.file` decides whether there is a step to file.
            let restores = try inverse.logStart(in: engine).map { start in
                try UndoLogSchema.hasLog(of: inverse.id, from: start, db)
            }
            return (event, restores ?? false, try reading(db))
        }
    }

    /// What `undo(to: step)` would do, without doing it: the event of each undo, in order, as
    /// the undos would deliver them (they run, in a transaction that is rolled back; the lists
    /// are put back as they were after it).
    /// - Throws: `UndoError.stepNotFound` when `step` is not on the undo list; `SQLiteError`.
    public func previewUndo(to step: UndoStep) throws -> [UndoEvent] {
        try preview { db in
            _ = try undoEntry(of: step, db)
            var events: [UndoEvent] = []
            while let newest = top(of: .undo), newest.stepID != step.id,
                let event = try replayTop(of: .undo, db)
            {
                events.append(event)
            }
            return events
        }
    }

    /// The entry holding `step` on the undo list of `owner` (this stack when nil), found inside
    /// the transaction. Another stack's lists are read again from the file first when another
    /// connection committed since they were read: another program (another window) may have
    /// acted, undone or taken back on that stack, and they would miss its steps or name entries
    /// a replay replaced. This engine's own writes keep them as the file has them.
    private func undoEntry(of step: UndoStep, ownedBy owner: UndoStack?, _ db: Database) throws
        -> StackEntry
    {
        guard let owner, owner !== self else { return try undoEntry(of: step, db) }
        try owner.reloadIfAnotherConnectionCommitted(db)
        return try owner.undoEntry(of: step, db)
    }

    /// The undo list's entry holding `step`, found inside the transaction (a queued action may
    /// have changed the list), and still in the file (the lists are read again when another
    /// program deleted it).
    private func undoEntry(of step: UndoStep, _ db: Database) throws -> StackEntry {
        let listed = { self.entries.withLock { $0.undo.last { $0.stepID == step.id } } }
        guard let entry = try inFile(listed, on: .undo, db) else {
            throw UndoError.stepNotFound(step.name)
        }
        return entry
    }

    /// Replays `entry` backwards inside the open transaction, by the still-yours rule, recording
    /// its inverse as a barrier named `name` (not filed); returns it with the event.
    private func takeBack(_ entry: StackEntry, named name: String, _ db: Database) throws
        -> (inverse: Barrier, event: UndoEvent)
    {
        let unpacked = try engine.unpackForReplay(entry: entry.id, inverted: entry.inverted, db)
        let (inverse, reverted) = try engine.revert(
            entry: entry.id, inverted: entry.inverted, named: name, recordingInverse: true, db)
        let conflicts =
            reverted.conflicts.isEmpty
            ? [] : try engine.attribute(reverted.conflicts, replaying: entry.id, db)
        try UndoLogSchema.pack(entry: entry.id, seqs: unpacked, db)
        return (
            inverse,
            UndoEvent(
                kind: .undo, name: name, affectedRows: reverted.affected, conflicts: conflicts,
                affectedKeys: try engine.keys(of: reverted.affected, db))
        )
    }

    /// Runs `body` in a write transaction that is always rolled back; returns what it returned.
    /// Runs `body` in a transaction that is rolled back, the stack's lists and settings put
    /// back as they were after it (the replays it makes change them in memory too).
    func preview<Output>(_ body: (Database) throws -> Output) throws -> Output {
        let saved = (entries.withLock { $0 }, settings.withLock { $0 })
        defer {
            entries.withLock { $0 = saved.0 }
            settings.withLock { $0 = saved.1 }
        }
        var result: Output?
        do {
            try engine.database.write { db in
                result = try body(db)
                throw PreviewRolledBack()
            }
        } catch is PreviewRolledBack {}
        return result!
    }
}

/// Thrown to roll a preview's transaction back.
private struct PreviewRolledBack: Error {}
