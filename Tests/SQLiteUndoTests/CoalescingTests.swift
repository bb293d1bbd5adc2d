import Foundation
import SQLiteDatabase
import SQLiteUndo
import Testing

@Suite struct CoalescingTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, '')")
    }

    func type(_ text: String, key: String = "title", name: String = "Typing") throws {
        try undoable(name, coalescing: key) {
            try fixture.execute("UPDATE items SET name = name || ? WHERE id = 1", [.text(text)])
        }
    }

    func name() throws -> SQLiteValue { try fixture.rows()[0][1] }

    @Test func typingRunMergesIntoOneStep() throws {
        for letter in ["h", "e", "l", "l", "o"] { try type(letter) }
        #expect(stack.state.undo == ["Typing"])
        try stack.undo()
        #expect(try name() == "")
        try stack.redo()
        #expect(try name() == "hello")
    }

    @Test func differentKeyOrNameStartsANewStep() throws {
        try type("a")
        try type("b", key: "body")
        try type("c", key: "body", name: "Delete Text")
        #expect(stack.state.undo == ["Delete Text", "Typing", "Typing"])
    }

    @Test func undoInBetweenEndsTheRun() throws {
        try type("a")
        try type("b")
        try stack.undo()
        try type("c")
        try type("d")
        #expect(stack.state == UndoStackState(undo: ["Typing"], redo: []))
        try stack.undo()
        #expect(try name() == "")
    }

    @Test func anotherBarrierInBetweenEndsTheRun() throws {
        try type("a")
        try undoable("Rate") { try fixture.execute("UPDATE items SET flag = 1") }
        try type("b")
        #expect(stack.state.undo == ["Typing", "Rate", "Typing"])
    }

    @Test func pauseLongerThanTheMergeIntervalEndsTheRun() throws {
        stack.mergeInterval = 0.05
        try type("a")
        Thread.sleep(forTimeInterval: 0.1)
        try type("b")
        #expect(stack.state.undo == ["Typing", "Typing"])
        try stack.undo()
        #expect(try name() == "a")
    }
}
