import SQLiteDatabase
import SQLiteUndo
import Testing

@Suite struct ValueTests {
    static let hardValues: [SQLiteValue] = [
        .text("tab\tseparated\tvalues"), .text("new\nline\r\nand\rreturns"), .text("quotes ' \" `"),
        .text("nul\0byte"), .text("emoji 😀 and 👩‍👩‍👧 and 漢字 and é"), .text(""),
        .blob([0, 1, 2, 0, 255]), .blob([]), .real(Double.greatestFiniteMagnitude),
        .real(-Double.greatestFiniteMagnitude), .real(Double.leastNonzeroMagnitude), .real(-0.5),
        .real(0.1), .integer(Int64.min), .integer(Int64.max), .null,
    ]

    @Test(arguments: hardValues)
    func everyValueUndoesAndRedoesExactly(value: SQLiteValue) throws {
        let fixture = try Fixture()
        try fixture.execute("INSERT INTO items(id, name, value) VALUES (1, 'start', 42)")
        let stack = fixture.engine.defaultStack
        try undoable("Set") {
            try fixture.execute("UPDATE items SET value = ? WHERE id = 1", [value])
        }
        try undoable("Add") {
            try fixture.execute("INSERT INTO items(id, name, value) VALUES (2, 'copy', ?)", [value])
        }
        try undoable("Remove") { try fixture.execute("DELETE FROM items WHERE id = 1") }
        let final = try fixture.rows()
        #expect(final == [[2, "copy", value, 0]])
        try stack.undo()
        #expect(try fixture.rows() == [[1, "start", value, 0], [2, "copy", value, 0]])
        try stack.undo()
        try stack.undo()
        #expect(try fixture.rows() == [[1, "start", 42, 0]])
        for _ in 0..<3 { try stack.redo() }
        #expect(try fixture.rows() == final)
    }

    /// Text that is not valid UTF-8 (written by another program) has no exact Swift `String`:
    /// the replays write it from the log with SQL, byte for byte, in the set-based replay and in
    /// the row-by-row one (several changes to one row).
    @Test(arguments: [false, true])
    func textThatIsNotUTF8UndoesByteForByte(rowByRow: Bool) throws {
        let fixture = try Fixture()
        let bytes = "X'4261642000FF20C0AF1BE282'"
        try fixture.execute(
            "INSERT INTO items(id, name, value) VALUES (1, CAST(\(bytes) AS TEXT), CAST(\(bytes) AS TEXT))"
        )
        let hex = {
            try fixture.db.read {
                try $0.fetchAll(
                    Row.self, "SELECT hex(name), typeof(name), hex(value) FROM items ORDER BY id"
                )
                .map(\.values)
            }
        }
        let original = try hex()
        let stack = fixture.engine.defaultStack
        try undoable("Edit") {
            try fixture.execute("UPDATE items SET name = 'valid' WHERE id = 1")
            if rowByRow {
                try fixture.execute("UPDATE items SET value = 'also valid' WHERE id = 1")
            }
        }
        try undoable("Remove") { try fixture.execute("DELETE FROM items WHERE id = 1") }
        try stack.undo()
        try stack.undo()
        #expect(try hex() == original)
        try stack.redo()
        try stack.redo()
        try stack.undo()
        // Redo of the edit and the removal, then undo of the removal: the row as edited.
        let value: SQLiteValue = rowByRow ? "616C736F2076616C6964" : original[0][2]
        #expect(try hex() == [["76616C6964", "text", value]])
    }

    @Test func storageClassChangeIsAChange() throws {
        let fixture = try Fixture()
        try fixture.execute("INSERT INTO items(id, value) VALUES (1, 1)")
        try undoable("To real") { try fixture.execute("UPDATE items SET value = 1.0") }
        #expect(fixture.engine.defaultStack.canUndo)
        try fixture.engine.defaultStack.undo()
        #expect(try fixture.rows() == [[1, nil, 1, 0]])
    }

