import SQLiteUndo
import Testing

@testable import SQLiteDatabase

/// "Application triggers need no guard": whatever an application's own triggers write into
/// tracked tables during a replay, the tracked tables end exactly as the undo promises. Time is
/// a row of an untracked `clock` table that each test sets, so every case is deterministic.
@Suite struct ApplicationTriggerTests {
    let fixture: Fixture
    let pane: UndoStack

    init() throws {
        fixture = try Fixture(
            schema: Fixture.clockSchema
                + """
                CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT,
                    updatedAt INTEGER NOT NULL DEFAULT 0, folderId INTEGER);
                CREATE TRIGGER notes_stamp AFTER UPDATE ON notes
                WHEN NEW.updatedAt IS OLD.updatedAt
                    AND (NEW.title IS NOT OLD.title OR NEW.body IS NOT OLD.body)
                BEGIN
                    UPDATE notes SET updatedAt = (SELECT now FROM clock) WHERE id = NEW.id;
                END;
                CREATE TABLE counts(id INTEGER PRIMARY KEY, notes INTEGER NOT NULL);
                INSERT INTO counts VALUES (1, 0);
                CREATE TRIGGER notes_count_insert AFTER INSERT ON notes BEGIN
                    UPDATE counts SET notes = notes + 1 WHERE id = 1;
                END;
                CREATE TRIGGER notes_count_delete AFTER DELETE ON notes BEGIN
                    UPDATE counts SET notes = notes - 1 WHERE id = 1;
                END;
                CREATE TABLE folders(id INTEGER PRIMARY KEY, name TEXT, modifiedAt INTEGER);
                INSERT INTO folders VALUES (1, 'Inbox', 0);
                CREATE TRIGGER notes_touch_folder AFTER UPDATE ON notes BEGIN
                    UPDATE folders SET modifiedAt = (SELECT now FROM clock) WHERE id = NEW.folderId;
                END;
                CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, content = 'notes',
                    content_rowid = 'id');
                CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
                    INSERT INTO notes_fts(rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
                END;
                CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
                    INSERT INTO notes_fts(notes_fts, rowid, title, body)
                        VALUES ('delete', OLD.id, OLD.title, OLD.body);
                END;
                CREATE TRIGGER notes_fts_update AFTER UPDATE ON notes
                WHEN NEW.title IS NOT OLD.title OR NEW.body IS NOT OLD.body BEGIN
                    INSERT INTO notes_fts(notes_fts, rowid, title, body)
                        VALUES ('delete', OLD.id, OLD.title, OLD.body);
                    INSERT INTO notes_fts(rowid, title, body) VALUES (NEW.id, NEW.title, NEW.body);
                END;
                """,
            tables: ["notes", "counts", "folders"])
        pane = try fixture.engine.stack(id: "pane")
    }

    func at(_ time: Int64, _ name: String, _ sql: String) throws {
        try fixture.setClock(time)
        try withUndoStack(pane) { try undoable(name) { try fixture.execute(sql) } }
    }

    /// Every tracked table, whole.
    func state() throws -> [[[SQLiteValue]]] {
        try ["notes", "counts", "folders"].map { try fixture.rows($0) }
    }

    func checkSearchIndex() throws {
        try fixture.execute("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')")
    }

    @Test func theStampFiredByAReplayIsSetBackSoTheNextUndoIsNoConflict() throws {
        let start = try state()
        try at(1, "New Note", "INSERT INTO notes(id, title, body, updatedAt) VALUES (1, '', '', 1)")
        let created = try state()
        // The stamp writes the value it already has: nothing of updatedAt is logged.
        try at(1, "Edit Title", "UPDATE notes SET title = 'Groceries' WHERE id = 1")
        let titled = try state()
        try at(2, "Edit Body", "UPDATE notes SET body = 'milk' WHERE id = 1")
        let end = try state()
        #expect(end[0] == [[1, "Groceries", "milk", 2, .null]])

        try fixture.setClock(3)
        #expect(try pane.undo()?.conflicts == [])
        #expect(try state() == titled)
        #expect(try pane.undo()?.conflicts == [])
        #expect(try state() == created)
        #expect(try pane.undo()?.conflicts == [])
        #expect(try state() == start)
        try checkSearchIndex()

        try fixture.setClock(4)
        for expected in [created, titled, end] {
            #expect(try pane.redo()?.conflicts == [])
            #expect(try state() == expected)
        }
        try checkSearchIndex()
    }

