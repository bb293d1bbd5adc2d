import SQLiteDatabase

/// Rows by their primary key, for every table: events, histories and take-backs name a row by a
/// number (`UndoEvent.ids(for:)`, `history(of:id:)`), which is the rowid of a table with an
/// `INTEGER PRIMARY KEY` and, for a table keyed otherwise (text, several columns, `WITHOUT
/// ROWID`), a number the engine gives each key value and keeps across `VACUUM` (`KeyMap`).
extension UndoEngine {
    /// The number the engine names the row whose primary key is `key` by (its values in the
    /// key's order): the key itself for an `INTEGER PRIMARY KEY`; nil when the table is not
    /// tracked or no history names that key.
    /// - Throws: `SQLiteError`.
    public func id(of table: any Table.Type, key: [SQLiteValue]) throws -> Int64? {
        guard let tracked = tracked(table.tableName) else { return nil }
        guard let keyMap = tracked.keyMap else {
            guard key.count == 1, case .integer(let rowid) = key[0] else { return nil }
            return rowid
        }
        return try database.read { db in try keyMap.existingNumber(of: key, db) }
    }

    /// The primary key (its values in the key's order) of the row the engine names `id`, or nil
    /// when the table is not tracked or no key has that number.
    /// - Throws: `SQLiteError`.
    public func key(of table: any Table.Type, id: Int64) throws -> [SQLiteValue]? {
        try key(ofTable: table.tableName, id: id)
    }

    /// `key(of:id:)` for the table named `name` (any case).
    /// - Throws: `SQLiteError`.
    public func key(ofTable name: String, id: Int64) throws -> [SQLiteValue]? {
        guard let tracked = tracked(name) else { return nil }
        guard let keyMap = tracked.keyMap else { return [.integer(id)] }
        return try database.read { db in try keyMap.key(numbered: id, db) }
    }

    /// The steps of every stack that wrote the row whose primary key is `key`, newest first
    /// (see `history(of:id:)`).
    /// - Throws: `SQLiteError`.
    public func history(of table: any Table.Type, key: [SQLiteValue]) throws -> [UndoRowStep] {
        guard let id = try id(of: table, key: key) else { return [] }
        return try history(of: table, id: id)
    }

    /// The primary keys of the rows in `affected` (numbers per table name) of the tables the key
    /// map numbers, for an event: a replay of an `INTEGER PRIMARY KEY` table's rows reads none.
    func keys(of affected: [String: Set<Int64>], _ db: Database) throws
        -> [String: [[SQLiteValue]]]
    {
        var keys: [String: [[SQLiteValue]]] = [:]
        for (name, ids) in affected {
            guard let keyMap = tracked(name)?.keyMap else { continue }
            keys[name] = try keyMap.keys(numbered: Array(ids), db)
        }
        return keys
    }

    /// The tracked table named `name`, in any case. A replay names its tables as tracked: the
    /// exact name is looked for first (Foundation's case-insensitive compare cost an undo of one
    /// row 2 % of its time).
    private func tracked(_ name: String) -> TrackedTable? {
        trackedTables.withLock { tables in
            tables.values.first { $0.name == name }
                ?? tables.values.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
    }
}
