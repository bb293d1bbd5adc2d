import Foundation
import SQLiteDatabase
import Synchronization
import TestSupport
import Testing

@testable import SQLiteUndo

/// The history as a tree: a new action after undos keeps the undone steps as a branch, which
/// `go(to:)` reaches and `back(inTime:)`/`forward(inTime:)` walk in the order steps were done.
@Suite struct UndoTreeTests {
    let folder: TemporaryFolder
    var path: String { folder.path("tree.db") }

    init() throws {
        folder = try TemporaryFolder(prefix: "tree")
    }

    struct Notebook {
        let db: DatabaseQueue
        let engine: UndoEngine
        let pane: UndoStack

        /// Sets item 1's value in one action of `stack` (the pane's by default).
        func rate(_ value: Int64, on stack: UndoStack? = nil) throws {
            try withUndoStack(stack ?? pane) {
                try undoable("Rate \(value)") {
                    try db.write {
                        try $0.execute("UPDATE items SET value = ? WHERE id = 1", [.integer(value)])
                    }
                }
            }
        }

        func add(_ name: String) throws {
            try withUndoStack(pane) {
                try undoable(name) {
                    try db.write {
                        try $0.execute("INSERT INTO items(name) VALUES (?)", [.text(name)])
                    }
                }
            }
        }

        var value: Int64? {
            get throws {
                try db.read { try $0.fetchOne(Int64.self, "SELECT value FROM items WHERE id = 1") }
            }
        }

        var names: [String] {
            get throws {
                try db.read {
                    try $0.fetchAll(String.self, "SELECT name FROM items WHERE id > 1 ORDER BY id")
                }
            }
        }
    }

    /// Opens the file (made on first use, with item 1 at value 0) with an engine and the pane.
    func open() throws -> Notebook {
        let db = try DatabaseQueue(path: path)
        try db.write {
            try $0.execute(
                """
                CREATE TABLE IF NOT EXISTS items(id INTEGER PRIMARY KEY, name TEXT, value);
                INSERT OR IGNORE INTO items(id, name, value) VALUES (1, 'item', 0);
                """)
        }
        let engine = try UndoEngine(for: db, tableNames: ["items"])
        return Notebook(db: db, engine: engine, pane: try engine.stack(id: "pane-1"))
    }

    /// Rates 1, 2, 3, undoes twice and rates 5: the steps 3 and 2 are a branch.
    func rateWithABranch(_ notebook: Notebook) throws {
        for value: Int64 in [1, 2, 3] { try notebook.rate(value) }
        try notebook.pane.undo()
        try notebook.pane.undo()
        try notebook.rate(5)
    }

    /// A clock set back between steps (by hand, by the network's time) leaves the order steps
    /// were done in: a step done after the newest is stamped no earlier than it, also when the
    /// file is opened again.
    @Test func aClockSetBackKeepsTheOrderStepsWereDoneIn() throws {
        var notebook = try open()
        let clock = Mutex(Date(timeIntervalSince1970: 1_000_000))
        let setClock = { (engine: UndoEngine) in engine.clock = { clock.withLock { $0 } } }
        setClock(notebook.engine)
        try notebook.rate(1)
        clock.withLock { $0 -= 3600 }
        try notebook.rate(2)
        let names = { notebook.pane.history.inTimeOrder.map(\.name) }
        #expect(names() == ["Rate 1", "Rate 2"])
        try notebook.pane.back(inTime: 1)
        #expect(try notebook.value == 1)
        try notebook.pane.forward(inTime: 1)
        #expect(try notebook.value == 2)
        // Opened again, with the clock further back.
        notebook.db.close()
        notebook = try open()
        setClock(notebook.engine)
        clock.withLock { $0 -= 3600 }
        try notebook.rate(3)
        #expect(names() == ["Rate 1", "Rate 2", "Rate 3"])
        try notebook.pane.back(inTime: 1)
        #expect(try notebook.value == 2)
    }

    @Test func backAndForwardInTimeWalkEveryStateInTheOrderItWasDone() throws {
        let notebook = try open()
        try rateWithABranch(notebook)
        #expect(try notebook.value == 5)
        var back: [Int64?] = []
        for _ in 0..<4 {
            try notebook.pane.back(inTime: 1)
            back.append(try notebook.value)
        }
        #expect(back == [3, 2, 1, 0])
        #expect(try notebook.pane.back(inTime: 1).isEmpty)
        #expect(!notebook.pane.canGoBackInTime)
        var forward: [Int64?] = []
        for _ in 0..<4 {
            try notebook.pane.forward(inTime: 1)
            forward.append(try notebook.value)
        }
        #expect(forward == [1, 2, 3, 5])
        #expect(!notebook.pane.canGoForwardInTime)
        #expect(try notebook.pane.forward(inTime: 1).isEmpty)
        // Several states at once.
        try notebook.pane.back(inTime: 3)
        #expect(try notebook.value == 1)
        try notebook.pane.forward(inTime: 2)
        #expect(try notebook.value == 3)
    }

