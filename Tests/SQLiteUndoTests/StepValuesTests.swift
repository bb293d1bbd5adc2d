import SQLiteDatabase
import Testing

@testable import SQLiteUndo

/// What a step wrote, as a history view reads it: the values it left (`newValues`), the text it
/// typed and deleted (`textEdits`, also where the text is kept as an edit), and which step a
/// take-back took back (`UndoStep.takesBack`), on whichever list the step is.
@Suite struct StepValuesTests {
    struct Items: Table { static let tableName = "items" }

    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
        try fixture.execute("INSERT INTO items(id, name, value) VALUES (1, 'hello', 1)")
    }

    func update(_ name: String, _ sql: String, _ arguments: [SQLiteValue] = []) throws {
        try undoable(name) { try fixture.execute(sql, arguments) }
    }

    @Test func theValuesAStepLeftAreReadOnEveryList() throws {
        try update("Set Value", "UPDATE items SET value = 4 WHERE id = 1")
        let step = try #require(stack.history.undo.first)
        #expect(try stack.newValues(of: step, column: "value", in: Items.self) == [1: 4])
        #expect(try stack.values(of: step, column: "value", in: Items.self) == [1: 1])
        try stack.undo()
        let undone = try #require(stack.history.redo.first)
        #expect(try stack.newValues(of: undone, column: "value", in: Items.self) == [1: 4])
        // Kept on a branch by a later action.
        try update("Set Name", "UPDATE items SET name = 'x' WHERE id = 1")
        let kept = try #require(stack.history.kept.first)
        #expect(try stack.newValues(of: kept, column: "value", in: Items.self) == [1: 4])
        #expect(try stack.newValues(of: kept, column: "name", in: Items.self) == [:])
    }

    @Test func theTextAStepTypedAndDeletedIsReadAsTheEdit() throws {
        try update("Typing", "UPDATE items SET name = 'hello, world' WHERE id = 1")
        try update("Typing", "UPDATE items SET name = 'hello' WHERE id = 1")
        try update("Typing", "UPDATE items SET name = 'héllo' WHERE id = 1")
        let steps = stack.history.undo
        #expect(
            try stack.textEdits(of: steps[2], column: "name", in: Items.self)
                == [1: [UndoTextEdit(removed: "", inserted: ", world")]])
        #expect(
            try stack.textEdits(of: steps[1], column: "name", in: Items.self)
                == [1: [UndoTextEdit(removed: ", world", inserted: "")]])
        // Whole characters, though 'e' and 'é' share no byte.
        #expect(
            try stack.textEdits(of: steps[0], column: "name", in: Items.self)
                == [1: [UndoTextEdit(removed: "e", inserted: "é")]])
        try stack.undo()
        #expect(
            try stack.textEdits(
                of: try #require(stack.history.redo.first), column: "name",
                in: Items.self) == [1: [UndoTextEdit(removed: "e", inserted: "é")]])
    }

    /// A row the step inserted put in its whole text, and a row it deleted took out its whole
    /// text (a paste into a new body's chunks, a cut of whole chunks), read alike once undone.
    @Test func theTextOfRowsAStepInsertedOrDeletedIsReadAsTheEdit() throws {
        try update(
            "Paste",
            "INSERT INTO items(id, name) VALUES (2, 'pasted'), (3, NULL); "
                + "DELETE FROM items WHERE id = 1")
        let expected: [Int64: [UndoTextEdit]] = [
            1: [UndoTextEdit(removed: "hello", inserted: "")],
            2: [UndoTextEdit(removed: "", inserted: "pasted")],
        ]
        let step = try #require(stack.history.undo.first)
        #expect(try stack.textEdits(of: step, column: "name", in: Items.self) == expected)
        try stack.undo()
        let undone = try #require(stack.history.redo.first)
        #expect(try stack.textEdits(of: undone, column: "name", in: Items.self) == expected)
    }

    @Test func anEditOfALongTextKeptAsTheEditIsRead() throws {
        fixture.engine.mergeText(ofColumns: ["name"], in: Items.self)
        let long = String(repeating: "lorem ipsum dolor sit amet ", count: 100)
        try fixture.execute("UPDATE items SET name = ? WHERE id = 1", [.text(long)])
        var typed = long
        typed.replaceSubrange(try #require(typed.range(of: "sit amet")), with: "NEW")
        try update("Typing", "UPDATE items SET name = ? WHERE id = 1", [.text(typed)])
        let step = try #require(stack.history.undo.first)
        #expect(
            try stack.textEdits(of: step, column: "name", in: Items.self)
                == [1: [UndoTextEdit(removed: "sit amet", inserted: "NEW")]])
        try stack.undo()
        #expect(
            try stack.textEdits(
                of: try #require(stack.history.redo.first), column: "name",
                in: Items.self) == [1: [UndoTextEdit(removed: "sit amet", inserted: "NEW")]])
    }

    @Test func aTakeBackNamesTheStepItTookBackThroughUndoRedoAndAReading() throws {
        try update("Set Value", "UPDATE items SET value = 4 WHERE id = 1")
        try update("Set Name", "UPDATE items SET name = 'x' WHERE id = 1")
        let taken = stack.history.undo[1]
        try stack.revert(taken)
        #expect(stack.history.undo.map(\.takesBack) == [taken.id, nil, nil])
        try stack.undo()
        #expect(stack.history.redo.first?.takesBack == taken.id)
        try stack.redo()
        #expect(stack.history.undo.first?.takesBack == taken.id)
        // As the file has it.
        try stack.reload()
        #expect(stack.history.undo.first?.takesBack == taken.id)
    }
}
