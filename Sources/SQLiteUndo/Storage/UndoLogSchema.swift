import SQLiteDatabase

/// The engine's tables, in the database file next to the data they record.
///
/// - `sqliteundo_tables`: tracked tables, each with a stable number.
/// - `sqliteundo_columns`: each tracked column's slot in the log, kept through renames, with its
///   place among the table's columns and its declared type (to recognise a rename made while
///   no engine ran); a dropped column's slot is taken out of the log and reused (see
///   `ColumnSlots`).
/// - `sqliteundo_log`: one row per captured row change, in capture order (`seq`): the barrier,
///   the table, the kind, the rowid before and after, a bit mask of the slots it holds, and the
///   values before (`o<slot>`) and after (`n<slot>`). An update that keeps the keys is logged
///   one row per changed column (see `CaptureTriggers.swift`). Columns without type keep every
///   value exactly as SQLite stored it. It has no index: a barrier's rows are found by its span.
///   A small edit of a large text or blob is kept as the edit once filed (`splice`, see
///   `PackedChange`), and a typing run keeps one row per cell (see
///   `UndoLogSchema+RunCollapse.swift`).
/// - `sqliteundo_retired_moves`: the key changes (a row moved from one rowid to another,
///   inserted at one, or deleted from one) of entries that left history, kept, read the way
///   they took effect, while an older entry is in history: who wrote a value is found by
///   following the row back through them, to where it was inserted.
/// - `sqliteundo_barriers`: filed barriers: their stack, list (0 undo, 1 redo, 2 kept: undone
///   steps of a branch a later action left), position, the step it was done on (`parentStep`,
///   nil for the first: the history is a tree), the step a take-back took back (`takesBack`),
///   name, coalescing key, closing time, whether its log reads inverted (an undo that
///   restored everything exactly turns the barrier into its own redo by flipping this flag,
///   instead of recording the replay), when it was last flipped (`flippedAt`, a point between
///   two `seq`s, and `flipOrder`, a count of the file's flips: indexed), and
///   its span: `firstSeq...lastSeq` holds every log row of the barrier (rows of other barriers
///   written meanwhile may lie between them). An entry replayed row by row (not flipped) is
///   superseded by the replay's inverse (`supersededBy`, and `keptByReplay` when that replay
///   kept some of its changes): on no list, its log kept for `lastWriter` until the entry that
///   took its place goes. The redo entries a new action leaves are kept as a branch as soon
///   as it is filed, while its block still runs (`keep`). `closedToMerging`: a typing step
///   may no longer merge into the entry (its run ended; the entries still open to merging are
///   indexed). `packed`: whether some of its log rows may be packed.
/// - `sqliteundo_merge_breaks`: rows of entries still open to merging that another change,
///   since gone from history with its log, changed after them: a typing step that writes one
///   of them no longer merges into the entry (see `closeMerging`).
///
/// Why a span and not an index on `barrier`: the index costs a second b-tree insert for every
/// captured row (a fifth of a bulk capture) and a lookup per row when reading; a span reads the
/// rows in order. A barrier's rows all come after `Barrier.logStart` (the next `seq` when it
/// first captured in a transaction), since rows are appended at the end of the log and its own
/// rows stay while it is open; the transaction that files it (or adds to it) sets `lastSeq`.
enum UndoLogSchema {
    static let log = "sqliteundo_log"
    static let barriers = "sqliteundo_barriers"
    static let tables = "sqliteundo_tables"
    static let columns = "sqliteundo_columns"
    static let retiredMoves = "sqliteundo_retired_moves"
    static let mergeBreaks = "sqliteundo_merge_breaks"

    enum Kind: Int64 {
        case insert = 1
        case update = 2
        case delete = 3
    }

    enum List: Int64 {
        case undo = 0
        case redo = 1
        /// Undone steps of a branch a later action left: on no list, kept for `UndoStack.go(to:)`.
        case kept = 2
    }

    /// The table recording which of the log's migrations a file has had (apart from the
    /// application's own, which `Migrator` records in `sqlitedatabase_migrations`).
    static let migrations = "sqliteundo_migrations"

