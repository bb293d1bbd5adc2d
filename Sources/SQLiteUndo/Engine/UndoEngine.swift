import Foundation
import SQLiteDatabase
import Synchronization

/// Automatic undo/redo for the tracked tables of one database.
///
/// ```swift
/// let engine = try UndoEngine(for: db, tables: Article.self, ArticleChunk.self, Author.self)
/// try undoable("Set Rating") { try db.write { db in ... } }
/// try engine.defaultStack.undo()
/// ```
///
/// The engine installs capture triggers (TEMP triggers on its own connection, so other
/// connections such as the `sqlite3` shell are unaffected), keeps the log in `sqliteundo_` tables
/// of the same file, and gives out one `UndoStack` per id. One engine per database.
///
/// An engine holds its database connection, and it and its stacks hold each other (a stack works
/// on its own), so releasing them does not close the file: when a document closes, close its
/// connection (`DatabaseQueue.close()`); the engine and its stacks are then inert.
public final class UndoEngine: Sendable {
    /// The database whose tables are tracked.
    public let database: any DatabaseWriter
    private let tableNames: [String]
    let trackedTables = Mutex<[Int64: TrackedTable]>([:])
    private let foreignKeys = Mutex(ForeignKeys(keys: [], exist: false))
    /// Files barriers with their stacks inside the transactions that wrote them.
    let recorder = BarrierRecorder()
    /// Logs the rows `OR REPLACE` deletes without firing triggers.
    private let replacedRows = ReplacedRows()
    /// What the statement filing an entry found.
    let filingReport = FilingReport()
    let stacks = Mutex<[String: UndoStack]>([:])
    /// The replay strategies the engine may use, in order (all of them; tests leave some out
    /// to compare the others' results).
    let replayStrategies = Mutex(ReplayStrategy.allCases)
    /// The clock in a struct: a closure stored in a `Mutex` directly is wrapped in one more
    /// reabstraction thunk at every `withLock` (its value passes through a generic `inout`), so
    /// each read made the next one slower (measured: 100k barriers took 6 minutes, not 4 s).
    private struct Clock: Sendable {
        let now: @Sendable () -> Date
    }
    private let clockSource = Mutex(Clock(now: { Date() }))
    /// The text columns an undo merges (`mergeText(ofColumns:in:)`), as `KeptColumn`-style
    /// lowercased "table.column" names.
    private let mergedText = Mutex<Set<String>>([])
    /// The columns coalescing takes as timestamps (`treatAsTimestamps(ofColumns:in:)`), named
    /// the same way.
    private let timestamps = Mutex<Set<String>>([])
    /// `slotsTakenIntoRuns()` as last worked out (read at every coalescing key), cleared when
    /// the columns above or the tracked tables change.
    private let takenInSlots = Mutex<[Int64: [Int: UndoLogSchema.MidRunWriteRule]]?>(nil)
    /// Parts an exact replay restores without their columns' update capture triggers (see
    /// `BatchReplay`).
    private let rowsWorthSuspendingCapture: Int

    /// The id of the stack barriers register with outside any `withUndoStack` scope.
    public static let defaultStackID = "default"

    /// SQL calling the capture function: the current barrier's id, or NULL outside a barrier.
    /// A capture trigger calls it in its `WHEN` clause. It works its answer out once per
    /// barrier scope and transaction (`CaptureScope`); the rows after the first only log.
    static let barrierFunction = "\"sqliteundo_barrier\"()"

    /// SQL for the id `barrierFunction` returned last, for the body of the trigger whose
    /// `WHEN` clause just called it: no task-local lookup and no bookkeeping, once per log row.
    static let capturingBarrierFunction = "\"sqliteundo_capturingBarrier\"()"

    /// The name of the function telling whether a value is the real -0.0: SQL's `IS` finds it
    /// equal to 0.0, and SQLite prints both as 0.0 and divides neither.
    static let negativeZeroFunction = "sqliteundo_isNegativeZero"

    /// The update value feed an exact replay restores values through (see `BatchReplay`).
    static let restoreFunction = "sqliteundo_restore"

    /// SQL text, for trigger `WHEN` clauses, that is true while an undo or redo is replaying:
    /// `WHEN NOT \(UndoEngine.isReplaying())` keeps a trigger's side effects from firing twice.
    public static func isReplaying() -> String { "\"sqliteundo_isReplaying\"()" }

