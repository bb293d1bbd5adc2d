import SQLiteDatabase

/// Stacks in the reference model: filing, registering, coalescing, undo/redo replays, and
/// take-backs of past steps.
extension ReferenceModel {
    /// What an undo or redo did in the model.
    enum Replay: Equatable {
        /// Nothing to replay.
        case nothing
        case replayed
        /// It would break the UNIQUE `code` of `t` whatever it keeps: nothing changes, and the
        /// engine throws.
        case failed
    }

    /// Files a barrier whose block runs, once it wrote something: it takes its place on the undo
    /// list, passed by until it registers.
    mutating func file(_ record: BarrierRecord, on stack: String, at now: Int64) {
        guard record.wrote, open[stack, default: []].insert(record.id).inserted else { return }
        var placeholder = record
        placeholder.isOpen = true
        placeholder.closedAt = now
        placeholder.parent = undo[stack]?.last?.actionID ?? 0
        recordStacks[record.id] = (stack, record.actionID)
        undo[stack, default: []].append(placeholder)
        coalescible[stack] = record.id
    }

    /// Keeps a stack's redo list as a branch, then drops its oldest steps beyond `levels`: the
    /// kept ones first, each with the kept steps done on it, then the oldest registered
    /// barriers of its undo list.
    private mutating func keepRedoAndTrim(_ stack: String, to levels: Int) {
        if let left = redo[stack], !left.isEmpty {
            kept[stack, default: []] += left
            kept[stack]?.sort { $0.isDone(before: $1) }
            redo[stack] = []
        }
        while undo[stack, default: []].count - open[stack, default: []].count
            + kept[stack, default: []].count > levels,
            let oldest = kept[stack]?.first
        {
            // Until no more are found: a barrier nested in another and filed first is the step
            // the outer one was done on, though the outer one's id, at one time, is the lower.
            var gone: Set<Int> = [oldest.actionID]
            var found = true
            while found {
                found = false
                for step in kept[stack, default: []]
                where !gone.contains(step.actionID) && gone.contains(step.parent) {
                    gone.insert(step.actionID)
                    found = true
                }
            }
            kept[stack]?.removeAll { gone.contains($0.actionID) }
        }
        let levels = levels - kept[stack, default: []].count
        while undo[stack, default: []].count - open[stack, default: []].count > levels,
            let oldest = undo[stack]?.firstIndex(where: { !$0.isOpen })
        {
            undo[stack]?.remove(at: oldest)
        }
    }

    /// Registers a barrier whose block returned, in the place it was filed (or on top), keeps
    /// the redo list as a branch and drops the oldest registered barriers beyond the levels.
    mutating func register(_ record: BarrierRecord, on stack: String) {
        guard record.wrote else { return }
        guard !record.cancelsOut else { return unfile(cancelledOut: record, on: stack) }
        recordStacks[record.id] = (stack, record.actionID)
        if open[stack]?.remove(record.id) != nil,
            let index = undo[stack]?.lastIndex(where: { $0.id == record.id })
        {
            var registered = record
            registered.closedAt = undo[stack]?[index].closedAt ?? 0
            registered.parent = undo[stack]?[index].parent ?? 0
            undo[stack]?[index] = registered
        } else {
            var registered = record
            registered.parent = undo[stack]?.last?.actionID ?? 0
            undo[stack, default: []].append(registered)
            coalescible[stack] = record.id
        }
        keepRedoAndTrim(stack, to: Self.levels)
    }

