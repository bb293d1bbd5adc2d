import SQLiteDatabase

/// Typing coalescing: a barrier with the same name and coalescing key as the stack's previous
/// one merges into it, so that a typing run undoes as one step.
extension UndoStack {
    /// Merges `barrier` into the top of the undo list when it coalesces with it: same name and
    /// key, nothing registered or undone since, within `mergeInterval` of it (by the engine's
    /// clock), and nobody else changed the rows it writes in between (see `changedByOthers`), but
    /// for others' edits elsewhere in a merged text, or their timestamps (`rebaseRun`).
    /// Returns where it went, or nil when it does not merge.
    func merge(_ barrier: Barrier, _ db: Database) throws -> Barrier.Recorded? {
        guard let key = barrier.coalescingKey,
            let top = entries.withLock({ $0.undo.last }),
            top.name == barrier.name, top.coalescingKey == key, !top.inverted,
            settings.withLock({ $0.coalescible == top.id })
        else { return nil }
        let now = stamp()
        // Its first log row; none when it only made no-op updates (nothing to merge).
        guard now - top.closedAt <= mergeInterval, let start = barrier.logStart(in: engine),
            let first = try UndoLogSchema.firstSeq(of: barrier.id, from: start, db)
        else { return nil }
        // Others' writes in between to merged texts and timestamps are taken into the run; any
        // other change in between cuts it.
        let midRunRules = engine.slotsTakenIntoRuns()
        // The run's packed rows of the cells the barrier writes are read whole from here on.
        guard
            let unpacked = try UndoLogSchema.unpackRun(
                of: top.id, under: barrier.id, from: first,
                mergingText: { midRunRules[$0]?[$1] == .text }, db)
        else { return nil }
        guard
            let rebase = try UndoLogSchema.rebaseRun(
                of: top.id, under: barrier.id, from: first, takingIn: midRunRules, db),
            try !UndoLogSchema.changedByOthers(
                since: top.id, rowsOf: barrier.id, from: first,
                ignoring: midRunRules.mapValues { Array($0.keys) }, db)
        else {
            try UndoLogSchema.pack(entry: top.id, seqs: unpacked, db)
            return nil
        }
        try UndoLogSchema.apply(rebase, db)
        try UndoLogSchema.moveLog(of: barrier.id, from: start, to: top.id, db)
        let collapsed = try UndoLogSchema.collapseRun(top.id, from: first, db)
        try UndoLogSchema.pack(entry: top.id, seqs: unpacked, db)
        try UndoLogSchema.setClosedAt(now, ofEntry: top.id, db)
        entries.withLock { $0.undo[$0.undo.count - 1].closedAt = now }
        return Barrier.Recorded(
            stack: self, entry: top.id, mergedFromSeq: first, collapsed: collapsed)
    }
}
