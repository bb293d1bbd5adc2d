import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

struct Article: Table {
    static let tableName = "articles"
}

@Suite struct EngineSetupTests {
    @Test func tracksTableTypes() throws {
        let db = try DatabaseQueue()
        try db.write { try $0.execute("CREATE TABLE articles(id INTEGER PRIMARY KEY, title TEXT)") }
        let engine = try UndoEngine(for: db, tables: Article.self)
        try undoable("New Article") {
            try db.write { try $0.execute("INSERT INTO articles(title) VALUES ('hi')") }
        }
        let event = try engine.defaultStack.undo()
        #expect(event?.ids(for: Article.self) == [1])
    }

    @Test func refusesAnUnknownTable() throws {
        let db = try DatabaseQueue()
        #expect(throws: UndoError.unknownTable("nope")) {
            try UndoEngine(for: db, tableNames: ["nope"])
        }
        #expect(
            UndoError.unknownTable("nope").description == "cannot track table nope: no such table")
    }

    /// A column named `rowid`, `oid` or `_rowid_` beside the `INTEGER PRIMARY KEY` takes that
    /// name from the rowid in SQL: refused, with the table and the file unchanged. The key
    /// column itself may bear the name.
    @Test(arguments: ["rowid", "OID", "_rowid_"])
    func refusesAColumnHidingTheRowid(name: String) throws {
        let db = try DatabaseQueue()
        try db.write {
            try $0.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, \(name) INTEGER, x)")
            try $0.execute("CREATE TABLE u(rowid INTEGER PRIMARY KEY, x)")
        }
        #expect(throws: UndoError.columnHidesRowid("t")) {
            try UndoEngine(for: db, tableNames: ["u", "t"])
        }
        let engineTables = try db.read {
            try $0.fetchOne(
                Int.self, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'sqliteundo%'")
        }
        #expect(engineTables == 0)
        #expect(
            UndoError.columnHidesRowid("t").description
                == "cannot track table t: a column named rowid, oid or _rowid_ hides SQLite's "
                + "rowid, which the undo log identifies rows by; rename that column (nothing was "
                + "changed)")
        let engine = try UndoEngine(for: db, tableNames: ["u"])
        try undoable("Add") { try db.write { try $0.execute("INSERT INTO u(x) VALUES (1)") } }
        try engine.defaultStack.undo()
        #expect(try db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM u") } == 0)
    }

    @Test func refusesASecondEngineOnTheSameDatabase() throws {
        let db = try DatabaseQueue()
        try db.write { try $0.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x)") }
        let engine = try UndoEngine(for: db, tableNames: ["t"])
        #expect(throws: UndoError.engineAlreadyInstalled) {
            try UndoEngine(for: db, tableNames: ["t"])
        }
        withExtendedLifetime(engine) {}
    }

    /// The log and the barriers have no index to keep up at every captured row or filed
    /// barrier: a barrier's rows are read by its span of `seq`, a range of the log's rowid, and
    /// its entry by its id. Only entries an exact replay flipped, or a replay's inverse
    /// superseded, are indexed (partial indexes, written then); the key changes of entries that
    /// left history are kept apart, indexed by table and when they took effect.
    @Test func logTablesArePrefixedAndReadBySpan() throws {
        let fixture = try Fixture()
        let names = try fixture.db.read {
            try $0.fetchAll(
                String.self,
                "SELECT name FROM sqlite_schema WHERE name LIKE 'sqliteundo%' ORDER BY name")
        }
        #expect(
            names == [
                "sqliteundo_barriers", "sqliteundo_barriers_flippedAt",
                "sqliteundo_barriers_flips", "sqliteundo_barriers_openToMerging",
                "sqliteundo_barriers_superseded", "sqliteundo_columns",
                "sqliteundo_log", "sqliteundo_log_moves", "sqliteundo_merge_breaks",
                "sqliteundo_migrations",
                "sqliteundo_retired_moves", "sqliteundo_retired_moves_order", "sqliteundo_tables",
            ])
        let plan = try fixture.db.read {
            try $0.fetchAll(
                Row.self,
                """
                EXPLAIN QUERY PLAN SELECT * FROM sqliteundo_log
                WHERE seq BETWEEN (SELECT firstSeq FROM sqliteundo_barriers WHERE id = ?1)
                    AND (SELECT lastSeq FROM sqliteundo_barriers WHERE id = ?1) AND barrier = ?1
                """, [1])
        }
        #expect(
            plan.first?["detail"]
                == .text("SEARCH sqliteundo_log USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"))
    }
}

extension EngineSetupTests {
    /// An engine that starts on a file it set up before changes no row: its first commit must
    /// not wait for a check of the whole file that a start may run beside it (notes' start took
    /// 130 ms instead of 7 on 100k articles while it rewrote the columns' places).
    @Test func startingOnAFileItKnowsChangesNoRow() throws {
        let folder = try TemporaryFolder(prefix: "engine-start")
        let path = folder.path("items.db")
        do {
            let db = try DatabaseQueue(path: path)
            try db.write { try $0.execute("CREATE TABLE articles(id INTEGER PRIMARY KEY, title)") }
            let engine = try UndoEngine(for: db, tables: Article.self)
            try undoable("New Article") {
                try db.write { try $0.execute("INSERT INTO articles(title) VALUES ('hi')") }
            }
            withExtendedLifetime(engine) {}
        }
        let db = try DatabaseQueue(path: path)
        let changes = { try db.read { try $0.fetchOne(Int.self, "SELECT total_changes()") } }
        let before = try changes()
        let engine = try UndoEngine(for: db, tables: Article.self)
        #expect(try changes() == before)
        #expect(engine.defaultStack.undoActionName == "New Article")
    }
}
