import SQLiteDatabase
import Testing

@testable import SQLiteUndo

/// `UndoStack.maxHistoryBytes`: the oldest steps go past the budget, never the newest.
@Suite struct ByteBudgetTests {
    /// A 3,000-byte text unlike any other (so its change is kept whole, not as an edit).
    static func value(_ index: Int) -> SQLiteValue {
        .text(String(repeating: Character(UnicodeScalar(UInt8(65 + index % 26))), count: 3000))
    }

    /// What one step setting a 3,000-byte value over another keeps: both values and its row.
    static let stepBytes = 6000 + UndoLogSchema.bytesPerLogRow

    @Test func theOldestStepsGoPastTheBudget() throws {
        let fixture = try Fixture()
        try fixture.execute(
            "INSERT INTO items(id, name, value) VALUES (1, 'a', ?)", [Self.value(0)])
        let stack = fixture.engine.defaultStack
        stack.maxHistoryBytes = 3 * Self.stepBytes + 100
        for index in 1...10 {
            try undoable("Set \(index)") {
                try fixture.execute("UPDATE items SET value = ? WHERE id = 1", [Self.value(index)])
            }
        }
        #expect(stack.state.undo == ["Set 10", "Set 9", "Set 8"])
        #expect(try fixture.logCount() == 3)
        for _ in 0..<3 { try stack.undo() }
        #expect(try fixture.rows()[0][2] == Self.value(7))
        #expect(try stack.undo() == nil)
        // The budget is kept across a restart of the list: the entries are measured again.
        try fixture.db.read { try stack.reload($0) }
        for _ in 0..<3 { try stack.redo() }
        #expect(try fixture.rows()[0][2] == Self.value(10))
    }

    @Test func theNewestStepIsKeptHoweverLarge() throws {
        let fixture = try Fixture()
        try fixture.execute(
            "INSERT INTO items(id, name, value) VALUES (1, 'a', ?)", [Self.value(0)])
        let stack = fixture.engine.defaultStack
        stack.maxHistoryBytes = 1000
        try undoable("Big") {
            try fixture.execute("UPDATE items SET value = ? WHERE id = 1", [Self.value(1)])
        }
        #expect(stack.state.undo == ["Big"])
        try undoable("Bigger") {
            try fixture.execute("UPDATE items SET value = ? WHERE id = 1", [Self.value(2)])
        }
        #expect(stack.state.undo == ["Bigger"])
        try stack.undo()
        #expect(try fixture.rows()[0][2] == Self.value(1))
        // Without a budget, nothing more is dropped than `levelsOfUndo` says.
        stack.maxHistoryBytes = nil
        try stack.redo()
        for index in 3...5 {
            try undoable("Set \(index)") {
                try fixture.execute("UPDATE items SET value = ? WHERE id = 1", [Self.value(index)])
            }
        }
        #expect(stack.state.undo == ["Set 5", "Set 4", "Set 3", "Bigger"])
    }

    /// A typing run that grows past the budget drops the older steps, not itself; a small edit
    /// of a long value counts as the edit.
    @Test func aGrowingRunDropsOlderSteps() throws {
        let fixture = try Fixture()
        try fixture.execute(
            "INSERT INTO items(id, name, value) VALUES (1, 'a', ?)", [Self.value(0)])
        try fixture.execute("INSERT INTO items(id, name, value) VALUES (2, 'b', '')")
        let stack = fixture.engine.defaultStack
        stack.maxHistoryBytes = Self.stepBytes + 2000
        try undoable("Set") {
            try fixture.execute("UPDATE items SET value = ? WHERE id = 1", [Self.value(1)])
        }
        // 100 keys into the 3,000-byte text: kept as one small edit, within the budget.
        var long = String(repeating: "x", count: 3000)
        try fixture.execute("UPDATE items SET name = ? WHERE id = 1", [.text(long)])
        for _ in 0..<100 {
            long += "y"
            try undoable("Typing", coalescing: "name") {
                try fixture.execute("UPDATE items SET name = ? WHERE id = 1", [.text(long)])
            }
        }
        #expect(stack.state.undo == ["Typing", "Set"])
        // Pasting into the empty text of row 2 keeps the new text whole: first "Set" goes, then,
        // past the budget on its own, the first run too; the growing run stays.
        var pasted = ""
        var lists: [[String]] = []
        for _ in 0..<90 {
            pasted += String(repeating: "z", count: 100)
            try undoable("Paste", coalescing: "value 2") {
                try fixture.execute("UPDATE items SET value = ? WHERE id = 2", [.text(pasted)])
            }
            if lists.last != stack.state.undo { lists.append(stack.state.undo) }
        }
        #expect(lists == [["Paste", "Typing", "Set"], ["Paste", "Typing"], ["Paste"]])
        try stack.undo()
        #expect(try fixture.rows()[1][2] == "")
        #expect(try fixture.rows()[0][1] == .text(long))
    }
}
