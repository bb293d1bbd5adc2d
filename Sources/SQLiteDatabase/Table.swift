/// A type stored in a table of its own (`Article`, `Author`): the undo engine tracks `Table` types.
public protocol Table {
    /// The table's name in the database.
    static var tableName: String { get }
}
