import SQLiteDatabase

/// Who made each change an undo or a redo kept (`UndoConflict.keptFrom`), read from the log:
/// the stack of the last recorded action that wrote the value kept.
extension UndoEngine {
    /// Fills in which stack made each kept change: the stack of the last recorded action that
    /// wrote that row and column, when it left exactly the value kept; nil when it left another
    /// value (a later write outside any barrier made the kept one) or no recorded action wrote
    /// it (see `ConflictAttribution.lastWriter`). A whole row kept is the work of the last
    /// barrier that touched it. A unique value that could not be put back because another row
    /// holds it is the work of the stack that gave that row the value. Runs only when there are
    /// conflicts; it reads the table's log from its end back to the writer (the whole log,
    /// bounded by the stacks' levels, only when none is found).
    func attribute(_ conflicts: [UndoConflict], replaying barrier: Int64, _ db: Database) throws
        -> [UndoConflict]
    {
        let tables = trackedTables.withLock { $0 }
        let replayed = try UndoLogSchema.action(of: barrier, db)
        return try conflicts.map { conflict in
            guard let table = tables.values.first(where: { $0.name == conflict.table }) else {
                return conflict
            }
            var attributed = conflict
            if let slot = table.columns.first(where: { $0.name == conflict.column })?.slot,
                let heldBy = conflict.heldBy, let taken = conflict.restoring
            {
                // A unique value another row took: the stack that gave that row the value, or,
                // when the action being replayed did (that row stays: it was kept), the stack
                // that changed that row since.
                let writer = try ConflictAttribution.lastWriter(
                    ofTable: table.id, rowid: heldBy, slot: slot, db)
                if let writer, writer.left(conflict.heldValue ?? taken) {
                    attributed.keptFrom =
                        replayed.contains(writer.barrier)
                        ? try UndoLogSchema.latestStack(
                            touching: table.id, rowid: heldBy, except: replayed,
                            replaying: barrier, db)
                        : writer.stackID
                } else {
                    attributed.keptFrom = nil
                }
            } else if let slot = table.columns.first(where: { $0.name == conflict.column })?.slot {
                let writer = try ConflictAttribution.lastWriter(
                    ofTable: table.id, rowid: conflict.rowid, slot: slot, db)
                // The action being replayed left it: a value it cannot take back (a reference
                // or a key in the way) is nobody else's.
                attributed.keptFrom = writer.flatMap {
                    $0.left(conflict.kept ?? .null) && !replayed.contains($0.barrier)
                        ? $0.stackID : nil
                }
            } else {
                attributed.keptFrom = try UndoLogSchema.latestStack(
                    touching: table.id, rowid: conflict.rowid, except: replayed,
                    replaying: barrier, db)
            }
            return attributed
        }
    }
}

/// The last recorded writer of one column of one row, found by following the row back through
/// the log (`UndoLogSchema.WritesNewestFirst`) and its key changes.
enum ConflictAttribution {
    /// The last recorded write of one column of one row, as it was left: the stack whose action
    /// wrote it and the value it left there.
    struct Writer: Equatable {
        let barrier: Int64
        let stackID: String
        let value: SQLiteValue?
        /// Whether `value` is the fingerprint of a packed change's value (`PackedChange`).
        var packed = false

        /// Whether the value it left is `value`.
        func left(_ value: SQLiteValue) -> Bool {
            guard packed else { return self.value == value }
            let storage: PackedChange.Value.Storage
            let bytes: [UInt8]
            switch value {
            case .text(let text): (storage, bytes) = (.text, Array(text.utf8))
            case .blob(let blob): (storage, bytes) = (.blob, blob)
            default: return false
            }
            guard case .blob(let encoded) = self.value else { return false }
            return PackedChange.Fingerprint(encoded: encoded)
                == PackedChange.Fingerprint(of: PackedChange.Value(storage: storage, bytes: bytes))
        }
    }

    /// Who last wrote the column `slot` of the row now at `rowid`, by the log: its rows are read
    /// in the order they took effect (a row's `seq`, or, for an action an exact replay flipped,
    /// the moment of the flip), newest first, following the row back through its key changes
    /// (those of actions that left history too, `UndoLogSchema.retiredMoves`) up to its
    /// insert, or a delete or a move away at its key.
    /// Read the way its entry reads now, an action left its new values, or, undone by a flip, its
    /// old ones. An action whose writes of the column net to nothing (a replay that set back what
    /// an application's trigger wrote, a count up and down) did not write it: the value is the
    /// one it found, so the writers before its first write are read next, and those it wrote
    /// over are passed by. Returns nil when no filed action wrote that column of that row.
    static func lastWriter(ofTable table: Int64, rowid: Int64, slot: Int, _ db: Database) throws
        -> Writer?
    {
        let bit = Int64(1) << Int64(slot)
        let rows = try UndoLogSchema.WritesNewestFirst(table: table, slot: slot, db)
        var identity = rowid
        // Writes that took effect at or after this point were made over by a write that netted
        // to nothing.
        var passedFrom = Double.infinity
        while let row = try rows.next() {
            let inverted: Bool = try row.decode(at: 6)
            let old: Int64? = try row.decode(at: inverted ? 1 : 0)
            let new: Int64? = try row.decode(at: inverted ? 0 : 1)
            let tookEffect: Double = try row.decode(at: 8)
            // The row at that key then was deleted, or moved to another key: the row there now
            // came after it without a log (a write outside any barrier), and the writes before
            // are another row's (unless the action that took it away put it back, an update
            // passed by).
            if old == identity, new != identity, tookEffect < passedFrom { return nil }
            guard new == identity else { continue }
            if try row.decode(at: 2, as: Int64.self) & bit != 0, tookEffect < passedFrom {
                let barrier: Int64 = try row.decode(at: 7)
                let left = row[inverted ? 3 : 4]
                let first = try firstWrite(
                    of: barrier, inverted: inverted, table: table, rowid: identity, slot: slot,
                    from: try row.decode(at: 11), db)
                guard let first, first.found == left else {
                    return Writer(
                        barrier: barrier, stackID: try row.decode(at: 5), value: left,
                        packed: try row.decode(at: 10))
                }
                // A flipped action's rows all took effect at once, at its flip.
                passedFrom = inverted ? tookEffect : Double(first.seq)
            }
            // Inserted here: no write before is this row's.
            guard let old else { return nil }
            identity = old
        }
        return nil
    }

    /// The first write, read the way its entry reads now, of the column `slot` of the row that
    /// is at `rowid` after the log row `seq` of `barrier`, following the row back through the
    /// key changes `barrier` made before (a replay that parks a row and brings it back): the
    /// `seq` of that first write and the value it found there (none when the barrier inserted
    /// the row).
    private static func firstWrite(
        of barrier: Int64, inverted: Bool, table: Int64, rowid: Int64, slot: Int,
        from seq: Int64, _ db: Database
    ) throws -> (seq: Int64, found: SQLiteValue?)? {
        let rows = try UndoLogSchema.writesBefore(
            seq, of: barrier, inverted: inverted, table: table, slot: slot, db)
        var identity = rowid
        var first: (seq: Int64, found: SQLiteValue?)?
        while let row = try rows.next() {
            let old: Int64? = try row.decode(at: 3)
            let new: Int64? = try row.decode(at: 4)
            // Another row was at that key before this one came.
            if old == identity, new != identity { break }
            guard new == identity else { continue }
            if try row.decode(at: 2, as: Bool.self) {
                first = (try row.decode(at: 0), old == nil ? SQLiteValue?.none : row[1])
            }
            guard let old else { break }
            identity = old
        }
        return first
    }
}