    /// Takes back the filing of a barrier whose writes cancelled out: it does not register (the
    /// redo list stays), the steps done on it are done on the one it was done on, and the rows
    /// it only updated read as changed by whoever changed them before (nobody else did since):
    /// its log is gone, and a typing step of another stack merges over them. A row it inserted,
    /// deleted or moved, even back, still reads as its change, as the engine keeps its key
    /// changes.
    private mutating func unfile(cancelledOut record: BarrierRecord, on stack: String) {
        open[stack]?.remove(record.id)
        if coalescible[stack] == record.id { coalescible[stack] = nil }
        guard let index = undo[stack]?.lastIndex(where: { $0.id == record.id }),
            let removed = undo[stack]?.remove(at: index)
        else { return }
        for list in [\ReferenceModel.undo, \.redo, \.kept] {
            for index in self[keyPath: list][stack, default: []].indices
            where self[keyPath: list][stack]?[index].parent == removed.actionID {
                self[keyPath: list][stack]?[index].parent = removed.parent
            }
        }
        for change in record.changes
        where change.fullBefore == nil && change.fullAfter == nil && !change.moved {
            guard let rowid = change.current else { continue }
            let key = RowKey(table: change.table, rowid: rowid)
            guard tables[key.table]?[rowid]?.changedBy == record.id,
                let before = record.touchedBefore[key]
            else { continue }
            tables[key.table]?[rowid]?.changedBy = before.by
            tables[key.table]?[rowid]?.changedAt = before.at
        }
    }

    /// The most recent registered barrier of a stack's list.
    func top(of stack: String, undoing: Bool) -> BarrierRecord? {
        (undoing ? undo[stack] : redo[stack])?.last { !$0.isOpen }
    }

    // MARK: Coalescing

    /// Why `step`, a coalescing barrier that just wrote (in this model's state before it), does
    /// not merge into the stack's previous barrier, or nil when it merges: same name and key,
    /// nothing registered or replayed on the stack since, within `interval`, and no row the step
    /// changes was changed by anyone else since the previous barrier first changed it.
    func mergeRefusal(
        _ step: BarrierRecord, on stack: String, at now: Int64, interval: Int64
    ) -> String? {
        guard let key = step.coalescingKey, let top = undo[stack]?.last, !top.isOpen,
            top.name == step.name, top.coalescingKey == key, !top.isInverse
        else { return "another action before" }
        guard coalescible[stack] == top.id else { return "a replay or reopening since" }
        guard now - top.closedAt <= interval else { return "too late" }
        let changed = step.firstTouch.keys.first { row in
            guard let first = top.firstTouch[row],
                let stored = tables[row.table]?[row.rowid]
            else { return false }
            if stored.changedBy != top.id && stored.changedAt > first { return true }
            // A write outside any barrier since, of a column both wrote: the step would find
            // another value than the one the previous barrier left.
            let theirs = top.changes.first { $0.table == row.table && $0.current == row.rowid }
            let mine = step.changes.first { $0.table == row.table && $0.original == row.rowid }
            return (mine?.after.keys ?? [:].keys).contains { column in
                theirs?.after[column] != nil && stored.writers[column] == 0
                    && (stored.outsideWrites[column] ?? 0) > first
            }
        }
        return changed.map { "\($0.table) row \($0.rowid) changed by another since" }
    }

    /// The registered barrier a coalescing step merges into (the top of the undo list).
    func mergeTarget(on stack: String) -> BarrierRecord? { undo[stack]?.last }

    /// Puts back the top of the undo list after a step merged into it at `now`.
    mutating func replaceTop(with record: BarrierRecord, on stack: String, at now: Int64) {
        guard let index = undo[stack]?.indices.last else { return }
        var merged = record
        merged.closedAt = now
        undo[stack]?[index] = merged
    }

    // MARK: Replays

    /// Undo (from: undo list) or redo (from: redo list) on a stack, as record `inverseID`.
    mutating func replay(stack: String, undoing: Bool, inverseID: Int) -> Replay {
        // Read in place: a copy of the list held while it is changed below would copy it whole.
        guard let index = (undoing ? undo[stack] : redo[stack])?.lastIndex(where: { !$0.isOpen }),
            let record = (undoing ? undo[stack] : redo[stack])?[index]
        else { return .nothing }
        var inverse: BarrierRecord? = BarrierRecord(
            name: record.name, id: inverseID, isInverse: true, action: record.actionID,
            doneAt: record.stepDate, parent: record.parent)
        guard revertKeepingTakenCodes(record, into: &inverse) != nil else { return .failed }
        if undoing { undo[stack]?.remove(at: index) } else { redo[stack]?.remove(at: index) }
        coalescible[stack] = nil
        guard let inverse, inverse.wrote else {
            // The step leaves history: the steps done on it fork where it did.
            repointChildren(of: record, on: stack)
            return .replayed
        }
        recordStacks[inverse.id] = (stack, inverse.actionID)
        if undoing {
            redo[stack, default: []].append(inverse)
        } else {
            undo[stack, default: []].append(inverse)
        }
        return .replayed
    }

