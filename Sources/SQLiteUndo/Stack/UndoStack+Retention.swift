import SQLiteDatabase

/// How much history a stack keeps: `levelsOfUndo` steps, and optionally `maxHistoryBytes`
/// bytes of log, over the whole tree; a new action keeps the redo list as a branch. Past a
/// bound the oldest kept (branch) steps go first, each with the kept steps done on it, then the
/// oldest undo steps; never the newest.
extension UndoStack {
    /// How many steps the history keeps, branches included (default 1000); older ones are
    /// dropped with their log rows when a new action registers.
    public var levelsOfUndo: Int {
        get { settings.withLock { $0.levelsOfUndo } }
        set { settings.withLock { $0.levelsOfUndo = max(0, newValue) } }
    }

    /// What registering an action does to the lists, in the file and in memory: keeps the redo
    /// list as a branch and trims the history to `levelsOfUndo`.
    func keepRedoAndTrim(_ db: Database) throws {
        let levels = levelsOfUndo
        let open = runningEntryIDs()
        let (left, dropped) = entries.withLock { entries -> ([Int64], [StackEntry]) in
            let left = entries.redo.map(\.id)
            if !entries.redo.isEmpty {
                entries.kept += entries.redo
                entries.kept.sort { $0.isDone(before: $1) }
                entries.redo = []
            }
            let excess =
                Self.registeredCount(entries.undo, open: open) + entries.kept.count - levels
            let kept = Self.dropOldest(excess, of: &entries.kept)
            let undone = Self.trim(
                &entries.undo, to: levels, beside: entries.kept.count, keeping: open)
            return (left, kept + undone)
        }
        try UndoLogSchema.keep(left, db)
        try UndoLogSchema.deleteEntries(
            dropped.map(\.id) + (try dropPastByteBudget(db)),
            takingIn: engine.slotsTakenIntoRuns(), db)
    }

    /// Removes the oldest `count` (or more) kept steps, each with the kept steps done on it
    /// (which no step could reach any more); returns them.
    static func dropOldest(_ count: Int, of kept: inout [StackEntry]) -> [StackEntry] {
        var dropped: [StackEntry] = []
        while dropped.count < count, let oldest = kept.first {
            // Read again until no more are found: a barrier nested in another and filed first is
            // the step the outer one was done on, though listed after it (the outer one's id is
            // the lower, at one time); a clock set back does the same.
            var gone: Set<Int64> = [oldest.stepID]
            var found = true
            while found {
                found = false
                for entry in kept
                where !gone.contains(entry.stepID) && entry.parent.map(gone.contains) == true {
                    gone.insert(entry.stepID)
                    found = true
                }
            }
            dropped += kept.filter { gone.contains($0.stepID) }
            kept.removeAll { gone.contains($0.stepID) }
        }
        return dropped
    }

    /// How many entries of `undo` are registered: not in `open` (their blocks still run). Those
    /// were filed last, so they are looked for from the top, and no further than needed.
    static func registeredCount(_ undo: [StackEntry], open: [Int64]) -> Int {
        var found = 0
        var index = undo.endIndex
        while found < open.count, index > undo.startIndex {
            index -= 1
            if open.contains(undo[index].id) { found += 1 }
        }
        return undo.count - found
    }

    /// Removes the oldest registered entries beyond `levels` (`kept` steps counting too) from
    /// `undo`; returns them. Entries in `open` are neither counted nor removed.
    private static func trim(
        _ undo: inout [StackEntry], to levels: Int, beside kept: Int = 0, keeping open: [Int64]
    ) -> [StackEntry] {
        var excess = registeredCount(undo, open: open) + kept - levels
        var dropped: [StackEntry] = []
        var index = undo.startIndex
        while excess > 0, index < undo.endIndex {
            if open.contains(undo[index].id) {
                index += 1
            } else {
                dropped.append(undo.remove(at: index))
                excess -= 1
            }
        }
        return dropped
    }

