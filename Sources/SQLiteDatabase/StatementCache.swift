/// The prepared statements of one connection, by SQL text, the least recently used dropped past
/// `capacity`.
///
/// Bounded because SQL is often built (a replay names log rows and columns in its text): an
/// unbounded cache grows with every distinct statement a long-running app ever ran, and SQLite
/// walks every prepared statement of the connection whenever a pragma or a schema change
/// expires them (`PRAGMA defer_foreign_keys`, set by an undo that inserts or deletes rows that
/// others reference).
struct StatementCache {
    let capacity: Int
    private var entries: [String: (statement: Statement, lastUse: UInt64)] = [:]
    private var uses: UInt64 = 0

    init(capacity: Int) { self.capacity = capacity }

    /// The statement prepared for `sql`, marked as just used, or nil.
    mutating func statement(for sql: String) -> Statement? {
        // One lookup: hashing the SQL text is most of what a cached statement costs to find.
        guard let index = entries.index(forKey: sql) else { return nil }
        uses += 1
        entries.values[index].lastUse = uses
        return entries.values[index].statement
    }

    func contains(_ sql: String) -> Bool { entries[sql] != nil }

    /// Takes the statement prepared for `sql` out of the cache, for a use that may overlap
    /// another of the same SQL (a cursor): it is inserted again when that use ends.
    mutating func take(_ sql: String) -> Statement? {
        entries.removeValue(forKey: sql)?.statement
    }

    var count: Int { entries.count }

    /// Keeps `statement` for `sql`, dropping the least recently used one when full (a statement
    /// still stepped elsewhere lives on until that use ends).
    mutating func insert(_ statement: Statement, for sql: String) {
        if entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            entries[oldest] = nil
        }
        uses += 1
        entries[sql] = (statement, uses)
    }

    mutating func removeAll() { entries.removeAll() }
}
