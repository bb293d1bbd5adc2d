import SQLiteDatabase

/// The statements coalescing needs: whether a typing step may merge into its stack's previous
/// one (nobody else changed its rows in between), and keeping that known when the log that
/// showed another's change leaves history.
extension UndoLogSchema {
    /// Whether someone other than the barrier `top` changed, after it, a row that both `top` and
    /// `barrier` (whose log rows start at `first`) write: another barrier's log touched the row
    /// since `top` last did (an undo or redo of another stack included: one that flipped an
    /// entry is placed in the log's order by its `flippedAt`), or a value the barrier found is
    /// not the one `top` left in that column (a write outside any barrier), or an entry that
    /// has left history since did (`mergeBreaks`; or the run ended: `closedToMerging`). Merging
    /// then would make one undo take back that change too. Changes to the merged text cells in
    /// `ignoring` (slots by table id) do not count: `rebaseRun` takes them in.
    static func changedByOthers(
        since top: Int64, rowsOf barrier: Int64, from first: Int64,
        ignoring merged: [Int64: [Int]] = [:], _ db: Database
    ) throws -> Bool {
        let closed = try db.fetchOne(
            Int.self, "SELECT closedToMerging FROM \(barriers) WHERE id = ?", [.integer(top)])
        if closed == 1 { return true }
        let breaks = Set(
            try db.fetchAll(
                Row.self, "SELECT tableId, rowid FROM \(mergeBreaks) WHERE entry = ?",
                [.integer(top)]
            ).map { RowRef(table: try $0.decode(at: 0), rowid: try $0.decode(at: 1)) })
        let slots = try slotCount(db)
        let rows = try db.fetchAll(
            Row.self,
            """
            SELECT DISTINCT tableId, coalesce(oldRowid, newRowid),
                (SELECT max(t.seq) FROM \(log) t WHERE \(filedRows("t")) AND t.tableId = nw.tableId
                    AND coalesce(nw.oldRowid, nw.newRowid) IN (t.oldRowid, t.newRowid))
            FROM \(log) nw WHERE nw.seq >= ?2 AND nw.barrier = ?3
            """, [.integer(top), .integer(first), .integer(barrier)])
        for row in rows {
            // A row `top` never touched: its undo takes back nothing of it.
            guard let topsLastTouch = try row.decode(at: 2, as: Int64?.self) else { continue }
            let table: Int64 = try row.decode(at: 0)
            let rowid: Int64 = try row.decode(at: 1)
            if breaks.contains(RowRef(table: table, rowid: rowid)) { return true }
            if try changedByOtherBarriers(
                table, rowid, after: topsLastTouch, before: first, except: (top, barrier),
                slots: slots, ignoring: merged[table] ?? [], db)
            {
                return true
            }
        }
        let found = (0..<slots).map { slot in
            let bit = Int64(1) << Int64(slot)
            let mergedIn = merged.filter { $0.value.contains(slot) }.keys.map(String.init)
            let counted =
                mergedIn.isEmpty
                ? "" : " AND nw.tableId NOT IN (\(mergedIn.joined(separator: ", ")))"
            return """
                (nw.mask & \(bit) != 0\(counted) AND NOT coalesce((
                    SELECT \(same("t.n\(slot)", "nw.o\(slot)"))
                    FROM \(log) t
                    WHERE \(filedRows("t")) AND t.tableId = nw.tableId
                        AND t.newRowid = nw.oldRowid AND t.mask & \(bit) != 0
                    ORDER BY t.seq DESC LIMIT 1), 1))
                """
        }
        let sql = """
            SELECT EXISTS (
                SELECT 1 FROM \(log) nw
                WHERE nw.seq >= ?2 AND nw.barrier = ?3
                    AND (\(found.isEmpty ? "0" : found.joined(separator: " OR "))))
            """
        return try db.fetchOne(
            Int.self, sql, [.integer(top), .integer(first), .integer(barrier)]) == 1
    }

