import SQLiteDatabase

/// The exact replay: restores an entry only when that restores every value exactly and writes
/// nothing else, so that nothing is recorded and the entry's own log, read inverted, is the
/// replay's inverse.
extension BatchReplay {
    /// Reverts the entry only when that restores every value exactly: the simple shape,
    /// updates and deletes only (or inserts only: `removeExactly`), and every row and column
    /// still as the entry left it. Returns false, having changed nothing, otherwise. Nothing else
    /// is written, so the entry's own log, read inverted, is the exact inverse.
    ///
    /// One pass per part: each statement restores only the rows still exactly as the entry
    /// left them (and a deleted row only where its rowid is free); when one is not, or that is
    /// fewer rows than the part logged, someone changed one since (or the log names a row
    /// twice) and the savepoint takes everything back. An entry of one bulk statement has one
    /// part: it is guessed from the first and last log rows and checked against the length of
    /// the entry's span, without reading the log's shape first.
    mutating func revertExactly() throws -> Bool {
        // A table the key map names is replayed by the set-based or row-by-row replays: this
        // one reads rowids. When the entry's first row names one, that is known without
        // reading the shape of its whole log.
        let first = try log.firstRow()
        if let first, tables[first.tableID]?.keyMap != nil { return false }
        if let guess = firstRowPart(first),
            try restoreExactly([guess], expectingInAll: guess.count)
        {
            return true
        }
        guard let parts = try simpleParts(checkingRowsOnce: false) else {
            guard let removal = try removalParts() else { return false }
            return try removeExactly(removal.parts, updated: removal.updated)
        }
        guard !parts.contains(where: { $0.table.keyMap != nil }) else { return false }
        if parts.allSatisfy({ $0.kind == .insert }) {
            return try removeExactly(parts, updated: [:])
        }
        guard !parts.contains(where: { $0.kind == .insert }) else { return false }
        return try restoreExactly(parts, expectingInAll: nil)
    }

    /// Deletes the rows the entry inserted (a redo of a delete, an undo of an import), when
    /// every one is still as the entry left it; false, having changed nothing, otherwise.
    ///
    /// Deleting a parent deletes its children by their foreign keys' `ON DELETE CASCADE`, and
    /// an application's triggers may write the rows being deleted (an article's `updatedAt`
    /// stamped as its chunks go): neither is counted statement by statement as the restores
    /// are. Instead, the rows every statement, trigger and cascade wrote are recorded, and the
    /// replay is exact when they are all rows of the parts and none of those is left: the
    /// tables are then exactly as before the entry, whatever wrote in between.
    ///
    /// `updated` has, by table, the mask of updates the entry made to the rows after
    /// inserting them (`removalParts`).
    private mutating func removeExactly(_ parts: [Part], updated: [Int64: Int64]) throws -> Bool {
        var removed: [String: Set<Int64>] = [:]
        do {
            try db.savepoint {
                for part in parts {
                    let unchanged = try log.unchangedRowCount(
                        of: part.table, part.stored, updated: updated[part.table.id])
                    guard unchanged == part.count else { throw NotExact() }
                    removed[part.table.name, default: []].formUnion(
                        try log.currentRowids(of: part.table, part.stored))
                }
                let (_, written) = try db.recordingChangedRowids {
                    for part in parts {
                        try log.deleteRows(of: part.table, part.stored)
                    }
                }
                for (name, rowids) in written {
                    guard
                        let table = tables.values.first(where: {
                            $0.name.caseInsensitiveCompare(name) == .orderedSame
                        })
                    else { continue }
                    guard rowids.isSubset(of: removed[table.name] ?? []) else { throw NotExact() }
                }
                for part in parts {
                    guard try log.rowCount(of: part.table, part.stored) == 0 else {
                        throw NotExact()
                    }
                }
            }
        } catch is NotExact {
            return false
        }
        affectedRows = removed
        return true
    }

    /// The rows to remove of an entry that inserted them (deleted them, read inverted) and
    /// wrote nothing else but updates of those rows (an application's trigger stamping them as
    /// they came, as notes' chunks stamp their article): the parts, and by table the mask of
    /// the updates that followed the inserts (the rows' values as left are the last update's
    /// there). nil for any other shape.
    private func removalParts() throws -> (parts: [Part], updated: [Int64: Int64])? {
        let removing: UndoLogSchema.Kind = inverted ? .delete : .insert
        var parts: [Part] = []
        var updated: [Int64: Int64] = [:]
        for group in try log.groups(countingDistinctRows: true) {
            let (tableID, count) = (group.tableID, group.count)
            let lowest = group.lowestMask
            guard let table = tables[tableID], table.keyMap == nil, lowest == group.highestMask,
                let stored = group.stored
            else { return nil }
            if stored == removing {
                guard lowest == table.fullMask, group.distinctRows == count else { return nil }
                parts.append(
                    Part(
                        table: table, stored: stored, kind: .insert, count: count,
                        lastSeq: group.lastSeq, masks: [lowest], rowids: group.rowids))
            } else if stored == .update, group.moves == 0 {
                updated[tableID] = lowest
            } else {
                return nil
            }
        }
        for (tableID, _) in updated {
            guard parts.contains(where: { $0.table.id == tableID }) else { return nil }
            // Every update is of a row the entry inserted.
            guard try log.strayUpdateCount(ofTable: tableID, besides: removing) == 0 else {
                return nil
            }
        }
        // Read inverted, the updates came before the deletes, whose values are the rows' last.
        if inverted { updated = [:] }
        return (
            parts.sorted { inverted ? $0.lastSeq < $1.lastSeq : $0.lastSeq > $1.lastSeq }, updated
        )
    }

