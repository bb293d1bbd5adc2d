import SQLiteDatabase
import Synchronization

/// History that costs what the edit costs: an update of a large text or blob is kept as the
/// edit (`PackedChange`) once its entry is filed, and rebuilt from the row before anything reads
/// its values.
///
/// A packed log row is an in-place update of one column (one bit in its mask) and the entry's
/// only write of that cell: its `o<slot>` and `n<slot>` hold the two values' fingerprints and
/// `splice` the rest. Rows read while packed (an entry replayed or merged into is rebuilt first,
/// so these are rows whose value someone changed since) compare equal to no value of a table,
/// and a replay never writes their values back (`LoggedValue.packed`): an undo keeps what is
/// there, as for any value changed since.
extension UndoLogSchema {
    /// The log's `splice` column (NULL unless the row is packed), and the entries' `packed`
    /// (whether some of its rows may be: a replay reads only those entries' rows for them).
    static func addPacking(_ db: Database) throws {
        let names = try db.fetchAll(
            String.self, "SELECT name FROM pragma_table_info(?)", [.text(log)])
        guard !names.contains("splice") else { return }
        try db.execute(
            """
            ALTER TABLE \(log) ADD COLUMN splice BLOB;
            ALTER TABLE \(barriers) ADD COLUMN packed INTEGER NOT NULL DEFAULT 0;
            """)
    }

    /// Packing reads at most this many log rows of one transaction or replayed entry: a bulk
    /// statement's rows are kept as they are (their values are rarely one small edit of a
    /// large one, and reading them all would slow every bulk change).
    static let packingRowLimit: Int64 = 64

    /// Packs the rows of the entry `id` at `start` or later that qualify: in-place updates of
    /// one text or blob column, together `PackedChange.threshold` bytes or more, the entry's
    /// only write of that cell, when packing saves at least half.
    ///
    /// `slots` is the most value slots a tracked table has: the rows too small to pack are left
    /// out by SQL, so an action of small values pays one query at its commit.
    static func pack(entry id: Int64, from start: Int64, slots: Int, _ db: Database) throws {
        let sql = packingSQL(slots: slots)
        let arguments: [SQLiteValue] = [.integer(start), .integer(id), .integer(packingRowLimit)]
        let state = try db.fetchOne(Row.self, sql.state, arguments)
        let newest = try state?.decode(at: 0, as: Int64?.self) ?? 0
        guard newest - start < packingRowLimit else { return }
        // A later transaction of the same barrier wrote a cell the entry packed: the packed row
        // is rebuilt from the value it found (nobody wrote in between), so that the entry's
        // writes of the cell read whole, one after the other. If someone did, it stays packed,
        // and a replay keeps the cell (`LoggedValue.packed`). Only an entry that packed a row
        // has one to rebuild: not a 1-row action's first transaction.
        if try state?.decode(at: 1, as: Int64?.self) == 1 {
            _ = try unpackRun(of: id, under: id, from: start, mergingText: { _, _ in false }, db)
        }
        if try state?.decode(at: 2, as: Int64?.self) == 1 {
            try pack(entry: id, rows: sql.rows, Array(arguments.prefix(2)), db)
        }
    }

    /// The SQL of `pack(entry:from:slots:)` and `file`, built once per number of slots
    /// (building it cost more than running it).
    private static let packingSQLs = Mutex<[Int: PackingSQL]>([:])

    /// The SQL of `pack(entry:from:slots:)` and `file`, whose arguments are the first `seq` the
    /// rows may have (`?1`), the entry (`?2`) and `packingRowLimit` (`?3`).
    struct PackingSQL {
        /// The rows to pack (see `newRowsBigEnoughToPack`).
        let rows: String
        /// The highest `seq`, whether the entry packed rows, and whether it has rows to pack.
        let state: String
        /// Inserts the entry `?2` when it has rows, its `lastSeq` the highest `seq`, and tells
        /// `FilingReport` that `seq` and whether it has rows to pack. Its other arguments are
        /// the entry's other columns, in `insertedEntryColumns`' order.
        let filing: String
    }

    /// The columns of an entry `PackingSQL.filing` takes from its arguments `?4` on.
    static let insertedEntryColumns = [
        "stackId", "list", "position", "name", "coalescingKey", "closedAt", "parentStep",
        "takesBack",
    ]

