internal import CSQLite3

/// An SQLite result code, matchable in `catch` clauses: `catch SQLiteError.constraint`.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code as SQLite returns it.
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary result code (the low 8 bits of an extended code).
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    public var description: String { String(cString: sqlite3_errstr(rawValue)) }

    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// The disk is full (`SQLITE_FULL`).
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// A foreign key constraint failed (`SQLITE_CONSTRAINT_FOREIGNKEY`, an extended code).
    public static let foreignKeyConstraint = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    /// A UNIQUE constraint failed (`SQLITE_CONSTRAINT_UNIQUE`, an extended code).
    public static let uniqueConstraint = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    /// A PRIMARY KEY constraint failed (`SQLITE_CONSTRAINT_PRIMARYKEY`, an extended code).
    public static let primaryKeyConstraint = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)

    /// Matches an error whose primary or extended code is this one: an `SQLiteError`, or an
    /// error that wraps one (`WrapsSQLiteError`).
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = SQLiteError(unwrapping: error) else { return false }
        return error.code == pattern || error.code.primary == pattern
    }
}

/// An error reported by SQLite: its result code, its message and the statement that failed.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code.
    public let code: ResultCode
    /// SQLite's own message (`sqlite3_errmsg`), or ours for errors raised by this layer.
    public let message: String
    /// The SQL that failed, when there was one.
    public let sql: String?

    public init(code: ResultCode, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The SQLite error `error` is, or the one it wraps (`WrapsSQLiteError`); nil for others.
    public init?(unwrapping error: any Error) {
        if let error = error as? SQLiteError {
            self = error
        } else if let wrapped = (error as? any WrapsSQLiteError)?.sqliteError {
            self = wrapped
        } else {
            return nil
        }
    }

    public var description: String {
        var text = "SQLite error \(code.rawValue) (\(code)): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }

    public static let error = ResultCode.error
    public static let busy = ResultCode.busy
    public static let readOnly = ResultCode.readOnly
    public static let corrupt = ResultCode.corrupt
    public static let constraint = ResultCode.constraint
    public static let foreignKeyConstraint = ResultCode.foreignKeyConstraint
    public static let misuse = ResultCode.misuse
    public static let notADatabase = ResultCode.notADatabase
}

/// An error of a higher layer that keeps the SQLite error it comes from, so that
/// `catch SQLiteError.busy` (and every other `ResultCode` pattern) still matches it.
public protocol WrapsSQLiteError: Error {
    /// The SQLite error underneath, or nil when it did not come from SQLite.
    var sqliteError: SQLiteError? { get }
}
