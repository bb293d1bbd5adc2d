import SQLiteDatabase
import SQLiteUndo

/// A user action: one barrier updating one row of a file database in WAL, against the same
/// transaction untracked in another file. The barrier is filed on its stack inside the same
/// transaction, just before it commits.
///
/// Four reference rows measure, in the same run, what the engine's commit must write at the
/// least, in files of the engine's format opened without the engine (no function, no Swift
/// between the writes):
/// - a second statement writing the log row: the least any log kept in the same transaction
///   costs;
/// - a trigger of plain SQL writing it;
/// - that trigger, and the barrier's entry in `sqliteundo_barriers`, as the engine writes them;
/// - that trigger, and the entry as a row of the log's own table (a format keeping it there).
@MainActor
struct SingleRowBenchmark {
    let config: BenchConfig
    let folder: ScratchFolder

    private static let update = "UPDATE articles SET rating = rating + 1 WHERE id = ?"
    /// The update's log row, as the engine writes it (the rating is the fourth column: slot 3).
    private static let logRow = """
        INSERT INTO sqliteundo_log(barrier, tableId, kind, oldRowid, newRowid, mask, o3, n3)
        VALUES (1, 1, 2, ?1, ?1, 8, 1, 2)
        """
    private static let logTrigger = """
        CREATE TEMP TRIGGER floor_log AFTER UPDATE ON articles BEGIN
            INSERT INTO sqliteundo_log(barrier, tableId, kind, oldRowid, newRowid, mask, o3, n3)
            VALUES (1, 1, 2, OLD.rowid, NEW.rowid, 8, OLD.rating, NEW.rating);
        END
        """
    private static let entryRow = """
        INSERT INTO sqliteundo_barriers
            (id, stackId, list, position, name, closedAt, firstSeq, lastSeq)
        VALUES (?1, 'bench', 0, ?1, 'Set Rating', 1.5e9, last_insert_rowid(), last_insert_rowid())
        """
    private static let entryRowInLog = """
        INSERT INTO sqliteundo_log(barrier, tableId, kind, oldRowid, newRowid, mask, o0, o1, o2, n0)
        VALUES (?1, 0, 0, ?1, last_insert_rowid(), 0, 'bench', 'Set Rating', 1.5e9, ?1)
        """

    func run() throws -> [Measurement] {
        let tracked = try DatabaseQueue(path: folder.path("single-row-tracked.db"))
        let untracked = try DatabaseQueue(path: folder.path("single-row-untracked.db"))
        for db in [tracked, untracked] { try ArticlesTable.create(rows: config.rows, in: db) }
        let engine = try UndoEngine(for: tracked, tableNames: [ArticlesTable.name])
        let stack = try engine.stack(id: "bench")
        let full = try fullHistory()
        let byStatement = try engineFormatFile(named: "single-row-floor-statement.db")
        let floors = try ["trigger", "entry", "entry-in-log"].map {
            let db = try engineFormatFile(named: "single-row-floor-\($0).db")
            try db.write { try $0.execute(Self.logTrigger) }
            return db
        }
        var rounds = Array(repeating: 0, count: 7)
        let medians = try Interleaving.medianSeconds(
            [
                Contender { try Self.setRating(nextRow(&rounds[0]), on: stack, in: tracked) },
                Contender {
                    let id = nextRow(&rounds[1])
                    try untracked.write { try $0.execute(Self.update, [id]) }
                },
                Contender {
                    let id = nextRow(&rounds[2])
                    try byStatement.write { db in
                        try db.execute(Self.update, [id])
                        try db.execute(Self.logRow, [id])
                    }
                },
                Contender {
                    let id = nextRow(&rounds[3])
                    try floors[0].write { try $0.execute(Self.update, [id]) }
                },
                Contender {
                    let id = nextRow(&rounds[4])
                    try floors[1].write { db in
                        try db.execute(Self.update, [id])
                        try db.execute(Self.entryRow, [.integer(Int64(rounds[4]))])
                    }
                },
                Contender {
                    let id = nextRow(&rounds[5])
                    try floors[2].write { db in
                        try db.execute(Self.update, [id])
                        try db.execute(Self.entryRowInLog, [.integer(Int64(rounds[5]))])
                    }
                },
                Contender {
                    try Self.setRating(nextRow(&rounds[6]), on: full.stack, in: full.db)
                },
            ], repetitions: config.singleRowRepetitions)
        withExtendedLifetime(full.engine) {}
        let untrackedTime = medians[1]
        func reference(_ what: String, _ median: Double) -> Measurement {
            Measurement(
                measure: "1-row floor: untracked + \(what) / untracked", value: median,
                baseline: untrackedTime, unit: .seconds, target: .none)
        }
        return [
            Measurement(
                measure: "1-row update, file in WAL: barrier / untracked transaction",
                value: medians[0], baseline: untrackedTime, unit: .seconds, target: .atMost(2.0)),
            reference("log row by statement", medians[2]),
            reference("log row by trigger", medians[3]),
            reference("log trigger + entry", medians[4]),
            reference("log trigger + entry in the log", medians[5]),
            Measurement(
                measure: "1-row update, file in WAL: barrier with the history full "
                    + "(\(Self.fullLevels) steps kept, the oldest dropped) / with room left",
                value: medians[6], baseline: medians[0], unit: .seconds, target: .none),
        ]
    }

    /// Steps of history the full stack keeps: the default `levelsOfUndo`.
    private static let fullLevels = 1000

    /// A WAL file whose stack already holds `fullLevels` steps: each new barrier drops the oldest.
    private func fullHistory() throws -> (db: DatabaseQueue, engine: UndoEngine, stack: UndoStack) {
        let db = try DatabaseQueue(path: folder.path("single-row-full-history.db"))
        try ArticlesTable.create(rows: config.rows, in: db)
        let engine = try UndoEngine(for: db, tableNames: [ArticlesTable.name])
        let stack = try engine.stack(id: "full")
        stack.levelsOfUndo = Self.fullLevels
        var round = 0
        for _ in 0..<Self.fullLevels {
            try Self.setRating(nextRow(&round), on: stack, in: db)
        }
        guard stack.state.undo.count == Self.fullLevels else {
            throw BenchFailure("the full stack holds \(stack.state.undo.count) steps")
        }
        return (db, engine, stack)
    }

    /// The measured barrier: the 1-row update of the article `id` on `stack`.
    private static func setRating(_ id: SQLiteValue, on stack: UndoStack, in db: DatabaseQueue)
        throws
    {
        try withUndoStack(stack) {
            try undoable("Set Rating") { try db.write { try $0.execute(update, [id]) } }
        }
    }

    /// A WAL file with the articles table and the engine's tables, opened without the engine
    /// (so without its triggers and functions).
    private func engineFormatFile(named name: String) throws -> DatabaseQueue {
        let path = folder.path(name)
        let setUp = try DatabaseQueue(path: path)
        try ArticlesTable.create(rows: config.rows, in: setUp)
        _ = try UndoEngine(for: setUp, tableNames: [ArticlesTable.name])
        setUp.close()
        return try DatabaseQueue(path: path)
    }

    /// The rowid of the next 1-row update of a series that walks through the rows.
    private func nextRow(_ round: inout Int) -> SQLiteValue {
        round += 1
        return .integer(Int64(round * 7919 % config.rows + 1))
    }
}