    /// The `PackingSQL` of a log of `slots` value slots. The rows to pack are searched only when
    /// they are fewer than `?3`: a bulk statement's thousands are not read again at its commit.
    static func packingSQL(slots: Int) -> PackingSQL {
        if let known = packingSQLs.withLock({ $0[slots] }) { return known }
        let rows = newRowsBigEnoughToPack(slots: slots)
        let mayPack =
            "CASE WHEN newest - ?1 < ?3 THEN EXISTS (SELECT 1 FROM \(log) WHERE \(rows)) END"
        let hasRows = "EXISTS (SELECT 1 FROM \(log) WHERE \(Self.rows(of: "?2", from: "?1")))"
        let sql = PackingSQL(
            rows: rows,
            state: """
                SELECT newest, (SELECT packed FROM \(barriers) WHERE id = ?2), \(mayPack)
                FROM (SELECT \(highestSeq) AS newest)
                """,
            filing: """
                INSERT INTO \(barriers)
                    (id, firstSeq, lastSeq, \(insertedEntryColumns.joined(separator: ", ")))
                SELECT ?2, ?1, \(FilingReport.function)(newest, \(mayPack)),
                    \((4..<(4 + insertedEntryColumns.count)).map { "?\($0)" }.joined(separator: ", "))
                FROM (SELECT \(highestSeq) AS newest) WHERE \(hasRows)
                """)
        packingSQLs.withLock { $0[slots] = sql }
        return sql
    }

    /// SQL for the entry `?2`'s rows from `?1` of one column whose two values are texts or
    /// blobs (`packable`) and hold `PackedChange.threshold` bytes or more together. The
    /// storage classes are read first: most values are numbers, whose length would be that of
    /// their text, made for it.
    private static func newRowsBigEnoughToPack(slots: Int) -> String {
        let sizes = (0..<slots).map { slot in
            "WHEN \(Int64(1) << Int64(slot)) THEN CASE WHEN typeof(o\(slot)) IN ('text', 'blob') "
                + "AND typeof(n\(slot)) IN ('text', 'blob') "
                + "THEN length(CAST(o\(slot) AS BLOB)) + length(CAST(n\(slot) AS BLOB)) ELSE 0 END"
        }
        let big =
            sizes.isEmpty
            ? "0"
            : "(CASE mask \(sizes.joined(separator: " ")) ELSE 0 END) >= \(PackedChange.threshold)"
        return rows(of: "?2", from: "?1") + " AND " + big
    }

    /// Packs the rows of the entry `id`, filed just now, at `start` or later that qualify, when
    /// `file` found that some may: a new entry packed nothing yet, and its state is known.
    static func packNewEntry(_ id: Int64, from start: Int64, slots: Int, _ db: Database) throws {
        try pack(
            entry: id, rows: packingSQL(slots: slots).rows, [.integer(start), .integer(id)], db)
    }

    /// Packs the log rows `seqs` of the entry `id` that qualify (rows a replay or a run rebuilt).
    static func pack(entry id: Int64, seqs: [Int64], _ db: Database) throws {
        guard !seqs.isEmpty else { return }
        try pack(
            entry: id, rows: "seq IN (SELECT value FROM json_each(?1))", [.text(seqs.jsonArray)],
            db)
    }

    private static func pack(
        entry id: Int64, rows: String, _ arguments: [SQLiteValue], _ db: Database
    ) throws {
        let candidates = try db.fetchAll(
            Row.self,
            """
            SELECT seq, tableId, oldRowid, mask FROM \(log)
            WHERE \(rows) AND kind = \(Kind.update.rawValue)
                AND oldRowid = newRowid AND mask & (mask - 1) = 0 AND splice IS NULL
            """, arguments)
        var packedAny = false
        for candidate in candidates {
            let seq: Int64 = try candidate.decode(at: 0)
            let table: Int64 = try candidate.decode(at: 1)
            let rowid: Int64 = try candidate.decode(at: 2)
            let mask: Int64 = try candidate.decode(at: 3)
            // The values first: most are too small to pack, and that ends it.
            guard
                let slot = singleSlot(of: mask),
                let values = try db.fetchOne(
                    Row.self,
                    "SELECT typeof(o\(slot)), CAST(o\(slot) AS BLOB), typeof(n\(slot)), "
                        + "CAST(n\(slot) AS BLOB) FROM \(log) WHERE seq = ?", [.integer(seq)]),
                let old = try packable(values, at: 0), let new = try packable(values, at: 2),
                let packed = PackedChange(old: old, new: new),
                try writesOfCell(entry: id, table: table, rowid: rowid, mask: mask, db) == 1
            else { continue }
            try db.execute(
                "UPDATE \(log) SET o\(slot) = ?, n\(slot) = ?, splice = ? WHERE seq = ?",
                [
                    .blob(packed.old.encoded), .blob(packed.new.encoded),
                    .blob(packed.encodedSplice), .integer(seq),
                ])
            packedAny = true
        }
        if packedAny {
            try db.execute(
                "UPDATE \(barriers) SET packed = 1 WHERE id = ? AND packed = 0", [.integer(id)])
        }
    }

