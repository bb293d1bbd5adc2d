import SQLiteDatabase
import Testing

/// `execute` runs a script of several statements, or one statement (prepared once and reused,
/// with trailing whitespace or a semicolon), with the same results either way.
@Suite struct ExecuteTests {
    @Test func scriptsAndSingleStatementsBothRun() throws {
        let db = try DatabaseQueue()
        let rows = try db.write { db -> [Int64] in
            try db.execute(
                "CREATE TABLE t(x);\n INSERT INTO t VALUES (1);\tINSERT INTO t VALUES (2); ")
            for _ in 0..<2 { try db.execute("INSERT INTO t VALUES (3);\r\n ") }
            try db.execute("INSERT INTO t VALUES (4)")
            try db.execute("INSERT INTO t SELECT 5 WHERE ';' = ?", [";"])
            return try db.fetchAll(Int64.self, "SELECT x FROM t ORDER BY rowid")
        }
        #expect(rows == [1, 2, 3, 3, 4, 5])
    }
}
