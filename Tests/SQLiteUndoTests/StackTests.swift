import SQLiteDatabase
import SQLiteUndo
import Synchronization
import Testing

final class EventLog: Sendable {
    let events = Mutex<[UndoEvent]>([])
    func record(_ event: UndoEvent) { events.withLock { $0.append(event) } }
    var all: [UndoEvent] { events.withLock { $0 } }
}

@Suite struct StackTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
    }

    func insert(_ name: String, on stack: UndoStack? = nil) throws {
        try withUndoStack(stack ?? self.stack) {
            try undoable(name) {
                try fixture.execute("INSERT INTO items(name) VALUES (?)", [.text(name)])
            }
        }
    }

    @Test func stateTransitions() throws {
        try insert("A")
        #expect(stack.state == UndoStackState(undo: ["A"], redo: []))
        try insert("B")
        #expect(stack.state == UndoStackState(undo: ["B", "A"], redo: []))
        try stack.undo()
        #expect(stack.state == UndoStackState(undo: ["A"], redo: ["B"]))
        #expect(stack.redoActionName == "B")
        try stack.redo()
        #expect(stack.state == UndoStackState(undo: ["B", "A"], redo: []))
        try stack.undo()
        try insert("C")
        #expect(stack.state == UndoStackState(undo: ["C", "A"], redo: []))
        #expect(try fixture.rows().map { $0[1] } == ["A", "C"])
    }

    @Test func aNewBarrierKeepsTheRedoListAsABranch() throws {
        try insert("A")
        try insert("B")
        try stack.undo()
        // A's insert and B's insert, undone exactly: its log, read the other way, is its redo.
        #expect(try fixture.logCount() == 2)
        #expect(try fixture.rows().map { $0[1] } == ["A"])
        try insert("C")
        #expect(try fixture.logCount() == 3)  // A, C, and B kept
        let history = stack.history
        #expect(history.kept.map(\.name) == ["B"])
        #expect(history.redo.isEmpty)
        #expect(history.current?.name == "C")
        #expect(history.current?.parent == history.undo.last?.id)
        #expect(history.kept.first?.parent == history.undo.last?.id)
    }

    @Test func undoAndRedoWithNothingReturnNil() throws {
        #expect(try stack.undo() == nil)
        #expect(try stack.redo() == nil)
        #expect(stack.canUndo == false && stack.canRedo == false)
    }

    @Test func stacksUndoOnlyTheirOwnBarriers() throws {
        let paneA = try fixture.engine.stack(id: "A")
        let paneB = try fixture.engine.stack(id: "B")
        try insert("a1", on: paneA)
        try insert("b1", on: paneB)
        try insert("a2", on: paneA)
        try paneB.undo()
        #expect(try fixture.rows().map { $0[1] } == ["a1", "a2"])
        #expect(try paneB.undo() == nil)
        try paneA.undo()
        #expect(try fixture.rows().map { $0[1] } == ["a1"])
        #expect(paneA.state == UndoStackState(undo: ["a1"], redo: ["a2"]))
        #expect(paneB.state == UndoStackState(undo: [], redo: ["b1"]))
    }

    @Test func eventsReachOnlyThePerformingStacksSubscribers() async throws {
        let paneA = try fixture.engine.stack(id: "A")
        let paneB = try fixture.engine.stack(id: "B")
        let logA1 = EventLog()
        let logA2 = EventLog()
        let logB = EventLog()
        let observations = [
            paneA.observe(logA1.record), paneA.observe(logA2.record), paneB.observe(logB.record),
        ]
        let stream = paneA.events()
        try insert("a", on: paneA)
        // Required: without an event, awaiting the stream below would never return.
        let undo = try #require(try paneA.undo())
        let expected = UndoEvent(
            kind: .undo, name: "a", affectedRows: ["items": [1]], conflicts: [])
        #expect(undo == expected)
        #expect(logA1.all == [expected])
        #expect(logA2.all == [expected])
        #expect(logB.all == [])
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == expected)
        withExtendedLifetime(observations) {}
    }

    @Test func eventsAreNotReplayedToLaterSubscribers() async throws {
        try insert("a")
        try stack.undo()
        let late = EventLog()
        let observation = stack.observe(late.record)
        let stream = stack.events()
        // Required: without an event, awaiting the stream below would never return.
        _ = try #require(try stack.redo())
        #expect(late.all.map(\.kind) == [.redo])
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .redo)
        withExtendedLifetime(observation) {}
    }

    @Test func cancelledObserverHearsNothing() throws {
        let log = EventLog()
        let observation = stack.observe(log.record)
        observation.cancel()
        try insert("a")
        try stack.undo()
        #expect(log.all == [])
    }

    @Test func idsForAMultiRowBarrier() throws {
        try undoable("Batch") {
            try fixture.execute(
                "INSERT INTO items(id, name) VALUES (10, 'x'), (11, 'y'), (12, 'z')")
            try fixture.execute("INSERT INTO parts(id, itemId) VALUES (5, 10)")
        }
        let event = try #require(try stack.undo())
        #expect(event.ids(forTable: "items") == [10, 11, 12])
        #expect(event.ids(forTable: "parts") == [5])
        #expect(event.ids(forTable: "missing") == nil)
    }
}