    /// Whether a barrier other than `except` changed the row `rowid` of `table` after `after`
    /// (and before `before`): an exact replay flipped one that touches the row (placed in the
    /// log's order by its `flippedAt`), or its log rows inserted or deleted the row, moved it to
    /// another key (unless the same barrier brought it back from there: a replay that parked
    /// it) or another row to its key, or left a column of it other than they found it (a
    /// replay that set back what an application's trigger wrote changed nothing).
    private static func changedByOtherBarriers(
        _ table: Int64, _ rowid: Int64, after: Int64, before: Int64, except: (Int64, Int64),
        slots: Int, ignoring merged: [Int], _ db: Database
    ) throws -> Bool {
        let arguments: [SQLiteValue] = [
            .integer(after), .integer(before), .integer(except.0), .integer(except.1),
            .integer(table), .integer(rowid),
        ]
        // A replay that changed only columns taken into runs counts as their other writes do.
        let counted = ~merged.reduce(Int64(0)) { $0 | Int64(1) << Int64($1) }
        let flipped = try db.fetchOne(
            Int.self,
            """
            SELECT EXISTS (
                SELECT 1 FROM \(barriers) f CROSS JOIN \(log) fl
                    ON fl.seq BETWEEN f.firstSeq AND f.lastSeq AND +fl.barrier = f.id
                WHERE f.flippedAt > ?1 AND f.id NOT IN (?3, ?4) AND +fl.tableId = ?5
                    AND ?6 IN (fl.oldRowid, fl.newRowid)
                    AND (fl.kind != \(Kind.update.rawValue) OR fl.mask & \(counted) != 0))
            """, arguments)
        if flipped == 1 { return true }
        let values = (0..<slots).map { "o\($0), n\($0)" }.joined(separator: ", ")
        let cursor = try db.fetchCursor(
            """
            SELECT barrier, kind, mask, oldRowid, newRowid, \(values) FROM \(log)
            WHERE seq > ?1 AND seq < ?2 AND barrier NOT IN (?3, ?4) AND tableId = ?5
                AND ?6 IN (oldRowid, newRowid)
            ORDER BY seq
            """,
            arguments)
        // Per barrier and column: the value before its first write and after its last.
        var net: [Int64: [Int: (before: SQLiteValue, after: SQLiteValue)]] = [:]
        // Per barrier, where it moved the row away to, until it brings it back from there.
        var movedAwayTo: [Int64: Int64] = [:]
        while let row = try cursor.next() {
            guard try row.decode(at: 1, as: Int64.self) == Kind.update.rawValue else { return true }
            let barrier: Int64 = try row.decode(at: 0)
            let mask: Int64 = try row.decode(at: 2)
            let (old, new): (Int64, Int64) = (try row.decode(at: 3), try row.decode(at: 4))
            if old == rowid, new != rowid {
                movedAwayTo[barrier] = new
            } else if new == rowid, old != rowid {
                // Another row came to the key: the row there is another one now.
                guard movedAwayTo[barrier] == old else { return true }
                movedAwayTo[barrier] = nil
            }
            for slot in 0..<slots where mask & (Int64(1) << Int64(slot)) != 0 {
                if merged.contains(slot) { continue }
                let old = row[5 + 2 * slot]
                let new = row[6 + 2 * slot]
                net[barrier, default: [:]][slot] = (net[barrier]?[slot]?.before ?? old, new)
            }
        }
        // A row moved away (and not back by the same action): its key changed.
        return !movedAwayTo.isEmpty
            || net.values.contains { $0.values.contains { $0.before != $0.after } }
    }

    /// Notes, for the entries a coalescing barrier could still merge into (those with a
    /// coalescing key not yet closed: the last registered of their stack, or one an engine left
    /// open when it closed), the rows that the entries `ids`, about to leave history with their
    /// log, changed after them (`mergeBreaks`): `changedByOthers` could no longer see it, and a
    /// typing step that writes such a row no longer merges (one that writes other rows still
    /// does). Reads the log of an entry only when it took effect after some such entry began.
    /// Log rows that only updated cells of `midRunRules` (slots by table id) count for nothing: a
    /// run takes in others' changes to those by their values (`rebaseRun`), which stay in the
    /// file.
    static func closeMerging(
        intoEntriesChangedBy ids: [Int64],
        takingIn midRunRules: [Int64: [Int: MidRunWriteRule]] = [:],
        _ db: Database
    ) throws {
        let open = try entriesOpenToMerging(db).filter { !ids.contains($0.id) }
        guard let earliest = open.map(\.firstSeq).min() else { return }
        for id in ids {
            let tookEffect = try db.fetchOne(
                Double.self, "SELECT coalesce(flippedAt, lastSeq) FROM \(barriers) WHERE id = ?",
                [.integer(id)])
            guard let tookEffect, tookEffect > Double(earliest) else { continue }
            for change in try rowsChanged(byEntry: id, ignoring: midRunRules, db) {
                for entry in open
                where entry.lastTouches[change.row].map({ Double($0) < change.at }) ?? false {
                    try db.execute(
                        """
                        INSERT OR IGNORE INTO \(mergeBreaks)(entry, tableId, rowid)
                        VALUES (?, ?, ?)
                        """,
                        [
                            .integer(entry.id), .integer(change.row.table),
                            .integer(change.row.rowid),
                        ])
                }
            }
        }
    }

