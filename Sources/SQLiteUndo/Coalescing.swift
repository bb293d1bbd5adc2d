import SQLiteDatabase

/// Typing coalescing: a barrier with the same name and coalescing key as the stack's previous
/// one merges into it, so that a typing run undoes as one step.
extension UndoStack {
    /// Merges `barrier` into the top of the undo list when it coalesces with it: same name and
    /// key, nothing registered or undone since, within `mergeInterval` of it (by the engine's
    /// clock), and nobody else changed the rows it writes in between (see `changedByOthers`).
    /// Returns where it went, or nil when it does not merge.
    func merge(_ barrier: Barrier, _ db: Database) throws -> Barrier.Recorded? {
        guard let key = barrier.coalescingKey,
            let top = entries.withLock({ $0.undo.last }),
            top.name == barrier.name, top.coalescingKey == key, !top.inverted,
            settings.withLock({ $0.coalescible == top.id })
        else { return nil }
        let now = engine.clock().timeIntervalSince1970
        // Its first log row; none when it only made no-op updates (nothing to merge).
        guard now - top.closedAt <= mergeInterval, let start = barrier.logStart(in: engine),
            let first = try db.fetchOne(
                Int64.self, Self.firstRowSQL, [.integer(start), .integer(barrier.id)]),
            try !Self.changedByOthers(since: top.id, rowsOf: barrier.id, from: first, db)
        else { return nil }
        try UndoLogSchema.moveLog(of: barrier.id, from: start, to: top.id, db)
        try db.execute(
            "UPDATE \(UndoLogSchema.barriers) SET closedAt = ? WHERE id = ?",
            [.real(now), .integer(top.id)])
        entries.withLock { $0.undo[$0.undo.count - 1].closedAt = now }
        return Barrier.Recorded(stack: self, entry: top.id, mergedFromSeq: first)
    }

    private static let firstRowSQL =
        "SELECT min(seq) FROM \(UndoLogSchema.log) WHERE \(UndoLogSchema.rows(of: "?2", from: "?1"))"

    /// Whether someone other than the barrier `top` changed, after it, a row that `barrier`
    /// (whose log rows start at `first`) writes: another barrier's log touched the row since
    /// `top`'s last log row (an undo or redo of another stack included, unless it flipped an
    /// entry without logging), or a value the barrier found in a row is not the one `top` left
    /// there (a write outside any barrier, or a flipped replay). Merging then would make one
    /// undo take back that change too.
    static func changedByOthers(
        since top: Int64, rowsOf barrier: Int64, from first: Int64, _ db: Database
    ) throws -> Bool {
        let slots = try UndoLogSchema.slotCount(db)
        let found = (0..<slots).map { slot in
            let bit = Int64(1) << Int64(slot)
            return """
                (nw.mask & \(bit) != 0 AND NOT coalesce((
                    SELECT \(BatchReplay.same("t.n\(slot)", "nw.o\(slot)"))
                    FROM \(UndoLogSchema.log) t
                    WHERE \(UndoLogSchema.filedRows("t")) AND t.tableId = nw.tableId
                        AND t.newRowid = nw.oldRowid AND t.mask & \(bit) != 0
                    ORDER BY t.seq DESC LIMIT 1), 1))
                """
        }
        let sql = """
            SELECT EXISTS (
                SELECT 1 FROM \(UndoLogSchema.log) nw
                WHERE nw.seq >= ?2 AND nw.barrier = ?3 AND (
                    EXISTS (
                        SELECT 1 FROM \(UndoLogSchema.log) o
                        WHERE o.seq > (SELECT lastSeq FROM \(UndoLogSchema.barriers) WHERE id = ?1)
                            AND o.seq < ?2 AND o.barrier NOT IN (?1, ?3)
                            AND o.tableId = nw.tableId
                            AND coalesce(nw.oldRowid, nw.newRowid) IN (o.oldRowid, o.newRowid))
                    OR \(found.isEmpty ? "0" : found.joined(separator: " OR "))))
            """
        return try db.fetchOne(
            Int.self, sql, [.integer(top), .integer(first), .integer(barrier)]) == 1
    }
}
