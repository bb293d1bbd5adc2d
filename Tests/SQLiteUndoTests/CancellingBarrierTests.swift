import SQLiteDatabase
import SQLiteUndo
import Testing

/// A barrier whose writes cancel out (DESIGN: "insert then delete is nothing") changed nothing,
/// and, as a barrier that wrote nothing, does not register.
@Suite struct CancellingBarrierTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
        try fixture.execute(
            "INSERT INTO items(id, name, value) VALUES (1, 'a', 1.5), (2, 'tab\there', x'00ff')")
        try undoable("Rename") { try fixture.execute("UPDATE items SET name = 'b' WHERE id = 1") }
    }

    @Test(arguments: [
        ["INSERT INTO items(id, name) VALUES (3, 'new')", "DELETE FROM items WHERE id = 3"],
        ["UPDATE items SET name = 'x' WHERE id = 1", "UPDATE items SET name = 'b' WHERE id = 1"],
        [
            "UPDATE items SET value = NULL, name = 'line\nbreak' WHERE id = 2",
            "UPDATE items SET value = 7 WHERE id = 2",
            "UPDATE items SET value = x'00ff', name = 'tab\there' WHERE id = 2",
        ],
        [
            "DELETE FROM items WHERE id = 1",
            "INSERT INTO items(id, name, value, flag) VALUES (1, 'b', 1.5, 0)",
        ],
        ["UPDATE items SET id = 9 WHERE id = 1", "UPDATE items SET id = 1 WHERE id = 9"],
        [
            "INSERT INTO items(id, name) VALUES (3, 'new')",
            "INSERT INTO parts(itemId, label) VALUES (3, 'p')",
            "DELETE FROM items WHERE id = 3",
        ],
    ])
    func writesThatCancelOutRegisterNothing(statements: [String]) throws {
        let rows = try fixture.rows()
        let logRows = try fixture.logCount()
        // Each statement in a transaction of its own, and all of them in one.
        try undoable("Undone Inside") { for sql in statements { try fixture.execute(sql) } }
        try undoable("Undone Inside") {
            try fixture.db.write { db in for sql in statements { try db.execute(sql) } }
        }
        #expect(try fixture.rows() == rows)
        #expect(try fixture.rows("parts") == [])
        #expect(stack.state == UndoStackState(undo: ["Rename"], redo: []))
        #expect(try fixture.logCount() == logRows)
        try stack.undo()
        #expect(try fixture.rows()[0] == [1, "a", 1.5, 0])
    }

    @Test(arguments: [
        [
            "UPDATE items SET value = 2 WHERE id = 1",
            "UPDATE items SET value = 1.5000001 WHERE id = 1",
        ],
        ["UPDATE items SET value = 2 WHERE id = 1", "UPDATE items SET value = '1.5' WHERE id = 1"],
        [
            "UPDATE items SET value = 1 WHERE id = 2",
            "UPDATE items SET value = x'00fe' WHERE id = 2",
        ],
        ["UPDATE items SET name = 'x' WHERE id = 1", "UPDATE items SET name = x'62' WHERE id = 1"],
        [
            "DELETE FROM items WHERE id = 1",
            "INSERT INTO items(id, name, value, flag) VALUES (1, 'b', 1.5, 1)",
        ],
        ["UPDATE items SET id = 9 WHERE id = 1", "UPDATE items SET id = 8 WHERE id = 9"],
        [
            "INSERT INTO items(id, name) VALUES (3, 'new')",
            "UPDATE items SET name = 'n' WHERE id = 3",
        ],
    ])
    func writesThatNearlyCancelOutRegister(statements: [String]) throws {
        let rows = try fixture.rows()
        try undoable("Changed") { for sql in statements { try fixture.execute(sql) } }
        #expect(try fixture.rows() != rows)
        #expect(stack.state == UndoStackState(undo: ["Changed", "Rename"], redo: []))
        try stack.undo()
        #expect(try fixture.rows() == rows)
    }

    @Test func aLongTextSetBackCancelsOutAndOneLeftChangedRegisters() throws {
        let long = String(repeating: "long text, ", count: 100)
        try fixture.execute("UPDATE items SET name = ? WHERE id = 2", [.text(long)])
        for (last, registers) in [(long, false), (long + "!", true)] {
            try undoable("Edit") {
                try fixture.execute("UPDATE items SET name = ? WHERE id = 2", [.text("x" + long)])
                try fixture.execute("UPDATE items SET name = ? WHERE id = 2", [.text(last)])
            }
            #expect(stack.undoActionName == (registers ? "Edit" : "Rename"))
        }
        try stack.undo()
        #expect(try fixture.rows()[1][1] == .text(long))
    }

    @Test func aBarrierCancellingOutAfterAnUndoLeavesTheRedoList() throws {
        try stack.undo()
        try undoable("Undone Inside") {
            try fixture.execute("UPDATE items SET name = 'x' WHERE id = 1")
            try fixture.execute("UPDATE items SET name = 'a' WHERE id = 1")
        }
        #expect(stack.state == UndoStackState(undo: [], redo: ["Rename"]))
        try stack.redo()
        #expect(try fixture.rows()[0] == [1, "b", 1.5, 0])
        #expect(stack.history.kept.isEmpty)
    }

    /// Another stack's action between its writes (a replay flipping an entry, or a barrier of
    /// its own): what the barrier set back, it set back over theirs, and it registers.
    @Test(arguments: [false, true])
    func writesCancellingOutAroundAnothersRegister(replaying: Bool) throws {
        let other = try fixture.engine.stack(id: "other")
        try withUndoStack(other) {
            try undoable("Flag") { try fixture.execute("UPDATE items SET flag = 1 WHERE id = 2") }
        }
        try undoable("Around") {
            try fixture.execute("UPDATE items SET name = 'x' WHERE id = 1")
            if replaying {
                try other.undo()
            } else {
                try withUndoStack(other) {
                    try undoable("Flag") {
                        try fixture.execute("UPDATE items SET flag = 2 WHERE id = 2")
                    }
                }
            }
            try fixture.execute("UPDATE items SET name = 'b' WHERE id = 1")
        }
        #expect(stack.state == UndoStackState(undo: ["Around", "Rename"], redo: []))
    }

    @Test func aNestedBarrierCancellingOutLeavesItsOuterOne() throws {
        try undoable("Outer") {
            try fixture.execute("UPDATE items SET flag = 1 WHERE id = 1")
            try undoable("Inner") {
                try fixture.execute("INSERT INTO items(id, name) VALUES (3, 'new')")
                try fixture.execute("DELETE FROM items WHERE id = 3")
            }
            try fixture.execute("UPDATE items SET flag = 2 WHERE id = 2")
        }
        try undoable("Outer Undone") {
            try undoable("Inner Kept") {
                try fixture.execute("UPDATE items SET flag = 5 WHERE id = 2")
            }
            try fixture.execute("UPDATE items SET flag = 9 WHERE id = 1")
            try fixture.execute("UPDATE items SET flag = 1 WHERE id = 1")
        }
        #expect(stack.state == UndoStackState(undo: ["Inner Kept", "Outer", "Rename"], redo: []))
        try stack.undo()
        try stack.undo()
        #expect(try fixture.rows().map { $0[3] } == [0, 0])
    }
}