    /// A replay's statements read each value from its log row by a bound number: undoing the
    /// same change on one row after another prepares no new statement (each would be compiled
    /// with the table's triggers), and the side-effect repair that follows reuses its own.
    @Test func undoingRowAfterRowReusesThePreparedStatements() throws {
        try withUndoDisabled {
            for id in 1...12 {
                try fixture.execute(
                    "INSERT INTO notes VALUES (?, 'old', '', 0, 1)", [.integer(Int64(id))])
            }
        }
        for id in 1...12 {
            try at(Int64(id), "Edit Title", "UPDATE notes SET title = 'new' WHERE id = \(id)")
        }
        try fixture.setClock(20)
        var statements: [Int] = []
        for _ in 1...12 {
            #expect(try pane.undo()?.conflicts == [])
            statements.append(try fixture.db.read { $0.cachedStatementCount })
        }
        #expect(try fixture.rows("notes").map { $0[1] } == Array(repeating: "old", count: 12))
        #expect(try fixture.rows("folders") == [[1, "Inbox", 0]])
        // The first undos prepare what the others reuse.
        #expect(statements[11] == statements[3], "statements cached after each undo: \(statements)")
    }

    @Test func aCounterKeptByTriggersReturnsToItsValue() throws {
        try at(1, "New Note", "INSERT INTO notes(id, title, body) VALUES (1, 'a', '')")
        try at(1, "New Note", "INSERT INTO notes(id, title, body) VALUES (2, 'b', '')")
        try at(1, "Delete Note", "DELETE FROM notes WHERE id = 1")
        #expect(try fixture.rows("counts") == [[1, 1]])
        try pane.undo()
        #expect(try fixture.rows("counts") == [[1, 2]])
        try pane.undo()
        #expect(try fixture.rows("counts") == [[1, 1]])
        try pane.undo()
        #expect(try fixture.rows("counts") == [[1, 0]])
        #expect(try fixture.rows("notes") == [])
        try pane.redo()
        try pane.redo()
        try pane.redo()
        #expect(try fixture.rows("counts") == [[1, 1]])
        #expect(try fixture.rows("notes") == [[2, "b", "", 0, .null]])
        try checkSearchIndex()
    }

    @Test func aParentTouchedByItsChildrenReturnsToItsTime() throws {
        try withUndoDisabled {
            try fixture.execute("INSERT INTO notes VALUES (1, 'a', 'x', 0, 1)")
        }
        let start = try state()
        try at(5, "Edit Body", "UPDATE notes SET body = 'y' WHERE id = 1")
        try at(6, "Edit Body", "UPDATE notes SET body = 'z' WHERE id = 1")
        let end = try state()
        #expect(end[2] == [[1, "Inbox", 6]])
        try fixture.setClock(9)
        #expect(try pane.undo()?.conflicts == [])
        #expect(try fixture.rows("folders") == [[1, "Inbox", 5]])
        #expect(try pane.undo()?.conflicts == [])
        #expect(try state() == start)
        try fixture.setClock(10)
        #expect(try pane.redo()?.conflicts == [])
        #expect(try pane.redo()?.conflicts == [])
        #expect(try state() == end)
        try checkSearchIndex()
    }

