import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// A replay that fails because of SQLite keeps SQLite's error matchable.
@Suite struct ReplayErrorTests {
    let folder: TemporaryFolder
    var path: String { folder.path("busy.db") }

    init() throws {
        folder = try TemporaryFolder(prefix: "undo")
    }

    /// Another connection holds the write lock: the undo fails with `SQLiteError.busy` inside
    /// its `UndoError`, changes nothing, and works once the lock is released.
    @Test func aBusyFileStillMatchesSQLiteErrorBusy() throws {
        let db = try DatabaseQueue(path: path)
        defer { db.close() }
        try db.write { try $0.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT)") }
        let engine = try UndoEngine(for: db, tableNames: ["items"])
        let stack = engine.defaultStack
        try undoable("Add") {
            try db.write { try $0.execute("INSERT INTO items(name) VALUES ('a')") }
        }
        try db.write { try $0.execute("PRAGMA busy_timeout = 20") }
        let other = try DatabaseQueue(path: path)
        defer { other.close() }
        var matchedBusy = false
        try other.write { other in
            try other.execute("UPDATE items SET name = name")  // takes the write lock
            do {
                try stack.undo()
            } catch SQLiteError.busy {
                matchedBusy = true
            }
            #expect {
                try stack.undo()
            } throws: { error in
                guard let error = error as? UndoError,
                    case .replayFailed(let name, let reason, let underlying) = error
                else { return false }
                return name == "Add" && reason.contains("database is locked")
                    && underlying?.code.primary == .busy
                    && error.sqliteError == underlying
            }
        }
        #expect(matchedBusy)
        #expect(stack.state == UndoStackState(undo: ["Add"], redo: []))
        #expect(try db.read { try $0.fetchAll(String.self, "SELECT name FROM items") } == ["a"])
        try stack.undo()
        #expect(try db.read { try $0.fetchAll(String.self, "SELECT name FROM items") } == [])
    }

    @Test func anErrorWithoutSQLiteUnderneathMatchesNoResultCode() {
        let error: any Error = UndoError.replayFailed(barrier: "Add", reason: "broken")
        #expect(SQLiteError(unwrapping: error) == nil)
        var matched = false
        if case SQLiteError.busy = error { matched = true }
        #expect(matched == false)
    }
}
