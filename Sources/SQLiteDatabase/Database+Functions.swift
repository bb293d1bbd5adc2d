internal import CSQLite3

/// Holds a Swift closure for SQLite; released by SQLite's destructor when the function is
/// replaced or the connection closes, so nothing leaks.
final class FunctionBox {
    let body: ([SQLiteValue]) throws -> SQLiteValue
    init(body: @escaping ([SQLiteValue]) throws -> SQLiteValue) { self.body = body }
}

extension Database {
    /// Registers (or replaces) an SQL function implemented by a Swift closure on this connection.
    ///
    /// - Parameters:
    ///   - name: the SQL name.
    ///   - argumentCount: how many arguments it takes, or -1 for any number.
    ///   - deterministic: whether the same arguments always give the same result (lets SQLite
    ///     use it in indexes and factor calls out).
    ///   - body: computes the result; a thrown error becomes an SQL error with its description.
    public func createFunction(
        _ name: String, argumentCount: Int32 = -1, deterministic: Bool = false,
        _ body: @escaping ([SQLiteValue]) throws -> SQLiteValue
    ) throws {
        let box = FunctionBox(body: body)
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, Unmanaged.passRetained(box).toOpaque(),
            { context, count, arguments in
                let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context))
                    .takeUnretainedValue()
                let values = (0..<Int(count)).map { Statement.value(of: arguments?[$0]) }
                do {
                    Database.setResult(try box.body(values), on: context)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            }, nil, nil,
            { pointer in
                guard let pointer else { return }
                Unmanaged<FunctionBox>.fromOpaque(pointer).release()
            })
        guard code == SQLITE_OK else { throw self.error(code: code, sql: nil) }
    }

    private static func setResult(_ value: SQLiteValue, on context: OpaquePointer?) {
        switch value {
        case .integer(let number): sqlite3_result_int64(context, number)
        case .real(let number): sqlite3_result_double(context, number)
        case .text(let text):
            text.utf8CString.withUnsafeBufferPointer { bytes in
                sqlite3_result_text64(
                    context, bytes.baseAddress, UInt64(text.utf8.count), csqlite3_transient(),
                    UInt8(SQLITE_UTF8))
            }
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                sqlite3_result_blob64(
                    context, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                    UInt64(buffer.count), csqlite3_transient())
            }
        case .null: sqlite3_result_null(context)
        }
    }

    /// Registers (or replaces) an SQL function of no arguments that returns an integer, or NULL
    /// for nil: the lightest call there is, for a function a trigger calls at every row.
    public func createFunction(_ name: String, returningInteger body: @escaping () -> Int64?)
        throws
    {
        let box = IntegerFunctionBox(body: body)
        let code = sqlite3_create_function_v2(
            handle, name, 0, SQLITE_UTF8, Unmanaged.passRetained(box).toOpaque(),
            { context, _, _ in
                let box = Unmanaged<IntegerFunctionBox>.fromOpaque(sqlite3_user_data(context))
                    .takeUnretainedValue()
                if let number = box.body() {
                    sqlite3_result_int64(context, number)
                } else {
                    sqlite3_result_null(context)
                }
            }, nil, nil,
            { pointer in
                guard let pointer else { return }
                Unmanaged<IntegerFunctionBox>.fromOpaque(pointer).release()
            })
        guard code == SQLITE_OK else { throw self.error(code: code, sql: nil) }
    }
}

/// Holds the closure of a function `createFunction(_:returningInteger:)` registered.
private final class IntegerFunctionBox {
    let body: () -> Int64?
    init(body: @escaping () -> Int64?) { self.body = body }
}