    /// What a take-back (`UndoStack.revert`) did in the model.
    struct TakeBack {
        var outcome: Replay
        /// The barrier taken back.
        var step: BarrierRecord
        /// Its net changes, each row named where the take-back found it (`following`).
        var rowsFound: [RowChange]
        /// The take-back's record: what it wrote (filed only when it wrote something).
        var record: BarrierRecord
        /// The columns it kept: changed since to a value neither the step's nor the one before.
        var kept: Set<KeptCell>
    }

    /// Takes back the barrier `depth` steps below the top of `owner`'s undo list (0: the top)
    /// on the stack `taker` (the owner, or another), as record `recordID`: its change reverted
    /// where still its own, as its undo would (the same `revert`), the barrier staying where it
    /// is. The take-back is filed on top of the taker's undo list as an action of its own,
    /// clearing the taker's redo list, when it wrote something. Nil when the owner's list has
    /// no such step.
    mutating func takeBack(
        _ depth: Int, of owner: String, by taker: String, recordID: Int, at now: Int64
    ) -> TakeBack? {
        let registered = undo[owner, default: []].filter { !$0.isOpen }
        guard registered.indices.contains(depth) else { return nil }
        let step = registered[registered.count - 1 - depth]
        // Read before the take-back writes: its own key changes come after the step.
        let found = following(step.changes.filter(Self.isEffective), movedAfter: step)
        var record: BarrierRecord? = BarrierRecord(name: "Take back \(step.name)", id: recordID)
        let kept = revertKeepingTakenCodes(step, into: &record)
        guard let record else { return nil }
        guard let kept else {
            return TakeBack(
                outcome: .failed, step: step, rowsFound: found, record: record, kept: [])
        }
        coalescible[taker] = nil
        if record.wrote {
            recordStacks[record.id] = (taker, record.actionID)
            var filed = record
            filed.parent = undo[taker]?.last?.actionID ?? 0
            filed.closedAt = now
            undo[taker, default: []].append(filed)
            keepRedoAndTrim(taker, to: Self.levels)
        }
        return TakeBack(
            outcome: .replayed, step: step, rowsFound: found, record: record, kept: kept)
    }

    /// Reverts `record` (see `revert`), keeping each `code` of `t` it would put back that
    /// another row holds now, one whose code the replay does not write (or keeps): the column
    /// stays as it is (the row's other columns are restored), and a deleted row holding it is
    /// not brought back. Returns the columns kept as changed since, or nil, with nothing
    /// changed, when the replay breaks UNIQUE(code) however that is done.
    private mutating func revertKeepingTakenCodes(
        _ record: BarrierRecord, into inverse: inout BarrierRecord?
    ) -> Set<KeptCell>? {
        let saved = tables
        let savedMoves = keyMoves.count
        let fresh = inverse
        var keeping = TakenCodes()
        while true {
            let reverted = revert(record, into: &inverse, keeping: keeping)
            guard let duplicates = duplicateCodes() else { return reverted.kept }
            let more = takenCodes(
                among: duplicates, written: reverted.codesWritten,
                releasedAt: releaseTimes(of: record, at: saved, written: reverted.codesWritten))
            tables = saved
            keyMoves.removeLast(keyMoves.count - savedMoves)
            inverse = fresh
            guard !more.isEmpty, !keeping.contains(more) else { return nil }
            keeping.formUnion(more)
        }
    }

    /// What `revert` leaves as it is: columns of updated rows (by their keys when the replay
    /// began), and deleted rows it does not bring back (by their original keys).
    struct TakenCodes {
        var cells: Set<KeptCell> = []
        var rows: Set<RowKey> = []

        var isEmpty: Bool { cells.isEmpty && rows.isEmpty }
        func contains(_ other: TakenCodes) -> Bool {
            other.cells.isSubset(of: cells) && other.rows.isSubset(of: rows)
        }
        mutating func formUnion(_ other: TakenCodes) {
            cells.formUnion(other.cells)
            rows.formUnion(other.rows)
        }
    }