    /// The log's schema as named migrations, applied once each, in order, and recorded in the
    /// file. Files made before the log had migrations have some of them already: each step
    /// checks what is there.
    static var migrator: Migrator {
        var migrator = Migrator(recordTable: migrations)
        migrator.registerMigration("sqliteundo-1-tables", createTables)
        migrator.registerMigration("sqliteundo-2-inverted", addInverted)
        migrator.registerMigration("sqliteundo-3-spans", replaceBarrierIndexBySpans)
        migrator.registerMigration("sqliteundo-4-flips", addFlippedAt)
        migrator.registerMigration("sqliteundo-5-flip-order", addFlipOrder)
        migrator.registerMigration("sqliteundo-6-superseded", addSupersededBy)
        migrator.registerMigration("sqliteundo-7-column-places", addColumnPlaces)
        migrator.registerMigration("sqliteundo-8-retired-moves", addRetiredMoves)
        migrator.registerMigration("sqliteundo-9-kept-by-replay", addKeptByReplay)
        migrator.registerMigration("sqliteundo-10-closed-to-merging", addClosedToMerging)
        migrator.registerMigration("sqliteundo-11-retired-arrivals", retireArrivalsAndDepartures)
        migrator.registerMigration("sqliteundo-12-packed-changes", addPacking)
        migrator.registerMigration("sqliteundo-13-steps", addSteps)
        migrator.registerMigration("sqliteundo-14-merge-breaks", addMergeBreaks)
        migrator.registerMigration("sqliteundo-15-tree", addTree)
        migrator.registerMigration("sqliteundo-16-key-moves", addKeyMovesIndex)
        migrator.registerMigration("sqliteundo-17-key-moves-unbound", replaceKeyMovesIndex)
        migrator.registerMigration("sqliteundo-18-previous-flips", addPreviousFlip)
        return migrator
    }

