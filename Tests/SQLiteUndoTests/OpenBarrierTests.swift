import Foundation
import SQLiteDatabase
import SQLiteUndo
import Synchronization
import Testing

/// A barrier registers when its block returns. Its entry is filed earlier, with its first change
/// (that is its place in the list), so that a crash keeps the change's undo; until the block
/// returns, its stack passes it by and its later transactions add to it, whatever the stack does
/// meanwhile.
@Suite struct OpenBarrierTests {
    let fixture: Fixture
    let stack: UndoStack

    init() throws {
        fixture = try Fixture()
        stack = fixture.engine.defaultStack
    }

    func insert(_ id: Int, _ name: String) throws {
        try fixture.execute(
            "INSERT INTO items(id, name) VALUES (?, ?)", [.integer(Int64(id)), .text(name)])
    }

    @Test func undoWhileABarrierRunsTakesBackTheActionBeforeIt() throws {
        try undoable("Before") { try insert(1, "before") }
        var listedWhileRunning: UndoStackState?
        var undone: UndoEvent?
        try undoable("Running") {
            try insert(2, "first")
            listedWhileRunning = stack.state
            undone = try stack.undo()
            try insert(3, "second")
        }
        #expect(listedWhileRunning == UndoStackState(undo: ["Before"], redo: []))
        #expect(undone?.name == "Before")
        #expect(try fixture.rows() == [[2, "first", nil, 0], [3, "second", nil, 0]])
        // Registering when it returned kept the redo list as a branch, as any new action does.
        #expect(stack.state == UndoStackState(undo: ["Running"], redo: []))
        #expect(stack.history.kept.map(\.name) == ["Before"])
        #expect(try fixture.logCount() == 3)
        try stack.undo()
        #expect(try fixture.rows() == [])
        try stack.redo()
        #expect(try fixture.rows() == [[2, "first", nil, 0], [3, "second", nil, 0]])
    }

    @Test func undoFromAnotherTaskWhileABarrierRunsBetweenItsTransactions() async throws {
        let db = fixture.db
        try undoable("Before") { try insert(1, "before") }
        let (firstCommitted, signalFirst) = AsyncStream.makeStream(of: Void.self)
        let (mayGoOn, letGoOn) = AsyncStream.makeStream(of: Void.self)
        async let running: Void = undoable("Import") {
            try await db.write { try $0.execute("INSERT INTO items(id, name) VALUES (2, 'a')") }
            signalFirst.yield()
            for await _ in mayGoOn { break }
            try await db.write { try $0.execute("INSERT INTO items(id, name) VALUES (3, 'b')") }
        }
        for await _ in firstCommitted { break }
        let undone = try stack.undo()
        letGoOn.yield()
        try await running
        #expect(undone?.name == "Before")
        #expect(stack.state == UndoStackState(undo: ["Import"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == [])
    }

    @Test func trimmingWaitsForABarrierToReturnAndLeavesNoLogBehind() throws {
        stack.levelsOfUndo = 1
        var listedWhileRunning: UndoStackState?
        var entriesWhileRunning: [String] = []
        try undoable("Long") {
            try insert(1, "long 1")
            // Registers while Long runs, and trims the list to one action: Long is not counted.
            try undoable("Short") { try insert(2, "short") }
            listedWhileRunning = stack.state
            entriesWhileRunning = try fixture.db.read {
                try $0.fetchAll(
                    String.self, "SELECT name FROM sqliteundo_barriers ORDER BY position")
            }
            try insert(3, "long 2")
        }
        #expect(listedWhileRunning == UndoStackState(undo: ["Short"], redo: []))
        #expect(entriesWhileRunning == ["Long", "Short"])
        // Long changed the database first, so when it registered it was the older action, and
        // the one dropped, with the log of both its transactions.
        #expect(stack.state == UndoStackState(undo: ["Short"], redo: []))
        #expect(try fixture.logCount() == 1)
        try stack.undo()
        #expect(try fixture.rows() == [[1, "long 1", nil, 0], [3, "long 2", nil, 0]])
    }

    @Test func removingTheHistoryWhileABarrierRunsKeepsItsLaterWritesUndoable() throws {
        try undoable("Long") {
            try insert(1, "kept")
            try stack.removeAll()
            try insert(2, "undoable")
        }
        #expect(stack.state == UndoStackState(undo: ["Long"], redo: []))
        #expect(try fixture.logCount() == 1)
        try stack.undo()
        #expect(try fixture.rows() == [[1, "kept", nil, 0]])
    }

    @Test func undosQueuedBehindAWriteEachTakeTheirOwnAction() throws {
        try undoable("A") { try insert(1, "a") }
        try undoable("B") { try insert(2, "b") }
        let db = fixture.db
        let holding = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? db.write { _ in
                holding.signal()
                Thread.sleep(forTimeInterval: 0.3)
            }
            done.signal()
        }
        holding.wait()
        // Both undos choose while the write holds the database, and replay after it.
        let names = Mutex<[String]>([])
        let stack = stack
        for _ in 0..<2 {
            Thread.detachNewThread {
                let name = (try? stack.undo())?.name ?? "nothing"
                names.withLock { $0.append(name) }
                done.signal()
            }
        }
        for _ in 0..<3 { done.wait() }
        #expect(names.withLock { $0.sorted() } == ["A", "B"])
        #expect(try fixture.rows() == [])
        #expect(stack.state == UndoStackState(undo: [], redo: ["A", "B"]))
        let filed = try db.read {
            try $0.fetchAll(
                String.self, "SELECT name FROM sqliteundo_barriers WHERE list = 1 ORDER BY position"
            )
        }
        #expect(filed == ["B", "A"])
    }

    struct Boom: Error {}

    @Test func aBlockThatThrowsDropsNoOlderAction() throws {
        stack.levelsOfUndo = 1
        try undoable("A") { try insert(1, "a") }
        #expect(throws: Boom.self) {
            try undoable("B") {
                try insert(2, "b")
                throw Boom()
            }
        }
        #expect(stack.state == UndoStackState(undo: ["A"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == [[2, "b", nil, 0]])
    }

    /// Registering writes only to delete the redo list or trim the undo list; when that fails,
    /// the block that succeeded, and whose change and entry are committed, does not throw.
    @Test func aBlockWhoseChangeCommittedDoesNotThrowWhenRegisteringFails() throws {
        try undoable("A") { try insert(1, "a") }
        try stack.undo()
        var failed = false
        try undoable("B") {
            try insert(2, "b")
            // Registering will delete A's redo entry: make that fail, as a busy file would.
            try fixture.execute(
                """
                CREATE TEMP TRIGGER refuse BEFORE DELETE ON sqliteundo_barriers
                BEGIN SELECT RAISE(ABORT, 'busy'); END
                """)
            failed = true
        }
        #expect(failed)
        // The lists are read again from the file, where B set A's redo entry aside when it was
        // filed: B has replaced it, even though deleting it failed.
        #expect(stack.state == UndoStackState(undo: ["B"], redo: []))
        try fixture.execute("DROP TRIGGER refuse")
        try undoable("C") { try insert(3, "c") }
        #expect(stack.state == UndoStackState(undo: ["C", "B"], redo: []))
        try stack.undo()
        try stack.undo()
        #expect(try fixture.rows() == [])
    }
}
