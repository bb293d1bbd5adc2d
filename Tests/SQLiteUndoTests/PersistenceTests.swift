import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

@Suite struct PersistenceTests {
    let folder: TemporaryFolder
    var path: String { folder.path("notes.db") }

    init() throws {
        folder = try TemporaryFolder(prefix: "undo")
    }

    func open() throws -> (DatabaseQueue, UndoEngine) {
        let db = try DatabaseQueue(path: path)
        try db.write {
            try $0.execute("CREATE TABLE IF NOT EXISTS items(id INTEGER PRIMARY KEY, name TEXT)")
        }
        return (db, try UndoEngine(for: db, tableNames: ["items"]))
    }

    func names(_ db: DatabaseQueue) throws -> [String] {
        try db.read { try $0.fetchAll(String.self, "SELECT name FROM items ORDER BY id") }
    }

    @Test func historySurvivesReopening() throws {
        do {
            let (db, engine) = try open()
            let pane = try engine.stack(id: "pane-1")
            try withUndoStack(pane) {
                for name in ["a", "b", "c"] {
                    try undoable("Add \(name)") {
                        try db.write {
                            try $0.execute("INSERT INTO items(name) VALUES (?)", [.text(name)])
                        }
                    }
                }
            }
            try pane.undo()
        }
        let (db, engine) = try open()
        let pane = try engine.stack(id: "pane-1")
        #expect(pane.state == UndoStackState(undo: ["Add b", "Add a"], redo: ["Add c"]))
        #expect(try engine.storedStackIDs() == ["pane-1"])
        try pane.redo()
        #expect(try names(db) == ["a", "b", "c"])
        try pane.undo()
        try pane.undo()
        #expect(try names(db) == ["a"])
    }

    @Test func unfinishedBarrierOfADeadProcessIsDiscardedOnOpen() throws {
        do {
            let (db, engine) = try open()
            try undoable("Kept") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('kept')") }
            }
            withExtendedLifetime(engine) {}
        }
        // What a process killed inside a barrier leaves: committed log rows no barrier claims.
        let dead = try deadProcessID()
        let raw = try DatabaseQueue(path: path)
        try raw.write { db in
            try db.execute("INSERT INTO items(name) VALUES ('orphan write')")
            try db.execute(
                "INSERT INTO sqliteundo_log(barrier, tableId, kind, newRowid, mask, n0, n1) "
                    + "VALUES (?, 1, 1, 2, 3, 2, 'orphan write')", [.integer(dead << 32 | 1)])
        }
        let (db, engine) = try open()
        let logged = try db.read {
            try $0.fetchAll(
                Int64.self, "SELECT DISTINCT barrier FROM sqliteundo_log WHERE barrier != 0")
        }
        #expect(logged.count == 1)
        #expect(engine.defaultStack.state.undo == ["Kept"])
        try engine.defaultStack.undo()
        #expect(try names(db) == ["orphan write"])
    }

    /// The pid of a process that has exited.
    func deadProcessID() throws -> Int64 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return Int64(process.processIdentifier)
    }

    @Test func schemaChangeKeepsHistoryUndoable() throws {
        let (db, engine) = try open()
        try undoable("Before") {
            try db.write { try $0.execute("INSERT INTO items(name) VALUES ('x')") }
        }
        try db.write { try $0.execute("ALTER TABLE items ADD COLUMN rating INTEGER DEFAULT 0") }
        try engine.refresh()
        try undoable("Rate") { try db.write { try $0.execute("UPDATE items SET rating = 5") } }
        try undoable("Rename") { try db.write { try $0.execute("UPDATE items SET name = 'y'") } }
        let rows = {
            try db.read { try $0.fetchAll(Row.self, "SELECT * FROM items").map(\.values) }
        }
        try engine.defaultStack.undo()
        #expect(try rows() == [[1, "x", 5]])
        try engine.defaultStack.undo()
        #expect(try rows() == [[1, "x", 0]])
        try engine.defaultStack.undo()
        #expect(try rows() == [])
        try engine.defaultStack.redo()
        #expect(try rows() == [[1, "x", 0]])
    }

    /// Another program deletes history from the file while the engine runs (a step in the
    /// middle, then all of it): the stack reads its lists again before it moves through them,
    /// so it never reports an undo it did not do, and a step that is gone is not found.
    /// One stack open in two engines (the app opened twice): each reads its lists again
    /// before it undoes or redoes, so no step is undone or redone twice and none is lost.
    @Test func aStackOpenInTwoEnginesNeverReplaysAStepTwice() throws {
        let (db, engine) = try open()
        let (otherDB, otherEngine) = try open()
        let mine = try engine.stack(id: "pane")
        try withUndoStack(mine) {
            for name in ["a", "b"] {
                try undoable(name.uppercased()) {
                    try db.write {
                        try $0.execute("INSERT INTO items(name) VALUES (?)", [.text(name)])
                    }
                }
            }
        }
        let theirs = try otherEngine.stack(id: "pane")
        #expect(theirs.state == UndoStackState(undo: ["B", "A"], redo: []))
        #expect(try mine.undo()?.name == "B")
        #expect(try theirs.undo()?.name == "A")
        #expect(try names(otherDB) == [])
        #expect(try mine.redo()?.name == "A")
        #expect(try theirs.redo()?.name == "B")
        #expect(try names(db) == ["a", "b"])
        #expect(try mine.undo()?.name == "B")
        #expect(try theirs.undo()?.name == "A")
        #expect(try mine.undo() == nil)
        #expect(try names(db) == [])
        #expect(mine.state == UndoStackState(undo: [], redo: ["A", "B"]))
        #expect(theirs.state == mine.state)
    }

    /// A stack that keeps no steps keeps no log either.
    @Test func aStackKeepingNoStepsKeepsNoLog() throws {
        let (db, engine) = try open()
        let stack = try engine.stack(id: "pane")
        stack.levelsOfUndo = 0
        try withUndoStack(stack) {
            for n in 1...10 {
                try undoable("Add \(n)") {
                    try db.write {
                        try $0.execute("INSERT INTO items(name) VALUES (?)", [.text("\(n)")])
                    }
                }
                try undoable("Rename \(n)") {
                    try db.write {
                        try $0.execute("UPDATE items SET name = ? WHERE id = 1", [.text("\(n)")])
                    }
                }
            }
        }
        #expect(stack.state == UndoStackState(undo: [], redo: []))
        // Only the row that keeps the log's highest `seq` (no barrier's) is left.
        let logged = try db.read {
            try $0.fetchAll(
                Row.self,
                "SELECT barrier, seq = (SELECT max(seq) FROM sqliteundo_log) FROM sqliteundo_log"
            ).map(\.values)
        }
        #expect(logged == [[0, 1]])
        #expect(try names(db).count == 10)
    }

    @Test func historyAnotherProgramDeletedIsNotUndone() throws {
        let (db, engine) = try open()
        let pane = try engine.stack(id: "pane")
        try withUndoStack(pane) {
            for name in ["a", "b", "c", "d"] {
                try undoable(name.uppercased()) {
                    try db.write {
                        try $0.execute("INSERT INTO items(name) VALUES (?)", [.text(name)])
                    }
                }
            }
        }
        let steps = Dictionary(uniqueKeysWithValues: pane.history.undo.map { ($0.name, $0) })
        func delete(_ name: String) throws {
            try TmuxSession.sqlite3(
                path,
                """
                DELETE FROM sqliteundo_log
                WHERE barrier = (SELECT id FROM sqliteundo_barriers WHERE name = '\(name)');
                DELETE FROM sqliteundo_barriers WHERE name = '\(name)';
                """)
        }
        let (stepB, stepC) = (try #require(steps["B"]), try #require(steps["C"]))
        try delete("C")
        #expect(throws: UndoError.stepNotFound("C")) { try pane.go(to: stepC) }
        #expect(throws: UndoError.stepNotFound("C")) { try pane.revert(stepC) }
        #expect(try pane.undo(to: stepB).map(\.name) == ["D"])
        #expect(try names(db) == ["a", "b", "c"])
        #expect(pane.state == UndoStackState(undo: ["B", "A"], redo: ["D"]))
        try delete("B")
        #expect(try pane.undo()?.name == "A")
        #expect(try names(db) == ["b", "c"])
        try TmuxSession.sqlite3(path, "DELETE FROM sqliteundo_log; DELETE FROM sqliteundo_barriers")
        #expect(try pane.redo() == nil)
        #expect(try pane.undo() == nil)
        #expect(try pane.back(inTime: 1).isEmpty)
        #expect(try names(db) == ["b", "c"])
        #expect(pane.state == UndoStackState(undo: [], redo: []))
        try withUndoStack(pane) {
            try undoable("E") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('e')") }
            }
        }
        #expect(try pane.undo()?.name == "E")
        #expect(try names(db) == ["b", "c"])
    }
}