    @Test func goingToAStepOfAnotherBranchUndoesToTheForkAndRedoesDownIt() throws {
        let notebook = try open()
        for name in ["A", "B", "C"] { try notebook.add(name) }
        try notebook.pane.undo()
        try notebook.pane.undo()
        try notebook.add("D")
        try notebook.add("E")
        let history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["E", "D", "A"])
        #expect(history.kept.map(\.name) == ["C", "B"])
        #expect(history.branches.count == 1)
        #expect(history.branches.first?.fork == .undo(2))
        #expect(history.branches.first?.steps.map(\.name) == ["C", "B"])
        #expect(history.inTimeOrder.map(\.name) == ["A", "B", "C", "D", "E"])
        let c = history.kept[0]
        let events = try notebook.pane.go(to: c)
        #expect(events.map { "\($0.kind) \($0.name)" } == ["undo E", "undo D", "redo B", "redo C"])
        #expect(try notebook.names == ["A", "B", "C"])
        let there = notebook.pane.history
        #expect(there.current?.id == c.id)
        #expect(there.undo.map(\.name) == ["C", "B", "A"])
        #expect(there.redo.isEmpty)
        #expect(there.kept.map(\.name) == ["E", "D"])
        // And back to the other branch, by a step in its middle.
        let d = there.kept[1]
        try notebook.pane.go(to: d)
        #expect(try notebook.names == ["A", "D"])
        #expect(notebook.pane.history.redo.map(\.name) == [])
        #expect(notebook.pane.history.kept.map(\.name) == ["E", "C", "B"])
        // Two states back in time is B, on the other branch; then the history's start.
        try notebook.pane.back(inTime: 2)
        #expect(try notebook.names == ["A", "B"])
        try notebook.pane.back(inTime: 5)
        #expect(try notebook.names == [])
        // A step the history does not have.
        #expect(throws: UndoError.stepNotFound("D")) {
            try Notebook(
                db: notebook.db, engine: notebook.engine, pane: notebook.engine.defaultStack
            )
            .pane.go(to: d)
        }
    }

    /// A step that leaves history from the middle of it (its undo restored nothing: another
    /// stack changed all it wrote) hands the steps done on it to the step it was done on.
    @Test func aBranchDoneOnAStepThatLeftForksWhereThatStepDid() throws {
        let notebook = try open()
        let other = try notebook.engine.stack(id: "pane-2")
        try notebook.rate(1)  // P
        try notebook.rate(2)  // T
        try notebook.add("X")  // done on T
        try notebook.pane.undo()
        try notebook.add("Y")  // done on T: X is kept
        try notebook.pane.undo()
        try notebook.rate(9, on: other)
        let undone = try notebook.pane.undo()  // T: its value changed since, it restores nothing
        #expect(undone?.conflicts.map(\.kept) == [.integer(9)])
        let history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["Rate 1"])
        #expect(history.kept.map(\.name) == ["X"])
        #expect(history.kept.first?.parent == history.undo.first?.id)
        #expect(history.redo.first?.parent == history.undo.first?.id)
        #expect(history.branches.first?.fork == .undo(0))
        // Going to X redoes X alone, on P: the rating P did is not undone.
        let events = try notebook.pane.go(to: try #require(history.kept.first))
        #expect(events.map { "\($0.kind) \($0.name)" } == ["redo X"])
        #expect(notebook.pane.history.undo.map(\.name) == ["X", "Rate 1"])
        #expect(try notebook.names == ["X"])
    }

    @Test func aPreviewOfGoingToABranchWritesNothing() throws {
        let notebook = try open()
        try rateWithABranch(notebook)
        let before = notebook.pane.history
        let three = try #require(before.kept.first { $0.name == "Rate 3" })
        let preview = try notebook.pane.previewGo(to: three)
        #expect(
            preview.map { "\($0.kind) \($0.name)" } == [
                "undo Rate 5", "redo Rate 2", "redo Rate 3",
            ])
        #expect(try notebook.value == 5)
        let after = notebook.pane.history
        #expect(after.undo.map(\.id) == before.undo.map(\.id))
        #expect(after.kept.map(\.id) == before.kept.map(\.id))
        #expect(after.redo.isEmpty)
        // What the preview said is what going there does.
        let events = try notebook.pane.go(to: three)
        #expect(events == preview)
        #expect(try notebook.value == 3)
    }

    @Test func theTreeComesBackAfterAReopen() throws {
        do {
            try rateWithABranch(try open())
        }
        let notebook = try open()
        let history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["Rate 5", "Rate 1"])
        #expect(history.kept.map(\.name) == ["Rate 3", "Rate 2"])
        try notebook.pane.go(to: history.kept[0])
        #expect(try notebook.value == 3)
        try notebook.pane.forward(inTime: 1)
        #expect(try notebook.value == 5)
    }

    @Test func anotherStacksLaterEditIsKeptOnTheWayToABranch() throws {
        let notebook = try open()
        let other = try notebook.engine.stack(id: "pane-2")
        try rateWithABranch(notebook)
        try notebook.pane.undo()
        // Rating 1 is the current state: another pane rates 4 since.
        try notebook.rate(4, on: other)
        let kept = notebook.pane.history.kept.first { $0.name == "Rate 3" }
        let events = try notebook.pane.go(to: try #require(kept))
        #expect(events.map(\.name) == ["Rate 2", "Rate 3"])
        #expect(try notebook.value == 4)
        let conflict = try #require(events.first?.conflicts.first)
        #expect(conflict.column == "value" && conflict.kept == .integer(4))
        #expect(conflict.keptFrom == "pane-2")
    }

    @Test func boundsCountTheWholeTreeAndDropTheOldestBranchStepsFirst() throws {
        let notebook = try open()
        notebook.pane.levelsOfUndo = 4
        try notebook.add("A")
        try notebook.add("B")
        try notebook.pane.undo()
        try notebook.add("C")
        try notebook.pane.undo()
        try notebook.add("D")
        var history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["D", "A"])
        #expect(history.kept.map(\.name) == ["C", "B"])
        try notebook.add("E")
        history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["E", "D", "A"])
        #expect(history.kept.map(\.name) == ["C"])
        try notebook.add("F")
        try notebook.add("G")
        history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["G", "F", "E", "D"])
        #expect(history.kept.isEmpty)
        // Four steps' log rows, nothing of the dropped ones.
        let logRows = try notebook.db.read {
            try $0.fetchOne(Int.self, "SELECT count(*) FROM sqliteundo_log WHERE barrier != 0")
        }
        #expect(logRows == 4)
    }

    @Test func aBranchDropsTheStepsDoneOnItsDroppedStep() throws {
        let notebook = try open()
        notebook.pane.levelsOfUndo = 4
        try notebook.add("A")
        try notebook.add("B")
        try notebook.add("C")
        try notebook.pane.undo()
        try notebook.pane.undo()
        try notebook.add("D")
        // B then C, done on B, are the branch: dropping B drops C.
        try notebook.add("E")
        let history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["E", "D", "A"])
        #expect(history.kept.isEmpty)
    }

    struct Refused: Error {}

    /// Adds A and B and undoes B, then runs an action "X" on the pane whose block commits `sql`,
    /// runs `meanwhile` and throws.
    func throwAfterCommitting(_ sql: String, meanwhile: (UndoStack) throws -> Void = { _ in })
        throws
        -> Notebook
    {
        let notebook = try open()
        try notebook.add("A")
        try notebook.add("B")
        try notebook.pane.undo()
        #expect(throws: Refused.self) {
            try withUndoStack(notebook.pane) {
                try undoable("X") {
                    try notebook.db.write { try $0.execute(sql) }
                    try meanwhile(notebook.pane)
                    throw Refused()
                }
            }
        }
        return notebook
    }

    @Test func anActionWhoseBlockThrowsPutsTheRedoListBack() throws {
        let notebook = try throwAfterCommitting("INSERT INTO items(name) VALUES ('X')")
        #expect(notebook.pane.state == UndoStackState(undo: ["A"], redo: ["B"]))
        #expect(notebook.pane.history.kept.isEmpty)
        let reopened = try open()
        #expect(reopened.pane.state == UndoStackState(undo: ["A"], redo: ["B"]))
    }

    /// The lists read again from the file while the block runs (after a failed replay, for
    /// one) count the redo entries it set aside as kept: its throwing still puts them back.
    @Test func aBlockThatThrowsAfterTheListsWereReadAgainPutsTheRedoListBack() throws {
        let notebook = try throwAfterCommitting("UPDATE items SET value = 7 WHERE id = 1") {
            pane in
            try pane.reload()
            #expect(pane.history.kept.map(\.name) == ["B"])
        }
        #expect(notebook.pane.state == UndoStackState(undo: ["A"], redo: ["B"]))
        #expect(notebook.pane.history.kept.isEmpty)
        // The block's committed write stays, recorded nowhere; B is redone beside it.
        #expect(try notebook.pane.redo()?.name == "B")
        #expect(try notebook.names == ["A", "B"])
        #expect(try notebook.value == 7)
    }

    @Test func aFileFromBeforeTheTreeGetsItsStepsParentsFromItsLists() throws {
        do {
            let notebook = try open()
            for name in ["A", "B", "C"] { try notebook.add(name) }
            try notebook.pane.undo()
            try notebook.db.write {
                try $0.execute(
                    """
                    ALTER TABLE sqliteundo_barriers DROP COLUMN parentStep;
                    ALTER TABLE sqliteundo_barriers DROP COLUMN takesBack;
                    DELETE FROM sqliteundo_migrations WHERE name = 'sqliteundo-15-tree';
                    """)
            }
        }
        let notebook = try open()
        let history = notebook.pane.history
        #expect(history.undo.map(\.name) == ["B", "A"])
        #expect(history.undo.map(\.parent) == [history.undo[1].id, nil])
        #expect(history.redo.map(\.parent) == [history.undo[0].id])
        try notebook.add("D")
        try notebook.pane.go(to: try #require(notebook.pane.history.kept.first))
        #expect(try notebook.names == ["A", "B", "C"])
    }
}