    private static func createTables(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(tables) (
                id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE IF NOT EXISTS \(columns) (
                tableId INTEGER NOT NULL, name TEXT NOT NULL, slot INTEGER NOT NULL,
                PRIMARY KEY (tableId, name));
            CREATE TABLE IF NOT EXISTS \(log) (
                seq INTEGER PRIMARY KEY, barrier INTEGER NOT NULL, tableId INTEGER NOT NULL,
                kind INTEGER NOT NULL, oldRowid INTEGER, newRowid INTEGER, mask INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS \(barriers) (
                id INTEGER PRIMARY KEY, stackId TEXT NOT NULL, list INTEGER NOT NULL,
                position INTEGER NOT NULL, name TEXT NOT NULL, coalescingKey TEXT,
                closedAt REAL NOT NULL);
            """)
    }

    /// Whether a barrier's log reads inverted (an undo that restored everything exactly flips it
    /// instead of recording the replay).
    private static func addInverted(_ db: Database) throws {
        guard try !barrierColumns(db).contains("inverted") else { return }
        try db.execute("ALTER TABLE \(barriers) ADD COLUMN inverted INTEGER NOT NULL DEFAULT 0")
    }

    /// Replaces the log's index on `barrier` by each barrier's span, and drops the index on the
    /// barriers' stacks (an entry is found by id; a stack's entries are read once, when it opens).
    private static func replaceBarrierIndexBySpans(_ db: Database) throws {
        if try !barrierColumns(db).contains("firstSeq") {
            try db.execute(
                """
                ALTER TABLE \(barriers) ADD COLUMN firstSeq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE \(barriers) ADD COLUMN lastSeq INTEGER NOT NULL DEFAULT 0;
                UPDATE \(barriers) SET
                    firstSeq = coalesce((SELECT min(seq) FROM \(log) WHERE barrier = \(barriers).id), 0),
                    lastSeq = coalesce((SELECT max(seq) FROM \(log) WHERE barrier = \(barriers).id), 0);
                """)
        }
        try db.execute("DROP INDEX IF EXISTS \(log)_barrier")
        try db.execute("DROP INDEX IF EXISTS \(barriers)_stack")
    }

    /// When an exact replay last flipped a barrier, as a point in the log's order (between two
    /// `seq`s): who wrote a value last is read in the order changes took effect.
    private static func addFlippedAt(_ db: Database) throws {
        guard try !barrierColumns(db).contains("flippedAt") else { return }
        try db.execute("ALTER TABLE \(barriers) ADD COLUMN flippedAt REAL")
    }

    /// When a flipped barrier took effect before its last flip (nil: when its log rows were
    /// written): the walk that follows a row to its key now reads an entry undone since as the
    /// change and then its undo, not as the undo alone (see `UndoLogSchema.keyMoves`).
    private static func addPreviousFlip(_ db: Database) throws {
        guard try !barrierColumns(db).contains("previousFlippedAt") else { return }
        try db.execute(
            """
            ALTER TABLE \(barriers) ADD COLUMN previousFlippedAt REAL;
            ALTER TABLE \(barriers) ADD COLUMN previousFlipOrder INTEGER;
            """)
    }

    /// The order of the flips (`flippedAt` is the same for flips with no log row between them),
    /// numbered from 1 for the file's flips so far, and indexes to read the last flips first
    /// (who wrote a value last) and those after a point in the log (whether others changed a
    /// row since).
    private static func addFlipOrder(_ db: Database) throws {
        guard try !barrierColumns(db).contains("flipOrder") else { return }
        try db.execute(
            """
            ALTER TABLE \(barriers) ADD COLUMN flipOrder INTEGER;
            UPDATE \(barriers) SET flipOrder = flips.number
            FROM (SELECT id, row_number() OVER (ORDER BY flippedAt, id) AS number
                FROM \(barriers) WHERE flippedAt IS NOT NULL) AS flips
            WHERE flips.id = \(barriers).id;
            CREATE INDEX \(barriers)_flips ON \(barriers)(flipOrder) WHERE flipOrder IS NOT NULL;
            CREATE INDEX \(barriers)_flippedAt ON \(barriers)(flippedAt)
                WHERE flippedAt IS NOT NULL;
            """)
    }

    /// The entry that took an entry's place on its stack when a replay was not exact (the
    /// replay's inverse): the superseded entry is on no list, but its log rows stay, as
    /// long as the entry that took its place, to tell who wrote a value the replay kept.
    private static func addSupersededBy(_ db: Database) throws {
        guard try !barrierColumns(db).contains("supersededBy") else { return }
        try db.execute(
            """
            ALTER TABLE \(barriers) ADD COLUMN supersededBy INTEGER;
            CREATE INDEX \(barriers)_superseded ON \(barriers)(supersededBy)
                WHERE supersededBy IS NOT NULL;
            """)
    }

    /// Each tracked column's place among its table's columns and its declared type, as the
    /// engine last saw them: an engine opening a file whose columns were renamed while no engine
    /// ran recognises the renames from them (`ColumnRenames`). NULL until an engine has seen the
    /// table since this migration.
    private static func addColumnPlaces(_ db: Database) throws {
        let known = try db.fetchAll(
            String.self, "SELECT name FROM pragma_table_info(?)", [.text(columns)])
        guard !known.contains("position") else { return }
        try db.execute(
            """
            ALTER TABLE \(columns) ADD COLUMN position INTEGER;
            ALTER TABLE \(columns) ADD COLUMN declaredType TEXT;
            """)
    }

    /// The key changes of entries that left history, which `lastWriter` follows to find who
    /// wrote a row before one of them moved it (see `retireMoves`).
    private static func addRetiredMoves(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(retiredMoves) (
                tableId INTEGER NOT NULL, oldRowid INTEGER NOT NULL, newRowid INTEGER NOT NULL,
                tookEffect REAL NOT NULL, flipOrder INTEGER, sub INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS \(retiredMoves)_order
                ON \(retiredMoves)(tableId, tookEffect, flipOrder, sub);
            """)
    }

    /// The retired key changes take rows arriving at a key from none (an insert: no old key)
    /// and leaving one for none (a delete: no new key) too: a row's trail ends there.
    private static func retireArrivalsAndDepartures(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE \(retiredMoves)_new (
                tableId INTEGER NOT NULL, oldRowid INTEGER, newRowid INTEGER,
                tookEffect REAL NOT NULL, flipOrder INTEGER, sub INTEGER NOT NULL);
            INSERT INTO \(retiredMoves)_new
                SELECT tableId, oldRowid, newRowid, tookEffect, flipOrder, sub FROM \(retiredMoves);
            DROP TABLE \(retiredMoves);
            ALTER TABLE \(retiredMoves)_new RENAME TO \(retiredMoves);
            CREATE INDEX \(retiredMoves)_order
                ON \(retiredMoves)(tableId, tookEffect, flipOrder, sub);
            """)
    }

    /// Whether the replay that superseded an entry kept some of its changes (a conflict): the
    /// values it kept are still the action's, so its log stays while the action is in history.
    private static func addKeptByReplay(_ db: Database) throws {
        guard try !barrierColumns(db).contains("keptByReplay") else { return }
        try db.execute(
            "ALTER TABLE \(barriers) ADD COLUMN keptByReplay INTEGER NOT NULL DEFAULT 0")
    }

    /// Whether a coalescing barrier may no longer merge into an entry: its stack registered
    /// another action or replayed one since (the typing run ended), or another change to its
    /// rows since left history with its log, so the log no longer shows it (see
    /// `closeMerging`). Entries filed before are closed: what may merge was kept in memory
    /// only, and is forgotten when the engine closes. A partial index finds the open ones.
    private static func addClosedToMerging(_ db: Database) throws {
        if try !barrierColumns(db).contains("closedToMerging") {
            try db.execute(
                """
                ALTER TABLE \(barriers) ADD COLUMN closedToMerging INTEGER NOT NULL DEFAULT 0;
                UPDATE \(barriers) SET closedToMerging = 1 WHERE coalescingKey IS NOT NULL;
                """)
        }
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS \(barriers)_openToMerging ON \(barriers)(stackId)
                WHERE coalescingKey IS NOT NULL AND closedToMerging = 0
            """)
    }