    /// Setting back what a trigger wrote sets only the cells that differ: a folder renamed to a
    /// locked name, whose lock trigger skips any rename from one locked name to another, still
    /// has its time set back after a redo that touched it (model-based test, `lockedParents`).
    @Test func aSetBackLeavesAloneTheCellsThatHoldTheirValue() throws {
        try fixture.execute(
            """
            CREATE TRIGGER folders_locked BEFORE UPDATE OF name ON folders
            WHEN OLD.name LIKE 'locked%' AND NEW.name LIKE 'locked%'
            BEGIN SELECT RAISE(IGNORE); END;
            """)
        try withUndoDisabled {
            try fixture.execute("INSERT INTO notes VALUES (1, 'a', 'x', 0, 1)")
        }
        let start = try state()
        try fixture.setClock(5)
        try withUndoStack(pane) {
            try undoable("Lock And Edit") {
                try fixture.execute("UPDATE folders SET name = 'locked Inbox' WHERE id = 1")
                try fixture.execute("UPDATE notes SET body = 'y' WHERE id = 1")
            }
        }
        let end = try state()
        #expect(end[2] == [[1, "locked Inbox", 5]])
        try fixture.setClock(9)
        #expect(try pane.undo()?.conflicts == [])
        #expect(try state() == start)
        try fixture.setClock(10)
        #expect(try pane.redo()?.conflicts == [])
        #expect(try state() == end)
    }

    @Test func aGuardedTriggerGivesTheSameResult() throws {
        try fixture.execute(
            """
            DROP TRIGGER notes_stamp;
            CREATE TRIGGER notes_stamp AFTER UPDATE ON notes
            WHEN NOT \(UndoEngine.isReplaying()) AND NEW.updatedAt IS OLD.updatedAt
                AND (NEW.title IS NOT OLD.title OR NEW.body IS NOT OLD.body)
            BEGIN
                UPDATE notes SET updatedAt = (SELECT now FROM clock) WHERE id = NEW.id;
            END;
            """)
        try fixture.engine.refresh()
        let start = try state()
        try at(1, "New Note", "INSERT INTO notes(id, title, body, updatedAt) VALUES (1, '', '', 1)")
        try at(1, "Edit Title", "UPDATE notes SET title = 'Groceries' WHERE id = 1")
        try at(2, "Edit Body", "UPDATE notes SET body = 'milk' WHERE id = 1")
        let end = try state()
        try fixture.setClock(3)
        for _ in 0..<3 { #expect(try pane.undo()?.conflicts == []) }
        #expect(try state() == start)
        for _ in 0..<3 { #expect(try pane.redo()?.conflicts == []) }
        #expect(try state() == end)
    }

    @Test func anotherPanesLaterEditIsStillKeptAndNamed() throws {
        let other = try fixture.engine.stack(id: "other")
        try at(
            1, "New Note", "INSERT INTO notes(id, title, body, updatedAt) VALUES (1, 't', '', 1)")
        try at(2, "Edit Body", "UPDATE notes SET body = 'mine' WHERE id = 1")
        try fixture.setClock(3)
        try withUndoStack(other) {
            try undoable("Edit Title") {
                try fixture.execute("UPDATE notes SET title = 'theirs' WHERE id = 1")
            }
        }
        try fixture.setClock(4)
        let event = try pane.undo()
        // The body is mine to take back; the title and the time its edit stamped are theirs.
        #expect(try fixture.rows("notes") == [[1, "theirs", "", 3, .null]])
        #expect(
            event?.conflicts == [
                UndoConflict(
                    table: "notes", rowid: 1, column: "updatedAt", kept: 3, keptFrom: "other")
            ])
        try checkSearchIndex()
    }

    @Test func aNewNoteSwappedWithAnOldOneUndoesAroundTheCounter() throws {
        try withUndoDisabled {
            try fixture.execute("INSERT INTO notes(id, title, body) VALUES (1, 'old', '')")
        }
        let start = try state()
        try at(
            2, "Swap",
            """
            INSERT INTO notes(id, title, body) VALUES (2, 'new', '');
            UPDATE notes SET id = 99 WHERE id = 1;
            UPDATE notes SET id = 1 WHERE id = 2;
            UPDATE notes SET id = 2 WHERE id = 99;
            """)
        let end = try state()
        #expect(end[1] == [[1, 2]])
        #expect(try pane.undo()?.conflicts == [])
        #expect(try state() == start)
        #expect(try pane.redo()?.conflicts == [])
        #expect(try state() == end)
        try checkSearchIndex()
    }
}
