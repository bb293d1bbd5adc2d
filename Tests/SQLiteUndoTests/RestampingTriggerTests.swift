import SQLiteDatabase
import SQLiteUndo
import Testing

/// An application trigger that writes a row again at every update of it, unguarded (an
/// `updatedAt` stamp read from a clock, a revision counter): setting the stamp back fires it
/// again, so no replay can end with the stamp as it was. The undo still makes progress: it
/// restores everything else, keeps what the trigger wrote and reports it, and the steps beneath
/// stay undoable.
@Suite struct RestampingTriggerTests {
    let fixture: Fixture
    /// The stack the actions go to.
    var pane: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture(
            schema: Fixture.clockSchema
                + """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, updatedAt INTEGER,
                    revision INTEGER NOT NULL DEFAULT 0);
                CREATE TRIGGER items_stamp AFTER UPDATE ON items BEGIN
                    UPDATE items SET updatedAt = (SELECT now FROM clock),
                        revision = OLD.revision + 1 WHERE id = NEW.id;
                END;
                INSERT INTO items VALUES (1, 'a', 0, 0), (2, 'b', 0, 0);
                """,
            tables: ["items"])
        try fixture.setClock(100)
    }

    func act(_ name: String, _ sql: String) throws {
        try undoable(name) { try fixture.execute(sql) }
    }

    /// The conflicts keeping the stamp and the revision of `row`, as it is now.
    func stampKept(in row: [SQLiteValue]) -> [UndoConflict] {
        guard case .integer(let rowid) = row[0] else { return [] }
        return ["updatedAt", "revision"].enumerated().map { offset, column in
            UndoConflict(
                table: "items", rowid: rowid, column: column, kept: row[2 + offset],
                reason: .constraint)
        }
    }

    /// Checks that `event` kept exactly the stamp and the revision of `rowid`, and nothing else.
    func expectStampKept(_ event: UndoEvent?, rowid: Int64) throws {
        let row = try #require(try fixture.rows().first { $0[0] == .integer(rowid) })
        #expect(event?.conflicts == stampKept(in: row))
    }

    @Test func anUndoKeepsAndReportsWhatTheTriggerWritesAtEveryWrite() throws {
        try act("Rename First", "UPDATE items SET name = 'A' WHERE id = 1")
        try act("Rename Second", "UPDATE items SET name = 'B' WHERE id = 2")
        #expect(try fixture.rows() == [[1, "A", 100, 1], [2, "B", 100, 1]])
        try fixture.setClock(200)

        try expectStampKept(try pane.undo(), rowid: 2)
        try expectStampKept(try pane.undo(), rowid: 1)
        #expect(try fixture.rows().map { Array($0[0...2]) } == [[1, "a", 200], [2, "b", 200]])
        #expect(pane.state == UndoStackState(undo: [], redo: ["Rename First", "Rename Second"]))

        try fixture.setClock(300)
        try expectStampKept(try pane.redo(), rowid: 1)
        try expectStampKept(try pane.redo(), rowid: 2)
        #expect(try fixture.rows().map { Array($0[0...2]) } == [[1, "A", 300], [2, "B", 300]])
        #expect(pane.state == UndoStackState(undo: ["Rename Second", "Rename First"], redo: []))
    }

    /// The same in an undo of 300 rows, which would restore them in one statement per column.
    @Test func aBigUndoKeepsAndReportsEveryStamp() throws {
        try withUndoDisabled {
            try fixture.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
                INSERT INTO items(id, name, updatedAt) SELECT i, 'item ' || i, 0 FROM n
                """)
        }
        let names = try fixture.rows().map { $0[1] }
        try act("Rename All", "UPDATE items SET name = name || '!'")
        try fixture.setClock(200)
        let undo = try #require(try pane.undo())
        let rows = try fixture.rows()
        #expect(rows.map { $0[1] } == names)
        #expect(Set(rows.map { $0[2] }) == [200])
        #expect(undo.conflicts.count == 600)
        #expect(
            Set(undo.conflicts.map(\.description))
                == Set(rows.flatMap { stampKept(in: $0) }.map(\.description)))
    }
}