    /// Restores the parts' rows still as the entry left them, in a savepoint kept only when
    /// that is every row of each part (or `expectingInAll` rows in all).
    private mutating func restoreExactly(_ parts: [Part], expectingInAll total: Int?) throws
        -> Bool
    {
        var restored: [String: Set<Int64>] = [:]
        do {
            try db.savepoint {
                var count = 0
                for part in parts {
                    let rowids =
                        part.kind == .update
                        ? try restoreUpdatedExactly(part)
                        : try restoreDeletedExactly(part)
                    guard total != nil || rowids.count == part.count else { throw NotExact() }
                    count += rowids.count
                    restored[part.table.name, default: Set(minimumCapacity: rowids.count)]
                        .formUnion(rowids)
                }
                if let total, count != total { throw NotExact() }
            }
        } catch is NotExact {
            return false
        }
        affectedRows = restored
        return true
    }

    /// The part the entry's first log row belongs to, if the exact replay can restore it.
    ///
    /// Read from the first and last log rows alone: its count is the length of the entry's
    /// span, and its rowids run from the first row's to the last's. When the entry is not one
    /// such part, the exact replay restores fewer rows than that count and takes them back.
    private func firstRowPart(_ first: UndoLogSchema.EntryLog.FirstRow?) -> Part? {
        // An entry whose last log row is of another table or kind is not one part (`first` is
        // nil): restoring the first row's part to find that out would cost a whole part, taken
        // back.
        guard let first, let table = tables[first.tableID], table.keyMap == nil,
            let stored = first.stored
        else { return nil }
        let mask = first.mask
        let kind = replayed(stored)
        guard kind != .insert, mask != 0, mask & ~table.fullMask == 0,
            kind == .update || mask == table.fullMask,
            !mayHaveRowsSkipped(table, kind, mask: mask)
        else { return nil }
        return Part(
            table: table, stored: stored, kind: kind, count: first.spanLength, lastSeq: first.seq,
            masks: [mask], rowids: first.rowids)
    }

    /// Restores the columns each logged update changed, in the rows where every one of them
    /// still holds what the entry left; returns those rows, or throws `NotExact` when one of
    /// them does not.
    ///
    /// The UPDATE reads each row's values from the log through the update value feed instead of
    /// joining the log (which makes SQLite copy every value into a temporary table first). It
    /// visits its rows in rowid order, so the log is read in that order: in `seq` order first,
    /// which is rowid order for a bulk statement that scanned its table, sorted otherwise. The
    /// rows it visits are, first, every row between the lowest and the highest rowid the log
    /// names (a row of that range the log does not name puts the feed out of step, and the
    /// UPDATE takes back what it did), then the log's rowids.
    ///
    /// A large part is restored with the update capture triggers of its columns dropped for the
    /// statement (see `withoutUpdateCapture`).
    private func restoreUpdatedExactly(_ part: Part) throws -> [Int64] {
        let feed = try db.updateValueFeed(named: UndoEngine.restoreFunction)
        let range = part.sharedMask == nil ? nil : part.rowids
        let masks = try masks(part)
        return try withoutUpdateCapture(part, columns: masks.reduce(0, |)) {
            try masks.flatMap { try restoreUpdatedExactly(part, mask: $0, range: range, feed) }
        }
    }

    /// Restores the part's rows whose log rows have `mask` (see `restoreUpdatedExactly(_:)`).
    private func restoreUpdatedExactly(
        _ part: Part, mask: Int64, range: ClosedRange<Int64>?, _ feed: UpdateValueFeed
    ) throws -> [Int64] {
        let restored = try log.restoreUpdated(
            of: part.table, part.stored, mask: mask, range: range, through: feed
        ) { restore in
            let changedBefore = changedRows()
            let outcome = try restore()
            if case .fed(let keys) = outcome {
                try expectChanged(keys.count, rowsOf: part, since: changedBefore)
            }
            return outcome
        }
        guard let restored else { throw NotExact() }
        return restored
    }

    /// Re-inserts the part's deleted rows, for the exact replay.
    private mutating func restoreDeletedExactly(_ part: Part) throws -> [Int64] {
        let changedBefore = changedRows()
        let rowids = try restoreDeleted(part, reporting: false)
        try expectChanged(rowids.count, rowsOf: part, since: changedBefore)
        return rowids
    }

    /// From how many rows a part is worth restoring without its columns' update capture
    /// triggers.
    static let defaultRowsWorthSuspendingCapture = 1000

    /// Runs `body` with the update capture triggers of the part's table's `columns` (a mask)
    /// dropped, when the part has at least `rowsWorthSuspendingCapture` rows, and creates them
    /// again after it.
    ///
    /// The exact replay runs outside any barrier, so the triggers would log nothing; but an
    /// UPDATE that contains a trigger updates in two passes and loads the columns twice: about
    /// a third of a bulk restore's time (measured). Dropping and creating a TEMP trigger changes
    /// only this connection's schema, inside the replay's savepoint (which takes both back if
    /// it gives up). It costs about a millisecond: the trigger parsed twice, and every
    /// statement the connection has prepared prepared again at its next use (SQLite expires
    /// them all when the TEMP schema changes), which a thousand rows repay.
    private func withoutUpdateCapture<T>(_ part: Part, columns: Int64, _ body: () throws -> T)
        throws -> T
    {
        guard part.count >= rowsWorthSuspendingCapture else { return try body() }
        let drop = part.table.dropUpdateTriggersSQL(mask: columns)
        guard !drop.isEmpty else { return try body() }
        try db.execute(drop)
        let result = Result { try body() }
        try db.execute(part.table.createUpdateTriggersSQL(mask: columns))
        return try result.get()
    }
}