    /// What `revert` did: the columns it kept as changed since, and the rows of `t` whose code
    /// it wrote, by where each is when it ends, with how `TakenCodes` names each and when the
    /// barrier last changed that row (the engine reverts the most recently changed rows first).
    struct Reverted {
        var kept: Set<KeptCell> = []
        var codesWritten: [Int64: (codes: TakenCodes, lastTouch: Int)] = [:]
    }

    /// For each code of `t` a row held when the replay of `record` began (`saved`), when that
    /// row's own revert let it go (the `lastTouch` of its change: a code it wrote, or the row
    /// it inserted, deleted); codes held by rows the replay does not touch are left out.
    private func releaseTimes(
        of record: BarrierRecord, at saved: [String: [Int64: StoredRow]],
        written: [Int64: (codes: TakenCodes, lastTouch: Int)]
    ) -> [SQLiteValue: Int] {
        var times: [SQLiteValue: Int] = [:]
        for (rowid, row) in saved["t", default: [:]] {
            guard let code = row.values["code"], code != .null else { continue }
            if let write = written[rowid] {
                times[code] = write.lastTouch
            } else if let inserted = record.changes.first(where: {
                $0.table == "t" && $0.original == nil && $0.current == rowid
            }), tables["t"]?[rowid] == nil {
                times[code] = inserted.lastTouch
            }
        }
        return times
    }

    /// The rowids of `t` sharing each non-NULL `code` held twice or more, or nil when none is.
    private func duplicateCodes() -> [[Int64]]? {
        var holders: [SQLiteValue: [Int64]] = [:]
        for (rowid, row) in tables["t", default: [:]] {
            guard let code = row.values["code"], code != .null else { continue }
            holders[code, default: []].append(rowid)
        }
        let shared = holders.values.filter { $0.count > 1 }
        return shared.isEmpty ? nil : shared
    }

    /// For each group of rows sharing a code, where a row whose code the replay did not write
    /// holds it: the others, which the replay gave that code, keep theirs (or, re-inserted, are
    /// left out). Where the replay gave the code to every row of the group (its own old values
    /// collide: a step replayed inside it took the code in between), the row it reverts first,
    /// the one the barrier changed last, takes the code, and the others keep theirs.
    private func takenCodes(
        among duplicates: [[Int64]], written: [Int64: (codes: TakenCodes, lastTouch: Int)],
        releasedAt: [SQLiteValue: Int]
    ) -> TakenCodes {
        var taken = TakenCodes()
        for rowids in duplicates {
            let writes = rowids.compactMap { rowid in written[rowid].map { (rowid, $0) } }
                .sorted { $0.1.lastTouch > $1.1.lastTouch }
            // The row that takes the code when the replay gave it to every row of the group:
            // the first reverted once the row holding it when the replay began let it go (its
            // own revert comes earlier), or, when none comes after that, the first of all (in
            // the next round).
            let code = tables["t"]?[rowids[0]]?.values["code"] ?? .null
            let release = releasedAt[code]
            let afterRelease = writes.first { write in
                release.map { write.1.lastTouch < $0 } ?? true
            }
            let first = writes.count < rowids.count ? nil : (afterRelease ?? writes.first)?.0
            for (rowid, write) in writes where rowid != first { taken.formUnion(write.codes) }
        }
        return taken
    }

