import SQLiteDatabase

/// What a log in the engine's format costs written and read by plain SQL, in in-memory databases
/// of the same data that have the engine's log table and no engine (no function, no Swift
/// between the rows): the floors of the bulk capture, and the undo plain SQL can do.
///
/// - Capture, old and new values: the statement with one AFTER UPDATE trigger inserting the log
///   row the engine writes (the column's value before and after, when it changed).
/// - Capture, the old value only: the same trigger leaving the value after out (a log format
///   that does not keep it).
/// - Undo: the UPDATE restoring the column from each row's log row, read by its `seq` (the
///   rowid here: the log holds only the statement's rows), where the row still holds the value
///   after; the log was written by the first trigger. Not a floor: the engine's undo reads the
///   log in step with the UPDATE instead (`UpdateValueFeed`), which costs less.
@MainActor
struct BulkChangeFloors {
    /// What the floor's capture trigger logs.
    enum Logged {
        case oldAndNew, oldOnly
    }

    private let rows: Int
    private let logTableSQL: String

    /// - Parameter engineDatabase: a database the engine tracks, whose log table is copied.
    init(rows: Int, engineDatabase: DatabaseQueue) throws {
        self.rows = rows
        let sql = try engineDatabase.read { db in
            try db.fetchOne(
                String.self, "SELECT sql FROM sqlite_master WHERE name = 'sqliteundo_log'")
        }
        guard let sql else { throw BenchFailure("the engine's database has no log table") }
        logTableSQL = sql
    }

    /// A contender running `update` with a trigger logging what `logged` says.
    func capture(_ update: ArticlesTable.BulkUpdate, logging logged: Logged) throws -> Contender {
        let db = try database()
        try db.write { try $0.execute(Self.logTrigger(update, logged)) }
        var series = update
        return Contender(prepare: { try Self.clearLog(db) }) {
            try db.write { try series.run($0) }
        }
    }

    /// A contender restoring what `update`, logged by the trigger of old and new values, changed.
    func undo(_ update: ArticlesTable.BulkUpdate) throws -> Contender {
        let db = try database()
        var series = update
        let column = update.column
        let slot = update.slot
        return Contender(
            prepare: {
                try Self.clearLog(db)
                try db.write { db in
                    try db.execute(Self.logTrigger(update, .oldAndNew))
                    try series.run(db)
                    try db.execute("DROP TRIGGER temp.floor_log")
                }
            },
            run: {
                try db.write { db in
                    try db.execute(
                        """
                        UPDATE articles SET \(column) = (
                            SELECT CASE WHEN l.n\(slot) IS articles.\(column) THEN l.o\(slot)
                                ELSE articles.\(column) END
                            FROM sqliteundo_log AS l WHERE l.seq = articles.rowid)
                        """)
                }
            })
    }

    private func database() throws -> DatabaseQueue {
        let db = try DatabaseQueue()
        try ArticlesTable.create(rows: rows, in: db)
        try db.write { try $0.execute(logTableSQL) }
        return db
    }

    /// Empties the log, so that its `seq`s start at 1 again.
    private static func clearLog(_ db: DatabaseQueue) throws {
        try db.write { try $0.execute("DELETE FROM sqliteundo_log") }
    }

    /// The engine's log row of an update of the column, as a trigger of plain SQL writes it.
    private static func logTrigger(_ update: ArticlesTable.BulkUpdate, _ logged: Logged) -> String {
        let (column, slot) = (update.column, update.slot)
        let new = logged == .oldAndNew ? (", n\(slot)", ", NEW.\(column)") : ("", "")
        return """
            CREATE TEMP TRIGGER floor_log AFTER UPDATE OF \(column) ON articles
            WHEN OLD.\(column) IS NOT NEW.\(column) BEGIN
                INSERT INTO sqliteundo_log(barrier, tableId, kind, oldRowid, newRowid, mask,
                                           o\(slot)\(new.0))
                VALUES (1, 1, 2, NEW.rowid, NEW.rowid, \(1 << slot), OLD.\(column)\(new.1));
            END
            """
    }
}
