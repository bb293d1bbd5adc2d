internal import CSQLite3
import Foundation

/// An SQL function that hands an UPDATE its new values from a query read in step with it, one
/// query row per updated row. The UPDATE then takes its values from another table (a log)
/// without SQLite first joining the two into a temporary table, as `UPDATE … FROM` does.
///
/// The function is `name(key, column, current)`. While `feed(_:_:while:)` runs, the first call
/// with a new `key` moves the query to its next row, whose first column must equal `key`. The
/// query's next columns come in pairs, one pair per fed column (`column` 0, 1, …): the value
/// the updated row must hold now, and the value the function returns for it. `current` must be
/// identical to the first of the pair (same storage class, same bytes; reals equal as numbers,
/// as SQL's `IS` compares them). Any difference fails the call, which aborts the UPDATE. Outside
/// `feed` the function always fails.
///
/// Registered once per connection (`Database.updateValueFeed(named:)`), so that using it never
/// replaces a function, which would make SQLite prepare every cached statement again.
public final class UpdateValueFeed {
    /// How a feed ended.
    public enum Outcome: Equatable, Sendable {
        /// Every query row was handed to the UPDATE, in order; their keys.
        case fed(keys: [Int64])
        /// The UPDATE's rows did not come in the query's order (or one of them was missing, or
        /// the query had rows left when the UPDATE ended).
        case outOfStep
        /// A row did not hold the value the query said it must.
        case differs
    }

    private unowned let database: Database
    // Read and written once or twice per updated row, only by the connection's thread while
    // `feed` runs: no dynamic exclusivity check (a third of the function's own cost).
    @exclusivity(unchecked) private var statement: Statement?
    @exclusivity(unchecked) private var keys: [Int64] = []
    @exclusivity(unchecked) private var failure: Outcome?

    fileprivate init(name: String, database: Database) throws {
        self.database = database
        let code = sqlite3_create_function_v2(
            database.handle, name, 3, SQLITE_UTF8, Unmanaged.passRetained(self).toOpaque(),
            { context, _, arguments in
                let feed = Unmanaged<UpdateValueFeed>.fromOpaque(sqlite3_user_data(context))
                    .takeUnretainedValue()
                feed.call(context, arguments)
            }, nil, nil,
            { pointer in
                guard let pointer else { return }
                Unmanaged<UpdateValueFeed>.fromOpaque(pointer).release()
            })
        guard code == SQLITE_OK else { throw database.error(code: code, sql: nil) }
    }

    /// Runs `update` (a statement calling the function) with the function reading `query`'s
    /// rows. An error `update` throws because the function failed becomes the outcome; any other
    /// is rethrown. The UPDATE's changes stay even when the outcome is not `.fed`: run it in a
    /// savepoint to take them back.
    public func feed(_ query: String, _ arguments: [SQLiteValue], while update: () throws -> Void)
        throws -> Outcome
    {
        let statement = try database.cachedStatement(query)
        try statement.bind(arguments)
        self.statement = statement
        defer {
            sqlite3_reset(statement.handle)
            self.statement = nil
            keys = []
            failure = nil
        }
        do {
            try update()
        } catch {
            if let failure { return failure }
            throw error
        }
        guard try !statement.step() else { return .outOfStep }
        return .fed(keys: keys)
    }

    private func call(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?)
    {
        guard let statement, let arguments else {
            return sqlite3_result_error(
                context, "a update value feed is called outside its UPDATE", -1)
        }
        let row = statement.handle
        let key = sqlite3_value_int64(arguments[0])
        if keys.last != key {
            let code = sqlite3_step(row)
            guard code == SQLITE_ROW || code == SQLITE_DONE else {
                return sqlite3_result_error_code(context, code)
            }
            guard code == SQLITE_ROW, sqlite3_column_int64(row, 0) == key else {
                return fail(.outOfStep, context)
            }
            keys.append(key)
        }
        let expected = 1 + 2 * sqlite3_value_int(arguments[1])
        guard expected > 0, expected + 1 < sqlite3_column_count(row) else {
            return sqlite3_result_error(context, "a update value feed has no such column", -1)
        }
        guard Self.identical(arguments[2], sqlite3_column_value(row, expected)) else {
            return fail(.differs, context)
        }
        Self.setResult(row, column: expected + 1, on: context)
    }

    /// Returns the row's value without copying its bytes: they stay where they are until the
    /// query moves to its next row, which happens only at the UPDATE's next row, after this one
    /// is written.
    private static func setResult(_ row: OpaquePointer, column: Int32, on context: OpaquePointer?) {
        let type = sqlite3_column_type(row, column)
        if type == SQLITE_TEXT, let text = sqlite3_column_text(row, column) {
            let count = sqlite3_column_bytes(row, column)
            if count > 0 {
                return sqlite3_result_text64(
                    context, UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self),
                    UInt64(count), nil, UInt8(SQLITE_UTF8))
            }
        } else if type == SQLITE_BLOB, let blob = sqlite3_column_blob(row, column) {
            let count = sqlite3_column_bytes(row, column)
            if count > 0 { return sqlite3_result_blob64(context, blob, UInt64(count), nil) }
        }
        sqlite3_result_value(context, sqlite3_column_value(row, column))
    }

    private func fail(_ outcome: Outcome, _ context: OpaquePointer?) {
        failure = outcome
        sqlite3_result_error(context, "a row is not as the update value feed expects", -1)
    }

    /// Same storage class and same value: bytes for text and blobs, numbers for the rest.
    private static func identical(_ a: OpaquePointer?, _ b: OpaquePointer?) -> Bool {
        let type = sqlite3_value_type(a)
        guard type == sqlite3_value_type(b) else { return false }
        switch type {
        case SQLITE_INTEGER: return sqlite3_value_int64(a) == sqlite3_value_int64(b)
        case SQLITE_FLOAT: return sqlite3_value_double(a) == sqlite3_value_double(b)
        case SQLITE_TEXT:
            return sameBytes(
                UnsafeRawPointer(sqlite3_value_text(a)), sqlite3_value_bytes(a),
                UnsafeRawPointer(sqlite3_value_text(b)), sqlite3_value_bytes(b))
        case SQLITE_BLOB:
            return sameBytes(
                sqlite3_value_blob(a), sqlite3_value_bytes(a), sqlite3_value_blob(b),
                sqlite3_value_bytes(b))
        default: return true
        }
    }

    private static func sameBytes(
        _ a: UnsafeRawPointer?, _ aCount: Int32, _ b: UnsafeRawPointer?, _ bCount: Int32
    ) -> Bool {
        guard aCount == bCount else { return false }
        guard aCount > 0 else { return true }
        guard let a, let b else { return false }
        return memcmp(a, b, Int(aCount)) == 0
    }
}

extension Database {
    /// The connection's update value feed function `name`, registered on first use.
    public func updateValueFeed(named name: String) throws -> UpdateValueFeed {
        if let feed = updateValueFeeds[name] { return feed }
        let feed = try UpdateValueFeed(name: name, database: self)
        updateValueFeeds[name] = feed
        return feed
    }
}
