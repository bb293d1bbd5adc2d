import SQLiteDatabase
import Testing

/// `reportingProgress` ticks while SQLite works for a long statement, with the rows changed so
/// far readable in the tick; it stops ticking when its body returns. An interval of zero ticks
/// at every look SQLite gives it (every few thousand virtual machine steps): no clock involved.
@Suite struct ReportingProgressTests {
    private static let fiveThousandRows = """
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5000)
        INSERT INTO t(x) SELECT x FROM n
        """

    @Test func aLongStatementTicksWithTheRowsChangedSoFar() throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute("CREATE TABLE t(x)") }
        var seen: [Int] = []
        try queue.write { db in
            try db.reportingProgress(every: .zero, to: { seen.append(db.changedRowCount(of: "t")) })
            {
                try db.execute(Self.fiveThousandRows)
            }
            // Ended: another long statement ticks no more.
            let ticks = seen.count
            try db.execute(Self.fiveThousandRows)
            #expect(seen.count == ticks)
        }
        #expect(seen.count >= 3)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(seen.contains { $0 > 0 && $0 < 5000 })
        #expect(seen.allSatisfy { $0 <= 5000 })
    }

    @Test func anInnerReportEndsAndTheOuterGoesOn() throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute("CREATE TABLE t(x)") }
        var outer = 0
        var inner = 0
        try queue.write { db in
            try db.reportingProgress(every: .zero, to: { outer += 1 }) {
                try db.reportingProgress(every: .zero, to: { inner += 1 }) {
                    try db.execute(Self.fiveThousandRows)
                }
                #expect(inner > 0 && outer == 0)
                try db.execute(Self.fiveThousandRows)
            }
        }
        #expect(outer > 0)
    }

    @Test func aTickDueOnlyAfterTheWorkNeverComes() throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute("CREATE TABLE t(x)") }
        var ticks = 0
        try queue.write { db in
            try db.reportingProgress(every: .seconds(3600), to: { ticks += 1 }) {
                try db.execute(Self.fiveThousandRows)
            }
        }
        #expect(ticks == 0)
        #expect(try queue.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") } == 5000)
    }

    /// What a savepoint rolled back leaves the count (a replay that gives up on one way and
    /// tries another would otherwise show its rows done twice).
    @Test func aRolledBackSavepointIsNotCounted() throws {
        let queue = try DatabaseQueue()
        try queue.write { try $0.execute("CREATE TABLE t(x); CREATE TABLE u(x)") }
        struct GiveUp: Error {}
        try queue.write { db in
            try db.execute("INSERT INTO t VALUES (1), (2), (3)")
            let gaveUp = Result {
                try db.savepoint {
                    try db.execute("INSERT INTO t VALUES (4), (5)")
                    try db.execute("INSERT INTO u VALUES (1)")
                    #expect(db.changedRowCount(of: "t") == 5 && db.changedRowCount(of: "u") == 1)
                    throw GiveUp()
                }
            }
            #expect(throws: GiveUp.self) { try gaveUp.get() }
            #expect(db.changedRowCount(of: "t") == 3 && db.changedRowCount(of: "u") == 0)
            try db.savepoint { try db.execute("INSERT INTO u VALUES (2)") }
            #expect(db.changedRowCount(of: "u") == 1)
        }
    }
}
