internal import CSQLite3

/// A write transaction that began while a `BackgroundCheck` holds commits back
/// (`DatabaseQueue.holdCommits(until:)`). It remembers what the connection had changed when it
/// began, so that a transaction that changed nothing commits without waiting for the check.
struct WriteDuringCheck {
    let check: BackgroundCheck
    /// Rows the connection had inserted, updated or deleted (triggers' included) at the start.
    private let changes: Int64
    private let schemaVersion: Int64?

    init(check: BackgroundCheck, _ db: Database) throws {
        self.check = check
        changes = sqlite3_total_changes64(db.handle)
        schemaVersion = try Self.schemaVersion(db)
    }

    /// Waits for the check when the transaction changed rows or the schema of the file.
    /// - Throws: What the check threw: the transaction must then roll back.
    func admit(_ db: Database) throws {
        let changedRows = sqlite3_total_changes64(db.handle) != changes
        guard try changedRows || Self.schemaVersion(db) != schemaVersion else { return }
        try check.wait()
    }

    private static func schemaVersion(_ db: Database) throws -> Int64? {
        try db.fetchOne(Int64.self, "PRAGMA main.schema_version")
    }
}
