import SQLiteDatabase
import Testing

/// `Database.memoized` keeps a value read from the schema until the schema changes, a rollback
/// included.
@Suite struct SchemaMemoTests {
    /// The columns of `t`, read through the memo; `reads` counts the reads of the schema.
    private func columns(_ db: Database, _ reads: inout Int) throws -> [String] {
        try db.memoized("t.columns") {
            reads += 1
            return try db.fetchAll(String.self, "SELECT name FROM pragma_table_info('t')")
        }
    }

    @Test func aMemoIsReadAgainOnlyOnceTheSchemaChanged() throws {
        let queue = try DatabaseQueue()
        var reads = 0
        try queue.write { db in
            try db.execute("CREATE TABLE t(a, b)")
            #expect(try columns(db, &reads) == ["a", "b"])
            #expect(try columns(db, &reads) == ["a", "b"])
            #expect(reads == 1)
            try db.execute("ALTER TABLE t ADD COLUMN c")
            #expect(try columns(db, &reads) == ["a", "b", "c"])
            #expect(reads == 2)
        }
        let read = try queue.read { db in try columns(db, &reads) }
        #expect(read == ["a", "b", "c"])
        #expect(reads == 2)
    }

    /// A schema change taken back puts the schema's version back: a memo read after it is
    /// forgotten, and so is one read before a change of the same version that was taken back.
    @Test func aRollbackForgetsMemos() throws {
        let queue = try DatabaseQueue()
        var reads = 0
        try queue.write { try $0.execute("CREATE TABLE t(a)") }
        struct TakenBack: Error {}
        #expect(throws: TakenBack.self) {
            try queue.write { db in
                try db.execute("ALTER TABLE t ADD COLUMN wrong")
                #expect(try columns(db, &reads) == ["a", "wrong"])
                throw TakenBack()
            }
        }
        try queue.write { db in
            try db.execute("ALTER TABLE t ADD COLUMN right")
            #expect(try columns(db, &reads) == ["a", "right"])
            try db.execute("ALTER TABLE t ADD COLUMN gone")
            #expect(throws: TakenBack.self) {
                try db.savepoint {
                    try db.execute("ALTER TABLE t ADD COLUMN other")
                    #expect(try columns(db, &reads) == ["a", "right", "gone", "other"])
                    throw TakenBack()
                }
            }
            #expect(try columns(db, &reads) == ["a", "right", "gone"])
        }
        #expect(reads == 4)
    }
    /// A memo read from the temp schema too is read again once either schema changed.
    @Test func aMemoIncludingTempIsReadAgainWhenTheTempSchemaChanged() throws {
        let queue = try DatabaseQueue()
        var reads = 0
        func triggers(_ db: Database) throws -> [String] {
            try db.memoized("triggers", includingTemp: true) {
                reads += 1
                return try db.fetchAll(
                    String.self,
                    """
                    SELECT name FROM main.sqlite_schema WHERE type = 'trigger' UNION ALL
                    SELECT name FROM temp.sqlite_schema WHERE type = 'trigger' ORDER BY 1
                    """)
            }
        }
        try queue.write { db in
            try db.execute("CREATE TABLE t(a)")
            #expect(try triggers(db) == [])
            try db.execute("CREATE TEMP TRIGGER x AFTER INSERT ON main.t BEGIN SELECT 1; END")
            #expect(try triggers(db) == ["x"])
            #expect(try triggers(db) == ["x"])
            try db.execute("CREATE TRIGGER y AFTER DELETE ON t BEGIN SELECT 1; END")
            #expect(try triggers(db) == ["x", "y"])
        }
        #expect(reads == 3)
    }
}
