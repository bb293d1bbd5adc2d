internal import CSQLite3

/// SQLite's session extension: records the changes made to attached tables on one connection as
/// a changeset, which can be inverted and applied (SQLite's own undo building block, used by
/// `notes-bench` as a baseline).
///
/// ```swift
/// let session = try db.write { try ChangesetSession(database: $0) }
/// try db.write { _ in try session.attach(table: "articles") }
/// try db.write { db in try db.execute("UPDATE articles SET rating = 5") }
/// let changes = try db.read { _ in try session.changeset() }
/// try db.write { db in try db.applyChangeset(try ChangesetSession.invert(changes)) }
/// ```
///
/// Not `Sendable`, like `Database`: use it only inside closures of the queue that owns its
/// connection. Tables need a PRIMARY KEY for their changes to be recorded.
public final class ChangesetSession {
    private let database: Database
    private let handle: OpaquePointer

    /// Starts a session on the `main` schema of `database`, recording nothing until a table is
    /// attached.
    /// - Throws: `SQLiteError` when SQLite cannot create it.
    public init(database: Database) throws {
        var handle: OpaquePointer?
        let code = sqlite3session_create(database.handle, "main", &handle)
        guard code == SQLITE_OK, let handle else { throw database.error(code: code, sql: nil) }
        self.database = database
        self.handle = handle
    }

    deinit { sqlite3session_delete(handle) }

    /// Records, from now on, the changes to `table`.
    /// - Throws: `SQLiteError` when SQLite refuses.
    public func attach(table: String) throws {
        let code = sqlite3session_attach(handle, table)
        guard code == SQLITE_OK else { throw database.error(code: code, sql: nil) }
    }

    /// The changes recorded so far, as a changeset (each changed row once, with its values
    /// before and after).
    /// - Throws: `SQLiteError` when SQLite cannot build it.
    public func changeset() throws -> [UInt8] {
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        let code = sqlite3session_changeset(handle, &size, &bytes)
        defer { sqlite3_free(bytes) }
        guard code == SQLITE_OK else { throw database.error(code: code, sql: nil) }
        return Self.copy(bytes, count: size)
    }

    /// The changeset that undoes `changeset` (inserts become deletes, updates swap their values).
    /// - Throws: `SQLiteError` for a malformed changeset.
    public static func invert(_ changeset: [UInt8]) throws -> [UInt8] {
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        let code = changeset.withUnsafeBytes { input in
            sqlite3changeset_invert(
                Int32(input.count), UnsafeMutableRawPointer(mutating: input.baseAddress), &size,
                &bytes)
        }
        defer { sqlite3_free(bytes) }
        guard code == SQLITE_OK else {
            throw SQLiteError(
                code: ResultCode(rawValue: code), message: "cannot invert the changeset")
        }
        return copy(bytes, count: size)
    }

    private static func copy(_ bytes: UnsafeMutableRawPointer?, count: Int32) -> [UInt8] {
        guard let bytes, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
    }
}

/// What `Database.applyChangeset` does with a change that does not fit the database as it is
/// (the row is missing, or holds other values than the changeset expects).
public enum ChangesetConflictResolution: Int32, Sendable {
    /// Skips that change and applies the others.
    case omit = 0
    /// Stops and undoes everything applied so far; `applyChangeset` throws.
    case abort = 2
}

extension Database {
    /// Applies a changeset (from `ChangesetSession`) to this connection's tables, all or nothing.
    /// - Parameters:
    ///   - changeset: the changes, e.g. `ChangesetSession.invert(session.changeset())`.
    ///   - onConflict: what to do with a change that does not fit (default: abort).
    /// - Throws: `SQLiteError` (`.abort` after a conflict with `.abort`); nothing is applied then.
    public func applyChangeset(
        _ changeset: [UInt8], onConflict: ChangesetConflictResolution = .abort
    ) throws {
        let context = UnsafeMutableRawPointer(bitPattern: Int(onConflict.rawValue) + 1)
        let code = changeset.withUnsafeBytes { input in
            sqlite3changeset_apply(
                handle, Int32(input.count), UnsafeMutableRawPointer(mutating: input.baseAddress),
                nil,
                { context, _, _ in
                    // The resolution travels in the context pointer, offset by one to be non-nil.
                    Int32(Int(bitPattern: context) - 1)
                }, context)
        }
        guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
    }
}
