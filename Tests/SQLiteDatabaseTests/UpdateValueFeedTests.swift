import SQLiteDatabase
import Testing

/// A update value feed hands an UPDATE its values from a query read in step with it: every query
/// row to the row with its key, in order, only where the row holds the expected value exactly.
@Suite struct UpdateValueFeedTests {
    /// Rows 1...6 of `t(x)`, and `source(k, expected, replacement)` naming all but row 3: text,
    /// real, blob, empty text and empty blob replacements.
    private func fixture() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                """
                CREATE TABLE t(x);
                INSERT INTO t(rowid, x)
                VALUES (1, 'a'), (2, 2), (3, 'c'), (4, x'00ff'), (5, 'e'), (6, NULL);
                CREATE TABLE source(k INTEGER PRIMARY KEY, expected, replacement);
                INSERT INTO source VALUES (1, 'a', 'A'), (2, 2, 2.5), (4, x'00ff', x'0102'),
                    (5, 'e', ''), (6, NULL, x'');
                """)
        }
        return queue
    }

    private let unchanged = ["'a'", "2", "'c'", "X'00FF'", "'e'", "NULL"]

    private let update = "UPDATE t SET x = feed(rowid, 0, x) WHERE rowid IN (SELECT k FROM source)"

    private func run(_ query: String, _ db: DatabaseQueue) throws -> UpdateValueFeed.Outcome {
        try db.write { db in
            let feed = try db.updateValueFeed(named: "feed")
            return try feed.feed(query, []) { try db.execute(update) }
        }
    }

    private func values(_ db: DatabaseQueue) throws -> [String] {
        try db.read { try $0.fetchAll(String.self, "SELECT quote(x) FROM t ORDER BY rowid") }
    }

    @Test func feedsEveryRowItsReplacementInOrder() throws {
        let db = try fixture()
        let outcome = try run("SELECT k, expected, replacement FROM source ORDER BY k", db)
        #expect(outcome == .fed(keys: [1, 2, 4, 5, 6]))
        #expect(try values(db) == ["'A'", "2.5", "'c'", "X'0102'", "''", "X''"])
    }

    @Test func rowsInAnotherOrderAreOutOfStepAndTheUpdateStops() throws {
        let db = try fixture()
        let outcome = try run("SELECT k, expected, replacement FROM source ORDER BY k DESC", db)
        #expect(outcome == .outOfStep)
        #expect(try values(db) == unchanged)
    }

    @Test func aQueryWithRowsLeftIsOutOfStep() throws {
        let db = try fixture()
        let query = "SELECT k, expected, replacement FROM source UNION ALL SELECT 9, 0, 0"
        #expect(try run(query, db) == .outOfStep)
    }

    @Test func aValueOfAnotherTypeOrOtherBytesDiffers() throws {
        for expected in ["'2'", "2.0", "x'02'"] {
            let db = try fixture()
            let query = """
                SELECT k, CASE k WHEN 2 THEN \(expected) ELSE expected END, replacement
                FROM source ORDER BY k
                """
            #expect(try run(query, db) == .differs, "expected \(expected)")
            #expect(try values(db) == unchanged)
        }
    }

    @Test func outsideAFeedTheFunctionFailsWithAMessage() throws {
        let db = try fixture()
        let error = #expect(throws: SQLiteError.self) {
            try db.write { db in
                _ = try db.updateValueFeed(named: "feed")
                try db.execute(update)
            }
        }
        #expect(error?.message == "a update value feed is called outside its UPDATE")
    }
}
