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

    /// A cursor takes its query's prepared statement out of the cache and gives it back when
    /// released: a repeated cursor query is prepared once, and two open cursors of the same SQL
    /// each read their own rows.
    @Test func cursorsOfTheSameQueryReuseItsStatementWithoutSharingIt() throws {
        let db = try DatabaseQueue()
        let (pairs, counts) = try db.write { db -> ([[Int64]], [Int]) in
            try db.execute("CREATE TABLE t(x)")
            for value: Int64 in 1...3 {
                try db.execute("INSERT INTO t VALUES (?)", [.integer(value)])
            }
            let sql = "SELECT x FROM t WHERE x >= ? ORDER BY x"
            var counts = [db.cachedStatementCount]
            let outer = try db.fetchCursor(sql, [.integer(1)])
            var pairs: [[Int64]] = []
            while let row = try outer.next() {
                let inner = try db.fetchCursor(sql, [.integer(try row.decode(at: 0))])
                while let other = try inner.next() {
                    pairs.append([try row.decode(at: 0), try other.decode(at: 0)])
                }
            }
            counts.append(db.cachedStatementCount)
            return (pairs, counts)
        }
        #expect(pairs == [[1, 1], [1, 2], [1, 3], [2, 2], [2, 3], [3, 3]])
        // The statements the cursors gave back: one kept for the query, none more.
        #expect(counts[1] == counts[0] + 1)
    }
}

/// The cache finds most SQL by where its text is stored: the same text in another string, and
/// texts built anew that may land where a dropped one was, still get their own statement.
@Suite struct StatementCacheAddressTests {
    @Test func aCopyOfTheTextReusesTheStatementAndNewTextsGetTheirOwn() throws {
        let db = try DatabaseQueue()
        let results = try db.write { db -> [Int64] in
            let kept = "SELECT 41 + 1 AS answer, 'kept'"
            var results = [try db.fetchOne(Int64.self, kept) ?? 0]
            let cached = db.cachedStatementCount
            let copy = String(decoding: Array(kept.utf8), as: UTF8.self)
            results.append(try db.fetchOne(Int64.self, copy) ?? 0)
            #expect(db.cachedStatementCount == cached)
            // Built strings of one length, many more than the cache keeps: each dropped text's
            // memory may be reused by the next, which must not get the dropped statement.
            for value in 0..<1000 {
                let sql = "SELECT \(100_000 + value) AS value, 'built'"
                results.append(try db.fetchOne(Int64.self, sql) ?? 0)
            }
            results.append(try db.fetchOne(Int64.self, kept) ?? 0)
            return results
        }
        #expect(results == [42, 42] + (0..<1000).map { Int64(100_000 + $0) } + [42])
    }
}
