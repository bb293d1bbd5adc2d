import SQLiteDatabase

extension Database {
    /// Runs one statement of a replay (logged when `UndoDiagnostics.isOn`).
    func executeReplay(_ sql: String, _ arguments: [SQLiteValue]) throws {
        UndoDiagnostics.log(sql, arguments)
        try execute(sql, arguments)
    }

    /// `executeReplay` of a statement that returns the rowids it wrote (`RETURNING rowid`).
    func fetchReplay(_ sql: String, _ arguments: [SQLiteValue]) throws -> [Int64] {
        UndoDiagnostics.log(sql, arguments)
        return try fetchAll(Int64.self, sql, arguments)
    }

    /// `executeReplay` of a statement that returns the rows it wrote (`RETURNING`).
    func fetchReplayRows(_ sql: String, _ arguments: [SQLiteValue]) throws -> [Row] {
        UndoDiagnostics.log(sql, arguments)
        return try fetchAll(Row.self, sql, arguments)
    }
}
