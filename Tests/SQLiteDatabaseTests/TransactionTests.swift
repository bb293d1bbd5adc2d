import SQLiteDatabase
import Testing

@Suite struct TransactionTests {
    let db: DatabaseQueue

    init() throws {
        db = try DatabaseQueue()
        try db.write { try $0.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE)") }
    }

    func names() throws -> [String] {
        try db.read { try $0.fetchAll(String.self, "SELECT name FROM t ORDER BY id") }
    }

    struct Boom: Error {}

    @Test func writeCommits() throws {
        try db.write { try $0.execute("INSERT INTO t(name) VALUES ('a'), ('b')") }
        #expect(try names() == ["a", "b"])
    }

    @Test func throwingWriteRollsBackAndRethrows() throws {
        #expect(throws: Boom.self) {
            try db.write { db in
                try db.execute("INSERT INTO t(name) VALUES ('lost')")
                throw Boom()
            }
        }
        #expect(try names() == [])
    }

    @Test func failingStatementRollsBackTheWholeTransaction() throws {
        try db.write { try $0.execute("INSERT INTO t(name) VALUES ('a')") }
        do {
            try db.write { db in
                try db.execute("INSERT INTO t(name) VALUES ('b')")
                try db.execute("INSERT INTO t(name) VALUES ('a')")
            }
            Issue.record("expected a constraint error")
        } catch SQLiteError.constraint {
            // expected: matched by result code
        }
        #expect(try names() == ["a"])
    }

    @Test func errorCarriesCodeMessageAndSQL() throws {
        let sql = "SELECT * FROM missing_table"
        do {
            _ = try db.read { try $0.fetchAll(Row.self, sql) }
            Issue.record("expected an error")
        } catch let error as SQLiteError {
            #expect(error.code == .error)
            #expect(error.message == "no such table: missing_table")
            #expect(error.sql == sql)
        }
    }

    @Test func nestedWriteIsAnErrorNotADeadlock() throws {
        #expect {
            try db.write { _ in try db.write { _ in } }
        } throws: { error in
            (error as? SQLiteError)?.code == .misuse
                && (error as? SQLiteError)?.message.contains("nested") == true
        }
        #expect(throws: SQLiteError.self) { try db.write { _ in try db.read { _ in } } }
        #expect(throws: SQLiteError.self) { try db.read { _ in try db.write { _ in } } }
        // The queue still works afterwards.
        try db.write { try $0.execute("INSERT INTO t(name) VALUES ('after')") }
        #expect(try names() == ["after"])
    }

    @Test func manyTasksWriteAndReadConcurrently() async throws {
        let db = self.db
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<100 {
                group.addTask {
                    try await db.write {
                        try $0.execute("INSERT INTO t(name) VALUES (?)", [.text("n\(n)")])
                    }
                    _ = try await db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") }
                }
            }
            try await group.waitForAll()
        }
        let count = try await db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") }
        #expect(count == 100)
        #expect(Set(try names()) == Set((0..<100).map { "n\($0)" }))
    }

    @Test func foreignKeysAreEnforced() throws {
        try db.write { db in
            try db.execute(
                "CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES t(id))")
        }
        #expect(throws: SQLiteError.self) {
            try db.write { try $0.execute("INSERT INTO child(parent) VALUES (999)") }
        }
    }
}