    /// The slot of a mask with one bit set, or nil.
    static func singleSlot(of mask: Int64) -> Int? {
        mask > 0 && mask & (mask - 1) == 0 ? mask.trailingZeroBitCount : nil
    }

    /// How many log rows of the entry write the column `mask` of the row at `rowid`, or move
    /// that row (counted as writes of every column).
    private static func writesOfCell(
        entry id: Int64, table: Int64, rowid: Int64, mask: Int64, _ db: Database
    ) throws -> Int {
        try db.fetchOne(
            Int.self,
            """
            SELECT count(*) FROM \(log) WHERE \(filedRows()) AND tableId = ?2
                AND ?3 IN (oldRowid, newRowid)
                AND (mask & ?4 != 0 OR kind != \(Kind.update.rawValue) OR oldRowid IS NOT newRowid)
            """, [.integer(id), .integer(table), .integer(rowid), .integer(mask)]) ?? 0
    }

    /// The text or blob at `index` of `row` (its storage class, then its bytes), or nil.
    static func packable(_ row: Row, at index: Int) throws -> PackedChange.Value? {
        let storage: PackedChange.Value.Storage
        switch try row.decode(at: index, as: String.self) {
        case "text": storage = .text
        case "blob": storage = .blob
        default: return nil
        }
        guard case .blob(let bytes) = row[index + 1] else {
            return PackedChange.Value(storage: storage, bytes: [])
        }
        return PackedChange.Value(storage: storage, bytes: bytes)
    }

    // MARK: Measuring

    /// What a log row costs besides its values, counted by `logBytes` (its other columns and
    /// SQLite's record and cell headers, about).
    static let bytesPerLogRow = 48

    /// The bytes the log of the entry `id` keeps: its values as stored, plus `bytesPerLogRow` a
    /// row.
    static func logBytes(ofEntry id: Int64, _ db: Database) throws -> Int {
        let cells = (0..<(try slotCount(db))).flatMap { ["o\($0)", "n\($0)"] } + ["splice"]
        let values = cells.map { "coalesce(length(CAST(\($0) AS BLOB)), 0)" }
            .joined(separator: " + ")
        return try db.fetchOne(
            Int.self,
            "SELECT coalesce(sum(\(values) + \(bytesPerLogRow)), 0) FROM \(log) WHERE \(filedRows())",
            [.integer(id)]) ?? 0
    }

    // MARK: Rebuilding

    /// A packed log row, read back.
    struct PackedRow {
        let seq: Int64
        let table: Int64
        let rowid: Int64
        let slot: Int
        let change: PackedChange
    }

    /// The packed rows of the entry `id`: none without reading its log unless it packed some.
    static func packedRows(ofEntry id: Int64, _ db: Database) throws -> [PackedRow] {
        let packed = try db.fetchOne(
            Int.self, "SELECT packed FROM \(barriers) WHERE id = ?", [.integer(id)])
        guard packed == 1 else { return [] }
        return try packedRows(where: filedRows(), [.integer(id)], db)
    }

