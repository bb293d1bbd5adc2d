/// Named schema migrations, applied once each, in the order they were registered, and recorded
/// in the database file.
public struct Migrator: Sendable {
    /// The table that records an application's applied migrations.
    public static let recordTable = "sqlitedatabase_migrations"

    /// The table this migrator records its migrations in: a library that keeps tables of its own
    /// in an application's file (the undo engine's log) records them apart from the application's.
    public let recordTable: String

    private var migrations: [(name: String, apply: @Sendable (Database) throws -> Void)] = []

    /// A migrator recording its migrations in `recordTable`.
    public init(recordTable: String = Migrator.recordTable) {
        self.recordTable = recordTable
    }

    /// Adds a migration; names must be unique and must never change once shipped.
    public mutating func registerMigration(
        _ name: String, _ apply: @escaping @Sendable (Database) throws -> Void
    ) {
        precondition(!migrations.contains { $0.name == name }, "duplicate migration \(name)")
        migrations.append((name, apply))
    }

    /// The migrations registered up to `name`, and that one: the schema as an earlier version
    /// left it, for tests of a later migration.
    public func prefix(through name: String) -> Migrator {
        var prefix = self
        if let index = migrations.firstIndex(where: { $0.name == name }) {
            prefix.migrations = Array(migrations[...index])
        }
        return prefix
    }

    /// The registered names, in order.
    public var migrationNames: [String] { migrations.map(\.name) }

    /// Applies the migrations the database has not seen yet, all in one transaction.
    /// - Throws: `MigrationError.databaseIsNewer` when the file records migrations this program
    ///   does not know (it was written by a newer version); nothing is changed then.
    public func migrate(_ writer: some DatabaseWriter) throws {
        try writer.write { db in try migrate(db) }
    }

    /// Applies the pending migrations on a connection already inside a transaction.
    public func migrate(_ db: Database) throws {
        try db.execute(
            "CREATE TABLE IF NOT EXISTS \(recordTable) (name TEXT PRIMARY KEY NOT NULL)")
        let applied = Set(try db.fetchAll(String.self, "SELECT name FROM \(recordTable)"))
        let unknown = applied.subtracting(migrationNames)
        guard unknown.isEmpty else {
            throw MigrationError.databaseIsNewer(unknownMigrations: unknown.sorted())
        }
        for migration in migrations where !applied.contains(migration.name) {
            try migration.apply(db)
            try db.execute(
                "INSERT INTO \(recordTable)(name) VALUES (?)", [.text(migration.name)])
        }
    }

    /// Names of the migrations recorded in the database (in `recordTable`, the application's by
    /// default), in the order they were applied.
    public static func appliedMigrations(_ db: Database, recordTable: String = recordTable) throws
        -> [String]
    {
        let exists = try db.fetchOne(
            Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = ?", [.text(recordTable)])
        guard exists == 1 else { return [] }
        return try db.fetchAll(String.self, "SELECT name FROM \(recordTable) ORDER BY rowid")
    }
}

/// Why migrations could not be applied.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file was migrated by a newer version of the program.
    case databaseIsNewer(unknownMigrations: [String])

    public var description: String {
        switch self {
        case .databaseIsNewer(let names):
            return "the database was written by a newer version (unknown migrations: "
                + names.joined(separator: ", ") + "); nothing was changed"
        }
    }
}
