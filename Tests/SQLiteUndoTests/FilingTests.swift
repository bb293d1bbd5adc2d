import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// A barrier is filed with its stack in the transaction of its change: another connection sees
/// the change and its undo entry at the same commit, never one without the other.
@Suite struct FilingTests {
    let folder: TemporaryFolder
    let db: DatabaseQueue
    let engine: UndoEngine
    let pane: UndoStack
    var path: String { folder.path("notes.db") }

    init() throws {
        folder = try TemporaryFolder(prefix: "undo")
        db = try DatabaseQueue(path: folder.path("notes.db"))
        try db.write {
            try $0.execute(
                """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE parts(id INTEGER PRIMARY KEY,
                    itemId INTEGER REFERENCES items(id) DEFERRABLE INITIALLY DEFERRED);
                """)
        }
        engine = try UndoEngine(for: db, tableNames: ["items", "parts"])
        pane = try engine.stack(id: "pane-1")
    }

    /// What a second connection to the file sees: the items and the undo entries' names.
    func seenFromOutside() throws -> (items: [String], entries: [String]) {
        let other = try DatabaseQueue(path: path)
        return try other.read { db in
            (
                try db.fetchAll(String.self, "SELECT name FROM items ORDER BY id"),
                try db.fetchAll(
                    String.self, "SELECT name FROM sqliteundo_barriers ORDER BY list, position")
            )
        }
    }

    @Test func theEntryCommitsWithTheChangeBeforeTheBlockEnds() throws {
        var seenInside: (items: [String], entries: [String]) = ([], [])
        try withUndoStack(pane) {
            try undoable("Add") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
                seenInside = try seenFromOutside()
            }
        }
        #expect(seenInside.items == ["a"])
        #expect(seenInside.entries == ["Add"])
        #expect(pane.state == UndoStackState(undo: ["Add"], redo: []))
        try pane.undo()
        #expect(try seenFromOutside().items == [])
    }

    @Test func aBlockOfSeveralTransactionsIsOneEntry() throws {
        var entriesAfterFirst: [String] = []
        try withUndoStack(pane) {
            try undoable("Two Writes") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
                entriesAfterFirst = try seenFromOutside().entries
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('b')") }
            }
        }
        #expect(entriesAfterFirst == ["Two Writes"])
        #expect(pane.state == UndoStackState(undo: ["Two Writes"], redo: []))
        try pane.undo()
        #expect(try seenFromOutside().items == [])
        try pane.redo()
        #expect(try seenFromOutside().items == ["a", "b"])
    }

    struct Boom: Error {}

    @Test func aBlockThatThrowsAfterACommitTakesItsEntryBack() throws {
        try withUndoStack(pane) {
            try undoable("Kept") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('k')") }
            }
        }
        #expect(throws: Boom.self) {
            try withUndoStack(pane) {
                try undoable("Fails") {
                    try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
                    throw Boom()
                }
            }
        }
        #expect(try seenFromOutside() == (["k", "a"], ["Kept"]))
        #expect(pane.state == UndoStackState(undo: ["Kept"], redo: []))
        let logged = try db.read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_log WHERE barrier != 0")
        }
        #expect(logged == 1)
    }

    /// A new action after an undo sets the redo list aside in the file as soon as it is filed
    /// (seen from another connection while its block runs); a block that then throws puts it
    /// back, in the file and on the stack.
    @Test func aRunningActionSetsTheRedoListAsideUntilItsBlockEnds() throws {
        try withUndoStack(pane) {
            try undoable("Kept") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('k')") }
            }
        }
        try pane.undo()
        let redoInFile = {
            try DatabaseQueue(path: self.path).read { db in
                try db.fetchAll(
                    String.self,
                    "SELECT name FROM sqliteundo_barriers WHERE list = 1 AND supersededBy IS NULL")
            }
        }
        #expect(try redoInFile() == ["Kept"])
        var seenInside: [String] = []
        #expect(throws: Boom.self) {
            try withUndoStack(pane) {
                try undoable("Fails") {
                    try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
                    seenInside = try redoInFile()
                    #expect(pane.state.redo == ["Kept"])
                    throw Boom()
                }
            }
        }
        #expect(seenInside == [])
        #expect(try redoInFile() == ["Kept"])
        #expect(pane.state == UndoStackState(undo: [], redo: ["Kept"]))
    }

    /// An `OR ROLLBACK` conflict ends the transaction inside the block; a block that catches it
    /// and writes on writes outside any transaction, and `write` throws that the transaction
    /// ended inside its block. The action's block threw: its writes stay as SQLite left them,
    /// and no step of it is recorded (none with no log rows either).
    @Test func aBlockThatCatchesARollbackAndWritesOnRecordsNothing() throws {
        try db.write {
            try $0.execute(
                """
                CREATE UNIQUE INDEX items_name ON items(name);
                INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b');
                """)
        }
        let error = #expect(throws: SQLiteError.self) {
            try withUndoStack(pane) {
                try undoable("Bulk") {
                    try db.write { db in
                        try db.execute("UPDATE items SET name = 'a2' WHERE id = 1")
                        _ = try? db.execute("UPDATE OR ROLLBACK items SET name = 'same'")
                        try db.execute("INSERT INTO items(id, name) VALUES (3, 'c')")
                    }
                }
            }
        }
        #expect(error?.message.hasPrefix("the transaction ended inside the write block") == true)
        #expect(try seenFromOutside() == (["a", "b", "c"], []))
        #expect(pane.state == UndoStackState(undo: [], redo: []))
        let logged = try db.read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_log WHERE barrier != 0")
        }
        #expect(logged == 0)
    }

    @Test func aCommitThatFailsFilesNothing() throws {
        try withUndoStack(pane) {
            try undoable("Kept") {
                try db.write { try $0.execute("INSERT INTO items(name) VALUES ('k')") }
            }
        }
        // The deferred foreign key fails at COMMIT, after the barrier was filed inside it.
        #expect(throws: SQLiteError.self) {
            try withUndoStack(pane) {
                try undoable("Broken") {
                    try db.write { try $0.execute("INSERT INTO parts(itemId) VALUES (99)") }
                }
            }
        }
        #expect(pane.state == UndoStackState(undo: ["Kept"], redo: []))
        #expect(try seenFromOutside().entries == ["Kept"])
        try pane.undo()
        #expect(try seenFromOutside().items == [])
    }

    @Test func aWriteInsideAnOpenTransactionIsFiledWhenItCommits() throws {
        try db.write { db in
            try withUndoStack(pane) {
                try undoable("Nested In Write") {
                    try db.execute("INSERT INTO items(name) VALUES ('n')")
                }
            }
            #expect(pane.canUndo == false)
        }
        #expect(pane.state == UndoStackState(undo: ["Nested In Write"], redo: []))
        try pane.undo()
        #expect(try seenFromOutside().items == [])
    }
}
