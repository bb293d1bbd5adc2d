import SQLiteDatabase
import Testing

@testable import SQLiteUndo

/// The reads an undo makes to follow a row another action moved to another key. The check for
/// a later key change, and the key changes since the step, are read through the log's index of
/// key changes; only when one of them moved a row of the step are the inserts and deletes since
/// read too, by a range of the log's `seq`.
@Suite struct KeyMoveReadTests {
    /// No statement reading the key changes after an entry scans the log or builds an automatic
    /// index over it: each reads through an index or by a range of `seq` (the check for a later
    /// key change built an automatic index over the log at every undo once an undone step was
    /// in history).
    @Test func keyChangesAfterAStepAreReadThroughIndexesOrRanges() throws {
        let fixture = try Fixture()
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b')")
        let stack = fixture.engine.defaultStack
        try undoable("Rename") { try fixture.execute("UPDATE items SET name = 'x' WHERE id = 1") }
        try undoable("Move") { try fixture.execute("UPDATE items SET id = 3 WHERE id = 2") }
        try undoable("Remove") { try fixture.execute("DELETE FROM items WHERE id = 1") }
        _ = try stack.undo()
        let since: [SQLiteValue] = [.integer(1), .real(0), .integer(0)]
        let arguments = [Array(since.prefix(2)), since, since, since]
        let statements = UndoLogSchema.keyMoveReads
        #expect(statements.count == 9)
        let plans = try fixture.db.read { db in
            try zip(statements, arguments + arguments + [[.integer(1), .text("[1]")]]).map {
                statement, arguments in
                try db.fetchAll(Row.self, "EXPLAIN QUERY PLAN \(statement)", arguments).map {
                    try $0.decode(at: 3, as: String.self)
                }
            }
        }
        for plan in plans {
            #expect(!plan.isEmpty)
            // The tables' list (a JSON array) is the one thing read whole.
            let scans = plan.filter { $0.hasPrefix("SCAN") && !$0.hasPrefix("SCAN json_each") }
            #expect(scans == [])
            #expect(!plan.contains { $0.contains("AUTOMATIC") })
        }
    }
}
