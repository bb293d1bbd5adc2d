import Foundation
import SQLiteDatabase
import SQLiteUndo
import TestSupport
import Testing

/// A stack's history as a list of steps: names, times and the rows
/// each wrote, ids that stay the same through undo, redo and restarts, and going back or
/// forward to any step.
@Suite struct HistoryTests {
    /// An engine on a file (so a second engine can read it again), with three items.
    struct Notebook {
        let folder: TemporaryFolder
        let path: String
        var db: DatabaseQueue
        var engine: UndoEngine
        var clock = 1_000.0

        /// - Parameter stamps: with a trigger that writes a tracked row at every change of a
        ///   value, so that replays go row by row and file inverses.
        init(stamps: Bool = true) throws {
            folder = try TemporaryFolder(prefix: "history")
            path = folder.path("history.db")
            db = try DatabaseQueue(path: path)
            try db.write { db in
                try db.execute(
                    """
                    CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, value);
                    INSERT INTO items(id, name, value) VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0);
                    -- An application trigger writing a tracked row: replays are row by row, and
                    -- each files an inverse in its entry's place.
                    CREATE TABLE stamps(id INTEGER PRIMARY KEY, at INTEGER);
                    INSERT INTO stamps VALUES (1, 0);
                    """)
                if stamps {
                    try db.execute(
                        """
                        CREATE TRIGGER stamp AFTER UPDATE OF value ON items BEGIN
                            UPDATE stamps SET at = at + 1 WHERE id = 1;
                        END;
                        """)
                }
            }
            engine = try UndoEngine(for: db, tableNames: ["items", "stamps"])
        }

        /// A step on `stack` setting `value` of item `id`, at the engine time `at`.
        func set(_ id: Int64, to value: Int64, on stack: UndoStack, _ name: String, at time: Double)
            throws
        {
            engine.clock = { Date(timeIntervalSince1970: time) }
            try withUndoStack(stack) {
                try undoable(name) {
                    try db.write {
                        try $0.execute(
                            "UPDATE items SET value = ? WHERE id = ?",
                            [.integer(value), .integer(id)])
                    }
                }
            }
        }

        func values() throws -> [Int64] {
            try db.read { try $0.fetchAll(Int64.self, "SELECT value FROM items ORDER BY id") }
        }
    }