    /// Reverts a barrier's net change where it is still this barrier's: first the rows it
    /// inserted are deleted, then its updates and key changes are undone together (rows that
    /// swapped keys swap back), then the rows it deleted come back. Returns the columns of
    /// updated rows it kept (see `revertUpdates`).
    @discardableResult
    private mutating func revert(
        _ record: BarrierRecord, into inverse: inout BarrierRecord?,
        keeping taken: TakenCodes = TakenCodes()
    ) -> Reverted {
        let effective = record.changes.filter(Self.isEffective)
        let changes = following(effective, movedAfter: record)
        // A row it inserted that another action moved since is that action's: kept.
        for (change, asLeft) in zip(changes, effective).reversed() {
            guard change.original == nil, let rowid = change.current, rowid == asLeft.current,
                let current = row(change.table, rowid),
                current == complete(change.fullAfter ?? [:], change.table)
            else { continue }
            delete(change.table, rowid, in: &inverse)
        }
        var reverted = revertUpdates(
            changes.filter { $0.original != nil && $0.current != nil }, into: &inverse,
            keeping: taken.cells)
        // A key whose row the barrier deleted twice (another action inserted one between): the
        // row from before the barrier comes back, as the net change of its log says.
        var deletedKeys = Set<RowKey>()
        let deletes = changes.filter { change in
            guard let rowid = change.original, change.current == nil else { return false }
            return deletedKeys.insert(RowKey(table: change.table, rowid: rowid)).inserted
        }
        for change in deletes.reversed() {
            guard let rowid = change.original, row(change.table, rowid) == nil,
                let before = change.fullBefore,
                !taken.rows.contains(RowKey(table: change.table, rowid: rowid))
            else { continue }
            insert(change.table, rowid, complete(before, change.table), into: &inverse)
            if change.table == "t" {
                reverted.codesWritten[rowid] = (
                    TakenCodes(rows: [RowKey(table: change.table, rowid: rowid)]),
                    change.lastTouch
                )
            }
        }
        return reverted
    }

    /// `changes` with each row the barrier updated in place (its key the same before and after)
    /// or inserted that the barriers' and replays' key changes after the barrier's last write
    /// moved, named by the key it has now: each move applies to the row then at its old key, in the order
    /// they took effect; a delete ends a row's path, and a row another row came to the key of
    /// stays named by that key. Rows that end at one key together, at a key another of the
    /// changes names, or deleted since, are left where the barrier left them.
    func following(_ changes: [RowChange], movedAfter record: BarrierRecord)
        -> [RowChange]
    {
        let last = record.changes.map(\.lastTouch).max() ?? 0
        // The first move after it (the journal is in the order of `at`).
        var start = keyMoves.startIndex
        var end = keyMoves.endIndex
        while start < end {
            let middle = (start + end) / 2
            if keyMoves[middle].at > last { end = middle } else { start = middle + 1 }
        }
        guard start < keyMoves.endIndex else { return changes }
        var paths: [RowKey: [Int]] = [:]
        for (index, change) in changes.enumerated() {
            guard let rowid = change.current, change.original == nil || change.original == rowid
            else { continue }
            paths[RowKey(table: change.table, rowid: rowid), default: []].append(index)
        }
        var stopped: [(key: RowKey, rows: [Int])] = []
        for move in keyMoves[start...] {
            // Another row came to the key: the row there left it unrecorded; named by it still.
            if let to = move.to, move.from != to,
                let rows = paths.removeValue(forKey: RowKey(table: move.table, rowid: to))
            {
                stopped.append((RowKey(table: move.table, rowid: to), rows))
            }
            guard let from = move.from,
                let rows = paths.removeValue(forKey: RowKey(table: move.table, rowid: from))
            else { continue }
            if let to = move.to {  // else deleted
                paths[RowKey(table: move.table, rowid: to), default: []] += rows
            }
        }
        let ends = Dictionary(
            paths.map { ($0.key, $0.value) } + stopped.map { ($0.key, $0.rows) },
            uniquingKeysWith: +)
        // A key another change of the barrier names stays that change's alone.
        let named = Set(
            changes.flatMap { change in
                [change.original, change.current].compactMap { rowid in
                    rowid.map { RowKey(table: change.table, rowid: $0) }
                }
            })
        var followed = changes
        for (key, rows) in ends where rows.count == 1 && !named.contains(key) {
            if followed[rows[0]].original != nil { followed[rows[0]].original = key.rowid }
            followed[rows[0]].current = key.rowid
        }
        return followed
    }

    /// A row recorded before a migration added columns, with their defaults.
    private func complete(_ values: Values, _ table: String) -> Values {
        values.merging(defaults[table, default: [:]]) { recorded, _ in recorded }
    }

