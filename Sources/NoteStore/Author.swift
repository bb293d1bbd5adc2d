import SQLiteDatabase

/// A person who writes articles; deleting an author deletes their articles.
public struct Author: Table, Sendable, Equatable, FetchableRecord {
    /// The table's name, for the undo engine and for queries.
    public static let tableName = "authors"

    /// The row id.
    public var id: Int64
    /// The name shown in lists and exports.
    public var name: String

    /// Makes an author value (it is not saved: use `Notebook.insertAuthor`).
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }

    /// Decodes an `authors` row.
    /// - Throws: `SQLiteError` when a column is missing or of the wrong type.
    public init(row: Row) throws {
        id = try row.decode("id")
        name = try row.decode("name")
    }
}
