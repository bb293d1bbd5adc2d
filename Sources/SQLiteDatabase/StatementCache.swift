/// The prepared statements of one connection, by SQL text, the least recently used dropped past
/// `capacity`.
///
/// Bounded because SQL is often built (a replay names log rows and columns in its text): an
/// unbounded cache grows with every distinct statement a long-running app ever ran, and SQLite
/// walks every prepared statement of the connection whenever a pragma or a schema change
/// expires them (`PRAGMA defer_foreign_keys`, set by an undo that inserts or deletes rows that
/// others reference).
///
/// Most SQL is a constant kept in one `String` for the program's life: such a string is found
/// by the address of its bytes first, without hashing them (hashing a 1.5 KB query costs more
/// instructions than SQLite takes to run it). An entry keeps its string, so the address cannot
/// be reused by another text while the entry is cached.
struct StatementCache {
    let capacity: Int
    private var entries: [String: Entry] = [:]
    /// The entries whose SQL was a string of `storedLength` bytes or more, by its bytes' address.
    private var entriesByAddress: [UInt: Entry] = [:]
    private var uses: UInt64 = 0

    private final class Entry {
        let sql: String
        let statement: Statement
        let address: UInt?
        var lastUse: UInt64

        init(sql: String, statement: Statement, lastUse: UInt64) {
            self.sql = sql
            self.statement = statement
            self.address = StatementCache.address(of: sql)
            self.lastUse = lastUse
        }
    }

    init(capacity: Int) { self.capacity = capacity }

    /// The statement prepared for `sql`, marked as just used, or nil.
    mutating func statement(for sql: String) -> Statement? {
        guard let entry = entry(for: sql) else { return nil }
        uses += 1
        entry.lastUse = uses
        return entry.statement
    }

    func contains(_ sql: String) -> Bool { entry(for: sql) != nil }

    /// Takes the statement prepared for `sql` out of the cache, for a use that may overlap
    /// another of the same SQL (a cursor): it is inserted again when that use ends.
    mutating func take(_ sql: String) -> Statement? {
        guard let entry = entry(for: sql) else { return nil }
        remove(entry)
        return entry.statement
    }

    var count: Int { entries.count }

    /// The cached statements, by SQL.
    var statements: [String: Statement] { entries.mapValues(\.statement) }

    /// Keeps `statement` for `sql`, dropping the least recently used one when full (a statement
    /// still stepped elsewhere lives on until that use ends).
    mutating func insert(_ statement: Statement, for sql: String) {
        if let known = entries[sql] { remove(known) }
        if entries.count >= capacity,
            let oldest = entries.values.min(by: { $0.lastUse < $1.lastUse })
        {
            remove(oldest)
        }
        uses += 1
        let entry = Entry(sql: sql, statement: statement, lastUse: uses)
        entries[sql] = entry
        if let address = entry.address { entriesByAddress[address] = entry }
    }

    mutating func removeAll() {
        entries.removeAll()
        entriesByAddress.removeAll()
    }

    private func entry(for sql: String) -> Entry? {
        if let address = Self.address(of: sql), let entry = entriesByAddress[address],
            entry.sql == sql
        {
            return entry
        }
        return entries[sql]
    }

    private mutating func remove(_ entry: Entry) {
        entries[entry.sql] = nil
        if let address = entry.address, entriesByAddress[address] === entry {
            entriesByAddress[address] = nil
        }
    }

    /// Strings shorter than this may be stored inline, at no fixed address.
    private static let storedLength = 16

    /// Where the bytes of `sql` are stored, when it keeps them in memory of its own.
    private static func address(of sql: String) -> UInt? {
        guard sql.utf8.count >= storedLength else { return nil }
        return sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
    }
}
