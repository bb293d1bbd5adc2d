import Testing

@testable import SQLiteDatabase

/// A connection keeps a bounded number of prepared statements: SQL built with values in its text
/// (as replays build it) must not make a long-running connection grow without end.
@Suite struct StatementCacheTests {
    @Test func distinctStatementsKeepTheCacheBounded() throws {
        let db = try DatabaseQueue()
        let (sum, count) = try db.write { db -> (Int64, Int) in
            try db.execute("CREATE TABLE t(x)")
            for value in 0..<1000 {
                try db.execute("INSERT INTO t VALUES (\(value))")
                try db.execute("UPDATE t SET x = x WHERE x = ?", [.integer(Int64(value))])
            }
            return (
                try db.fetchOne(Int64.self, "SELECT sum(x) FROM t") ?? 0, db.cachedStatementCount
            )
        }
        #expect(sum == 499_500)
        #expect(count == 256)
    }

    @Test func aStatementDroppedFromTheCacheWhileSteppedFinishesItsRows() throws {
        let db = try DatabaseQueue()
        let seen = try db.write { db -> [Int64] in
            try db.execute("CREATE TABLE t(x)")
            for value: Int64 in 1...3 {
                try db.execute("INSERT INTO t VALUES (?)", [.integer(value)])
            }
            var seen: [Int64] = []
            try db.fetchAll(Int64.self, "SELECT x FROM t ORDER BY x").forEach { seen.append($0) }
            let cursor = try db.fetchCursor("SELECT x FROM t ORDER BY x")
            while let row = try cursor.next() {
                seen.append(try row.decode(at: 0))
                for other in 0..<300 { _ = try db.fetchOne(Int64.self, "SELECT \(other)") }
            }
            return seen
        }
        #expect(seen == [1, 2, 3, 1, 2, 3])
    }
}
