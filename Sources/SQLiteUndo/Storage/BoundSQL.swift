import SQLiteDatabase

/// A piece of SQL and the values bound to its `?` parameters, in the order they appear.
///
/// A replay builds its statements from such pieces: their text then repeats from row to row
/// (the log row a value is read from is a bound number, not a literal), so the connection reuses
/// their prepared statements instead of compiling each one, its triggers with it.
struct BoundSQL: Equatable {
    var sql: String
    var arguments: [SQLiteValue]

    init(_ sql: String, _ arguments: [SQLiteValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The `SET` list `column = value, ...` of an UPDATE (columns quoted already).
    static func assignments(_ pairs: [(column: String, value: BoundSQL)]) -> BoundSQL {
        joined(
            pairs.map { BoundSQL("\($0.column) = \($0.value.sql)", $0.value.arguments) },
            separator: ", ")
    }

    /// The pieces' SQL joined by `separator`, with their arguments in the same order.
    static func joined(_ pieces: [BoundSQL], separator: String) -> BoundSQL {
        BoundSQL(
            pieces.map(\.sql).joined(separator: separator), pieces.flatMap(\.arguments))
    }
}
