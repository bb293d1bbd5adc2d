import SQLiteDatabase
import SQLiteUndo

/// A fresh in-memory database with an `items` table and a child table, tracked by an engine.
struct Fixture {
    let db: DatabaseQueue
    let engine: UndoEngine

    init(
        schema: String = """
        CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, value, flag INTEGER DEFAULT 0);
        CREATE TABLE parts(id INTEGER PRIMARY KEY,
            itemId INTEGER REFERENCES items(id) ON DELETE CASCADE, label TEXT);
        """,
        tables: [String] = ["items", "parts"]
    ) throws {
        db = try DatabaseQueue()
        try db.write { try $0.execute(schema) }
        engine = try UndoEngine(for: db, tableNames: tables)
    }

    func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        try db.write { try $0.execute(sql, arguments) }
    }

    /// Every row of a table, ordered by rowid, as value arrays.
    func rows(_ table: String = "items") throws -> [[SQLiteValue]] {
        try db.read { db in
            try db.fetchAll(Row.self, "SELECT * FROM \(table) ORDER BY rowid").map(\.values)
        }
    }

    /// SQL creating a `clock` table of one row, `now` = 0, that application triggers read the
    /// time from (an untracked table the tests set with `setClock`).
    static let clockSchema =
        "CREATE TABLE clock(now INTEGER NOT NULL); INSERT INTO clock VALUES (0);"

    /// Sets the schema's `clock` table (one row, `now`), which its application triggers read
    /// the time from, outside any barrier.
    func setClock(_ time: Int64) throws {
        try withUndoDisabled { try execute("UPDATE clock SET now = ?", [.integer(time)]) }
    }

    /// How many rows of barriers the undo log holds (not the one that keeps its highest `seq`).
    func logCount() throws -> Int {
        try db.read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_log WHERE barrier != 0")
                ?? -1
        }
    }
}
