import Foundation
import SQLiteDatabase
import SQLiteUndo
import Synchronization
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
        let clock = TestClock()
        fixture.engine.clock = clock.now
        try type("a")
        clock.advance(by: 1.5)
        try type("b")
        #expect(stack.state.undo == ["Typing", "Typing"])
        try stack.undo()
        #expect(try name() == "a")
    }

    @Test func aPauseWithinTheMergeIntervalKeepsTheRun() throws {
        let clock = TestClock()
        fixture.engine.clock = clock.now
        for letter in ["a", "b", "c"] {
            try type(letter)
            clock.advance(by: 0.9)
        }
        #expect(stack.state.undo == ["Typing"])
    }

    @Test func anotherScopesEditOfTheSameTextInBetweenEndsTheRun() throws {
        let other = try fixture.engine.stack(id: "other")
        try type("a")
        try type("b")
        try withUndoStack(other) {
            try undoable("Replace") { try fixture.execute("UPDATE items SET name = 'B text'") }
        }
        try type("c")
        #expect(stack.state.undo == ["Typing", "Typing"])
        try stack.undo()
        #expect(try name() == "B text")
        #expect(try stack.undo()?.conflicts.map(\.kept) == ["B text"])
        #expect(try name() == "B text")
    }

    @Test func aWriteOutsideAnyBarrierInBetweenEndsTheRunToo() throws {
        try type("a")
        try fixture.execute("UPDATE items SET name = 'outside'")
        try type("b")
        #expect(stack.state.undo == ["Typing", "Typing"])
        try stack.undo()
        #expect(try name() == "outside")
    }

    @Test func anotherScopesEditOfAnotherColumnOfTheRowEndsTheRun() throws {
        let other = try fixture.engine.stack(id: "other")
        try type("a")
        try withUndoStack(other) {
            try undoable("Rate") { try fixture.execute("UPDATE items SET flag = 1") }
        }
        try type("b")
        #expect(stack.state.undo == ["Typing", "Typing"])
    }

    /// Another scope that moves the row to another key and another row into its key, in one
    /// action (a swap of keys), ends the run: the row typed into next is another row, though
    /// it holds the same text and the key's values net to what they were (model-based test,
    /// seed 2, step 3106).
    @Test func anotherScopesSwapOfTheRowsKeyEndsTheRun() throws {
        let other = try fixture.engine.stack(id: "other")
        try fixture.execute("INSERT INTO items(id, name) VALUES (2, 'a')")
        try type("a")
        try withUndoStack(other) {
            try undoable("Swap") {
                try fixture.execute(
                    """
                    UPDATE items SET id = 9 WHERE id = 1;
                    UPDATE items SET id = 1 WHERE id = 2;
                    UPDATE items SET id = 2 WHERE id = 9;
                    """)
            }
        }
        try type("b")
        #expect(stack.state.undo == ["Typing", "Typing"])
        try stack.undo()
        #expect(try fixture.rows() == [[1, "a", nil, 0], [2, "a", nil, 0]])
    }

    /// Another scope's undo of the row, made between two keystrokes, ends the run even once that
    /// scope's next action has dropped the undone step (its redo) from history, and with it the
    /// log that showed the undo (model-based test, seed 2, step 14556).
    @Test func anotherScopesUndoOfTheRowEndsTheRunAfterItsRedoIsDropped() throws {
        let other = try fixture.engine.stack(id: "other")
        try rateRowOne(on: other)
        try type("a")
        try other.undo()
        try addRowTwo(on: other)
        try expectTypingDoesNotMerge(after: other)
    }

    /// The same when the other scope's redo of the row leaves history because its list is
    /// trimmed to `levelsOfUndo`.
    @Test func anotherScopesRedoOfTheRowEndsTheRunAfterItIsTrimmed() throws {
        let other = try fixture.engine.stack(id: "other")
        other.levelsOfUndo = 1
        try rateRowOne(on: other)
        try other.undo()
        try type("a")
        try other.redo()
        try addRowTwo(on: other)
        try expectTypingDoesNotMerge(after: other)
    }

    /// Another scope's undo that sets back what an application's trigger wrote, in a row the
    /// run wrote too, changed nothing there: once that scope's next action drops the undo from
    /// history, the run still takes the next keystroke (model-based test, seed 3, step 8698).
    @Test func anotherScopesUndoThatSetBackATriggersWriteLeavesTheRunOpen() throws {
        let fixture = try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, flag INTEGER DEFAULT 0);
                CREATE TABLE edits(id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
                INSERT INTO edits VALUES (1, 0);
                INSERT INTO items(id, name) VALUES (1, ''), (2, '');
                CREATE TRIGGER items_edited AFTER UPDATE ON items BEGIN
                    UPDATE edits SET n = n + 1 WHERE id = 1;
                END;
                """, tables: ["items", "edits"])
        let typing = fixture.engine.defaultStack
        let other = try fixture.engine.stack(id: "other")
        func type(_ text: String) throws {
            try withUndoStack(typing) {
                try undoable("Typing", coalescing: "name") {
                    try fixture.execute(
                        "UPDATE items SET name = name || ? WHERE id = 1", [.text(text)])
                }
            }
        }
        try withUndoStack(other) {
            try undoable("Flag") { try fixture.execute("UPDATE items SET flag = 1 WHERE id = 2") }
        }
        try type("a")
        // Its trigger counts one more edit, which the undo sets back: the count is the run's.
        try other.undo()
        #expect(try fixture.rows("edits") == [[1, 2]])
        try withUndoStack(other) {
            try undoable("Add") { try fixture.execute("INSERT INTO items(id) VALUES (3)") }
        }
        #expect(other.state == UndoStackState(undo: ["Add"], redo: []))
        try type("b")
        #expect(typing.state.undo == ["Typing"])
        try typing.undo()
        #expect(try fixture.rows() == [[1, "", 0], [2, "", 0], [3, nil, 0]])
    }

    /// Another scope's action that changed a row the run wrote (a parent its trigger touched)
    /// and then left history ends the run only for keystrokes that write that row: the next one,
    /// whose trigger finds the parent's time as it is, still merges (model-based test, seed 9,
    /// step 17500).
    @Test func aDroppedChangeToAnotherRowOfTheRunLeavesTheRunOpen() throws {
        let fixture = try Fixture(
            schema: """
                CREATE TABLE clock(now INTEGER);
                INSERT INTO clock VALUES (1);
                CREATE TABLE parents(id INTEGER PRIMARY KEY, modifiedAt INTEGER);
                INSERT INTO parents VALUES (1, 0), (2, 0);
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, parentId INTEGER);
                INSERT INTO items VALUES (1, '', 1), (2, '', 1), (3, '', 2);
                CREATE TRIGGER items_touch_parent AFTER UPDATE ON items BEGIN
                    UPDATE parents SET modifiedAt = (SELECT now FROM clock)
                    WHERE id = NEW.parentId;
                END;
                """, tables: ["parents", "items"])
        let typing = fixture.engine.defaultStack
        let other = try fixture.engine.stack(id: "other")
        other.levelsOfUndo = 1
        func type(_ text: String) throws {
            try withUndoStack(typing) {
                try undoable("Typing", coalescing: "name") {
                    try fixture.execute(
                        "UPDATE items SET name = name || ? WHERE id = 1", [.text(text)])
                }
            }
        }
        func edit(_ id: Int64, _ name: String) throws {
            try withUndoStack(other) {
                try undoable("Edit") {
                    try fixture.execute(
                        "UPDATE items SET name = ? WHERE id = ?", [.text(name), .integer(id)])
                }
            }
        }
        try type("a")
        try fixture.execute("UPDATE clock SET now = 2")
        try edit(2, "other")
        // Trimmed to one level, the other scope's first edit leaves history with its log.
        try edit(3, "third")
        #expect(other.state == UndoStackState(undo: ["Edit"], redo: []))
        try type("b")
        #expect(typing.state.undo == ["Typing"])
        // The run's undo takes back its text; the parent's time is the other scope's.
        let undo = try #require(try typing.undo())
        #expect(undo.conflicts.map(\.table) == ["parents"])
        #expect(try fixture.rows("items") == [[1, "", 1], [2, "other", 1], [3, "third", 2]])
        #expect(try fixture.rows("parents") == [[1, 2], [2, 2]])
    }

    private func rateRowOne(on other: UndoStack) throws {
        try withUndoStack(other) {
            try undoable("Rate") { try fixture.execute("UPDATE items SET flag = 1 WHERE id = 1") }
        }
    }

    /// A new action on `other`, on another row: `other`'s redo list and its oldest steps beyond
    /// `levelsOfUndo` leave history.
    private func addRowTwo(on other: UndoStack) throws {
        try withUndoStack(other) {
            try undoable("Add") {
                try fixture.execute("INSERT INTO items(id, name) VALUES (2, '')")
            }
        }
    }

    /// After "a" was typed, and `other` changed row 1 and dropped that step: "b" starts a step of
    /// its own.
    private func expectTypingDoesNotMerge(after other: UndoStack) throws {
        #expect(other.state == UndoStackState(undo: ["Add"], redo: []))
        try type("b")
        #expect(stack.state.undo == ["Typing", "Typing"])
        try stack.undo()
        #expect(try name() == "a")
    }
}

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let seconds = Mutex<TimeInterval>(1_000_000)

    /// The current time, for `UndoEngine.clock`.
    var now: @Sendable () -> Date {
        { [self] in Date(timeIntervalSince1970: self.seconds.withLock { $0 }) }
    }

    func advance(by interval: TimeInterval) { seconds.withLock { $0 += interval } }
}
