import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// Tables given to the engine the wrong way: refused with a typed error that touches nothing, or
/// tracked the way SQL would read the name.
@Suite struct MisuseTests {
    let db: DatabaseQueue

    init() throws {
        db = try DatabaseQueue()
        try db.write {
            try $0.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT)")
        }
    }

    /// Every schema object of the file and of the connection's TEMP schema.
    private func schema() throws -> [String] {
        try db.read {
            try $0.fetchAll(
                String.self,
                """
                SELECT type || ' ' || name FROM sqlite_schema
                UNION ALL SELECT type || ' ' || name FROM sqlite_temp_schema ORDER BY 1
                """)
        }
    }

    @Test(arguments: [["items", "items"], ["items", "ITEMS"], ["Items", "items", "iTeMs"]])
    func aTableNamedTwiceIsTrackedOnce(names: [String]) throws {
        let engine = try UndoEngine(for: db, tableNames: names)
        try undoable("Add") {
            try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
        }
        #expect(
            try db.read {
                try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_log WHERE barrier != 0")
            } == 1)
        let event = try engine.defaultStack.undo()
        #expect(event?.affectedRows == ["items": [1]])
        #expect(try db.read { try $0.fetchAll(Row.self, "SELECT * FROM items") }.isEmpty)
        #expect(
            try db.read { try $0.fetchAll(String.self, "SELECT name FROM sqliteundo_tables") }
                == ["items"])
    }

    @Test func aTableNameMatchesInAnyCase() throws {
        let engine = try UndoEngine(for: db, tableNames: ["ITEMS"])
        try undoable("Add") {
            try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
        }
        let event = try engine.defaultStack.undo()
        #expect(event?.affectedRows == ["items": [1]])
    }

    @Test(arguments: ["sqliteundo_log", "sqliteundo_barriers", "SQLiteUndo_Columns"])
    func theEnginesOwnTablesAreRefused(name: String) throws {
        let before = try schema()
        #expect(throws: UndoError.engineTable(name)) {
            try UndoEngine(for: db, tableNames: ["items", name])
        }
        #expect(try schema() == before)
        #expect(
            UndoError.engineTable(name).description
                == "cannot track table \(name): names starting with sqliteundo_ are the undo "
                + "engine's own tables; nothing was changed")
    }

    /// Another connection to a file with history cannot track the log that holds it.
    @Test func theLogOfAFileWithHistoryIsRefused() throws {
        let folder = try TemporaryFolder(prefix: "undo")
        let path = folder.path("misuse.db")
        let first = try DatabaseQueue(path: path)
        try first.write { try $0.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT)") }
        let engine = try UndoEngine(for: first, tableNames: ["items"])
        try undoable("Add") {
            try first.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
        }
        let log = { try first.read { try $0.fetchAll(Row.self, "SELECT * FROM sqliteundo_log") } }
        let logged = try log()
        let second = try DatabaseQueue(path: path)
        #expect(throws: UndoError.engineTable("sqliteundo_log")) {
            try UndoEngine(for: second, tableNames: ["sqliteundo_log"])
        }
        #expect(try log() == logged)
        #expect(engine.defaultStack.undoActionName == "Add")
        second.close()
        first.close()
    }

    @Test func aRefusedTableLeavesNoTraceAndTheDatabaseUsable() throws {
        let before = try schema()
        #expect(throws: UndoError.engineTable("sqliteundo_log")) {
            try UndoEngine(for: db, tableNames: ["items", "sqliteundo_log"])
        }
        #expect(try schema() == before)
        let engine = try UndoEngine(for: db, tableNames: ["items"])
        try undoable("Add") {
            try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
        }
        #expect(engine.defaultStack.undoActionName == "Add")
    }
}

/// Only tables with a PRIMARY KEY are tracked: `VACUUM` may renumber the rowids of any other,
/// after which history would point at the wrong rows. Tables keyed otherwise than by an
/// `INTEGER PRIMARY KEY` are tracked by their keys (`KeyedTableTests`).
@Suite struct PrimaryKeyRequiredTests {
    @Test(arguments: [
        "CREATE TABLE t(x)",
        "CREATE TABLE t(code TEXT UNIQUE NOT NULL, qty INTEGER)",
    ])
    func aTableWithoutAPrimaryKeyIsRefused(schema: String) throws {
        let db = try DatabaseQueue()
        try db.write { try $0.execute(schema) }
        #expect(throws: UndoError.noPrimaryKey("t")) {
            try UndoEngine(for: db, tableNames: ["t"])
        }
        let names = try db.read {
            try $0.fetchAll(
                String.self, "SELECT name FROM sqlite_schema WHERE name LIKE 'sqliteundo%'")
        }
        #expect(names == [])
    }

    @Test(arguments: [
        "CREATE TABLE t(id INTEGER PRIMARY KEY, x)",
        "CREATE TABLE t(id integer primary key asc, x)",
        "CREATE TABLE t(id INTEGER, x, PRIMARY KEY(id DESC))",
    ])
    func aRowidAliasNamesItsRows(schema: String) throws {
        let db = try DatabaseQueue()
        try db.write { try $0.execute(schema) }
        let engine = try UndoEngine(for: db, tableNames: ["t"])
        try undoable("Add") { try db.write { try $0.execute("INSERT INTO t VALUES (5, 'a')") } }
        let event = try engine.defaultStack.undo()
        #expect(event?.affectedRows == ["t": [5]])
        #expect(event?.keys(forTable: "t") == [[5]])
        let keyMaps = try db.read {
            try $0.fetchOne(
                Int.self, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'sqliteundo_keys%'")
        }
        #expect(keyMaps == 0)
    }

    @Test func theMessageSaysWhatToDo() {
        #expect(
            UndoError.noPrimaryKey("t").description
                == "cannot track table t: it has no PRIMARY KEY, so nothing names its rows for "
                + "good (VACUUM may renumber them) and undo could change the wrong ones; declare "
                + "one (id INTEGER PRIMARY KEY, a TEXT key, or PRIMARY KEY(a, b)); nothing was "
                + "changed")
    }
}
