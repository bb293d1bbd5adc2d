import SQLiteDatabase
import Testing

@Suite struct MigratorTests {
    let db: DatabaseQueue

    init() throws {
        db = try DatabaseQueue()
    }

    func migrator(_ names: [String]) -> Migrator {
        var migrator = Migrator()
        for name in names {
            migrator.registerMigration(name) { db in
                try db.execute("CREATE TABLE IF NOT EXISTS log(name TEXT)")
                try db.execute("INSERT INTO log(name) VALUES (?)", [.text(name)])
            }
        }
        return migrator
    }

    func log() throws -> [String] {
        try db.read { try $0.fetchAll(String.self, "SELECT name FROM log ORDER BY rowid") }
    }

    @Test func migrationsRunOnceInOrder() throws {
        try migrator(["v1", "v2"]).migrate(db)
        try migrator(["v1", "v2"]).migrate(db)
        try migrator(["v1", "v2", "v3"]).migrate(db)
        #expect(try log() == ["v1", "v2", "v3"])
        #expect(try db.read { try Migrator.appliedMigrations($0) } == ["v1", "v2", "v3"])
    }

    @Test func newerDatabaseIsRefusedAndUnchanged() throws {
        try migrator(["v1", "v2", "v3"]).migrate(db)
        #expect(throws: MigrationError.databaseIsNewer(unknownMigrations: ["v3"])) {
            try migrator(["v1", "v2", "v2b"]).migrate(db)
        }
        #expect(try log() == ["v1", "v2", "v3"])
        let message = MigrationError.databaseIsNewer(unknownMigrations: ["v3"]).description
        #expect(
            message
                == "the database was written by a newer version (unknown migrations: v3); nothing was changed"
        )
    }

    @Test func failingMigrationLeavesNothingApplied() throws {
        var migrator = migrator(["v1"])
        migrator.registerMigration("broken") { db in try db.execute("CREATE TABLE oops(") }
        #expect(throws: SQLiteError.self) { try migrator.migrate(db) }
        #expect(try db.read { try Migrator.appliedMigrations($0) } == [])
    }
}

@Suite struct SeparateMigratorTests {
    @Test func aLibrarysMigrationsAreRecordedApartFromTheApplications() throws {
        let db = try DatabaseQueue()
        var application = Migrator()
        application.registerMigration("app-1") { try $0.execute("CREATE TABLE a(x)") }
        var library = Migrator(recordTable: "library_migrations")
        library.registerMigration("lib-1") { try $0.execute("CREATE TABLE b(x)") }
        try library.migrate(db)
        // Neither sees the other's migrations as written by a newer version.
        try application.migrate(db)
        try library.migrate(db)
        try db.read { db throws in
            #expect(try Migrator.appliedMigrations(db) == ["app-1"])
            #expect(
                try Migrator.appliedMigrations(db, recordTable: "library_migrations") == ["lib-1"])
        }
    }
}
