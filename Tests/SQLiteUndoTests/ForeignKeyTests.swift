import SQLiteDatabase
import SQLiteUndo
import Testing

/// Undo never leaves a reference to a row that is gone, and never deletes a row that another
/// row still references (with ON DELETE CASCADE that would take the other's rows with it).
@Suite struct ForeignKeyTests {
    let fixture: Fixture
    let paneA: UndoStack
    let paneB: UndoStack

    init() throws {
        fixture = try Fixture()
        try fixture.execute(
            """
            INSERT INTO items(id, name) VALUES (1, 'first'), (2, 'second');
            INSERT INTO parts(id, itemId, label) VALUES (1, 1, 'bolt');
            """)
        paneA = try fixture.engine.stack(id: "A")
        paneB = try fixture.engine.stack(id: "B")
    }

    func edit(_ pane: UndoStack, _ name: String, _ sql: String) throws {
        try withUndoStack(pane) { try undoable(name) { try fixture.execute(sql) } }
    }

    @Test func undoKeepsAReferenceItWouldPointAtARowThatIsGone() throws {
        try edit(paneB, "Rename Part", "UPDATE parts SET label = 'nut' WHERE id = 1")
        try edit(
            paneA, "Set Item",
            "INSERT INTO items(id, name) VALUES (10, 'x'); UPDATE parts SET itemId = 10")
        try edit(
            paneB, "Set Item",
            "INSERT INTO items(id, name) VALUES (11, 'y'); UPDATE parts SET itemId = 11")
        let first = try paneA.undo()
        #expect(
            first?.conflicts == [
                UndoConflict(table: "parts", rowid: 1, column: "itemId", kept: 11, keptFrom: "B")
            ])
        #expect(
            try fixture.rows() == [
                [1, "first", nil, 0], [2, "second", nil, 0], [11, "y", nil, 0],
            ])

        // Item 10 is gone: B's undo keeps the part on item 11, and so keeps item 11 too.
        let second = try paneB.undo()
        #expect(second?.name == "Set Item")
        #expect(
            second?.conflicts == [
                UndoConflict(
                    table: "parts", rowid: 1, column: "itemId", kept: 11, keptFrom: nil,
                    reason: .foreignKey),
                UndoConflict(
                    table: "items", rowid: 11, column: nil, kept: nil, reason: .foreignKey),
            ])
        #expect(try fixture.rows("parts") == [[1, 11, "nut"]])
        #expect(
            try fixture.rows() == [
                [1, "first", nil, 0], [2, "second", nil, 0], [11, "y", nil, 0],
            ])
        // The stack is not stuck: its older history still undoes.
        #expect(paneB.undoActionName == "Rename Part")
        try paneB.undo()
        #expect(try fixture.rows("parts") == [[1, 11, "bolt"]])
    }

    @Test func undoKeepsARowItInsertedThatAnotherPaneNowReferences() throws {
        try edit(paneA, "Add Item", "INSERT INTO items(id, name) VALUES (10, 'x')")
        try edit(paneB, "Add Part", "INSERT INTO parts(id, itemId, label) VALUES (2, 10, 'pin')")
        let event = try paneA.undo()
        // Deleting item 10 would cascade to B's part.
        #expect(
            event?.conflicts == [
                UndoConflict(table: "items", rowid: 10, column: nil, kept: nil, reason: .foreignKey)
            ])
        #expect(try fixture.rows("parts") == [[1, 1, "bolt"], [2, 10, "pin"]])
        #expect(try fixture.rows().last == [10, "x", nil, 0])
        try paneB.undo()
        #expect(try fixture.rows("parts") == [[1, 1, "bolt"]])
    }

    @Test func undoOfARowAndItsReferencesTogetherHasNoConflict() throws {
        // The item is touched last, so it is reverted before the part that references it.
        try edit(
            paneA, "Add Both",
            """
            INSERT INTO items(id, name) VALUES (10, 'x');
            INSERT INTO parts(id, itemId, label) VALUES (2, 10, 'pin');
            UPDATE parts SET itemId = 10 WHERE id = 1;
            UPDATE items SET name = 'x2' WHERE id = 10;
            """)
        let event = try paneA.undo()
        #expect(event?.conflicts == [])
        #expect(try fixture.rows() == [[1, "first", nil, 0], [2, "second", nil, 0]])
        #expect(try fixture.rows("parts") == [[1, 1, "bolt"]])
        try paneA.redo()
        #expect(try fixture.rows("parts") == [[1, 10, "bolt"], [2, 10, "pin"]])
        #expect(try fixture.rows().last == [10, "x2", nil, 0])
    }

    @Test func exactUndoKeepsAReferenceToARowDeletedOutsideUndo() throws {
        try edit(paneA, "Move Part", "UPDATE parts SET itemId = 2 WHERE id = 1")
        try fixture.execute("UPDATE parts SET label = 'bolt' WHERE id = 1")  // no change
        try fixture.execute("DELETE FROM items WHERE id = 1")
        let event = try paneA.undo()
        #expect(
            event?.conflicts == [
                UndoConflict(
                    table: "parts", rowid: 1, column: "itemId", kept: 2, reason: .foreignKey)
            ])
        #expect(try fixture.rows("parts") == [[1, 2, "bolt"]])
    }

    @Test func deletedRowIsNotBroughtBackWhenWhatItReferencedIsGone() throws {
        try edit(paneA, "Delete Part", "DELETE FROM parts WHERE id = 1")
        try fixture.execute("DELETE FROM items WHERE id = 1")
        let event = try paneA.undo()
        #expect(
            event?.conflicts == [
                UndoConflict(table: "parts", rowid: 1, column: nil, kept: nil, reason: .foreignKey)
            ])
        #expect(try fixture.rows("parts") == [])
        #expect(paneA.canUndo == false)
    }

    @Test func deletedParentAndChildrenComeBackTogether() throws {
        try edit(paneA, "Delete Item", "DELETE FROM items WHERE id = 1")
        #expect(try fixture.rows("parts") == [])
        let event = try paneA.undo()
        #expect(event?.conflicts == [])
        #expect(try fixture.rows() == [[1, "first", nil, 0], [2, "second", nil, 0]])
        #expect(try fixture.rows("parts") == [[1, 1, "bolt"]])
    }
    /// An action of updates only, which SQLite checked statement by statement when it ran, and
    /// whose undo breaks a reference midway in one order of its statements or the other: a
    /// replay of updates runs with immediate checks (deferring them makes SQLite prepare every
    /// statement again), and again deferred when one failed. Both orders undo and redo exactly.
    @Test(arguments: [
        // The part moves to item 2, then item 1 takes a new key: the undo must give item 1 its
        // key back before the part points at it.
        "UPDATE parts SET itemId = 2; UPDATE items SET id = 3 WHERE id = 1",
        // Item 2 takes a new key, then the part points at it: the undo must move the part back
        // before item 3 gives up its key.
        "UPDATE items SET id = 3 WHERE id = 2; UPDATE parts SET itemId = 3",
    ])
    func undoOfUpdatesThatBreakAReferenceMidwayIsExact(statements: String) throws {
        let before = try fixture.rows()
        try edit(paneA, "Move", statements)
        let after = try fixture.rows()
        let afterParts = try fixture.rows("parts")
        let undone = try paneA.undo()
        #expect(undone?.conflicts == [])
        #expect(try fixture.rows() == before)
        #expect(try fixture.rows("parts") == [[1, 1, "bolt"]])
        let redone = try paneA.redo()
        #expect(redone?.conflicts == [])
        #expect(try fixture.rows() == after)
        #expect(try fixture.rows("parts") == afterParts)
        #expect(
            try fixture.db.read { try $0.fetchAll(Row.self, "PRAGMA foreign_key_check") }.isEmpty)
    }
}
