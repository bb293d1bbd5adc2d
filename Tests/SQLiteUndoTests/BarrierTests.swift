import SQLiteDatabase
import SQLiteUndo
import Testing

@Suite struct BarrierTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
    }

    @Test func barrierRecordsItsWritesUnderItsName() throws {
        try undoable("Add Items") {
            try fixture.execute("INSERT INTO items(name) VALUES ('a'), ('b')")
        }
        #expect(stack.state == UndoStackState(undo: ["Add Items"], redo: []))
        #expect(stack.undoActionName == "Add Items")
        #expect(try fixture.logCount() == 2)
    }

    @Test func emptyBarrierIsNotRegistered() throws {
        try undoable("Nothing") {}
        try undoable("Read Only") {
            _ = try fixture.db.read { try $0.fetchAll(Row.self, "SELECT * FROM items") }
        }
        #expect(stack.canUndo == false)
        #expect(stack.undoActionName == nil)
    }

    @Test func noOpUpdateRecordsNothing() throws {
        try fixture.execute("INSERT INTO items(id, name, value) VALUES (1, 'a', 1.5)")
        try undoable("Same") { try fixture.execute("UPDATE items SET name = 'a', value = 1.5") }
        #expect(stack.canUndo == false)
        #expect(try fixture.logCount() == 0)
    }

    struct Boom: Error {}

    @Test func throwingBarrierRecordsNothingAndRethrows() throws {
        #expect(throws: Boom.self) {
            try undoable("Fails") {
                try fixture.execute("INSERT INTO items(name) VALUES ('kept')")
                throw Boom()
            }
        }
        #expect(stack.canUndo == false)
        #expect(try fixture.logCount() == 0)
        #expect(try fixture.rows() == [[1, "kept", nil, 0]])
    }

    @Test func writesOutsideABarrierAreNotRecorded() throws {
        try fixture.execute("INSERT INTO items(name) VALUES ('untracked')")
        #expect(try fixture.logCount() == 0)
        #expect(stack.canUndo == false)
    }

    @Test func withUndoDisabledIsNotRecordedEvenInsideABarrier() throws {
        try undoable("Mixed") {
            try fixture.execute("INSERT INTO items(name) VALUES ('tracked')")
            try withUndoDisabled {
                try fixture.execute("INSERT INTO items(name) VALUES ('hidden')")
            }
        }
        try stack.undo()
        #expect(try fixture.rows() == [[2, "hidden", nil, 0]])
    }

    @Test func asyncWithUndoDisabled() async throws {
        let db = fixture.db
        try await undoable("Async Mixed") {
            try await db.write { try $0.execute("INSERT INTO items(name) VALUES ('tracked')") }
            try await withUndoDisabled {
                try await db.write { try $0.execute("INSERT INTO items(name) VALUES ('hidden')") }
            }
        }
        try stack.undo()
        #expect(try fixture.rows() == [[2, "hidden", nil, 0]])
    }

    @Test func nestedBarrierOwnsItsOwnWrites() throws {
        try undoable("Outer") {
            try fixture.execute("INSERT INTO items(name) VALUES ('outer 1')")
            try undoable("Inner") {
                try fixture.execute("INSERT INTO items(name) VALUES ('inner')")
            }
            try fixture.execute("INSERT INTO items(name) VALUES ('outer 2')")
        }
        // Each is filed when its first change commits: Outer first, so Inner is undone first.
        #expect(stack.state.undo == ["Inner", "Outer"])
        try stack.undo()  // Inner
        #expect(try fixture.rows() == [[1, "outer 1", nil, 0], [3, "outer 2", nil, 0]])
        try stack.undo()  // Outer
        #expect(try fixture.rows() == [])
    }

    @Test func barriersOpenedAndClosedInsideOneTransactionKeepTheirOwnWrites() throws {
        try fixture.db.write { db in
            try undoable("Outer") {
                try db.execute("INSERT INTO items(name) VALUES ('outer 1')")
                try undoable("Inner") {
                    try db.execute("INSERT INTO items(name) VALUES ('inner')")
                }
                try withUndoDisabled {
                    try db.execute("INSERT INTO items(name) VALUES ('hidden')")
                }
                try db.execute("INSERT INTO items(name) VALUES ('outer 2')")
            }
            try db.execute("INSERT INTO items(name) VALUES ('untracked')")
        }
        #expect(stack.state.undo == ["Inner", "Outer"])
        try stack.undo()  // Inner
        #expect(
            try fixture.rows() == [
                [1, "outer 1", nil, 0], [3, "hidden", nil, 0], [4, "outer 2", nil, 0],
                [5, "untracked", nil, 0],
            ])
        try stack.undo()  // Outer
        #expect(try fixture.rows() == [[3, "hidden", nil, 0], [5, "untracked", nil, 0]])
    }

    @Test func concurrentBarriersKeepTheirOwnWrites() async throws {
        let db = fixture.db
        async let first: Void = undoable("First") {
            for n in 0..<20 {
                try await db.write {
                    try $0.execute("INSERT INTO items(name) VALUES (?)", [.text("a\(n)")])
                }
                await Task.yield()
            }
        }
        async let second: Void = undoable("Second") {
            for n in 0..<20 {
                try await db.write {
                    try $0.execute("INSERT INTO items(name) VALUES (?)", [.text("b\(n)")])
                }
                await Task.yield()
            }
        }
        _ = try await (first, second)
        #expect(Set(stack.state.undo) == ["First", "Second"])
        let undone = try #require(try stack.undo())
        let remaining = try fixture.rows().map { $0[1] }
        let prefix = undone.name == "First" ? "b" : "a"
        #expect(remaining == (0..<20).map { .text("\(prefix)\($0)") })
        #expect(undone.ids(forTable: "items")?.count == 20)
    }

    @Test func childTasksBelongToTheBarrierButDetachedTasksDoNot() async throws {
        let db = fixture.db
        try await undoable("Parent") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<3 {
                    group.addTask {
                        try await db.write {
                            try $0.execute(
                                "INSERT INTO items(name) VALUES (?)", [.text("child\(n)")])
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await Task.detached {
                try await db.write { try $0.execute("INSERT INTO items(name) VALUES ('detached')") }
            }.value
        }
        try stack.undo()
        #expect(try fixture.rows().map { $0[1] } == ["detached"])
    }

    @Test func barrierRegistersWithTheStackCurrentWhenItCloses() throws {
        let paneA = try fixture.engine.stack(id: "A")
        let paneB = try fixture.engine.stack(id: "B")
        try withUndoStack(paneA) {
            try undoable("In A") { try fixture.execute("INSERT INTO items(name) VALUES ('a')") }
        }
        try withUndoStack(paneB) {
            try undoable("In B") { try fixture.execute("INSERT INTO items(name) VALUES ('b')") }
        }
        #expect(paneA.state.undo == ["In A"])
        #expect(paneB.state.undo == ["In B"])
        #expect(stack.canUndo == false)
        try paneA.undo()
        #expect(try fixture.rows().map { $0[1] } == ["b"])
        #expect(try fixture.engine.stack(id: "A") === paneA)
    }
}