    /// The packed rows among the log rows `rows` (SQL, with its arguments).
    static func packedRows(where rows: String, _ arguments: [SQLiteValue], _ db: Database)
        throws -> [PackedRow]
    {
        let slots = try slotCount(db)
        let cursor = try db.fetchCursor(
            "SELECT seq, tableId, oldRowid, mask, splice FROM \(log) "
                + "WHERE \(rows) AND splice IS NOT NULL", arguments)
        var found: [(seq: Int64, table: Int64, rowid: Int64, slot: Int, splice: [UInt8])] = []
        while let row = try cursor.next() {
            let mask: Int64 = try row.decode(at: 3)
            guard let slot = singleSlot(of: mask), slot < slots,
                case .blob(let splice) = row[4]
            else { continue }
            found.append(
                (try row.decode(at: 0), try row.decode(at: 1), try row.decode(at: 2), slot, splice))
        }
        return try found.compactMap { row in
            guard
                let cells = try db.fetchOne(
                    Row.self, "SELECT o\(row.slot), n\(row.slot) FROM \(log) WHERE seq = ?",
                    [.integer(row.seq)]),
                case .blob(let old) = cells[0], case .blob(let new) = cells[1],
                let change = PackedChange(old: old, new: new, splice: row.splice)
            else { return nil }
            return PackedRow(
                seq: row.seq, table: row.table, rowid: row.rowid, slot: row.slot, change: change)
        }
    }

    /// Writes a packed row's two values back whole.
    static func unpack(
        _ row: PackedRow, old: PackedChange.Value, new: PackedChange.Value,
        _ db: Database
    ) throws {
        func sql(_ value: PackedChange.Value) -> String {
            value.storage == .text ? "CAST(? AS TEXT)" : "CAST(? AS BLOB)"
        }
        try db.execute(
            """
            UPDATE \(log) SET o\(row.slot) = \(sql(old)), n\(row.slot) = \(sql(new)), splice = NULL
            WHERE seq = ?
            """, [.blob(old.bytes), .blob(new.bytes), .integer(row.seq)])
    }

    /// Rebuilds a packed row from `current`, the value its cell holds now, when that is the
    /// value on the side the row reads as its after (`isNew`: its new value); for a text the
    /// engine merges (`mergeText`), also when someone changed it elsewhere since: the row then
    /// reads as a change from the text with the row's own edit taken back to `current`. Returns
    /// false, leaving the row packed, otherwise.
    @discardableResult
    static func unpack(
        _ row: PackedRow, against current: PackedChange.Value, isNew: Bool, mergesText: Bool,
        _ db: Database
    ) throws -> Bool {
        let other: PackedChange.Value
        if let exact = row.change.other(given: current, isNew: isNew) {
            other = exact
        } else if mergesText, current.storage == .text,
            (isNew ? row.change.old : row.change.new).storage == .text,
            let merged = row.change.merged(into: current, fromNew: isNew)
        {
            other = merged
        } else {
            return false
        }
        try unpack(row, old: isNew ? other : current, new: isNew ? current : other, db)
        return true
    }

    /// Where the row a packed row updated is now, as the entry left it (read `inverted`: as it
    /// was before the entry): the entry's own later key changes followed forward (or its earlier
    /// ones back). Nil when the entry deleted it since (or inserted it before).
    static func rowidNow(of row: PackedRow, inEntry id: Int64, inverted: Bool, _ db: Database)
        throws -> Int64?
    {
        let cursor = try db.fetchCursor(
            """
            SELECT oldRowid, newRowid FROM \(log)
            WHERE \(filedRows()) AND tableId = ?2 AND seq \(inverted ? "<" : ">") ?3
                AND oldRowid IS NOT newRowid
            ORDER BY seq \(inverted ? "DESC" : "ASC")
            """, [.integer(id), .integer(row.table), .integer(row.seq)])
        var identity = row.rowid
        while let move = try cursor.next() {
            let from: Int64? = try move.decode(at: inverted ? 1 : 0)
            let to: Int64? = try move.decode(at: inverted ? 0 : 1)
            guard from == identity else { continue }
            guard let to else { return nil }
            identity = to
        }
        return identity
    }

    /// A cell's value in its table as a packed change compares it: nil unless text or blob.
    static func currentValue(
        of table: TrackedTable, rowid: Int64, slot: Int, _ db: Database
    ) throws -> PackedChange.Value? {
        guard let column = table.columns.first(where: { $0.slot == slot }) else { return nil }
        let name = column.name.quotedIdentifier
        guard
            let row = try db.fetchOne(
                Row.self,
                "SELECT typeof(\(name)), CAST(\(name) AS BLOB) FROM \(table.sqlName) "
                    + "WHERE \(table.rowMatch())", [.integer(rowid)])
        else { return nil }
        return try packable(row, at: 0)
    }
}
