import SQLiteDatabase
import SQLiteUndo
import Testing

/// An undo that restores everything exactly records nothing new: the barrier, read the other way,
/// becomes its own redo. Anything less exact records the replay instead.
@Suite struct ExactReplayTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
        try fixture.execute(
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100) "
                + "INSERT INTO items(id, name, value) SELECT x, 'item ' || x, x FROM n")
    }

    func barrierRows() throws -> [[SQLiteValue]] {
        try fixture.db.read {
            try $0.fetchAll(Row.self, "SELECT list, inverted FROM sqliteundo_barriers ORDER BY id")
                .map(\.values)
        }
    }

    @Test func exactUndoFlipsTheBarrierInsteadOfRecordingTheReplay() throws {
        let before = try fixture.rows()
        try undoable("Bulk") { try fixture.execute("UPDATE items SET value = value * 2, flag = 1") }
        let after = try fixture.rows()
        #expect(try fixture.logCount() == 100)
        try stack.undo()
        #expect(try fixture.rows() == before)
        #expect(try fixture.logCount() == 100)
        #expect(try barrierRows() == [[1, 1]])
        try stack.redo()
        #expect(try fixture.rows() == after)
        #expect(try barrierRows() == [[0, 0]])
        #expect(try fixture.logCount() == 100)
    }

    @Test func exactUndoOfADeleteAndItsRedo() throws {
        let before = try fixture.rows()
        try undoable("Delete Some") { try fixture.execute("DELETE FROM items WHERE id % 10 = 0") }
        let after = try fixture.rows()
        let undo = try stack.undo()
        #expect(try fixture.rows() == before)
        #expect(undo?.ids(forTable: "items") == Set(stride(from: 10, through: 100, by: 10)))
        #expect(try barrierRows() == [[1, 1]])
        try stack.redo()
        #expect(try fixture.rows() == after)
        try stack.undo()
        #expect(try fixture.rows() == before)
    }

    @Test func redoOfAFlippedBarrierKeepsALaterChange() throws {
        try undoable("Rename") {
            try fixture.execute("UPDATE items SET name = 'renamed' WHERE id <= 2")
        }
        try stack.undo()  // exact: flipped
        try fixture.execute("UPDATE items SET name = 'theirs' WHERE id = 2")
        let redo = try stack.redo()
        #expect(try fixture.rows().prefix(2).map { $0[1] } == ["renamed", "theirs"])
        #expect(
            redo?.conflicts == [
                UndoConflict(table: "items", rowid: 2, column: "name", kept: "theirs")
            ])
    }

    @Test func undoMeetingAConflictRecordsTheReplayForRedo() throws {
        try undoable("Rename") {
            try fixture.execute("UPDATE items SET name = 'mine' WHERE id <= 2")
        }
        try fixture.execute("UPDATE items SET name = 'theirs' WHERE id = 1")
        let undo = try stack.undo()
        #expect(undo?.conflicts.count == 1)
        #expect(try fixture.rows().prefix(2).map { $0[1] } == ["theirs", "item 2"])
        // Only the row the undo changed is in the redo.
        #expect(try fixture.logCount() == 1)
        try stack.redo()
        #expect(try fixture.rows().prefix(2).map { $0[1] } == ["theirs", "mine"])
    }
}
