import SQLiteDatabase
import SQLiteUndo
import Testing

/// `withUndoDisabled` wins over every barrier opened inside it.
@Suite struct UndoDisabledTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
    }

    @Test func barrierInsideIsNotRecorded() throws {
        try withUndoDisabled {
            try undoable("Hidden") {
                try fixture.execute("INSERT INTO items(name) VALUES ('hidden')")
            }
        }
        #expect(stack.state == UndoStackState(undo: [], redo: []))
        #expect(try fixture.logCount() == 0)
        #expect(try fixture.rows() == [[1, "hidden", nil, 0]])
    }

    @Test func barrierInsideDisabledInsideABarrierIsNotRecorded() throws {
        try undoable("Outer") {
            try fixture.execute("INSERT INTO items(name) VALUES ('tracked')")
            try withUndoDisabled {
                try undoable("Inner") {
                    try fixture.execute("INSERT INTO items(name) VALUES ('hidden')")
                }
            }
        }
        #expect(stack.state == UndoStackState(undo: ["Outer"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == [[2, "hidden", nil, 0]])
        #expect(stack.state == UndoStackState(undo: [], redo: ["Outer"]))
    }

    @Test func asyncBarrierInsideIsNotRecorded() async throws {
        let db = fixture.db
        try await undoable("Outer") {
            try await db.write { try $0.execute("INSERT INTO items(name) VALUES ('tracked')") }
            try await withUndoDisabled {
                try await undoable("Inner") {
                    try await db.write {
                        try $0.execute("INSERT INTO items(name) VALUES ('hidden')")
                    }
                }
            }
        }
        try await withUndoDisabled {
            try await undoable("Alone") {
                try await db.write { try $0.execute("INSERT INTO items(name) VALUES ('alone')") }
            }
        }
        #expect(stack.state == UndoStackState(undo: ["Outer"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == [[2, "hidden", nil, 0], [3, "alone", nil, 0]])
    }

    @Test func undoInsideDisabledStillRecordsItsRedo() throws {
        try undoable("Add") { try fixture.execute("INSERT INTO items(name) VALUES ('a')") }
        try withUndoDisabled { _ = try stack.undo() }
        #expect(stack.state == UndoStackState(undo: [], redo: ["Add"]))
        try stack.redo()
        #expect(try fixture.rows() == [[1, "a", nil, 0]])
    }
}
