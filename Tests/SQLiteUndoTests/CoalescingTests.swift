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
