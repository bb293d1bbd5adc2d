import SQLiteDatabase
import SQLiteUndo
import Testing

/// A barrier registers when its block returns. Its entry is filed earlier, with its first
/// change, so that a crash keeps the change's undo; until the block returns, its stack passes it
/// by and its later transactions add to it, whatever the stack does meanwhile.
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
        // Registering when it returned cleared the redo list, as any new action does.
        #expect(stack.state == UndoStackState(undo: ["Running"], redo: []))
        #expect(try fixture.logCount() == 2)
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

    @Test func aBarrierThatReturnsLastIsUndoneFirstAndTrimmingKeepsItWhileItRuns() throws {
        stack.levelsOfUndo = 1
        var listedWhileRunning: UndoStackState?
        try undoable("Long") {
            try insert(1, "long 1")
            // Registers while Long runs, and trims the list to one action: not Long's.
            try undoable("Short") { try insert(2, "short") }
            listedWhileRunning = stack.state
            try insert(3, "long 2")
        }
        #expect(listedWhileRunning == UndoStackState(undo: ["Short"], redo: []))
        // Long registered last: it is the one action kept, with its two rows of log.
        #expect(stack.state == UndoStackState(undo: ["Long"], redo: []))
        #expect(try fixture.logCount() == 2)
        try stack.undo()
        #expect(try fixture.rows() == [[2, "short", nil, 0]])
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
}