    /// Tracks the tables of the given types.
    /// A table is matched by name case-insensitively, as in SQL, and tracked once however often
    /// it is named.
    /// Any table with a PRIMARY KEY is tracked by that key: an `INTEGER PRIMARY KEY`, a TEXT
    /// key, a key of several columns, a `WITHOUT ROWID` table.
    /// - Throws: `UndoError` for an unknown table, a table without a PRIMARY KEY, one whose
    ///   column named `rowid`, `oid` or `_rowid_` hides the rowid, one of the engine's own
    ///   tables, or when the database already has an engine; `SQLiteError` when the log cannot
    ///   be created. Nothing is changed then.
    public convenience init(for database: any DatabaseWriter, tables: any Table.Type...) throws {
        try self.init(for: database, tableNames: tables.map { $0.tableName })
    }

    /// Tracks the named tables.
    /// - Throws: as `init(for:tables:)`.
    public convenience init(for database: any DatabaseWriter, tableNames: [String]) throws {
        try self.init(
            for: database, tableNames: tableNames,
            rowsWorthSuspendingCapture: BatchReplay.defaultRowsWorthSuspendingCapture)
    }

    /// Tracks the named tables; an exact replay drops the update capture triggers of the columns
    /// it restores for parts of at least `rowsWorthSuspendingCapture` rows (tests lower it to run
    /// that path always).
    init(for database: any DatabaseWriter, tableNames: [String], rowsWorthSuspendingCapture: Int)
        throws
    {
        self.database = database
        self.tableNames = tableNames
        self.rowsWorthSuspendingCapture = rowsWorthSuspendingCapture
        try EngineRegistry.claim(database, for: self)
        do {
            try database.write { db in
                db.add(writeTransactionObserver: recorder)
                try UndoLogSchema.migrator.migrate(db)
                try installFunctions(db)
                try installTriggers(db)
                try UndoLogSchema.discardUnfinishedBarriers(db)
            }
            let entries = try database.read {
                try UndoLogSchema.entries(ofStack: Self.defaultStackID, $0)
            }
            stacks.withLock {
                $0[Self.defaultStackID] = UndoStack(
                    engine: self, id: Self.defaultStackID, entries: entries)
            }
        } catch {
            EngineRegistry.release(database)
            throw error
        }
    }

    /// The time barriers are filed at, which coalescing compares with `UndoStack.mergeInterval`:
    /// the system's clock unless set. Tests set a clock of their own, so that none waits.
    public var clock: @Sendable () -> Date {
        get { clockSource.withLock { $0.now } }
        set { clockSource.withLock { $0 = Clock(now: newValue) } }
    }

    /// Makes an undo or redo merge these text columns of `table` instead of keeping them whole
    /// when someone changed them since: the step's own splice is taken back from the text as it
    /// is now, keeping the others' edits around it (`TextSplice.merge`). Only when the step's
    /// change and theirs touch the same bytes is the column kept and reported, as for any
    /// column. For the body of a note that two windows or programs type into at once.
    public func mergeText(ofColumns columns: [String], in table: any Table.Type) {
        let names = columns.map { "\(table.tableName).\($0)".lowercased() }
        mergedText.withLock { $0.formUnion(names) }
        takenInSlots.withLock { $0 = nil }
    }

    /// Whether an undo merges the text of this column (`mergeText(ofColumns:in:)`).
    func mergesText(table: String, column: String) -> Bool {
        let name = "\(table).\(column)".lowercased()
        return mergedText.withLock { $0.contains(name) }
    }

    /// Makes these columns of `table` timestamps for coalescing: a typing run is not cut when
    /// another writer sets one in between (a modification time each writer stamps at every
    /// key); the value that writer left counts as the run's value before. For the
    /// `updatedAt` of a note that two windows type into at once, with `mergeText`.
    public func treatAsTimestamps(ofColumns columns: [String], in table: any Table.Type) {
        let names = columns.map { "\(table.tableName).\($0)".lowercased() }
        timestamps.withLock { $0.formUnion(names) }
        takenInSlots.withLock { $0 = nil }
    }

    /// The log slots, by table id, whose changes by others in the middle of a typing run do not
    /// cut it (`UndoLogSchema.rebaseRun`): merged texts and timestamps.
    func slotsTakenIntoRuns() -> [Int64: [Int: UndoLogSchema.MidRunWriteRule]] {
        if let known = takenInSlots.withLock({ $0 }) { return known }
        let texts = mergedText.withLock { $0 }
        let stamps = timestamps.withLock { $0 }
        var slots: [Int64: [Int: UndoLogSchema.MidRunWriteRule]] = [:]
        for table in trackedTables.withLock({ Array($0.values) }) {
            for column in table.columns {
                let name = "\(table.name).\(column.name)".lowercased()
                if texts.contains(name) { slots[table.id, default: [:]][column.slot] = .text }
                if stamps.contains(name) { slots[table.id, default: [:]][column.slot] = .latest }
            }
        }
        takenInSlots.withLock { $0 = slots }
        return slots
    }