    @Test func caseOnlyChangeUnderNoCaseCollationIsAChange() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items VALUES (1, 'hello')")
        try undoable("Capitalise") { try fixture.execute("UPDATE items SET name = 'Hello'") }
        try fixture.engine.defaultStack.undo()
        #expect(try fixture.rows() == [[1, "hello"]])
    }

    @Test func tableAndColumnNamesWithSpacesAndQuotes() throws {
        let fixture = try Fixture(
            schema: #"CREATE TABLE "my ""odd"" table"(id INTEGER PRIMARY KEY, "a column" TEXT, "#
                + #""it's ""quoted""" INTEGER)"#,
            tables: ["my \"odd\" table"])
        let table = "\"my \"\"odd\"\" table\""
        try fixture.execute("INSERT INTO \(table) VALUES (1, 'x', 1)")
        let before = try fixture.rows(table)
        try undoable("Odd") {
            try fixture.execute(#"UPDATE \#(table) SET "a column" = 'y', "it's ""quoted""" = 2"#)
            try fixture.execute("INSERT INTO \(table) VALUES (2, 'z', 3)")
        }
        let after = try fixture.rows(table)
        try fixture.engine.defaultStack.undo()
        #expect(try fixture.rows(table) == before)
        try fixture.engine.defaultStack.redo()
        #expect(try fixture.rows(table) == after)
    }

    @Test func textKeyedTableKeepsRowids() throws {
        let fixture = try Fixture(
            schema: "CREATE TABLE items(id INTEGER PRIMARY KEY, code TEXT UNIQUE, qty INTEGER)",
            tables: ["items"])
        try fixture.execute("INSERT INTO items(rowid, code, qty) VALUES (7, 'a', 1), (9, 'b', 2)")
        try undoable("Delete") { try fixture.execute("DELETE FROM items") }
        try fixture.engine.defaultStack.undo()
        let rows = try fixture.db.read {
            try $0.fetchAll(Row.self, "SELECT rowid, code, qty FROM items ORDER BY rowid").map(
                \.values)
        }
        #expect(rows == [[7, "a", 1], [9, "b", 2]])
    }
}

/// Typed columns: SQLite converts a value to the column's affinity before it is stored (and
/// before a BEFORE trigger reads it as NEW), so the triggers compare values alone there, and
/// storage classes too only in typeless columns.
@Suite struct TypedColumnTests {
    static let schema = """
        CREATE TABLE items(id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, n NUMERIC, b BLOB,
            u, a ANY);
        CREATE TABLE strict(id INTEGER PRIMARY KEY, a ANY, i INT) STRICT;
        """

    private func fixture() throws -> Fixture {
        try Fixture(schema: Self.schema, tables: ["items", "strict"])
    }

    private func stored(_ fixture: Fixture, _ table: String) throws -> [[SQLiteValue]] {
        try fixture.db.read { db in
            let columns = table == "items" ? ["i", "r", "t", "n", "b", "u", "a"] : ["a", "i"]
            let each = columns.map { "typeof(\($0)), quote(\($0))" }.joined(separator: ", ")
            return try db.fetchAll(Row.self, "SELECT id, \(each) FROM \(table) ORDER BY id")
                .map(\.values)
        }
    }

    /// Every value into every column, one barrier each; undone one by one, each step shows the
    /// stored values (storage class and bytes) as they were before it.
    @Test func everyValueInEveryAffinityUndoesExactly() throws {
        let fixture = try fixture()
        try fixture.execute("INSERT INTO items(id) VALUES (1)")
        let values: [SQLiteValue] =
            ValueTests.hardValues + [
                .integer(1), .real(1.0), .text("1"), .text("1.0"), .integer(1), .text(" 1"),
                .real(2.5), .text("2.5"), .blob([0x31]), .integer(1),
            ]
        var states = [try stored(fixture, "items")]
        for value in values {
            try undoable("Set") {
                try fixture.execute(
                    "UPDATE items SET i = ?1, r = ?1, t = ?1, n = ?1, b = ?1, u = ?1, a = ?1",
                    [value])
            }
            states.append(try stored(fixture, "items"))
        }
        let stack = fixture.engine.defaultStack
        while stack.canUndo {
            try stack.undo()
            states.removeLast()
            #expect(try stored(fixture, "items") == states.last)
        }
        #expect(states.count == 1)
    }

    /// A value that only looks different (5.0 into an INTEGER column holding 5) is stored as
    /// the same value: no change, so nothing to undo. In a typeless column it is a change.
    @Test func convertedToTheSameValueIsNoChange() throws {
        let fixture = try fixture()
        try fixture.execute(
            "INSERT INTO items(id, i, r, t, n, u) VALUES (1, 5, 2.0, '7', 10, 5)")
        let before = try stored(fixture, "items")
        try undoable("Same values") {
            try fixture.execute("UPDATE items SET i = 5.0, r = 2, t = 7, n = '10'")
        }
        #expect(try stored(fixture, "items") == before)
        #expect(!fixture.engine.defaultStack.canUndo)
        try undoable("Real") { try fixture.execute("UPDATE items SET u = 5.0") }
        #expect(fixture.engine.defaultStack.canUndo)
        try fixture.engine.defaultStack.undo()
        #expect(try stored(fixture, "items") == before)
    }

    /// `ANY` in a STRICT table keeps values as they are: 1 to 1.0 is a change there.
    @Test func anyColumnOfAStrictTableKeepsStorageClasses() throws {
        let fixture = try fixture()
        try fixture.execute("INSERT INTO strict(id, a, i) VALUES (1, 1, 1)")
        let before = try stored(fixture, "strict")
        try undoable("Real") { try fixture.execute("UPDATE strict SET a = 1.0") }
        #expect(try stored(fixture, "strict") == [[1, "real", "1.0", "integer", "1"]])
        try fixture.engine.defaultStack.undo()
        #expect(try stored(fixture, "strict") == before)
    }
}