    /// The rows the log of the entry `id` changed, each with when it last did (the entry's
    /// `flippedAt` when a replay flipped it, else the log row's `seq`). Rows it inserted,
    /// deleted or moved count; a row it only updated counts when it left some column other than
    /// it found it, as in `changedByOtherBarriers` (a replay that set back what an
    /// application's trigger wrote changed nothing). Cells of `midRunRules` do not count.
    private static func rowsChanged(
        byEntry id: Int64, ignoring midRunRules: [Int64: [Int: MidRunWriteRule]], _ db: Database
    ) throws -> [(row: RowRef, at: Double)] {
        let slots = try slotCount(db)
        let values = (0..<slots).map { "l.o\($0), l.n\($0)" }.joined(separator: ", ")
        let cursor = try db.fetchCursor(
            """
            SELECT l.tableId, l.oldRowid, l.newRowid, coalesce(b.flippedAt, l.seq), l.kind,
                l.mask\(values.isEmpty ? "" : ", " + values)
            FROM \(barriers) b CROSS JOIN \(log) l WHERE b.id = ?1 AND \(filedRows("l"))
            ORDER BY l.seq
            """, [.integer(id)])
        var changedAt: [RowRef: Double] = [:]
        // Per updated row and column: the value before the entry's first write and after its last.
        var net: [RowRef: [Int: (before: SQLiteValue, after: SQLiteValue)]] = [:]
        var lastUpdate: [RowRef: Double] = [:]
        while let row = try cursor.next() {
            let table: Int64 = try row.decode(at: 0)
            let old = try row.decode(at: 1, as: Int64?.self)
            let new = try row.decode(at: 2, as: Int64?.self)
            let at: Double = try row.decode(at: 3)
            let takenInMask = (midRunRules[table] ?? [:]).keys.reduce(Int64(0)) {
                $0 | Int64(1) << Int64($1)
            }
            let counted = try row.decode(at: 5, as: Int64.self) & ~takenInMask
            guard try row.decode(at: 4, as: Int64.self) == Kind.update.rawValue, old == new,
                let rowid = new
            else {
                for rowid in [old, new].compactMap({ $0 }) {
                    changedAt[RowRef(table: table, rowid: rowid)] = at
                }
                continue
            }
            guard counted != 0 else { continue }
            let ref = RowRef(table: table, rowid: rowid)
            for slot in 0..<slots where counted & (Int64(1) << Int64(slot)) != 0 {
                let before = net[ref]?[slot]?.before ?? row[6 + 2 * slot]
                net[ref, default: [:]][slot] = (before, row[7 + 2 * slot])
            }
            lastUpdate[ref] = at
        }
        for (ref, columns) in net where columns.values.contains(where: { $0.before != $0.after }) {
            changedAt[ref] = max(changedAt[ref] ?? 0, lastUpdate[ref] ?? 0)
        }
        return changedAt.map { (row: $0.key, at: $0.value) }
    }

    /// Closes to merging a stack's entries that a coalescing barrier could merge into, but
    /// `except`: a new action, an undo or a redo ended the typing run. Finds them by the
    /// partial index of the entries open to merging (a few).
    static func closeMerging(ofStack stackID: String, except: Int64?, _ db: Database) throws {
        try db.execute(
            """
            UPDATE \(barriers) SET closedToMerging = 1
            WHERE coalescingKey IS NOT NULL AND closedToMerging = 0 AND stackId = ?1
                AND id IS NOT ?2
            """, [.text(stackID), except.map { .integer($0) } ?? .null])
    }

    /// A row of a tracked table, by the table's number.
    private struct RowRef: Hashable {
        var table: Int64
        var rowid: Int64
    }

    /// An entry a coalescing barrier could merge into, and the last `seq` at which it touched
    /// each row (under its key before or after).
    private struct OpenEntry {
        var id: Int64
        var firstSeq: Int64
        var lastTouches: [RowRef: Int64]
    }

    /// The entries with a coalescing key not closed to merging, by their partial index.
    private static func entriesOpenToMerging(_ db: Database) throws -> [OpenEntry] {
        let entries = try db.fetchAll(
            Row.self,
            """
            SELECT id, firstSeq FROM \(barriers)
            WHERE coalescingKey IS NOT NULL AND closedToMerging = 0
            """)
        return try entries.map { row in
            let id: Int64 = try row.decode(at: 0)
            var touches: [RowRef: Int64] = [:]
            let cursor = try db.fetchCursor(
                "SELECT tableId, oldRowid, newRowid, seq FROM \(log) WHERE \(filedRows())",
                [.integer(id)])
            while let touch = try cursor.next() {
                let table: Int64 = try touch.decode(at: 0)
                let seq: Int64 = try touch.decode(at: 3)
                for index in [1, 2] {
                    guard let rowid = try touch.decode(at: index, as: Int64?.self) else { continue }
                    touches[RowRef(table: table, rowid: rowid)] = seq
                }
            }
            return OpenEntry(id: id, firstSeq: try row.decode(at: 1), lastTouches: touches)
        }
    }
}
