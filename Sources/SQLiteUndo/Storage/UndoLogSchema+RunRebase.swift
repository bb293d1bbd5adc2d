import SQLiteDatabase

/// Coalescing a typing run across others' writes in the middle of it, to a text the engine
/// merges (`UndoEngine.mergeText`) or to a timestamp (`UndoEngine.treatAsTimestamps`): two
/// windows typing into one note each keep one step per run, instead of one per key whenever
/// the other typed in between.
extension UndoLogSchema {
    /// How a column takes in others' writes in the middle of a run.
    enum MidRunWriteRule: Equatable, Sendable {
        /// Their edit is merged into the run's text before (`TextSplice.merge`).
        case text
        /// Their value becomes the run's value before.
        case latest
    }

    /// A log cell to set (`o3`, `n3` of the row `seq`): to a text, or to the value of another
    /// cell (copied by SQL, exactly).
    struct CellRewrite: Equatable {
        enum Value: Equatable {
            case text(String)
            case cell(seq: Int64, column: String)
        }
        let seq: Int64
        let column: String
        let value: Value
    }

    /// The rewrites that take into the entry `top` the changes others made, since it last wrote
    /// them, to the cells of `midRunRules` (by table id and slot) that `barrier` (log rows from
    /// `first`) now updates: `top`'s first old value becomes the value before the run with
    /// their change in it, and its last new value their value. The run merged with `barrier`
    /// then changes, and undoes, only its own keys.
    ///
    /// Returns nil when some change cannot be taken in: in a text, it touches the run's own
    /// bytes, or a value is not text (or not valid UTF-8); in any column, the row was inserted,
    /// deleted or moved in between. The run is then cut there.
    static func rebaseRun(
        of top: Int64, under barrier: Int64, from first: Int64,
        takingIn midRunRules: [Int64: [Int: MidRunWriteRule]], _ db: Database
    ) throws -> [CellRewrite]? {
        var rewrites: [CellRewrite] = []
        for (table, slots) in midRunRules {
            for (slot, kind) in slots {
                guard
                    let found = try rebase(
                        slot, kind, of: table, top: top, barrier: barrier, from: first, db)
                else { return nil }
                rewrites += found
            }
        }
        return rewrites
    }

    /// Writes what `rebaseRun` found.
    static func apply(_ rewrites: [CellRewrite], _ db: Database) throws {
        for rewrite in rewrites {
            switch rewrite.value {
            case .text(let text):
                try db.execute(
                    "UPDATE \(log) SET \(rewrite.column) = ? WHERE seq = ?",
                    [.text(text), .integer(rewrite.seq)])
            case .cell(let seq, let column):
                try db.execute(
                    """
                    UPDATE \(log) SET \(rewrite.column) = (SELECT \(column) FROM \(log) WHERE seq = ?)
                    WHERE seq = ?
                    """, [.integer(seq), .integer(rewrite.seq)])
            }
        }
    }

    /// `rebaseRun` for one column (`slot`) of one table.
    private static func rebase(
        _ slot: Int, _ kind: MidRunWriteRule, of table: Int64, top: Int64, barrier: Int64,
        from first: Int64, _ db: Database
    ) throws -> [CellRewrite]? {
        let bit = Int64(1) << Int64(slot)
        let old = "o\(slot)"
        let new = "n\(slot)"
        // The first value the barrier found in each row's cell.
        let found = try db.fetchAll(
            Row.self,
            """
            SELECT seq, oldRowid, kind, \(old), length(CAST(\(old) AS BLOB)) FROM \(log)
            WHERE seq = (SELECT min(seq) FROM \(log) f
                WHERE f.seq >= ?1 AND f.barrier = ?2 AND f.tableId = ?3
                    AND f.mask & \(bit) != 0 AND f.oldRowid IS \(log).oldRowid)
                AND seq >= ?1 AND barrier = ?2 AND tableId = ?3 AND mask & \(bit) != 0
            """, [.integer(first), .integer(barrier), .integer(table)])
        var rewrites: [CellRewrite] = []
        for row in found {
            // A row the barrier inserts: it found no value there to take others' changes into.
            guard let rowid = try row.decode(at: 1, as: Int64?.self) else { continue }
            let theirSeq: Int64 = try row.decode(at: 0)
            // The entry's last write of the cell, and whether it left what the barrier found:
            // read backwards from the end of its span, so a long run costs no more per key.
            let entryRows =
                "\(filedRows()) AND tableId = ?2 AND mask & \(bit) != 0"
                + " AND ?3 IN (oldRowid, newRowid)"
            let arguments: [SQLiteValue] = [.integer(top), .integer(table), .integer(rowid)]
            guard
                let lastWrite = try db.fetchOne(
                    Row.self,
                    """
                    SELECT seq, \(new), length(CAST(\(new) AS BLOB)),
                        \(same(new, "(SELECT \(old) FROM \(log) WHERE seq = ?4)"))
                    FROM \(log) WHERE \(entryRows) ORDER BY seq DESC LIMIT 1
                    """, arguments + [.integer(theirSeq)])
            else { continue }  // the entry never wrote it
            if try lastWrite.decode(at: 3, as: Int64.self) == 1 { continue }  // no change between
            // Their change is taken in only when every write of the cell updated the row in place.
            let moved = try db.fetchOne(
                Int.self,
                """
                SELECT EXISTS (SELECT 1 FROM \(log) WHERE \(entryRows)
                    AND (kind != \(Kind.update.rawValue) OR oldRowid IS NOT newRowid))
                """, arguments)
            guard try row.decode(at: 2, as: Int64.self) == Kind.update.rawValue, moved == 0,
                let firstWrite = try db.fetchOne(
                    Row.self,
                    """
                    SELECT seq, \(old), length(CAST(\(old) AS BLOB))
                    FROM \(log) WHERE \(entryRows) ORDER BY seq LIMIT 1
                    """, arguments)
            else { return nil }
            let theirs = CellRewrite.Value.cell(seq: theirSeq, column: old)
            let before: CellRewrite.Value
            switch kind {
            case .latest:
                before = theirs
            case .text:
                guard let their = try text(row, at: 3), let left = try text(lastWrite, at: 1),
                    let original = try text(firstWrite, at: 1),
                    let merged = TextSplice.merge(base: left, mine: original, theirs: their)
                else { return nil }
                before = .text(merged)
            }
            rewrites.append(
                CellRewrite(seq: try firstWrite.decode(at: 0), column: old, value: before))
            rewrites.append(
                CellRewrite(seq: try lastWrite.decode(at: 0), column: new, value: theirs))
        }
        return rewrites
    }

    /// The text at `index` of `row`, whose next column holds its length in bytes: nil unless
    /// it is text that Swift holds exactly (valid UTF-8).
    private static func text(_ row: Row, at index: Int) throws -> String? {
        guard case .text(let text) = row[index],
            try row.decode(at: index + 1, as: Int64.self) == Int64(text.utf8.count)
        else { return nil }
        return text
    }
}