    /// The most value slots a tracked table has (the log has at least as many), kept with the
    /// tracked tables: read at every commit.
    var mostSlots: Int { mostSlotsKept.load(ordering: .relaxed) }
    private let mostSlotsKept = Atomic(0)

    /// The stack a barrier writing now registers with: the `withUndoStack` scope's, or the
    /// default stack.
    var currentStack: UndoStack {
        UndoContext.stack.flatMap { $0.engine === self ? $0 : nil } ?? defaultStack
    }

    /// The stack barriers register with when no `withUndoStack` scope is set.
    public var defaultStack: UndoStack {
        stacks.withLock { $0[Self.defaultStackID] }
            ?? UndoStack(engine: self, id: Self.defaultStackID, entries: StackEntries())
    }

    /// The stack with this id, with the history recorded under that id in the file (so a pane's
    /// history is back after a restart). The same id gives the same object.
    /// - Throws: `SQLiteError` when its history cannot be read.
    public func stack(id: String) throws -> UndoStack {
        if let stack = stacks.withLock({ $0[id] }) { return stack }
        let entries = try database.read { try UndoLogSchema.entries(ofStack: id, $0) }
        return stacks.withLock { stacks in
            if let stack = stacks[id] { return stack }
            let stack = UndoStack(engine: self, id: id, entries: entries)
            stacks[id] = stack
            return stack
        }
    }

    /// Ids of every stack that has history in the file.
    public func storedStackIDs() throws -> [String] {
        try database.read { try UndoLogSchema.stackIDs($0) }
    }

    /// Deletes a stack's history (both lists and their log rows) from the file.
    public func deleteStack(id: String) throws {
        try stack(id: id).removeAll()
        if id != Self.defaultStackID { _ = stacks.withLock { $0.removeValue(forKey: id) } }
    }

    /// Rebuilds the capture triggers from the tables' current columns: call it after a migration
    /// added or renamed a column of a tracked table (`migrate(_:)` does both in one). History
    /// recorded before stays undoable; a renamed column is recognised as `migrate(_:)` tells.
    public func refresh() throws {
        try database.write { db in try installTriggers(db) }
        try reloadStacks()
    }

    /// Reads every open stack's lists again: forgetting a dropped column may have removed
    /// actions that changed nothing else.
    private func reloadStacks() throws {
        let open = stacks.withLock { Array($0.values) }
        try database.read { db in for stack in open { try stack.reload(db) } }
    }

    /// Runs a migration of the tracked tables with the engine installed, in one write
    /// transaction: the capture triggers (which name every column, so SQLite refuses to drop
    /// one while they exist) are dropped, `body` runs, and they are rebuilt from the tables' real
    /// columns. All or nothing: if `body` or the rebuild throws, the schema, the data and the
    /// triggers are as before.
    ///
    /// ```swift
    /// try engine.migrate { db in try migrator.migrate(db) }
    /// ```
    ///
    /// Older history still undoes: a dropped column's history restores nothing for it (the other
    /// columns it changed are restored); an added column has no older history; a renamed column
    /// keeps its history, which undoes into it under its new name. A rename is recognised by the
    /// column keeping its place among its neighbours and its declared type (`ADD COLUMN` only
    /// appends, `DROP COLUMN` removes): so dropping the last column and adding one of the same
    /// type in one migration reads as renaming it. A slot of the log freed by dropped columns is
    /// reused once no history refers to it, so a table can be migrated any number of times.
    /// - Throws: what `body` throws; `UndoError` when a tracked table is gone or renamed (a
    ///   renamed table is not followed), or cannot be tracked any more; `SQLiteError`.
    public func migrate(_ body: (Database) throws -> Void) throws {
        try database.write { db in
            for table in trackedTables.withLock({ Array($0.values) }) {
                try db.execute(table.dropTriggersSQL)
            }
            try body(db)
            try installTriggers(db)
        }
        try reloadStacks()
    }

    // MARK: Installation

