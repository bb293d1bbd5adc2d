import SQLiteDatabase
import SQLiteUndo
import Testing

@Suite struct ReplayTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture()
        try fixture.execute(
            "INSERT INTO items(id, name, value) VALUES (1, 'one', 10), (2, 'two', 20)")
    }

    func action(_ name: String, _ sql: String, _ arguments: [SQLiteValue] = []) throws {
        try undoable(name) { try fixture.execute(sql, arguments) }
    }

    @Test func undoAndRedoOfInsert() throws {
        let before = try fixture.rows()
        try action("Insert", "INSERT INTO items(id, name, value) VALUES (3, 'three', 30)")
        let after = try fixture.rows()
        let event = try stack.undo()
        #expect(try fixture.rows() == before)
        #expect(
            event
                == UndoEvent(
                    kind: .undo, name: "Insert", affectedRows: ["items": [3]], conflicts: []))
        try stack.redo()
        #expect(try fixture.rows() == after)
    }

    @Test func undoAndRedoOfUpdateOfTwoColumns() throws {
        let before = try fixture.rows()
        try action("Edit", "UPDATE items SET name = 'uno', value = 11 WHERE id = 1")
        let after = try fixture.rows()
        #expect(after[0] == [1, "uno", 11, 0])
        try stack.undo()
        #expect(try fixture.rows() == before)
        let redo = try stack.redo()
        #expect(try fixture.rows() == after)
        #expect(redo?.kind == .redo)
        #expect(redo?.ids(forTable: "items") == [1])
    }

    @Test func undoAndRedoOfDelete() throws {
        let before = try fixture.rows()
        try action("Delete", "DELETE FROM items WHERE id = 2")
        try stack.undo()
        #expect(try fixture.rows() == before)
        try stack.redo()
        #expect(try fixture.rows() == [[1, "one", 10, 0]])
    }

    @Test func manyChangesInOneBarrier() throws {
        let before = try fixture.rows()
        try undoable("Many") {
            try fixture.execute("INSERT INTO items(id, name) VALUES (3, 'three')")
            try fixture.execute("UPDATE items SET value = value * 2")
            try fixture.execute("DELETE FROM items WHERE id = 1")
            try fixture.execute("UPDATE items SET name = 'deux' WHERE id = 2")
        }
        let after = try fixture.rows()
        #expect(after == [[2, "deux", 40, 0], [3, "three", nil, 0]])
        let event = try stack.undo()
        #expect(try fixture.rows() == before)
        #expect(event?.ids(forTable: "items") == [1, 2, 3])
        #expect(event?.ids(forTable: "parts") == nil)
        try stack.redo()
        #expect(try fixture.rows() == after)
    }

    @Test(arguments: ["insert", "update", "delete", "mixed"])
    func bulkThousandRows(kind: String) throws {
        try fixture.execute(
            "WITH RECURSIVE n(x) AS (SELECT 10 UNION ALL SELECT x + 1 FROM n WHERE x < 1009) "
                + "INSERT INTO items(id, name, value) SELECT x, 'row ' || x, x * 1.5 FROM n")
        let before = try fixture.rows()
        let sql: String
        switch kind {
        case "insert":
            sql =
                "WITH RECURSIVE n(x) AS (SELECT 2000 UNION ALL SELECT x + 1 FROM n WHERE x < 2999) "
                + "INSERT INTO items(id, name) SELECT x, 'new ' || x FROM n"
        case "update": sql = "UPDATE items SET name = name || '!', flag = 1"
        case "delete": sql = "DELETE FROM items WHERE id >= 10"
        default:
            sql =
                "UPDATE items SET value = -value WHERE id % 3 = 0; DELETE FROM items WHERE id % 3 = 1; "
                + "INSERT INTO items(name) SELECT 'copy' FROM items WHERE id % 3 = 2"
        }
        try action("Bulk", sql)
        let after = try fixture.rows()
        #expect(after != before)
        let event = try stack.undo()
        #expect(try fixture.rows() == before)
        #expect((event?.ids(forTable: "items")?.count ?? 0) >= 1000)
        try stack.redo()
        #expect(try fixture.rows() == after)
    }

    @Test func insertThenDeleteUndoesToNothing() throws {
        let before = try fixture.rows()
        try undoable("Flicker") {
            try fixture.execute("INSERT INTO items(id, name) VALUES (5, 'brief')")
            try fixture.execute("DELETE FROM items WHERE id = 5")
        }
        try stack.undo()
        #expect(try fixture.rows() == before)
    }

    @Test func insertThenUpdateUndoDeletes() throws {
        let before = try fixture.rows()
        try undoable("Create") {
            try fixture.execute("INSERT INTO items(id, name) VALUES (5, 'draft')")
            try fixture.execute("UPDATE items SET name = 'final', value = 1 WHERE id = 5")
        }
        try stack.undo()
        #expect(try fixture.rows() == before)
        try stack.redo()
        #expect(try fixture.rows().last == [5, "final", 1, 0])
    }

    @Test func updateThenDeleteUndoReinsertsTheOriginal() throws {
        let before = try fixture.rows()
        try undoable("Edit and Delete") {
            try fixture.execute("UPDATE items SET name = 'changed', value = 99 WHERE id = 1")
            try fixture.execute("UPDATE items SET value = 100 WHERE id = 1")
            try fixture.execute("DELETE FROM items WHERE id = 1")
        }
        try stack.undo()
        #expect(try fixture.rows() == before)
    }

    @Test func deleteThenReinsertRestoresTheOriginal() throws {
        let before = try fixture.rows()
        try undoable("Replace by hand") {
            try fixture.execute("DELETE FROM items WHERE id = 1")
            try fixture.execute(
                "INSERT INTO items(id, name, value) VALUES (1, 'other', 'text now')")
        }
        let after = try fixture.rows()
        try stack.undo()
        #expect(try fixture.rows() == before)
        try stack.redo()
        #expect(try fixture.rows() == after)
    }

    @Test func updateThenUpdateBackIsANoOpButOtherColumnsUndo() throws {
        let before = try fixture.rows()
        try undoable("Wobble") {
            try fixture.execute("UPDATE items SET name = 'x', flag = 1 WHERE id = 1")
            try fixture.execute("UPDATE items SET name = 'one' WHERE id = 1")
        }
        try stack.undo()
        #expect(try fixture.rows() == before)
    }

    @Test func cascadeDeleteOfParentWithTwoChildren() throws {
        try fixture.execute(
            "INSERT INTO parts(id, itemId, label) VALUES (1, 1, 'wheel'), (2, 1, 'axle'), (3, 2, 'other')"
        )
        let items = try fixture.rows()
        let parts = try fixture.rows("parts")
        try action("Delete Item", "DELETE FROM items WHERE id = 1")
        #expect(try fixture.rows("parts") == [[3, 2, "other"]])
        let event = try stack.undo()
        #expect(try fixture.rows() == items)
        #expect(try fixture.rows("parts") == parts)
        #expect(event?.ids(forTable: "parts") == [1, 2])
        try stack.redo()
        #expect(try fixture.rows("parts") == [[3, 2, "other"]])
        #expect(try fixture.rows() == [[2, "two", 20, 0]])
        try stack.undo()
        #expect(try fixture.rows("parts") == parts)
    }

    @Test func sameTableCascadeTriggerRoundTrips() throws {
        // Only one item may be flagged: setting a flag clears the others (a same-table cascade).
        try fixture.execute(
            """
            CREATE TRIGGER single_flag AFTER UPDATE OF flag ON items WHEN NEW.flag = 1
            BEGIN UPDATE items SET flag = 0 WHERE id != NEW.id AND flag = 1; END;
            UPDATE items SET flag = 1 WHERE id = 1;
            """)
        let before = try fixture.rows()
        try action("Flag Two", "UPDATE items SET flag = 1 WHERE id = 2")
        let after = try fixture.rows()
        #expect(after.map { $0[3] } == [0, 1])
        for _ in 0..<3 {
            try stack.undo()
            #expect(try fixture.rows() == before)
            try stack.redo()
            #expect(try fixture.rows() == after)
        }
    }

    @Test func isReplayingKeepsAnAuditTriggerSilentDuringUndo() throws {
        try fixture.execute(
            """
            CREATE TABLE audit(itemId INTEGER, action TEXT);
            CREATE TRIGGER audit_items AFTER UPDATE ON items WHEN NOT \(UndoEngine.isReplaying())
            BEGIN INSERT INTO audit VALUES (NEW.id, 'updated'); END;
            """)
        try action("Rename", "UPDATE items SET name = 'renamed' WHERE id = 1")
        try stack.undo()
        try stack.redo()
        #expect(try fixture.rows("audit") == [[1, "updated"]])
        #expect(UndoEngine.isReplaying() == "\"sqliteundo_isReplaying\"()")
    }

    @Test func ownershipSurvivesThreeUndoRedoCycles() throws {
        let paneA = try fixture.engine.stack(id: "A")
        let paneB = try fixture.engine.stack(id: "B")
        try withUndoStack(paneA) {
            try action("A edit", "UPDATE items SET name = 'A' WHERE id = 1")
        }
        try withUndoStack(paneB) {
            try action("B edit", "UPDATE items SET name = 'B' WHERE id = 2")
        }
        for _ in 0..<3 {
            try paneA.undo()
            #expect(try fixture.rows().map { $0[1] } == ["one", "B"])
            try paneA.redo()
            #expect(try fixture.rows().map { $0[1] } == ["A", "B"])
            try paneB.undo()
            #expect(try fixture.rows().map { $0[1] } == ["A", "two"])
            try paneB.redo()
        }
        #expect(paneA.state == UndoStackState(undo: ["A edit"], redo: []))
        #expect(paneB.state == UndoStackState(undo: ["B edit"], redo: []))
    }

    /// A write an application's trigger refuses (RAISE) cannot be undone: the row is kept and
    /// reported, and the step leaves the list instead of failing every undo after it.
    @Test func aWriteATriggerRefusesIsKeptAndTheStepLeavesTheList() throws {
        try action("Rename", "UPDATE items SET name = 'renamed' WHERE id = 1")
        try action("Insert", "INSERT INTO items(id, name) VALUES (7, 'seven')")
        // An outside rule added later makes the undo's DELETE fail.
        try fixture.execute(
            "CREATE TRIGGER no_delete BEFORE DELETE ON items BEGIN SELECT RAISE(ABORT, 'deleting is forbidden'); END"
        )
        let before = try fixture.rows()
        let event = try stack.undo()
        #expect(
            event?.conflicts == [
                UndoConflict(table: "items", rowid: 7, column: nil, kept: nil, reason: .constraint)
            ])
        #expect(try fixture.rows() == before)
        #expect(stack.state == UndoStackState(undo: ["Rename"], redo: []))
        _ = try stack.undo()
        #expect(stack.state == UndoStackState(undo: [], redo: ["Rename"]))
    }
}