    /// The rows of entries a typing step may still merge into that an entry which left
    /// history, with its log, changed after them (see `closeMerging`).
    private static func addMergeBreaks(_ db: Database) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(mergeBreaks) (
                entry INTEGER NOT NULL, tableId INTEGER NOT NULL, rowid INTEGER NOT NULL,
                PRIMARY KEY (entry, tableId, rowid)) WITHOUT ROWID
            """)
    }

    static func barrierColumns(_ db: Database) throws -> [String] {
        try db.fetchAll(String.self, "SELECT name FROM pragma_table_info(?)", [.text(barriers)])
    }

    /// SQL for the log's highest `seq` (0 when it is empty): where the span of a barrier filed
    /// or extended now ends.
    static let highestSeq = "(SELECT coalesce(max(seq), 0) FROM \(log))"

    /// The `seq` the next log row will get (or a lower one).
    static func nextSeq(_ db: Database) throws -> Int64 {
        try db.fetchOne(Int64.self, nextSeqSQL) ?? 1
    }

    private static let nextSeqSQL = "SELECT \(highestSeq) + 1"

    /// SQL true for the log rows (of the log aliased `alias`, or unaliased) of the filed barrier
    /// whose id is the statement's first argument (`?1`), found by its span.
    static func filedRows(_ alias: String = "") -> String {
        let prefix = alias.isEmpty ? "" : alias + "."
        return """
            \(prefix)seq BETWEEN (SELECT firstSeq FROM \(barriers) WHERE id = ?1)
                AND (SELECT lastSeq FROM \(barriers) WHERE id = ?1) AND \(prefix)barrier = ?1
            """
    }

    /// SQL true for the log rows a barrier wrote from its log start on (`Barrier.logStart`): its
    /// rows before it is filed, or those a transaction adds to it. `barrier` and `start` are the
    /// SQL naming them (parameters).
    static func rows(of barrier: String, from start: String) -> String {
        "seq >= \(start) AND barrier = \(barrier)"
    }

    /// Extends a filed barrier's span over the rows the open transaction gave it since
    /// `start` (the first `seq` they may have). Returns false when the barrier is not filed
    /// (any more).
    static func extendSpan(of barrier: Int64, from start: Int64, _ db: Database) throws -> Bool {
        try db.execute(
            """
            UPDATE \(barriers) SET firstSeq = min(firstSeq, ?2),
                lastSeq = max(lastSeq, \(highestSeq))
            WHERE id = ?1
            """, [.integer(barrier), .integer(start)])
        return db.changesCount == 1
    }

    /// How many value slots the log has now.
    static func slotCount(_ db: Database) throws -> Int {
        try db.memoized("\(log).slots") {
            let names = try db.fetchAll(
                String.self, "SELECT name FROM pragma_table_info(?)", [.text(log)])
            return names.filter { $0.hasPrefix("o") && Int($0.dropFirst()) != nil }.count
        }
    }

    /// Adds value columns to the log until it has `count` slots.
    static func ensureSlots(_ count: Int, _ db: Database) throws {
        let existing = try slotCount(db)
        guard existing < count else { return }
        for slot in existing..<count {
            try db.execute("ALTER TABLE \(log) ADD COLUMN o\(slot)")
            try db.execute("ALTER TABLE \(log) ADD COLUMN n\(slot)")
        }
    }

    /// Deletes a barrier's log rows, all at `start` or later, but those in `except`.
    static func deleteLog(
        of barrier: Int64, from start: Int64, except: [Int64] = [], _ db: Database
    ) throws {
        try keepingHighestSeq(db) {
            try db.execute(
                """
                DELETE FROM \(log) WHERE \(rows(of: "?2", from: "?1"))
                    AND seq NOT IN (SELECT value FROM json_each(?3))
                """,
                [.integer(start), .integer(barrier), .text(except.jsonArray)])
        }
    }

    /// Runs `delete`, which deletes log rows, so that no later row gets a `seq` one of them had:
    /// when the log's newest row goes, a row of no barrier (a tombstone, `barrier` 0) keeps its
    /// `seq`. The moments the file keeps by `seq` (retired key changes, flips) then stay before
    /// every later row; a reused `seq` read as older than them. The tombstone it replaces, the
    /// log's end now (a stack keeping no steps deletes each action's rows), goes. Costs one seek
    /// per deletion, none on the path that logs rows.
    static func keepingHighestSeq(_ db: Database, _ delete: () throws -> Void) throws {
        let highest = try db.fetchOne(Int64.self, "SELECT max(seq) FROM \(log)")
        try delete()
        guard let highest,
            try db.fetchOne(Int64.self, "SELECT coalesce(max(seq), 0) FROM \(log)") ?? 0 < highest
        else { return }
        try db.execute(
            "DELETE FROM \(log) WHERE barrier = 0 AND seq = (SELECT max(seq) FROM \(log))")
        try db.execute(
            "INSERT INTO \(log)(seq, barrier, tableId, kind, mask) VALUES (?, 0, 0, 0, 0)",
            [.integer(highest)])
    }

    /// Gives a barrier's log rows (all at `start` or later) to another, filed barrier
    /// (coalescing merges them into it), whose span grows to hold them. Returns false, having
    /// moved nothing, when `other` is not filed (any more).
    @discardableResult
    static func moveLog(of barrier: Int64, from start: Int64, to other: Int64, _ db: Database)
        throws -> Bool
    {
        guard try extendSpan(of: other, from: start, db) else { return false }
        try db.execute(
            "UPDATE \(log) SET barrier = ?1 WHERE \(rows(of: "?3", from: "?2"))",
            [.integer(other), .integer(start), .integer(barrier)])
        return true
    }

    /// Deletes barriers' log rows that no barrier row claims and whose block cannot be running
    /// any more: what a crash left of an unfinished barrier. Reads the whole log twice (once
    /// more when there is something to delete), when an engine opens.
    static func discardUnfinishedBarriers(_ db: Database) throws {
        let orphans = try db.fetchAll(
            Int64.self,
            """
            SELECT DISTINCT barrier FROM \(log)
            WHERE barrier NOT IN (SELECT id FROM \(barriers))
            """
        ).filter { $0 != 0 && !LiveBarriers.mayBeRunning($0) }
        try keepingHighestSeq(db) {
            if !orphans.isEmpty {
                try db.execute(
                    "DELETE FROM \(log) WHERE barrier IN (SELECT value FROM json_each(?))",
                    [.text(orphans.jsonArray)])
            }
            // Only a tombstone at the log's end keeps a `seq` (see `keepingHighestSeq`): one
            // read of the log, the highest `seq` a seek.
            try db.execute(
                "DELETE FROM \(log) WHERE barrier = 0 AND seq < (SELECT max(seq) FROM \(log))")
        }
        let low = BarrierID.processID << 32
        let used = try db.fetchOne(
            Int64.self,
            "SELECT max(id) FROM (SELECT max(id) AS id FROM \(barriers) WHERE id BETWEEN ?1 AND ?2 "
                + "UNION ALL SELECT max(barrier) FROM \(log) WHERE barrier BETWEEN ?1 AND ?2)",
            [.integer(low), .integer(low | 0xFFFF_FFFF)])
        if let used { BarrierID.advance(pastUsed: used) }
    }
}