    private func installFunctions(_ db: Database) throws {
        let capturing = CapturingBarrier()
        let recorder = self.recorder
        try db.createFunction(
            "sqliteundo_barrier",
            returningInteger: { [weak self, unowned db] in
                let scope = CaptureScope(
                    barrierScopeEdge: UndoContext.barrierScopeEdges.load(ordering: .relaxed),
                    transactionEdge: recorder.transactionEdge)
                if capturing.scope == scope { return capturing.answer }
                capturing.scope = scope
                guard let barrier = UndoContext.barrier else {
                    capturing.answer = nil
                    return nil
                }
                if let self {
                    let isFirst = self.recorder.noteCapture(barrier, stack: self.currentStack)
                    // Read while the row is not inserted yet; a failed read bounds nothing (0).
                    barrier.didCapture(for: self, isFirstInTransaction: isFirst) {
                        recorder.nextSeq(db) ?? (try? UndoLogSchema.nextSeq(db)) ?? 0
                    }
                }
                capturing.answer = barrier.id
                capturing.barrier = barrier
                return barrier.id
            })
        try db.createFunction(
            "sqliteundo_capturingBarrier",
            returningInteger: { [weak self] in
                let answer = capturing.answer
                // A row logged by another action's barrier than the last row, or after a replay:
                // the log changed hands (`BarrierRecorder.handover`). A replay's own rows count
                // when it files them.
                if answer != capturing.lastLogged || recorder.handovers != capturing.handoversSeen,
                    let answer, let self, let barrier = capturing.barrier, barrier.recordsAtCommit
                {
                    capturing.lastLogged = answer
                    capturing.handoversSeen = recorder.handover(to: answer)
                    barrier.noteLogging(afterHandovers: capturing.handoversSeen, in: self)
                }
                return answer
            })
        try db.createFunction(Self.negativeZeroFunction, argumentCount: 1, deterministic: true) {
            guard case .real(let value) = $0.first, value == 0, value.sign == .minus else {
                return .integer(0)
            }
            return .integer(1)
        }
        try db.createFunction("sqliteundo_isReplaying", argumentCount: 0) { _ in
            .integer(UndoContext.isReplaying ? 1 : 0)
        }
        _ = try db.updateValueFeed(named: Self.restoreFunction)
        try replacedRows.install(db)
        try filingReport.install(db)
    }

    private func installTriggers(_ db: Database) throws {
        let previous = trackedTables.withLock { $0 }
        var tables: [TrackedTable] = []
        for name in tableNames {
            let table = try TrackedTable.load(name: name, previous: previous, db)
            // A table named twice (in any case) is tracked once.
            if !tables.contains(where: { $0.id == table.id }) { tables.append(table) }
        }
        let slots = tables.map(\.slotCount).max() ?? 0
        try UndoLogSchema.ensureSlots(slots, db)
        for table in trackedTables.withLock({ Array($0.values) }) {
            try db.execute(table.dropTriggersSQL)
        }
        for table in tables {
            try db.execute(table.dropTriggersSQL)
            try db.execute(table.createTriggersSQL)
        }
        trackedTables.withLock { tracked in
            tracked = Dictionary(uniqueKeysWithValues: tables.map { ($0.id, $0) })
        }
        try replacedRows.track(tables, db)
        db.withoutRowidTables = Set(tables.filter { !$0.hasRowid }.map { $0.name.lowercased() })
        mostSlotsKept.store(tables.map(\.slotCount).max() ?? 0, ordering: .relaxed)
        takenInSlots.withLock { $0 = nil }
        var keys = try ForeignKeys.load(db)
        for table in tables where table.keyMap != nil {
            keys.keyedTables[table.name.lowercased()] = table
        }
        foreignKeys.withLock { [keys] in $0 = keys }
    }

    // MARK: Log operations used by stacks and barriers

    /// Reverts one entry inside the caller's transaction, with `isReplaying` set, by the
    /// first of the engine's replay strategies that applies (see `ReplayStrategy`), under a new
    /// inverse barrier named `name`; returns that barrier with what the replay did.
    ///
    /// Foreign key checks are deferred to the commit only when the replay needs it: setting
    /// `defer_foreign_keys` makes SQLite prepare every statement of the connection again at its
    /// next use (measured: a third of the time of a run of small undos). A replay breaks a
    /// reference midway only when a row it references is missing for a while, which only one
    /// that inserts, deletes or moves rows of a table other rows reference can do. Such a
    /// replay of `rowsWorthDeferringFromTheStart` log rows or more defers them from the start;
    /// any other runs with them immediate, and is taken back and run again deferred at the
    /// first check that fails (`Replayer.ReferenceBrokenMidway`): what it does is what the
    /// deferred run does, and most (an author or an article added or removed alone) break no
    /// reference.
    /// With `recordingInverse`, the exact strategy (which records nothing, the stack flipping
    /// its entry instead) is not used: a take-back of a past step files its inverse as a step of
    /// its own.
    func revert(
        entry id: Int64, inverted: Bool, named name: String, recordingInverse: Bool = false,
        _ db: Database
    ) throws -> (inverse: Barrier, reverted: EntryReplay.Reverted) {
        let keys = foreignKeys.withLock { $0 }
        let parents = trackedTables.withLock { $0 }.values.filter { keys.isParent($0.name) }
        func attempt(deferring: Bool) throws -> (Barrier, EntryReplay.Reverted) {
            if deferring { try db.execute("PRAGMA defer_foreign_keys = ON") }
            let inverse = Barrier(name: name, recordsAtCommit: false)
            return (
                inverse,
                try replay(
                    entry: id, inverted: inverted, inverse: inverse, deferring,
                    recordingInverse: recordingInverse, db)
            )
        }
        if try UndoLogSchema.insertsDeletesOrMoves(
            barrier: id, ofTables: parents.map(\.id),
            spanningAtLeast: Self.rowsWorthDeferringFromTheStart, db)
        {
            return try attempt(deferring: true)
        }
        do {
            return try db.savepoint { try attempt(deferring: false) }
        } catch SQLiteError.foreignKeyConstraint where keys.exist,
            is Replayer.ReferenceBrokenMidway
        {
            return try attempt(deferring: true)
        }
    }

