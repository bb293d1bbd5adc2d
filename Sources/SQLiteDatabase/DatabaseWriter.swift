/// Something that serialises access to one database connection: sync and async `read`/`write`.
public protocol DatabaseWriter: AnyObject, Sendable {
    /// Runs `block` in a read transaction and returns its result.
    func read<T>(_ block: (Database) throws -> T) throws -> T
    /// Runs `block` in one write transaction: commits, or rolls back and rethrows. When SQLite
    /// ended the transaction inside `block` (an `OR ROLLBACK` conflict the block caught), it
    /// throws `SQLiteError` `.error` saying so: what the block wrote after that was committed
    /// statement by statement, outside the transaction.
    func write<T>(_ block: (Database) throws -> T) throws -> T
    /// Async `read`: waits its turn without blocking other tasks' turns.
    func read<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T
    /// Async `write`: one transaction, committed or rolled back.
    func write<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T
    /// Registers an observer told, after each commit, which tables changed.
    func observe(_ observer: @escaping @Sendable (DatabaseChange) -> Void) -> DatabaseObservation
}

/// What one commit changed.
public struct DatabaseChange: Sendable, Equatable {
    /// Names of the tables the commit wrote.
    public var tables: Set<String>
    /// Whether the commit came from another connection (another process), noticed by
    /// `pollForExternalChanges()`; then `tables` holds every table, as SQLite does not say which.
    public var isExternal: Bool
    /// The tables among `tables` that gained or lost rows (an INSERT or a DELETE); a table only
    /// updated keeps its row count, so a view can skip counting it again.
    public var resizedTables: Set<String>

    /// - Parameters:
    ///   - tables: The tables the commit wrote.
    ///   - isExternal: Whether another connection made the commit.
    ///   - resizedTables: The tables that gained or lost rows; every table of `tables` when nil.
    public init(tables: Set<String>, isExternal: Bool, resizedTables: Set<String>? = nil) {
        self.tables = tables
        self.isExternal = isExternal
        self.resizedTables = resizedTables ?? tables
    }
}

/// Keeps an observer registered; `cancel()` (or releasing it) stops the notifications.
public final class DatabaseObservation: Sendable {
    private let onCancel: @Sendable () -> Void
    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
    /// Stops the notifications.
    public func cancel() { onCancel() }
    deinit { onCancel() }
}
