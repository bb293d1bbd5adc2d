import SQLiteDatabase
import SQLiteUndo
import Testing

/// The log records what SQLite did to the tracked tables, not what a statement asked for: rows
/// a conflict clause or a trigger skipped are not logged, rows a REPLACE deleted through any
/// unique index are, and values are logged as stored.
@Suite struct WhatHappenedTests {
    /// Undoes and redoes the default stack's last action twice, expecting the tables exactly
    /// as before and after it, with no conflict.
    func expectExactRoundTrip(
        _ fixture: Fixture, tables: [String], before: [[[SQLiteValue]]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let after = try tables.map { try fixture.rows($0) }
        let stack = fixture.engine.defaultStack
        for _ in 0..<2 {
            let undo = try stack.undo()
            #expect(
                try tables.map { try fixture.rows($0) } == before, sourceLocation: sourceLocation)
            #expect(undo?.conflicts == [], sourceLocation: sourceLocation)
            let redo = try stack.redo()
            #expect(
                try tables.map { try fixture.rows($0) } == after, sourceLocation: sourceLocation)
            #expect(redo?.conflicts == [], sourceLocation: sourceLocation)
        }
    }

    /// A fixture whose `items` have a `locked` flag: an update of a row locked before and after
    /// it is skipped by the application's trigger (`RAISE(IGNORE)`).
    func lockableItems() throws -> Fixture {
        try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, locked INTEGER NOT NULL);
                CREATE TRIGGER keepLocked BEFORE UPDATE ON items WHEN OLD.locked AND NEW.locked
                BEGIN SELECT RAISE(IGNORE); END;
                """, tables: ["items"])
    }

    /// Runs `sql` as the action `name` on the fixture's stack `stackID`; returns the stack.
    @discardableResult
    func act(_ fixture: Fixture, on stackID: String, _ name: String, _ sql: String) throws
        -> UndoStack
    {
        let stack = try fixture.engine.stack(id: stackID)
        try withUndoStack(stack) { try undoable(name) { try fixture.execute(sql) } }
        return stack
    }

    // MARK: Rows that were never written

    /// A row an application trigger skips with `RAISE(IGNORE)` is not the action's: another
    /// stack's later edit of it survives the action's undo, with nothing to report.
    @Test func aRowATriggerSkippedIsNotLogged() throws {
        let fixture = try lockableItems()
        try fixture.execute("INSERT INTO items VALUES (1, 'a', 0), (2, 'b', 1), (3, 'c', 0)")
        let mine = try act(fixture, on: "mine", "Rename All", "UPDATE items SET name = 'x'")
        #expect(try mine.rows(of: mine.history.undo[0]).ids(forTable: "items") == [1, 3])
        try act(
            fixture, on: "theirs", "Unlock",
            "UPDATE items SET locked = 0, name = 'theirs' WHERE id = 2")
        let undo = try mine.undo()
        #expect(undo?.conflicts == [])
        #expect(try fixture.rows() == [[1, "a", 0], [2, "theirs", 0], [3, "c", 0]])
    }

    /// An undo whose write an application trigger skips with `RAISE(IGNORE)` (the row was
    /// locked since) says so: the row is kept as it is, as a `.constraint` conflict naming the
    /// column and the value kept, and the redo leaves it alone too.
    @Test func anUndoATriggerSkipsIsReported() throws {
        let fixture = try lockableItems()
        try fixture.execute("INSERT INTO items VALUES (1, 'a', 0), (2, 'b', 0)")
        let mine = try act(fixture, on: "mine", "Rename", "UPDATE items SET name = name || '!'")
        try fixture.execute("UPDATE items SET locked = 1 WHERE id = 1")
        let undo = try mine.undo()
        #expect(
            undo?.conflicts == [
                UndoConflict(
                    table: "items", rowid: 1, column: "name", kept: "a!", reason: .constraint)
            ])
        #expect(try fixture.rows() == [[1, "a!", 1], [2, "b", 0]])
        #expect(mine.state == UndoStackState(undo: [], redo: ["Rename"]))
        let redo = try mine.redo()
        #expect(redo?.conflicts == [])
        #expect(try fixture.rows() == [[1, "a!", 1], [2, "b!", 0]])
    }

    /// The same in a big undo, which would restore the rows in one statement per column: every
    /// row the trigger skipped is named, and every other row is restored.
    @Test func aBigUndoNamesEveryRowATriggerSkips() throws {
        let fixture = try lockableItems()
        try fixture.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
            INSERT INTO items SELECT i, 'item ' || i, 0 FROM n
            """)
        let mine = try act(fixture, on: "mine", "Rename", "UPDATE items SET name = name || '!'")
        try fixture.execute("UPDATE items SET locked = 1 WHERE id % 7 = 0")
        let undo = try mine.undo()
        let locked = (1...500).filter { $0 % 7 == 0 }
        #expect(undo?.conflicts.map(\.rowid).sorted() == locked.map(Int64.init))
        #expect(
            undo?.conflicts.allSatisfy { $0.reason == .constraint && $0.column == "name" } == true)
        #expect(
            try fixture.rows()
                == (1...500).map { id -> [SQLiteValue] in
                    let isLocked = id % 7 == 0
                    return [
                        .integer(Int64(id)), .text("item \(id)" + (isLocked ? "!" : "")),
                        .integer(isLocked ? 1 : 0),
                    ]
                })
    }

    /// The same for a row the undo would insert again or delete: a trigger that skips the
    /// write keeps the row as it is, reported whole.
    @Test func anUndoOfADeleteOrInsertATriggerSkipsIsReported() throws {
        let fixture = try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE frozen(on_ INTEGER NOT NULL);
                INSERT INTO frozen VALUES (0);
                CREATE TRIGGER noInserts BEFORE INSERT ON items WHEN (SELECT on_ FROM frozen)
                BEGIN SELECT RAISE(IGNORE); END;
                CREATE TRIGGER noDeletes BEFORE DELETE ON items WHEN (SELECT on_ FROM frozen)
                BEGIN SELECT RAISE(IGNORE); END;
                """, tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'a')")
        let mine = try act(
            fixture, on: "mine", "Swap", "DELETE FROM items; INSERT INTO items VALUES (2, 'b')")
        try fixture.execute("UPDATE frozen SET on_ = 1")
        let undo = try mine.undo()
        #expect(
            Set(undo?.conflicts.map(\.description) ?? []) == [
                "kept row 1 of items", "kept row 2 of items",
            ])
        #expect(undo?.conflicts.allSatisfy { $0.reason == .constraint } == true)
        #expect(try fixture.rows() == [[2, "b"]])
    }

    /// A delete a trigger skips is not logged either.
    @Test func aDeleteATriggerSkippedIsNotLogged() throws {
        let fixture = try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, locked INTEGER NOT NULL);
                CREATE TRIGGER keepLocked BEFORE DELETE ON items WHEN OLD.locked
                BEGIN SELECT RAISE(IGNORE); END;
                """, tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'a', 0), (2, 'b', 1)")
        let before = [try fixture.rows()]
        try undoable("Delete All") { try fixture.execute("DELETE FROM items") }
        #expect(try fixture.rows() == [[2, "b", 1]])
        let step = fixture.engine.defaultStack.history.undo[0]
        #expect(try fixture.engine.defaultStack.rows(of: step).ids(forTable: "items") == [1])
        try expectExactRoundTrip(fixture, tables: ["items"], before: before)
    }

    /// `UPDATE OR IGNORE` skips a row whose new value collides with a UNIQUE key: that row is not
    /// the action's, and another stack's later edit of it is kept by the undo.
    @Test func aRowOrIgnoreSkippedIsNotLogged() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, code TEXT UNIQUE, name TEXT)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'a', 'one'), (2, 'b', 'two')")
        let mine = try act(
            fixture, on: "mine", "Recode", "UPDATE OR IGNORE items SET code = 'b', name = 'x'")
        // Row 1 would take 'b' from row 2: skipped; row 2 keeps its own code and is renamed.
        #expect(try fixture.rows() == [[1, "a", "one"], [2, "b", "x"]])
        #expect(try mine.rows(of: mine.history.undo[0]).ids(forTable: "items") == [2])
        try act(fixture, on: "theirs", "Rename", "UPDATE items SET name = 'theirs' WHERE id = 1")
        let undo = try mine.undo()
        #expect(undo?.conflicts == [])
        #expect(try fixture.rows() == [[1, "a", "theirs"], [2, "b", "two"]])
    }

    /// `INSERT OR IGNORE` logs only the rows it inserted.
    @Test func insertOrIgnoreLogsOnlyWhatItInserted() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, code TEXT UNIQUE, name TEXT)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'a', 'one')")
        let before = [try fixture.rows()]
        try undoable("Add") {
            try fixture.execute(
                "INSERT OR IGNORE INTO items VALUES (1, 'z', 'same id'), (2, 'a', 'same code'), "
                    + "(3, 'c', 'new')")
        }
        #expect(try fixture.rows() == [[1, "a", "one"], [3, "c", "new"]])
        let step = fixture.engine.defaultStack.history.undo[0]
        #expect(try fixture.engine.defaultStack.rows(of: step).ids(forTable: "items") == [3])
        try expectExactRoundTrip(fixture, tables: ["items"], before: before)
    }

    /// `OR FAIL` stops at the row that fails and keeps the rows changed before it: those are
    /// logged, the failing row is not.
    @Test func orFailMidwayLogsTheRowsBeforeTheFailure() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, n INTEGER UNIQUE, name TEXT)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 12, 'c')")
        let before = [try fixture.rows()]
        try undoable("Renumber") {
            // Row 1 becomes 11; row 2 would take 12 from row 3: the statement stops there.
            try fixture.db.write { db in
                #expect(throws: SQLiteError.self) {
                    try db.execute("UPDATE OR FAIL items SET n = n + 10, name = 'x'")
                }
            }
        }
        #expect(try fixture.rows() == [[1, 11, "x"], [2, 2, "b"], [3, 12, "c"]])
        let step = fixture.engine.defaultStack.history.undo[0]
        #expect(try fixture.engine.defaultStack.rows(of: step).ids(forTable: "items") == [1])
        try expectExactRoundTrip(fixture, tables: ["items"], before: before)
    }

    // MARK: Rows REPLACE deletes

    /// Schemas whose unique index the engine cannot read as columns: each has rows 1 ('Ann@x')
    /// and 2 ('bob@x'), and 'ann@X' collides with row 1 through its unique index.
    static let replacingSchemas = [
        "CREATE TABLE people(id INTEGER PRIMARY KEY, email TEXT, active INTEGER NOT NULL "
            + "DEFAULT 1); CREATE UNIQUE INDEX byEmail ON people(lower(email))",
        "CREATE TABLE people(id INTEGER PRIMARY KEY, email TEXT, active INTEGER NOT NULL "
            + "DEFAULT 1); CREATE UNIQUE INDEX byEmail ON people(email COLLATE NOCASE) "
            + "WHERE active",
        "CREATE TABLE people(id INTEGER PRIMARY KEY, email TEXT COLLATE NOCASE UNIQUE, "
            + "active INTEGER NOT NULL DEFAULT 1)",
        "CREATE TABLE people(id INTEGER PRIMARY KEY, email TEXT, active INTEGER NOT NULL "
            + "DEFAULT 1, key TEXT GENERATED ALWAYS AS (lower(email)) STORED UNIQUE)",
        "CREATE TABLE people(id INTEGER PRIMARY KEY, email TEXT, active INTEGER NOT NULL "
            + "DEFAULT 1, key TEXT GENERATED ALWAYS AS (lower(email)) VIRTUAL); "
            + "CREATE UNIQUE INDEX byKey ON people(key)",
    ]

    static let replacingCases = replacingSchemas.flatMap { schema in
        [false, true].map { (schema, $0) }
    }

    func peopleFixture(_ schema: String, recursiveTriggers: Bool) throws -> Fixture {
        let fixture = try Fixture(schema: schema, tables: ["people"])
        try fixture.execute("PRAGMA recursive_triggers = \(recursiveTriggers ? "ON" : "OFF")")
        try fixture.execute(
            "INSERT INTO people(id, email) VALUES (1, 'Ann@x'), (2, 'bob@x'), (3, 'cy@x')")
        return fixture
    }

    @Test(arguments: replacingCases)
    func insertOrReplaceThroughAnyUniqueIndex(schema: String, recursiveTriggers: Bool) throws {
        let fixture = try peopleFixture(schema, recursiveTriggers: recursiveTriggers)
        let before = [try fixture.rows("people")]
        try undoable("Add") {
            try fixture.execute("INSERT OR REPLACE INTO people(email) VALUES ('ann@X')")
        }
        #expect(try fixture.rows("people").map { $0[1] } == ["bob@x", "cy@x", "ann@X"])
        let step = fixture.engine.defaultStack.history.undo[0]
        #expect(try fixture.engine.defaultStack.rows(of: step).ids(forTable: "people") == [1, 4])
        try expectExactRoundTrip(fixture, tables: ["people"], before: before)
    }

    @Test(arguments: replacingCases)
    func updateOrReplaceThroughAnyUniqueIndex(schema: String, recursiveTriggers: Bool) throws {
        let fixture = try peopleFixture(schema, recursiveTriggers: recursiveTriggers)
        let before = [try fixture.rows("people")]
        try undoable("Rename") {
            try fixture.execute("UPDATE OR REPLACE people SET email = 'ANN@x' WHERE id = 2")
        }
        #expect(try fixture.rows("people").map { $0[1] } == ["ANN@x", "cy@x"])
        try expectExactRoundTrip(fixture, tables: ["people"], before: before)
    }

    /// An upsert updates the row it collides with through any unique index, or does nothing.
    @Test(arguments: replacingSchemas)
    func upsertThroughAnyUniqueIndex(schema: String) throws {
        let fixture = try peopleFixture(schema, recursiveTriggers: false)
        let target = schema.contains("GENERATED") ? "(key)" : ""
        guard !schema.contains("WHERE active") && !schema.contains("lower(email))") else {
            return  // an upsert names its conflict target's columns: these have none to name
        }
        let before = [try fixture.rows("people")]
        try undoable("Upsert") {
            try fixture.execute(
                """
                INSERT INTO people(email, active) VALUES ('ann@X', 0), ('dee@x', 1)
                ON CONFLICT\(target.isEmpty ? "(email)" : target) DO UPDATE SET active = excluded.active;
                INSERT INTO people(email) VALUES ('BOB@X') ON CONFLICT DO NOTHING;
                """)
        }
        #expect(
            try fixture.rows("people").map { [$0[0], $0[2]] } == [
                [1, 0], [2, 1], [3, 1], [4, 1],
            ])
        try expectExactRoundTrip(fixture, tables: ["people"], before: before)
    }

    /// A row that becomes part of a partial unique index by an update replaces the row it
    /// then collides with.
    @Test(arguments: [false, true])
    func enteringAPartialIndexReplaces(recursiveTriggers: Bool) throws {
        let fixture = try peopleFixture(
            Self.replacingSchemas[1], recursiveTriggers: recursiveTriggers)
        try fixture.execute("UPDATE people SET active = 0 WHERE id = 1")
        try fixture.execute("INSERT INTO people(id, email) VALUES (4, 'ANN@x')")
        let before = [try fixture.rows("people")]
        try undoable("Activate") {
            try fixture.execute("UPDATE OR REPLACE people SET active = 1 WHERE id = 1")
        }
        #expect(try fixture.rows("people").map(\.[0]) == [1, 2, 3])
        try expectExactRoundTrip(fixture, tables: ["people"], before: before)
    }

    // MARK: Values as stored

    /// `OR REPLACE` stores a NOT NULL column's default for a NULL: the log holds the default, so
    /// the undo finds its own value there and restores the one before.
    @Test func aDefaultFilledInIsLoggedAsStored() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, qty INTEGER NOT NULL DEFAULT 1)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 5)")
        let before = [try fixture.rows()]
        try undoable("Clear") { try fixture.execute("UPDATE OR REPLACE items SET qty = NULL") }
        #expect(try fixture.rows() == [[1, 1]])
        try undoable("Add") {
            try fixture.execute("INSERT OR REPLACE INTO items(id, qty) VALUES (2, NULL)")
        }
        #expect(try fixture.rows() == [[1, 1], [2, 1]])
        try fixture.engine.defaultStack.undo()
        try expectExactRoundTrip(fixture, tables: ["items"], before: before)
    }

    // MARK: Rowids

    /// An INSERT that lets SQLite pick the rowid, beside a row at rowid -1: the action wrote only
    /// the new row, and its undo keeps another stack's later delete of row -1.
    @Test func anAutomaticRowidBesideANegativeOne() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE folders(id INTEGER PRIMARY KEY, name TEXT UNIQUE)",
            tables: ["folders"])
        try fixture.execute("INSERT INTO folders VALUES (-1, 'Trash')")
        let mine = try act(
            fixture, on: "mine", "New Folder",
            "INSERT INTO folders(name) VALUES ('Inbox'); "
                + "INSERT OR REPLACE INTO folders(name) VALUES ('Drafts')")
        #expect(try mine.rows(of: mine.history.undo[0]).ids(forTable: "folders") == [0, 1])
        #expect(try fixture.engine.history(of: Folder.self, id: -1).isEmpty)
        try act(fixture, on: "theirs", "Empty Trash", "DELETE FROM folders WHERE id = -1")
        let undo = try mine.undo()
        #expect(undo?.conflicts == [])
        #expect(try fixture.rows("folders") == [])
    }
}

private struct Folder: Table {
    static let tableName = "folders"
}
