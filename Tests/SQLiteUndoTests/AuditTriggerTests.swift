import SQLiteDatabase
import SQLiteUndo
import Testing

/// An application trigger that inserts rows (an audit trail) into a tracked table without
/// AUTOINCREMENT: the replays' own writes fire it, and its rows take the rowids that the
/// replay is about to put rows back at. Undo and redo still end exactly where they promise.
@Suite struct AuditTriggerTests {
    let fixture: Fixture
    let pane: UndoStack

    init() throws {
        fixture = try Fixture(
            schema: """
                CREATE TABLE authors(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE articles(id INTEGER PRIMARY KEY, title TEXT NOT NULL,
                    authorId INTEGER REFERENCES authors(id) ON DELETE CASCADE);
                CREATE TABLE clock(now INTEGER NOT NULL);
                INSERT INTO clock VALUES (0);
                CREATE TABLE audit(id INTEGER PRIMARY KEY, note TEXT NOT NULL,
                    at INTEGER NOT NULL);
                CREATE TRIGGER articles_audit_delete AFTER DELETE ON articles BEGIN
                    INSERT INTO audit(note, at) VALUES ('deleted ' || OLD.title, (SELECT now FROM clock));
                END;
                CREATE TRIGGER authors_audit_insert AFTER INSERT ON authors BEGIN
                    INSERT INTO audit(note, at) VALUES ('welcome ' || NEW.name, (SELECT now FROM clock));
                END;
                INSERT INTO authors VALUES (1, 'Ada'), (2, 'Brian');
                """,
            tables: ["authors", "articles", "audit"])
        pane = try fixture.engine.stack(id: "pane")
        try withUndoDisabled {
            try fixture.execute(
                "INSERT INTO articles VALUES (1, 'one', 1), (2, 'two', 1), (3, 'three', 1), "
                    + "(4, 'four', 2)")
            try fixture.execute("DELETE FROM audit")
        }
    }

    func act(_ name: String, _ sql: String) throws {
        try withUndoStack(pane) { try undoable(name) { try fixture.execute(sql) } }
    }

    func state() throws -> [[[SQLiteValue]]] {
        try ["authors", "articles", "audit"].map { try fixture.rows($0) }
    }

    /// Undoes and redoes twice, each time at a later time (the audit rows the replays' triggers
    /// write differ from the logged ones), each replay ending exactly at `before` or `after`.
    func roundTrips(between before: [[[SQLiteValue]]], and after: [[[SQLiteValue]]]) throws {
        for time in [2, 3] as [Int64] {
            try fixture.setClock(time)
            #expect(try pane.undo()?.conflicts == [])
            #expect(try state() == before)
            #expect(try pane.redo()?.conflicts == [])
            #expect(try state() == after)
        }
    }

    /// Three children and 300 (the set-based replay tried first).
    @Test(arguments: [3, 300])
    func redoOfACascadeWhoseDeletesAuditKeepsTheAuditRows(children: Int) throws {
        try withUndoDisabled {
            try fixture.execute(
                "WITH RECURSIVE n(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                    + "INSERT INTO articles SELECT i, 'a' || i, 1 FROM n WHERE i < ?",
                [.integer(Int64(children) + 7), .integer(Int64(children) + 7)])
        }
        let before = try state()
        try fixture.setClock(1)
        try act("Delete Author", "DELETE FROM authors WHERE id = 1")
        let after = try state()
        let titles = before[1].filter { $0[2] == 1 }.compactMap { row -> String? in
            guard case .text(let title) = row[1] else { return nil }
            return title
        }
        #expect(titles.count == children)
        #expect(Set(after[2].map(\.[1])) == Set(titles.map { .text("deleted " + $0) }))
        try roundTrips(between: before, and: after)
    }

    @Test func redoOfInsertsWhoseTriggerAuditsKeepsTheAuditRows() throws {
        let before = try state()
        try fixture.setClock(1)
        try act("Add Authors", "INSERT INTO authors(name) VALUES ('Chen'), ('Dana')")
        let after = try state()
        #expect(after[2] == [[1, "welcome Chen", 1], [2, "welcome Dana", 1]])
        try roundTrips(between: before, and: after)
    }

    /// The rule stays: a rowid someone else took before the replay began is theirs.
    @Test func aRowidSomeoneElseTookBeforeTheRedoIsKept() throws {
        try fixture.setClock(1)
        try act("Delete Author", "DELETE FROM authors WHERE id = 1")
        _ = try pane.undo()
        try fixture.execute("INSERT INTO audit VALUES (2, 'theirs', 9)")
        let redo = try #require(try pane.redo())
        #expect(
            redo.conflicts == [UndoConflict(table: "audit", rowid: 2, column: nil, kept: nil)])
        #expect(try fixture.rows("audit").filter { $0[0] == 2 } == [[2, "theirs", 9]])
        #expect(try fixture.rows("articles") == [[4, "four", 2]])
    }
    /// The clock left as it was: the replays' triggers write exactly the audit rows the action
    /// logged, at the rowids the redo restores them at, and the redo keeps them (one row each).
    @Test func redoWhoseTriggerWritesTheSameAuditRowsKeepsThem() throws {
        let before = try state()
        try fixture.setClock(1)
        try act("Delete Article", "DELETE FROM articles WHERE id = 4")
        try act("Add Author", "INSERT INTO authors(name) VALUES ('Chen')")
        let after = try state()
        #expect(after[2] == [[1, "deleted four", 1], [2, "welcome Chen", 1]])
        for _ in 0..<2 {
            #expect(try pane.undo()?.conflicts == [])
            #expect(try pane.undo()?.conflicts == [])
            #expect(try state() == before)
            #expect(try pane.redo()?.conflicts == [])
            #expect(try pane.redo()?.conflicts == [])
            #expect(try state() == after)
        }
    }
}
