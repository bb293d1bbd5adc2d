import SQLiteDatabase
import Testing

@Suite struct ValueRoundTripTests {
    let db: DatabaseQueue

    init() throws {
        db = try DatabaseQueue()
        try db.write { try $0.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)") }
    }

    static let edgeValues: [SQLiteValue] = [
        .integer(0), .integer(Int64.min), .integer(Int64.max), .integer(-1),
        .real(0.0), .real(-0.0), .real(Double.pi), .real(Double.greatestFiniteMagnitude),
        .real(-Double.greatestFiniteMagnitude), .real(Double.leastNonzeroMagnitude),
        .real(Double.infinity), .real(-Double.infinity), .real(1e-300),
        .text(""), .text("tab\there"), .text("line\nbreak\r\n"), .text("quote ' and \" and \\"),
        .text("nul\0inside\0"), .text("emoji 😀👩‍👩‍👧 CJK 漢字 é"), .text("%s %d ; DROP TABLE t; --"),
        .blob([]), .blob([0]), .blob([0, 1, 2, 255, 0, 128]),
        .blob(Array(repeating: 7, count: 70_000)),
        .null,
    ]

    @Test(arguments: edgeValues)
    func valueRoundTripsExactly(value: SQLiteValue) throws {
        let back = try db.write { db -> SQLiteValue? in
            try db.execute("INSERT INTO t(v) VALUES (?)", [value])
            return try db.fetchOne(
                Row.self, "SELECT v FROM t WHERE id = ?", [.integer(db.lastInsertedRowID)])?[0]
        }
        #expect(back == value)
    }

    @Test func storageClassIsKept() throws {
        let types = try db.write { db -> [String] in
            for value in [SQLiteValue.integer(1), .real(1), .text("1"), .blob([1]), .null] {
                try db.execute("INSERT INTO t(v) VALUES (?)", [value])
            }
            return try db.fetchAll(String.self, "SELECT typeof(v) FROM t ORDER BY id")
        }
        #expect(types == ["integer", "real", "text", "blob", "null"])
    }

    @Test func realsKeepEveryBit() throws {
        let reals = (0..<200).map {
            Double(bitPattern: 0x3FF0_0000_0000_0000 &+ UInt64($0) &* 7919)
        }
        let back = try db.write { db -> [Double] in
            for real in reals { try db.execute("INSERT INTO t(v) VALUES (?)", [.real(real)]) }
            return try db.fetchAll(Double.self, "SELECT v FROM t ORDER BY id")
        }
        #expect(back.map(\.bitPattern) == reals.map(\.bitPattern))
    }

    @Test func literalsBuildValues() {
        let values: [SQLiteValue] = [1, 2.5, "x", nil, true]
        #expect(values == [.integer(1), .real(2.5), .text("x"), .null, .integer(1)])
    }

    @Test func rowsDecodeByNameAndIndex() throws {
        let row = try db.read { db in
            try db.fetchOne(Row.self, "SELECT 42 AS answer, 'hi' AS greeting, NULL AS empty")
        }
        let unwrapped = try #require(row)
        #expect(try unwrapped.decode("answer", as: Int.self) == 42)
        #expect(try unwrapped.decode(at: 1, as: String.self) == "hi")
        #expect(try unwrapped.decode("empty", as: String?.self) == nil)
        #expect(unwrapped["ANSWER"] == .integer(42))
        #expect(unwrapped["missing"] == nil)
        #expect(throws: SQLiteError.self) { try unwrapped.decode("greeting", as: Int.self) }
        #expect(throws: SQLiteError.self) { try unwrapped.decode("missing", as: Int.self) }
    }

    @Test func cursorStreamsRowsInOrder() throws {
        let seen = try db.write { db -> [Int] in
            for n in 1...1000 {
                try db.execute("INSERT INTO t(v) VALUES (?)", [.integer(Int64(n))])
            }
            let cursor = try db.fetchCursor("SELECT v FROM t WHERE v % 100 = 0 ORDER BY v")
            var seen: [Int] = []
            while let row = try cursor.next() { seen.append(try row.decode(at: 0)) }
            return seen
        }
        #expect(seen == [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000])
    }

    @Test func wrongArgumentCountIsAnError() throws {
        #expect(throws: SQLiteError.self) {
            try db.write { try $0.execute("INSERT INTO t(v) VALUES (?)", [1, 2]) }
        }
    }
}