    /// The log rows from which a replay that may break a reference midway defers foreign key
    /// checks from its start. An attempt with them immediate that fails is done twice; about
    /// this many rows replay in the time the connection's statements take to prepare again
    /// (about half a millisecond: the undo and redo of adding an author took 1.54-1.57 ms
    /// deferred and 0.42-0.52 ms immediate), and no progress shows before.
    static let rowsWorthDeferringFromTheStart = 100

    private func replay(
        entry id: Int64, inverted: Bool, inverse: Barrier, _ foreignKeysDeferred: Bool,
        recordingInverse: Bool, _ db: Database
    ) throws -> EntryReplay.Reverted {
        try UndoContext.$isReplaying.withValue(true) {
            try EntryReplay(
                db: db, tables: trackedTables.withLock { $0 },
                foreignKeys: foreignKeys.withLock { $0 },
                foreignKeysDeferred: foreignKeysDeferred,
                strategies: replayStrategies.withLock { $0 }.filter {
                    !recordingInverse || $0 != .exact
                },
                rowsWorthSuspendingCapture: rowsWorthSuspendingCapture
            ).revert(entry: id, inverted: inverted, inverse: inverse, engine: self)
        }
    }

    /// Deletes the log rows of a barrier that will not be registered (its block threw).
    func discardLog(of barrier: Barrier) throws {
        try database.write { db in
            try UndoLogSchema.deleteLog(of: barrier.id, from: barrier.logStart(in: self) ?? 0, db)
        }
    }
}

/// One engine per database: a second one would double every capture.
enum EngineRegistry {
    private final class WeakEngine: Sendable {
        weak let engine: UndoEngine?
        init(_ engine: UndoEngine) { self.engine = engine }
    }

    private static let engines = Mutex<[ObjectIdentifier: WeakEngine]>([:])

    static func claim(_ database: any DatabaseWriter, for engine: UndoEngine) throws {
        try engines.withLock { engines in
            let key = ObjectIdentifier(database)
            if engines[key]?.engine != nil { throw UndoError.engineAlreadyInstalled }
            engines[key] = WeakEngine(engine)
        }
    }

    static func release(_ database: any DatabaseWriter) {
        _ = engines.withLock { $0.removeValue(forKey: ObjectIdentifier(database)) }
    }
}

/// What `sqliteundo_barrier()` answered last on the engine's connection, and when it worked it
/// out. A trigger's `WHEN` clause calls that function and its body reads `answer` (the barrier
/// id: not nil there), for the same row, with nothing run on the connection in between. The
/// answer stays until a barrier scope or a transaction begins or ends: the first capture of a
/// barrier in a transaction notes it with the recorder, the rows after it only log. Written
/// and read at every captured row, on the connection's thread only.
private final class CapturingBarrier {
    @exclusivity(unchecked) var scope: CaptureScope?
    @exclusivity(unchecked) var answer: Int64?
    /// The barrier `answer` names.
    @exclusivity(unchecked) weak var barrier: Barrier?
    /// The barrier of the last row logged, and the recorder's handovers after it.
    @exclusivity(unchecked) var lastLogged: Int64?
    @exclusivity(unchecked) var handoversSeen: UInt64 = 0
}

/// The moment of a capture, as far as which barrier it belongs to: see
/// `UndoContext.barrierScopeEdges` and `BarrierRecorder.transactionEdge`.
private struct CaptureScope: Equatable {
    let barrierScopeEdge: UInt64
    let transactionEdge: UInt64
}
