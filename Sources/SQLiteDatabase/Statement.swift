internal import CSQLite3

/// A prepared statement owned by one connection; never leaves the `Database` that made it.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database

    init(database: Database, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, 0, &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw database.error(code: code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    lazy var columnNames: [String] = (0..<sqlite3_column_count(handle)).map {
        String(cString: sqlite3_column_name(handle, $0))
    }

    /// How many times SQLite prepared the statement again since it was first prepared: a schema
    /// change or a pragma expired it, or it was planned for a bound value that changed.
    var timesPreparedAgain: Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    func bind(_ arguments: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw SQLiteError(
                code: .misuse,
                message: "statement expects \(expected) arguments, got \(arguments.count)", sql: sql
            )
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                code = text.utf8CString.withUnsafeBufferPointer { bytes in
                    sqlite3_bind_text64(
                        handle, index, bytes.baseAddress, UInt64(text.utf8.count),
                        csqlite3_transient(), UInt8(SQLITE_UTF8))
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(
                        handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        UInt64(buffer.count), csqlite3_transient())
                }
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
        }
    }

    /// Steps once: true when a row is ready, false when the statement is done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    func value(at column: Int32) -> SQLiteValue {
        Self.value(of: sqlite3_column_value(handle, column))
    }

    /// The current row's first column as `T`; throws as `Row.decode(at:as:)` does.
    func decodeFirstColumn<T: SQLiteValueConvertible>(as type: T.Type) throws -> T {
        guard sqlite3_column_count(handle) > 0 else {
            throw SQLiteError(code: .misuse, message: "no column at index 0")
        }
        return try Row.convert(value(at: 0), to: T.self, column: columnNames[0])
    }

    func currentRow() -> Row {
        Row(
            columnNames: columnNames,
            values: (0..<Int32(columnNames.count)).map { value(at: $0) })
    }

    /// Decodes an `sqlite3_value`, exactly: text by byte length (NUL-safe), reals by bits.
    static func value(of pointer: OpaquePointer?) -> SQLiteValue {
        switch sqlite3_value_type(pointer) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(pointer))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(pointer))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(pointer))
            guard let bytes = sqlite3_value_text(pointer) else { return .text("") }
            return .text(
                String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(pointer))
            guard count > 0, let bytes = sqlite3_value_blob(pointer) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
