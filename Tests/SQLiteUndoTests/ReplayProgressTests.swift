import SQLiteDatabase
import SQLiteUndo
import Testing

/// A long undo, redo or take-back tells its caller how far it has come, so that an app can show
/// it. The reports come from SQLite's own progress (every few thousand steps of its virtual
/// machine), so with an interval of zero they do not depend on the clock.
struct ReplayProgressTests {
    /// An item deleted with its 2,000 parts by ON DELETE CASCADE, in one step.
    private static func deletedParent() throws -> (Fixture, before: [[SQLiteValue]], logged: Int) {
        let fixture = try Fixture()
        try fixture.execute(
            """
            INSERT INTO items(id, name, value) VALUES (1, 'parent', 0);
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000)
            INSERT INTO parts(itemId, label) SELECT 1, 'part ' || x FROM n;
            """)
        let before = try fixture.rows("parts")
        try undoable("Delete Parent") { try fixture.execute("DELETE FROM items WHERE id = 1") }
        return (fixture, before, try fixture.logCount())
    }

    /// The reports of one replay: its name, the rows it logged, and rows done that grow from
    /// below the total, never past it.
    private static func expectSteady(_ reports: [ReplayProgress], name: String, total: Int) {
        #expect(reports.count >= 3)
        #expect(reports.allSatisfy { $0.name == name && $0.rowsTotal == total })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.rowsDone <= $1.rowsDone })
        #expect(reports.allSatisfy { $0.rowsDone <= $0.rowsTotal })
        #expect(reports.contains { $0.rowsDone > 0 && $0.rowsDone < total })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.elapsed <= $1.elapsed })
    }

    @Test func anUndoAndItsRedoReportTheirRowsAsTheyGo() throws {
        let (fixture, before, logged) = try Self.deletedParent()
        #expect(logged == 2001)
        let stack = fixture.engine.defaultStack
        var reports: [ReplayProgress] = []
        let undo = try #require(try stack.undo(reportingEvery: .zero) { reports.append($0) })
        #expect(undo.name == "Delete Parent")
        #expect(try fixture.rows("parts") == before)
        Self.expectSteady(reports, name: "Delete Parent", total: 2001)

        reports = []
        try stack.redo(reportingEvery: .zero) { reports.append($0) }
        #expect(try fixture.rows("parts").isEmpty && fixture.rows().isEmpty)
        Self.expectSteady(reports, name: "Delete Parent", total: 2001)
    }

    @Test func goingToAStepAndTakingOneBackReportToo() throws {
        let (fixture, before, _) = try Self.deletedParent()
        let stack = fixture.engine.defaultStack
        try undoable("Add Item") {
            try fixture.execute("INSERT INTO items(id, name) VALUES (5, 'other')")
        }
        let deletion = try #require(stack.history.undo.last)
        #expect(deletion.name == "Delete Parent")

        var reports: [ReplayProgress] = []
        try stack.revert(deletion, reportingEvery: .zero) { reports.append($0) }
        #expect(try fixture.rows("parts") == before)
        Self.expectSteady(reports, name: "Delete Parent", total: 2001)

        // Both steps undone, then redone up to the added item: the deletion reports as it goes.
        try stack.undo()
        try stack.undo()
        try stack.undo()
        #expect(try fixture.rows("parts") == before)
        let adding = try #require(stack.history.redo.first { $0.name == "Add Item" })
        reports = []
        let events = try stack.redo(to: adding, reportingEvery: .zero) { reports.append($0) }
        #expect(events.map(\.name) == ["Delete Parent", "Add Item"])
        #expect(try fixture.rows("parts").isEmpty && fixture.rows().count == 1)
        #expect(reports.allSatisfy { ["Delete Parent", "Add Item"].contains($0.name) })
        Self.expectSteady(
            reports.filter { $0.name == "Delete Parent" }, name: "Delete Parent", total: 2001)
    }

    @Test func nothingToUndoReportsNothing() throws {
        let fixture = try Fixture()
        var reports: [ReplayProgress] = []
        #expect(
            try fixture.engine.defaultStack.undo(reportingEvery: .zero) { reports.append($0) }
                == nil)
        #expect(reports.isEmpty)
    }

    /// A report that comes every ten seconds never comes during a replay that takes less.
    @Test func aShortReplayWithinTheIntervalReportsNothing() throws {
        let (fixture, _, _) = try Self.deletedParent()
        var reports: [ReplayProgress] = []
        try fixture.engine.defaultStack.undo(reportingEvery: .seconds(3600)) { reports.append($0) }
        #expect(reports.isEmpty)
        #expect(try fixture.rows("parts").count == 2000)
    }
}
