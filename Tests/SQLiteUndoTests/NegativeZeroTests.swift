import SQLiteDatabase
import SQLiteUndo
import Testing

/// Reals round-trip bit for bit: 0.0 and -0.0 are equal to SQL (`IS`, `=`) but not the same
/// value, and a column that can hold both records a change between them.
@Suite struct NegativeZeroTests {
    let fixture: Fixture
    var stack: UndoStack { fixture.engine.defaultStack }

    init() throws {
        fixture = try Fixture(
            schema: """
                CREATE TABLE items(id INTEGER PRIMARY KEY, u, b BLOB, r REAL);
                CREATE TABLE strict(id INTEGER PRIMARY KEY, a ANY) STRICT;
                """, tables: ["items", "strict"])
        try fixture.execute("INSERT INTO items VALUES (1, ?1, ?1, ?1)", [0.0])
        try fixture.execute("INSERT INTO strict VALUES (1, ?)", [0.0])
    }

    /// The stored values, read back as they are (SQLiteValue compares reals by their bits).
    private func values() throws -> [[SQLiteValue]] {
        try fixture.rows("items") + fixture.rows("strict")
    }

    @Test func zeroToNegativeZeroUndoesAndRedoesWithItsSign() throws {
        let zero = try values()
        #expect(zero == [[1, 0.0, 0.0, 0.0], [1, 0.0]])
        try undoable("Negate") {
            try fixture.execute("UPDATE items SET u = ?1, b = ?1", [.real(-0.0)])
            try fixture.execute("UPDATE strict SET a = ?1", [.real(-0.0)])
        }
        let negative = try values()
        #expect(negative == [[1, .real(-0.0), .real(-0.0), 0.0], [1, .real(-0.0)]])
        #expect(stack.undoActionName == "Negate")
        for _ in 0..<2 {
            try stack.undo()
            #expect(try values() == zero)
            try stack.redo()
            #expect(try values() == negative)
        }
        let signs = try fixture.db.read {
            try $0.fetchAll(Row.self, "SELECT u, b FROM items").map(\.values)
        }
        let bits = signs.first?.map { value -> UInt64? in
            guard case .real(let real) = value else { return nil }
            return real.bitPattern
        }
        #expect(bits == [(-0.0).bitPattern, (-0.0).bitPattern])
    }

    @Test func negativeZeroToZeroUndoes() throws {
        try fixture.execute("UPDATE items SET u = ?1, b = ?1", [.real(-0.0)])
        try fixture.execute("UPDATE strict SET a = ?", [.real(-0.0)])
        let negative = try values()
        #expect(negative == [[1, .real(-0.0), .real(-0.0), 0.0], [1, .real(-0.0)]])
        try undoable("Make Positive") {
            try fixture.execute("UPDATE items SET u = 0.0, b = 0.0")
            try fixture.execute("UPDATE strict SET a = 0.0")
        }
        #expect(try values() == [[1, 0.0, 0.0, 0.0], [1, 0.0]])
        try stack.undo()
        #expect(try values() == negative)
    }

    /// REAL affinity stores -0.0 as 0.0, so writing it there changes nothing to record.
    @Test func aRealColumnStoresNegativeZeroAsZero() throws {
        try undoable("Negate Real") { try fixture.execute("UPDATE items SET r = ?", [-0.0]) }
        #expect(try values() == [[1, 0.0, 0.0, 0.0], [1, 0.0]])
        #expect(stack.canUndo == false)
        #expect(try fixture.logCount() == 0)
    }
}
