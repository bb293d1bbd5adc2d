import SQLiteDatabase
import SQLiteUndo
import Testing

@Suite struct KeyChangeTests {
    func roundTrip(
        _ fixture: Fixture, tables: [String], _ action: () throws -> Void
    ) throws {
        let before = try tables.map { try fixture.rows($0) }
        try undoable("Action", action)
        let after = try tables.map { try fixture.rows($0) }
        #expect(after != before)
        let stack = fixture.engine.defaultStack
        for _ in 0..<2 {
            let undo = try stack.undo()
            #expect(try tables.map { try fixture.rows($0) } == before)
            #expect(undo?.conflicts == [])
            let redo = try stack.redo()
            #expect(try tables.map { try fixture.rows($0) } == after)
            #expect(redo?.conflicts == [])
        }
    }

    @Test func primaryKeyChange() throws {
        let fixture = try Fixture()
        try fixture.execute("INSERT INTO items(id, name) VALUES (1, 'a'), (2, 'b')")
        try roundTrip(fixture, tables: ["items"]) {
            try fixture.execute("UPDATE items SET id = 10 WHERE id = 1")
            try fixture.execute("UPDATE items SET id = 1, name = 'moved' WHERE id = 2")
        }
    }

    @Test func primaryKeyChangeCascadesToChildren() throws {
        let fixture = try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE parts(id INTEGER PRIMARY KEY,
                    itemId INTEGER REFERENCES items(id) ON UPDATE CASCADE ON DELETE CASCADE);
                """)
        try fixture.execute(
            "INSERT INTO items VALUES (1, 'a'); INSERT INTO parts VALUES (1, 1), (2, 1)")
        try roundTrip(fixture, tables: ["items", "parts"]) {
            try fixture.execute("UPDATE items SET id = 7 WHERE id = 1")
        }
    }

    @Test(arguments: [false, true])
    func insertOrReplace(recursiveTriggers: Bool) throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, code TEXT UNIQUE, name TEXT)",
            tables: ["items"])
        try fixture.execute("PRAGMA recursive_triggers = \(recursiveTriggers ? "ON" : "OFF")")
        try fixture.execute(
            "INSERT INTO items VALUES (1, 'a', 'first'), (2, 'b', 'second'), (3, 'c', 'third')")
        try roundTrip(fixture, tables: ["items"]) {
            try fixture.execute("INSERT OR REPLACE INTO items VALUES (1, 'a', 'replaced by id')")
            // Replaces row 3 through the unique code, and row 2 through the id, at once.
            try fixture.execute("INSERT OR REPLACE INTO items VALUES (2, 'c', 'replaced twice')")
            try fixture.execute("REPLACE INTO items(code, name) VALUES ('z', 'plain new')")
        }
    }

    /// An UPDATE may set the rowid by any of its names (`rowid`, `oid`, `_rowid_`), besides its
    /// alias column, and replace another row with it.
    @Test func rowidSetByItsOtherNames() throws {
        let fixture = try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
                """, tables: ["items", "notes"])
        try fixture.execute(
            """
            INSERT INTO items VALUES (1, 'a'), (2, 'b');
            INSERT INTO notes(rowid, body) VALUES (1, 'x'), (2, 'y'), (3, 'z');
            """)
        let rows = {
            try fixture.db.read { db in
                try ["items", "notes"].flatMap {
                    try db.fetchAll(Row.self, "SELECT rowid, * FROM \($0) ORDER BY rowid")
                        .map(\.values)
                }
            }
        }
        let before = try rows()
        try undoable("Renumber") {
            try fixture.execute("UPDATE items SET rowid = 10 WHERE id = 1")
            try fixture.execute("UPDATE OR REPLACE items SET oid = 10 WHERE id = 2")
            try fixture.execute("UPDATE notes SET _rowid_ = 5 WHERE body = 'x'")
            try fixture.execute("UPDATE OR REPLACE notes SET rowid = 5 WHERE body = 'y'")
        }
        let after = try rows()
        #expect(after == [[10, 10, "b"], [3, 3, "z"], [5, 5, "y"]])
        try fixture.engine.defaultStack.undo()
        #expect(try rows() == before)
        try fixture.engine.defaultStack.redo()
        #expect(try rows() == after)
    }

    @Test func updateOrReplace() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, code TEXT UNIQUE)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'a'), (2, 'b')")
        try roundTrip(fixture, tables: ["items"]) {
            try fixture.execute("UPDATE OR REPLACE items SET code = 'b' WHERE id = 1")
        }
    }

    @Test func upsertBothWays() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, code TEXT UNIQUE, hits INTEGER)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'a', 1)")
        try roundTrip(fixture, tables: ["items"]) {
            try fixture.execute(
                "INSERT INTO items(code, hits) VALUES ('a', 1), ('new', 1) "
                    + "ON CONFLICT(code) DO UPDATE SET hits = hits + 1")
            try fixture.execute(
                "INSERT INTO items(code, hits) VALUES ('a', 9) ON CONFLICT DO NOTHING")
            try fixture.execute("INSERT OR IGNORE INTO items(id, code, hits) VALUES (1, 'zz', 0)")
        }
    }

    @Test func multiLevelCascadeDelete() throws {
        let fixture = try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE parts(id INTEGER PRIMARY KEY,
                    itemId INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE, label TEXT);
                CREATE TABLE screws(id INTEGER PRIMARY KEY,
                    partId INTEGER NOT NULL REFERENCES parts(id) ON DELETE CASCADE, size REAL);
                """, tables: ["items", "parts", "screws"])
        try fixture.execute(
            """
            INSERT INTO items VALUES (1, 'bike'), (2, 'car');
            INSERT INTO parts VALUES (1, 1, 'wheel'), (2, 1, 'frame'), (3, 2, 'door');
            INSERT INTO screws VALUES (1, 1, 0.5), (2, 1, 0.25), (3, 2, 1.5), (4, 3, 2.0);
            """)
        try roundTrip(fixture, tables: ["items", "parts", "screws"]) {
            try fixture.execute("DELETE FROM items WHERE id = 1")
        }
    }
}