    @Test func stepsKeepTheirIdsNamesAndTimesThroughUndoRedoAndARestart() throws {
        var notebook = try Notebook()
        let pane = try notebook.engine.stack(id: "pane")
        let other = try notebook.engine.stack(id: "other")
        try notebook.set(1, to: 1, on: pane, "Set A", at: 1_000)
        try notebook.set(2, to: 2, on: pane, "Set B", at: 2_000)
        try notebook.set(3, to: 3, on: pane, "Set C", at: 3_000)
        let steps = Array(pane.history.undo)
        #expect(steps.map(\.name) == ["Set C", "Set B", "Set A"])
        #expect(steps.map(\.date.timeIntervalSince1970) == [3_000, 2_000, 1_000])
        #expect(Set(steps.map(\.id)).count == 3)
        #expect(try pane.rows(of: steps[1]).ids(forTable: "items") == [2])
        #expect(try pane.rows(of: steps[1]).ids(forTable: "stamps") == [1])
        #expect(try pane.rows(of: steps[1]).ids(forTable: "parts") == nil)
        // Another stack's later write, kept by the undos.
        try withUndoStack(other) {
            try undoable("Rename") {
                try notebook.db.write { try $0.execute("UPDATE items SET name = 'z' WHERE id = 3") }
            }
        }
        try pane.undo()
        // C's undo (row by row: the stamp trigger) filed an inverse that carries C's step.
        #expect(
            try notebook.db.read {
                try $0.fetchOne(
                    Int.self, "SELECT count(*) FROM sqliteundo_barriers WHERE step IS NOT NULL")
            } == 1)
        try pane.undo()
        #expect(Array(pane.history.redo) == [steps[1], steps[0]])
        #expect(Array(pane.history.undo) == [steps[2]])
        try pane.redo()
        #expect(Array(pane.history.undo) == [steps[1], steps[2]])
        #expect(Array(pane.history.redo) == [steps[0]])
        // A restart reads the same history from the file.
        notebook.db.close()
        notebook.db = try DatabaseQueue(path: notebook.path)
        notebook.engine = try UndoEngine(for: notebook.db, tableNames: ["items", "stamps"])
        let reopened = try notebook.engine.stack(id: "pane")
        #expect(Array(reopened.history.undo) == [steps[1], steps[2]])
        #expect(Array(reopened.history.redo) == [steps[0]])
        #expect(try reopened.rows(of: steps[0]).ids(forTable: "items") == [3])
    }

    @Test func goingBackAndForwardToAStep() throws {
        let notebook = try Notebook()
        let pane = try notebook.engine.stack(id: "pane")
        for (index, name) in ["One", "Two", "Three", "Four"].enumerated() {
            try notebook.set(
                Int64(index % 3 + 1), to: Int64(index + 1), on: pane, name, at: Double(index))
        }
        #expect(try notebook.values() == [4, 2, 3])
        let steps = Array(pane.history.undo)  // Four, Three, Two, One
        let back = try pane.undo(to: steps[3])
        #expect(back.map(\.name) == ["Four", "Three", "Two"])
        #expect(try notebook.values() == [1, 0, 0])
        #expect(Array(pane.history.undo) == [steps[3]])
        #expect(try pane.undo(to: steps[3]).isEmpty)
        let forward = try pane.redo(to: steps[1])
        #expect(forward.map(\.name) == ["Two", "Three"])
        #expect(try notebook.values() == [1, 2, 3])
        #expect(Array(pane.history.redo) == [steps[0]])
        // A step that is not on that list: an error, and nothing changes.
        #expect(throws: UndoError.stepNotFound("Four")) { try pane.undo(to: steps[0]) }
        #expect(throws: UndoError.stepNotFound("One")) { try pane.redo(to: steps[3]) }
        #expect(try notebook.values() == [1, 2, 3])
    }

    /// Redoing up to a step whose redo restores nothing (another stack changed since what its
    /// undo restored, so nothing is filed) stops there: the steps after it stay to redo.
    @Test func redoingToAStepThatRestoresNothingStopsThere() throws {
        let notebook = try Notebook(stamps: false)
        let pane = try notebook.engine.stack(id: "pane")
        let other = try notebook.engine.stack(id: "other")
        try notebook.set(1, to: 1, on: pane, "Rate 1", at: 1)
        try notebook.set(2, to: 2, on: pane, "Rate 2", at: 2)
        try pane.undo()
        try pane.undo()
        let steps = Array(pane.history.redo)  // Rate 1, Rate 2
        try notebook.set(1, to: 7, on: other, "Their rating", at: 3)
        let events = try pane.redo(to: steps[0])
        #expect(events.map(\.name) == ["Rate 1"])
        #expect(try notebook.values() == [7, 0, 0])
        #expect(pane.history.redo.map(\.name) == ["Rate 2"])
    }

    /// A preview of `undo(to:)` names who made the changes each undo would keep as the undos
    /// then do, a value an earlier undo of the same run wrote included.
    @Test func previewingUndosNamesWhatAnEarlierUndoOfTheRunWrote() throws {
        let notebook = try Notebook()
        let pane = try notebook.engine.stack(id: "pane")
        let other = try notebook.engine.stack(id: "other")
        try notebook.set(2, to: 1, on: pane, "Rate B", at: 1)
        try notebook.set(1, to: 1, on: pane, "Rate 1", at: 2)
        try notebook.set(1, to: 5, on: other, "Their rating", at: 3)
        try notebook.set(1, to: 6, on: pane, "Rate 6", at: 4)
        let target = try #require(pane.history.undo.last)  // Rate B
        let preview = try pane.previewUndo(to: target)
        let events = try pane.undo(to: target)
        // Rate 1's undo keeps the value (and the stamp) that Rate 6's undo, now on the redo
        // list, wrote back.
        #expect(events.map(\.name) == ["Rate 6", "Rate 1"])
        #expect(events.last?.conflicts.map(\.keptFrom) == ["pane", "pane"])
        #expect(preview == events)
    }

    @Test func theHistoryIsBoundedByLevelsOfUndo() throws {
        let notebook = try Notebook()
        let pane = try notebook.engine.stack(id: "pane")
        pane.levelsOfUndo = 3
        for index in 1...5 {
            try notebook.set(1, to: Int64(index), on: pane, "Set \(index)", at: Double(index))
        }
        #expect(pane.history.undo.map(\.name) == ["Set 5", "Set 4", "Set 3"])
        #expect(pane.history.redo.isEmpty)
    }

    /// Taking back one past step keeps every later one, and is itself a step Ctrl-Z undoes.
    @Test func takingBackAPastStepKeepsTheLaterOnes() throws {
        let notebook = try Notebook(stamps: false)
        let pane = try notebook.engine.stack(id: "pane")
        try notebook.set(1, to: 1, on: pane, "Rate 1", at: 1)
        try notebook.set(2, to: 2, on: pane, "Rate 2", at: 2)
        try notebook.set(3, to: 3, on: pane, "Rate 3", at: 3)
        let oldest = try #require(pane.history.undo.last)
        let event = try #require(try pane.revert(oldest))
        #expect(event.name == "Take back Rate 1")
        #expect(event.conflicts == [])
        #expect(event.ids(forTable: "items") == [1])
        #expect(try notebook.values() == [0, 2, 3])
        #expect(
            pane.history.undo.map(\.name) == ["Take back Rate 1", "Rate 3", "Rate 2", "Rate 1"])
        try pane.undo()
        #expect(try notebook.values() == [1, 2, 3])
        #expect(pane.history.redo.map(\.name) == ["Take back Rate 1"])
        try pane.redo()
        #expect(try notebook.values() == [0, 2, 3])
    }

    /// A later step of the same stack, or another stack's, changed what the step wrote: the
    /// take-back keeps it, says who changed it, and files nothing.
    @Test func aTakeBackKeepsWhatLaterStepsChanged() throws {
        let notebook = try Notebook(stamps: false)
        let pane = try notebook.engine.stack(id: "pane")
        let other = try notebook.engine.stack(id: "other")
        try notebook.set(1, to: 1, on: pane, "Rate 1", at: 1)
        try notebook.set(1, to: 5, on: pane, "Rate 1 again", at: 2)
        try notebook.set(2, to: 2, on: pane, "Rate 2", at: 3)
        try notebook.set(2, to: 7, on: other, "Their rating", at: 4)
        let steps = Array(pane.history.undo)  // Rate 2, Rate 1 again, Rate 1
        let first = try #require(try pane.revert(steps[2]))
        #expect(first.conflicts.map(\.keptFrom) == ["pane"])
        #expect(first.conflicts.map(\.column) == ["value"])
        let second = try #require(try pane.revert(steps[0]))
        #expect(second.conflicts.map(\.keptFrom) == ["other"])
        #expect(try notebook.values() == [5, 7, 0])
        #expect(pane.history.undo.map(\.name) == ["Rate 2", "Rate 1 again", "Rate 1"])
        // Another stack's step is not on this stack's list.
        let theirs = try #require(other.history.undo.first)
        #expect(throws: UndoError.stepNotFound("Their rating")) { try pane.revert(theirs) }
    }

    /// A preview says what a take-back or a going-back would do, and writes nothing.
    @Test func previewsWriteNothingAndSayWhatWouldHappen() throws {
        let notebook = try Notebook(stamps: false)
        let pane = try notebook.engine.stack(id: "pane")
        let other = try notebook.engine.stack(id: "other")
        try notebook.set(1, to: 1, on: pane, "Rate 1", at: 1)
        try notebook.set(2, to: 2, on: pane, "Rate 2", at: 2)
        try notebook.set(2, to: 7, on: other, "Their rating", at: 3)
        try notebook.set(3, to: 3, on: pane, "Rate 3", at: 4)
        let steps = Array(pane.history.undo)  // Rate 3, Rate 2, Rate 1
        let log = {
            try notebook.db.read {
                try $0.fetchAll(Int64.self, "SELECT seq FROM sqliteundo_log ORDER BY seq")
            }
        }
        let logBefore = try log()
        let preview = try pane.previewRevert(steps[2]) { db in
            try db.fetchAll(Int64.self, "SELECT value FROM items ORDER BY id")
        }
        #expect(preview.value == [0, 7, 3])
        #expect(preview.event.name == "Take back Rate 1")
        #expect(preview.event.ids(forTable: "items") == [1])
        #expect(try notebook.values() == [1, 7, 3])
        #expect(try log() == logBefore)
        #expect(Array(pane.history.undo) == steps)
        let keptPreview = try pane.previewRevert(steps[1]) { _ in () }
        #expect(!keptPreview.restores)
        #expect(preview.restores)
        let kept = keptPreview.event
        #expect(kept.conflicts.map(\.keptFrom) == ["other"])
        #expect(kept.ids(forTable: "items") == [2])  // touched, kept
        let back = try pane.previewUndo(to: steps[2])
        #expect(back.map(\.name) == ["Rate 3", "Rate 2"])
        #expect(back.map { $0.ids(forTable: "items") } == [[3], [2]])
        #expect(back[1].conflicts.map(\.keptFrom) == ["other"])
        #expect(try notebook.values() == [1, 7, 3])
        #expect(try log() == logBefore)
        #expect(try pane.previewUndo(to: steps[0]).isEmpty)
        #expect(throws: UndoError.stepNotFound("Their rating")) {
            try pane.previewUndo(to: try #require(other.history.undo.first))
        }
        // What the preview said is what happens.
        let done = try #require(try pane.revert(steps[2]))
        #expect(done == preview.event)
        #expect(
            try pane.undo(to: steps[2]).map(\.name) == ["Take back Rate 1", "Rate 3", "Rate 2"])
    }

    struct Item: Table { static let tableName = "items" }

    /// One row's history: the steps of every stack that wrote it, newest first, undone ones
    /// marked; and the values a step's rows held, for naming rows that are gone.
    @Test func aRowsHistoryListsEveryStacksSteps() throws {
        let notebook = try Notebook(stamps: false)
        let pane = try notebook.engine.stack(id: "pane")
        let other = try notebook.engine.stack(id: "other")
        try notebook.set(1, to: 1, on: pane, "Rate 1", at: 1)
        try notebook.set(2, to: 2, on: pane, "Rate 2", at: 2)
        try notebook.set(1, to: 7, on: other, "Their rating", at: 3)
        try notebook.set(1, to: 8, on: pane, "Rate 1 again", at: 4)
        try pane.undo()
        let history = try notebook.engine.history(of: Item.self, id: 1)
        #expect(history.map(\.step.name) == ["Rate 1 again", "Their rating", "Rate 1"])
        #expect(history.map(\.stackID) == ["pane", "other", "pane"])
        #expect(history.map(\.isUndone) == [true, false, false])
        #expect(
            history.map(\.step.id) == [
                pane.history.redo[0].id, other.history.undo[0].id, pane.history.undo[1].id,
            ])
        #expect(try notebook.engine.history(of: Item.self, id: 3).isEmpty)
        // A deleted row's values, from the step that deleted it, on either list.
        notebook.engine.clock = { Date(timeIntervalSince1970: 5) }
        try withUndoStack(pane) {
            try undoable("Delete") {
                try notebook.db.write { try $0.execute("DELETE FROM items WHERE id IN (2, 3)") }
            }
        }
        let delete = try #require(pane.history.undo.first)
        #expect(try pane.values(of: delete, column: "name", in: Item.self) == [2: "b", 3: "c"])
        #expect(try pane.values(of: delete, column: "NAME", in: Item.self) == [2: "b", 3: "c"])
        try pane.undo()
        #expect(try pane.values(of: delete, column: "name", in: Item.self) == [2: "b", 3: "c"])
        #expect(try pane.values(of: delete, column: "nothing", in: Item.self) == [:])
        let rate = try #require(pane.history.undo.first)  // Rate 2: the value it changed
        #expect(try pane.values(of: rate, column: "value", in: Item.self) == [2: 0])
        // Another stack's step, taken back by this one: a step of this stack; the owner's step
        // stays, and its undo finds the value already back.
        let theirs = try #require(other.history.undo.first)
        let preview = try pane.previewRevert(theirs, of: other) { _ in () }
        #expect(preview.restores)
        #expect(try pane.revert(theirs, of: other) == preview.event)
        #expect(try notebook.values() == [1, 2, 0])
        #expect(pane.history.undo.first?.name == "Take back Their rating")
        #expect(other.history.undo.map(\.name) == ["Their rating"])
        try other.undo()
        #expect(try notebook.values() == [1, 2, 0])
        #expect(try pane.previewRevert(rate) { _ in () }.restores)
    }

    /// Two programs on one file, each with its stack, take back each other's steps: each reads
    /// the other's lists as the file has them at the take-back, not as it first read them. The
    /// other's later steps, and a step it undid and redid since (by a replay that filed it anew),
    /// can still be taken back, from both sides, however often.
    @Test func twoProgramsTakeBackEachOthersStepsAsTheFileHasThem() throws {
        let first = try Notebook()
        let firstPane = try first.engine.stack(id: "first")
        var second = first
        second.db = try DatabaseQueue(path: first.path)
        second.engine = try UndoEngine(for: second.db, tableNames: ["items", "stamps"])
        let secondPane = try second.engine.stack(id: "second")
        try first.set(1, to: 1, on: firstPane, "First 1", at: 1)
        try second.set(2, to: 2, on: secondPane, "Second 2", at: 2)
        // Each reads the other's stack once, through a row's history.
        let firstsView = try first.engine.stack(id: "second")
        let secondsView = try second.engine.stack(id: "first")
        #expect(secondsView.history.undo.map(\.name) == ["First 1"])
        #expect(firstsView.history.undo.map(\.name) == ["Second 2"])
        // Then each acts again, on one row; the first undoes and redoes its step (a replay row
        // by row, which files the step in a new entry).
        try second.set(3, to: 4, on: secondPane, "Second 3", at: 3)
        try first.set(3, to: 3, on: firstPane, "First 3", at: 4)
        try firstPane.undo()
        try firstPane.redo()
        #expect(try first.values() == [1, 2, 3])
        // Each takes back the other's first step, then the second the first's later one, which
        // it had never read.
        let firstOne = try #require(try first.engine.history(of: Item.self, id: 1).first)
        _ = try #require(try secondPane.revert(firstOne.step, of: secondsView))
        let secondTwo = try #require(try second.engine.history(of: Item.self, id: 2).first)
        _ = try #require(try firstPane.revert(secondTwo.step, of: firstsView))
        #expect(try first.values() == [0, 0, 3])
        let rowThree = try second.engine.history(of: Item.self, id: 3)
        #expect(rowThree.map(\.step.name) == ["First 3", "Second 3"])
        let event = try #require(try secondPane.revert(rowThree[0].step, of: secondsView))
        #expect(event.conflicts.isEmpty)
        #expect(try first.values() == [0, 0, 4])
        // The second's view of the first's stack is as the file has it now.
        #expect(
            secondsView.history.undo.map(\.name) == ["Take back Second 2", "First 3", "First 1"])
    }

    /// A row an undo re-created, whose log left history with the redo list at the log's end,
    /// and a later change to it: an undo that keeps that change names the stack that made it.
    /// (The log's last rows deleted, their `seq`s were given again to later changes, which then
    /// read as older than the re-creation `sqliteundo_retired_moves` keeps at those `seq`s: the
    /// log now keeps its highest `seq`, `UndoLogSchema.keepingHighestSeq`.)
    @Test func aChangeToARowAnUndoneDeleteBroughtBackIsNamed() throws {
        let notebook = try Notebook(stamps: false)
        let pane = try notebook.engine.stack(id: "pane")
        let other = try notebook.engine.stack(id: "other")
        let third = try notebook.engine.stack(id: "third")
        func write(_ sql: String, on stack: UndoStack, _ name: String) throws {
            try withUndoStack(stack) {
                try undoable(name) { try notebook.db.write { try $0.execute(sql) } }
            }
        }
        try write("UPDATE items SET name = 't' WHERE id = 2", on: third, "Name")
        try write(
            "DELETE FROM items WHERE id = 2; DELETE FROM items WHERE id = 3;"
                + " UPDATE items SET value = 1 WHERE id = 1", on: pane, "Delete")
        // Kept by the undo below, which then records its inverse at the log's end.
        try write("UPDATE items SET value = 5 WHERE id = 1", on: other, "Rate")
        try withUndoStack(pane) {
            try undoable("Edit") {
                try notebook.db.write { try $0.execute("UPDATE items SET name = 'e' WHERE id = 1") }
                // The delete undone meanwhile; its inverse leaves history as "Edit" registers.
                try pane.undo()
            }
        }
        #expect(pane.history.redo.isEmpty)
        try write("UPDATE items SET name = 'z' WHERE id = 2", on: other, "Rename")
        let event = try #require(try third.undo())
        #expect(event.conflicts.map(\.column) == ["name"])
        #expect(event.conflicts.map(\.keptFrom) == ["other"])
    }
}