@Suite struct BoundsTests {
    @Test func levelsOfUndoDropsOldBarriersAndTheirLogRows() throws {
        let fixture = try Fixture()
        let stack = fixture.engine.defaultStack
        stack.levelsOfUndo = 3
        for n in 1...10 {
            try undoable("Add \(n)") {
                try fixture.execute("INSERT INTO items(name) VALUES (?)", [.text("\(n)")])
            }
        }
        #expect(stack.state.undo == ["Add 10", "Add 9", "Add 8"])
        #expect(try fixture.logCount() == 3)
        #expect(stack.levelsOfUndo == 3)
        #expect(try fixture.engine.stack(id: "fresh").levelsOfUndo == 1000)
    }

    @Test func removeAllClearsTheStackAndItsRows() throws {
        let fixture = try Fixture()
        let pane = try fixture.engine.stack(id: "pane")
        try withUndoStack(pane) {
            try undoable("A") { try fixture.execute("INSERT INTO items(name) VALUES ('a')") }
            try undoable("B") { try fixture.execute("INSERT INTO items(name) VALUES ('b')") }
        }
        try pane.undo()
        try pane.removeAll()
        #expect(pane.state == UndoStackState(undo: [], redo: []))
        #expect(try fixture.logCount() == 0)
    }

    @Test func deletingAStackIdRemovesItsRows() throws {
        let fixture = try Fixture()
        let keep = try fixture.engine.stack(id: "keep")
        let gone = try fixture.engine.stack(id: "gone")
        try withUndoStack(keep) {
            try undoable("K") { try fixture.execute("INSERT INTO items(name) VALUES ('k')") }
        }
        try withUndoStack(gone) {
            try undoable("G") { try fixture.execute("INSERT INTO items(name) VALUES ('g')") }
        }
        try fixture.engine.deleteStack(id: "gone")
        #expect(try fixture.engine.storedStackIDs() == ["keep"])
        #expect(try fixture.logCount() == 1)
    }
}
