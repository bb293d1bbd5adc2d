/// One result row: column names and values, decoded by name or by index.
public struct Row: Sendable, Hashable, CustomStringConvertible {
    /// The column names, in the order of the statement's result.
    public let columnNames: [String]
    /// The values, in the same order.
    public let values: [SQLiteValue]

    public init(columnNames: [String], values: [SQLiteValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The value at a column index.
    public subscript(index: Int) -> SQLiteValue { values[index] }

    /// The value of the first column of that name (case-insensitive, like SQL), or nil if absent.
    public subscript(name: String) -> SQLiteValue? {
        guard let index = columnIndex(name) else { return nil }
        return values[index]
    }

    /// Decodes the column at an index, or throws if the value cannot represent `T`.
    public func decode<T: SQLiteValueConvertible>(at index: Int, as type: T.Type = T.self) throws
        -> T
    {
        guard values.indices.contains(index) else {
            throw SQLiteError(code: .misuse, message: "no column at index \(index)")
        }
        return try Self.convert(values[index], to: T.self, column: columnNames[index])
    }

    /// Decodes the named column, or throws if it is absent or cannot represent `T`.
    public func decode<T: SQLiteValueConvertible>(_ name: String, as type: T.Type = T.self) throws
        -> T
    {
        guard let index = columnIndex(name) else {
            throw SQLiteError(code: .misuse, message: "no column named \(name)")
        }
        return try Self.convert(values[index], to: T.self, column: name)
    }

    public var description: String {
        zip(columnNames, values).map { "\($0)=\($1)" }.joined(separator: " ")
    }

    private func columnIndex(_ name: String) -> Int? {
        columnNames.firstIndex { $0 == name }
            ?? columnNames.firstIndex { $0.lowercased() == name.lowercased() }
    }

    static func convert<T: SQLiteValueConvertible>(
        _ value: SQLiteValue, to type: T.Type, column: String
    ) throws -> T {
        guard let result = T(sqliteValue: value) else {
            throw SQLiteError(
                code: .mismatch, message: "column \(column) holds \(value), not \(T.valueKind)")
        }
        return result
    }
}

/// A type decoded from a whole row (`try db.fetchAll(Article.self, "SELECT * FROM articles")`).
public protocol FetchableRecord {
    /// Decodes a row; throws when a column is missing or of the wrong type.
    init(row: Row) throws
}

extension Row: FetchableRecord {
    public init(row: Row) { self = row }
}