    /// Restores the columns still holding the barrier's values, and moves rows back to their
    /// original keys (when free once every moving row has left its place), all at once. Returns
    /// the columns kept: those holding neither the value the barrier left nor the one before it
    /// (by the rows' keys when the replay began).
    private mutating func revertUpdates(
        _ changes: [RowChange], into inverse: inout BarrierRecord?, keeping taken: Set<KeptCell>
    ) -> Reverted {
        struct Restore {
            var table: String
            var from: Int64
            var to: Int64
            var set: Values
            var lastTouch: Int
        }
        var restores: [Restore] = []
        var kept: Set<KeptCell> = []
        for change in changes {
            guard let original = change.original, let rowid = change.current,
                let current = row(change.table, rowid)
            else { continue }
            var set: Values = [:]
            for (column, left) in change.after {
                guard let before = change.before[column], before != left,
                    !taken.contains(
                        KeptCell(row: RowKey(table: change.table, rowid: rowid), column: column))
                else { continue }
                if current[column] == left {
                    set[column] = before
                } else if current[column] != before {
                    kept.insert(
                        KeptCell(row: RowKey(table: change.table, rowid: rowid), column: column))
                }
            }
            // A rename the application's trigger skips keeps the whole row as it is.
            if change.table == "parents", set["name"] != nil,
                isLocked(rowid, renamedTo: set["name"])
            {
                for column in set.keys {
                    kept.insert(
                        KeptCell(row: RowKey(table: change.table, rowid: rowid), column: column))
                }
                set = [:]
            }
            restores.append(
                Restore(
                    table: change.table, from: rowid, to: original, set: set,
                    lastTouch: change.lastTouch))
        }
        // A row stays where it is when its original key holds a row that does not move away.
        let leaving = Set(
            restores.filter { $0.from != $0.to }.map { RowKey(table: $0.table, rowid: $0.from) })
        // Two rows the barrier moved away from one key (another action brought the second there
        // meanwhile): the one it changed last goes back first (the engine reverts the rows last
        // changed first), and the other finds the key taken.
        var lastToLeave: [RowKey: Int] = [:]
        for (index, restore) in restores.enumerated() where restore.from != restore.to {
            let target = RowKey(table: restore.table, rowid: restore.to)
            if let other = lastToLeave[target], restores[other].lastTouch > restore.lastTouch {
                continue
            }
            lastToLeave[target] = index
        }
        var staying = Set(
            restores.indices.filter { index in
                let restore = restores[index]
                return restore.from != restore.to
                    && lastToLeave[RowKey(table: restore.table, rowid: restore.to)] != index
            })
        var changed = true
        while changed {
            changed = false
            let staysAt = Set(
                staying.map { RowKey(table: restores[$0].table, rowid: restores[$0].from) })
            for (index, restore) in restores.enumerated()
            where restore.from != restore.to && !staying.contains(index) {
                let target = RowKey(table: restore.table, rowid: restore.to)
                let occupied =
                    row(restore.table, restore.to) != nil && !leaving.contains(target)
                if occupied || staysAt.contains(target) {
                    staying.insert(index)
                    changed = true
                }
            }
        }
        for index in restores.indices where staying.contains(index) {
            restores[index].to = restores[index].from
        }
        // Moving rows leave through temporary keys (no row has one), so that swapped keys can
        // swap back.
        for (index, restore) in restores.enumerated() where restore.from != restore.to {
            update(
                restore.table, restore.from, to: Int64.min + Int64(index), set: restore.set,
                in: &inverse)
        }
        var reverted = Reverted(kept: kept)
        for (index, restore) in restores.enumerated() {
            if restore.from != restore.to {
                update(
                    restore.table, Int64.min + Int64(index), to: restore.to, set: [:], in: &inverse)
            } else if !restore.set.isEmpty {
                update(
                    restore.table, restore.from, to: restore.from, set: restore.set, in: &inverse)
            }
            if restore.table == "t", restore.set["code"] != nil {
                reverted.codesWritten[restore.to] = (
                    TakenCodes(
                        cells: [
                            KeptCell(row: RowKey(table: "t", rowid: restore.from), column: "code")
                        ]),
                    restore.lastTouch
                )
            }
        }
        return reverted
    }
}