    /// The most bytes of log the undo list keeps, next to `levelsOfUndo` (nil, the default: no
    /// byte budget). Past it, the oldest registered actions are dropped with their log rows when
    /// an action registers or a typing run grows; the newest is kept, however large. Counted:
    /// the bytes of the values an action's log rows hold as stored (a small edit of a large
    /// value counts as the edit, see `PackedChange`), plus `UndoLogSchema.bytesPerLogRow` a row.
    public var maxHistoryBytes: Int? {
        get { settings.withLock { $0.maxHistoryBytes } }
        set { settings.withLock { $0.maxHistoryBytes = newValue.map { max(0, $0) } } }
    }

    /// Drops, with their log, the oldest entries past the budget (if any), measuring `entry`
    /// again first (a barrier merged into it).
    func keepWithinByteBudget(measuringAgain entry: Int64? = nil, _ db: Database) throws {
        guard settings.withLock({ $0.maxHistoryBytes != nil }) else { return }
        if let entry {
            entries.withLock { entries in
                if let index = entries.undo.lastIndex(where: { $0.id == entry }) {
                    entries.undo[index].bytes = nil
                }
            }
        }
        try UndoLogSchema.deleteEntries(
            try dropPastByteBudget(db), takingIn: engine.slotsTakenIntoRuns(), db)
    }

    /// Whether the undo list and the kept steps may hold more than the budget: in memory, an
    /// entry not measured yet counting as over it.
    func mayExceedByteBudget(_ undo: [StackEntry], _ kept: [StackEntry]) -> Bool {
        guard let budget = settings.withLock({ $0.maxHistoryBytes }), undo.count + kept.count > 1
        else { return false }
        let bytes = { (total: Int, entry: StackEntry) in total + (entry.bytes ?? budget + 1) }
        return kept.reduce(undo.reduce(0, bytes), bytes) > budget
    }

    /// Removes from the history the oldest kept steps past `maxHistoryBytes`, then the oldest
    /// registered undo entries but the newest, measuring the entries not measured yet; returns
    /// their ids (their log is still to delete).
    func dropPastByteBudget(_ db: Database) throws -> [Int64] {
        guard let budget = settings.withLock({ $0.maxHistoryBytes }) else { return [] }
        let open = runningEntryIDs()
        var (undo, kept) = entries.withLock { ($0.undo, $0.kept) }
        for index in undo.indices where undo[index].bytes == nil {
            undo[index].bytes = try UndoLogSchema.logBytes(ofEntry: undo[index].id, db)
        }
        for index in kept.indices where kept[index].bytes == nil {
            kept[index].bytes = try UndoLogSchema.logBytes(ofEntry: kept[index].id, db)
        }
        var total = (undo + kept).reduce(0) { $0 + ($1.bytes ?? 0) }
        var dropped: [Int64] = []
        while total > budget, !kept.isEmpty {
            for entry in Self.dropOldest(1, of: &kept) {
                dropped.append(entry.id)
                total -= entry.bytes ?? 0
            }
        }
        let newest = undo.last { !open.contains($0.id) }?.id
        for entry in undo where total > budget {
            guard !open.contains(entry.id), entry.id != newest else { continue }
            dropped.append(entry.id)
            total -= entry.bytes ?? 0
        }
        let measured = Dictionary(uniqueKeysWithValues: (undo + kept).map { ($0.id, $0.bytes) })
        let gone = Set(dropped)
        entries.withLock { entries in
            entries.undo.removeAll { gone.contains($0.id) }
            entries.kept.removeAll { gone.contains($0.id) }
            for index in entries.undo.indices where entries.undo[index].bytes == nil {
                entries.undo[index].bytes = measured[entries.undo[index].id] ?? nil
            }
            for index in entries.kept.indices where entries.kept[index].bytes == nil {
                entries.kept[index].bytes = measured[entries.kept[index].id] ?? nil
            }
        }
        return dropped
    }
}
