import SQLiteDatabase
import SQLiteUndo
import Testing

/// An undo always makes progress: what another program left that the schema
/// forbids (a reference to a deleted row, a value a CHECK refuses, both written with the checks
/// off) neither blocks a step nor the steps below it. The undo restores what it can, and keeps
/// and reports the rest. A unique value someone else took is not a rule broken for good (the
/// other row may change): that undo still fails and changes nothing (`UniqueSwapTests`).
@Suite struct ProgressTests {
    /// Another program's write with foreign keys or CHECK constraints off, outside any step.
    func writeUnchecked(_ fixture: Fixture, _ sql: String) throws {
        try fixture.db.withoutTransaction { db in
            try db.execute("PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON")
            try db.execute(sql)
            try db.execute("PRAGMA foreign_keys = ON; PRAGMA ignore_check_constraints = OFF")
        }
    }

    func edit(_ stack: UndoStack, _ name: String, _ fixture: Fixture, _ sql: String) throws {
        try withUndoStack(stack) { try undoable(name) { try fixture.execute(sql) } }
    }

    @Test func anUndoBesideAReferenceBrokenBeforeItRestoresWhatItChanged() throws {
        let fixture = try Fixture()
        let stack = fixture.engine.defaultStack
        try fixture.execute(
            "INSERT INTO items(id, name) VALUES (1, 'first'); "
                + "INSERT INTO parts(id, itemId, label) VALUES (1, 1, 'bolt')")
        try edit(stack, "Rename Part", fixture, "UPDATE parts SET label = 'nut'")
        try edit(stack, "Relabel", fixture, "UPDATE parts SET label = 'screw'")
        // The part now points at an item that is gone.
        try writeUnchecked(fixture, "DELETE FROM items WHERE id = 1")
        let first = try stack.undo()
        #expect(first?.name == "Relabel")
        #expect(first?.conflicts == [])
        #expect(try fixture.rows("parts") == [[1, 1, "nut"]])
        let second = try stack.undo()
        #expect(second?.name == "Rename Part")
        #expect(try fixture.rows("parts") == [[1, 1, "bolt"]])
    }

    static let checkedSchema = """
        CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT,
            rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5));
        """

    /// The old value is one the schema forbids: the rest of the step is undone, the value is
    /// kept and named, and the steps below it undo.
    @Test func anOldValueTheSchemaForbidsIsKeptAndTheRestUndone() throws {
        let fixture = try Fixture(schema: Self.checkedSchema, tables: ["items"])
        let stack = fixture.engine.defaultStack
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, 'first')")
        try edit(stack, "Rename", fixture, "UPDATE items SET name = 'second'")
        try writeUnchecked(fixture, "UPDATE items SET rating = 99")
        try edit(stack, "Rate and Rename", fixture, "UPDATE items SET rating = 3, name = 'third'")
        let first = try stack.undo()
        #expect(first?.name == "Rate and Rename")
        #expect(
            first?.conflicts == [
                UndoConflict(
                    table: "items", rowid: 1, column: "rating", kept: 3, reason: .constraint,
                    restoring: 99)
            ])
        #expect(try fixture.rows() == [[1, "second", 3]])
        #expect(stack.undoActionName == "Rename")
        let second = try stack.undo()
        #expect(second?.conflicts == [])
        #expect(try fixture.rows() == [[1, "first", 3]])
        // Redo gives back what the undo took: the names.
        _ = try stack.redo()
        _ = try stack.redo()
        #expect(try fixture.rows() == [[1, "third", 3]])
    }

    /// A step that is all forbidden values changes nothing, says so, and leaves the list: it
    /// is not tried again and again in front of the steps below.
    @Test func aStepOfOnlyForbiddenValuesLeavesTheListAndUnblocksTheOthers() throws {
        let fixture = try Fixture(schema: Self.checkedSchema, tables: ["items"])
        let stack = fixture.engine.defaultStack
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, 'first')")
        try edit(stack, "Rename", fixture, "UPDATE items SET name = 'second'")
        try writeUnchecked(fixture, "UPDATE items SET rating = 99")
        try edit(stack, "Set Rating", fixture, "UPDATE items SET rating = 3")
        let first = try stack.undo()
        #expect(first?.conflicts.map(\.reason) == [.constraint])
        #expect(try fixture.rows() == [[1, "second", 3]])
        #expect(stack.undoActionName == "Rename")
        #expect(stack.redoActionName == nil)
        _ = try stack.undo()
        #expect(try fixture.rows() == [[1, "first", 3]])
    }

    /// A row the undo would insert again breaks a rule (another program gave it a value the
    /// schema forbids before the step deleted it): the row is left out and named, the rest of
    /// the step restored.
    @Test func aRowThatCannotComeBackIsLeftOutAndTheRestRestored() throws {
        let fixture = try Fixture(schema: Self.checkedSchema, tables: ["items"])
        let stack = fixture.engine.defaultStack
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b')")
        try writeUnchecked(fixture, "UPDATE items SET rating = 99 WHERE id = 2")
        try edit(
            stack, "Delete and Rename", fixture,
            "DELETE FROM items WHERE id = 2; UPDATE items SET name = 'z' WHERE id = 1")
        let event = try stack.undo()
        #expect(
            event?.conflicts == [
                UndoConflict(table: "items", rowid: 2, column: nil, kept: nil, reason: .constraint)
            ])
        #expect(try fixture.rows() == [[1, "a", 0]])
    }
}
