import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// Migrations of tracked tables with the engine installed, and older history after them.
@Suite struct MigrationTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture(
            schema:
                "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, legacy TEXT, qty INTEGER)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'a', 'old', 1), (2, 'gone', 'g', 9)")
    }

    struct Boom: Error {}

    /// The file's schema and the connection's TEMP schema (the capture triggers).
    private func schema() throws -> [[SQLiteValue]] {
        try fixture.db.read {
            try $0.fetchAll(
                Row.self,
                """
                SELECT type, name, sql FROM sqlite_schema
                UNION ALL SELECT type, name, sql FROM sqlite_temp_schema ORDER BY 1, 2
                """
            ).map(\.values)
        }
    }

    @Test func dropColumnWithHistoryThenUndoOlderEdits() throws {
        try undoable("Edit") {
            try fixture.execute("UPDATE items SET name = 'b', legacy = 'x', qty = 2 WHERE id = 1")
        }
        try undoable("Edit Legacy") { try fixture.execute("UPDATE items SET legacy = 'y'") }
        try undoable("Delete") { try fixture.execute("DELETE FROM items WHERE id = 2") }
        try undoable("Add") { try fixture.execute("INSERT INTO items VALUES (3, 'c', 'z', 3)") }
        try fixture.engine.migrate { db in
            try db.execute("ALTER TABLE items DROP COLUMN legacy")
        }
        let migrated = try fixture.rows()
        #expect(migrated == [[1, "b", 2], [3, "c", 3]])
        // "Edit Legacy" changed only the dropped column: nothing of it is left to undo.
        #expect(stack.state == UndoStackState(undo: ["Add", "Delete", "Edit"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == [[1, "b", 2]])
        try stack.undo()
        #expect(try fixture.rows() == [[1, "b", 2], [2, "gone", 9]])
        let edit = try stack.undo()
        #expect(edit?.conflicts == [])
        #expect(try fixture.rows() == [[1, "a", 1], [2, "gone", 9]])
        for _ in 0..<3 { try stack.redo() }
        #expect(try fixture.rows() == migrated)
        #expect(stack.state == UndoStackState(undo: ["Add", "Delete", "Edit"], redo: []))
    }

    /// Writes that cancel out (an application trigger's, set back by a replay) leave nothing to
    /// undo once the column that really changed is dropped.
    @Test func droppingAColumnForgetsActionsWhoseOtherWritesCancelOut() throws {
        try undoable("Edit Legacy") {
            try fixture.execute("UPDATE items SET legacy = 'x', qty = 5 WHERE id = 1")
            try fixture.execute("UPDATE items SET qty = 1 WHERE id = 1")
        }
        try undoable("Rename") { try fixture.execute("UPDATE items SET name = 'b' WHERE id = 1") }
        try fixture.engine.migrate { db in
            try db.execute("ALTER TABLE items DROP COLUMN legacy")
        }
        #expect(stack.state == UndoStackState(undo: ["Rename"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", 1], [2, "gone", 9]])
        #expect(stack.state == UndoStackState(undo: [], redo: ["Rename"]))
    }

    @Test func renamedColumnKeepsItsHistory() throws {
        try undoable("Edit") { try fixture.execute("UPDATE items SET legacy = 'x' WHERE id = 1") }
        try fixture.engine.migrate { db in
            try db.execute("ALTER TABLE items RENAME COLUMN legacy TO note")
        }
        let edited: [[SQLiteValue]] = [[1, "a", "x", 1], [2, "gone", "g", 9]]
        #expect(try fixture.rows() == edited)
        let undo = try stack.undo()
        #expect(undo?.conflicts == [])
        #expect(try fixture.rows() == [[1, "a", "old", 1], [2, "gone", "g", 9]])
        try stack.redo()
        #expect(try fixture.rows() == edited)
        // And a change made after the rename.
        try undoable("Edit Note") {
            try fixture.execute("UPDATE items SET note = 'n' WHERE id = 2")
        }
        try stack.undo()
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", "old", 1], [2, "gone", "g", 9]])
    }

    /// A rename made outside `migrate` (SQLite renames the column in the capture triggers too)
    /// is recognised by `refresh()`.
    @Test func refreshRecognisesARename() throws {
        try undoable("Edit") { try fixture.execute("UPDATE items SET legacy = 'x' WHERE id = 1") }
        try fixture.execute("ALTER TABLE items RENAME COLUMN legacy TO note")
        try fixture.engine.refresh()
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", "old", 1], [2, "gone", "g", 9]])
        try stack.redo()
        #expect(try fixture.rows() == [[1, "a", "x", 1], [2, "gone", "g", 9]])
    }

    /// A migration run by another program, or by the app before it opens its engine: the rename
    /// is recognised from the columns the file records (their places and types), so older
    /// history undoes into the renamed column; a column dropped meanwhile is forgotten.
    @Test func renamesAndDropsMadeWhileNoEngineRanKeepTheirHistory() throws {
        let folder = try TemporaryFolder(prefix: "migration")
        let path = folder.path("items.db")
        func rows(_ db: DatabaseQueue) throws -> [[SQLiteValue]] {
            try db.read { try $0.fetchAll(Row.self, "SELECT * FROM items").map(\.values) }
        }
        do {
            let db = try DatabaseQueue(path: path)
            try db.write {
                try $0.execute(
                    """
                    CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, legacy TEXT, qty INTEGER,
                        extra TEXT);
                    INSERT INTO items VALUES (1, 'a', 'old', 1, 'e');
                    """)
            }
            let engine = try UndoEngine(for: db, tableNames: ["items"])
            try withUndoStack(engine.defaultStack) {
                try undoable("Edit") {
                    try db.write {
                        try $0.execute(
                            "UPDATE items SET legacy = 'x', qty = 2, extra = 'f' WHERE id = 1")
                    }
                }
            }
            db.close()
        }
        do {
            let db = try DatabaseQueue(path: path)
            try db.write {
                try $0.execute(
                    """
                    ALTER TABLE items RENAME COLUMN legacy TO note;
                    ALTER TABLE items DROP COLUMN extra;
                    """)
            }
            db.close()
        }
        let db = try DatabaseQueue(path: path)
        defer { db.close() }
        let engine = try UndoEngine(for: db, tableNames: ["items"])
        let undo = try engine.defaultStack.undo()
        #expect(undo?.conflicts == [])
        #expect(try rows(db) == [[1, "a", "old", 1]])
        try engine.defaultStack.redo()
        #expect(try rows(db) == [[1, "a", "x", 2]])
    }

    @Test func aHundredRenamesOfAColumn() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b TEXT)", tables: ["t"])
        try fixture.execute("INSERT INTO t VALUES (1, 'a', 'b')")
        try undoable("Edit") { try fixture.execute("UPDATE t SET b = 'edited'") }
        var name = "b"
        for round in 1...100 {
            let renamed = "b\(round)"
            try fixture.engine.migrate { db in
                try db.execute("ALTER TABLE t RENAME COLUMN \(name) TO \(renamed)")
            }
            name = renamed
        }
        try undoable("Edit Again") { try fixture.execute("UPDATE t SET b100 = 'again'") }
        try fixture.engine.defaultStack.undo()
        try fixture.engine.defaultStack.undo()
        #expect(try fixture.rows("t") == [[1, "a", "b"]])
        try fixture.engine.defaultStack.redo()
        #expect(try fixture.rows("t") == [[1, "a", "edited"]])
        let slots = try fixture.db.read {
            try $0.fetchAll(Int.self, "SELECT slot FROM sqliteundo_columns ORDER BY slot")
        }
        #expect(slots == [0, 1, 2])
    }

    /// Columns added and dropped again, a hundred times: slots no history uses are reused.
    @Test func addingAndDroppingColumnsReusesFreeSlots() throws {
        try undoable("Edit") { try fixture.execute("UPDATE items SET name = 'b' WHERE id = 1") }
        for round in 1...100 {
            try fixture.engine.migrate { db in
                try db.execute("ALTER TABLE items ADD COLUMN extra\(round) TEXT")
            }
            try fixture.engine.migrate { db in
                try db.execute("ALTER TABLE items DROP COLUMN extra\(round)")
            }
        }
        try undoable("Edit Qty") { try fixture.execute("UPDATE items SET qty = 5 WHERE id = 1") }
        try stack.undo()
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", "old", 1], [2, "gone", "g", 9]])
    }

    @Test func aThrowingMigrationChangesNothing() throws {
        try undoable("Edit") { try fixture.execute("UPDATE items SET legacy = 'x' WHERE id = 1") }
        let schema = try schema()
        let rows = try fixture.rows()
        let columns = try fixture.db.read {
            try $0.fetchAll(Row.self, "SELECT * FROM sqliteundo_columns ORDER BY slot").map(
                \.values)
        }
        #expect(throws: Boom.self) {
            try fixture.engine.migrate { db in
                try db.execute("ALTER TABLE items DROP COLUMN legacy")
                try db.execute("ALTER TABLE items RENAME COLUMN name TO title")
                try db.execute("UPDATE items SET qty = 0")
                throw Boom()
            }
        }
        #expect(try self.schema() == schema)
        #expect(try fixture.rows() == rows)
        #expect(
            try fixture.db.read {
                try $0.fetchAll(Row.self, "SELECT * FROM sqliteundo_columns ORDER BY slot")
                    .map(\.values)
            } == columns)
        try undoable("Edit Again") { try fixture.execute("UPDATE items SET legacy = 'y'") }
        #expect(stack.state == UndoStackState(undo: ["Edit Again", "Edit"], redo: []))
        try stack.undo()
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", "old", 1], [2, "gone", "g", 9]])
    }

    @Test func addColumnThenUndoAndRedoOldAndNewHistory() throws {
        try undoable("Edit") { try fixture.execute("UPDATE items SET name = 'b' WHERE id = 1") }
        try fixture.engine.migrate { db in
            try db.execute("ALTER TABLE items ADD COLUMN note TEXT DEFAULT 'none'")
        }
        try undoable("Note") { try fixture.execute("UPDATE items SET note = 'n', qty = 4") }
        let after = try fixture.rows()
        #expect(after == [[1, "b", "old", 4, "n"], [2, "gone", "g", 4, "n"]])
        try stack.undo()
        #expect(try fixture.rows() == [[1, "b", "old", 1, "none"], [2, "gone", "g", 9, "none"]])
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", "old", 1, "none"], [2, "gone", "g", 9, "none"]])
        try stack.redo()
        try stack.redo()
        #expect(try fixture.rows() == after)
    }

    /// A renamed table is not followed: the migration throws and changes nothing.
    @Test func aRenamedTableIsRefused() throws {
        try undoable("Edit") { try fixture.execute("UPDATE items SET name = 'b' WHERE id = 1") }
        let schema = try schema()
        let rows = try fixture.rows()
        #expect(throws: UndoError.unknownTable("items")) {
            try fixture.engine.migrate { db in
                try db.execute("ALTER TABLE items RENAME TO things")
            }
        }
        #expect(try self.schema() == schema)
        #expect(try fixture.rows() == rows)
        #expect(stack.state == UndoStackState(undo: ["Edit"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", "old", 1], [2, "gone", "g", 9]])
    }

    /// A Migrator runs inside `migrate`.
    @Test func aMigratorRunsInside() throws {
        try undoable("Edit") { try fixture.execute("UPDATE items SET name = 'b' WHERE id = 1") }
        var migrator = Migrator()
        migrator.registerMigration("drop legacy") { db in
            try db.execute("ALTER TABLE items DROP COLUMN legacy")
        }
        try fixture.engine.migrate { db in try migrator.migrate(db) }
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", 1], [2, "gone", 9]])
    }
}
