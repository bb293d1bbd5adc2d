/// One value SQLite can store: the five storage classes, held exactly.
///
/// Text keeps every Unicode scalar, NUL included; reals keep every bit; blobs keep every byte.
public enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// Whether this is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Compares reals by their bits, so that values round-trip checks are exact
    /// (`-0.0` differs from `0.0`).
    public static func == (lhs: SQLiteValue, rhs: SQLiteValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let value): hasher.combine(0); hasher.combine(value)
        case .real(let value): hasher.combine(1); hasher.combine(value.bitPattern)
        case .text(let value): hasher.combine(2); hasher.combine(Array(value.utf8))
        case .blob(let value): hasher.combine(3); hasher.combine(value)
        case .null: hasher.combine(4)
        }
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral, ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue: CustomStringConvertible {
    /// The value as an SQL literal, for messages and diagnostics (never for building queries).
    public var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            return "X'"
                + bytes.map { String($0, radix: 16).uppercased() }
                .map { $0.count == 1 ? "0" + $0 : $0 }.joined() + "'"
        case .null: return "NULL"
        }
    }
}

/// A Swift type that converts to and from an SQLite value.
public protocol SQLiteValueConvertible {
    /// The value to bind in a statement.
    var sqliteValue: SQLiteValue { get }
    /// Decodes a column value; nil when the value cannot represent this type.
    init?(sqliteValue: SQLiteValue)
    /// What the type holds, in words, for errors: "a whole number", "text or NULL".
    static var valueKind: String { get }
}

extension SQLiteValueConvertible {
    public static var valueKind: String { "a \(Self.self)" }
}

extension SQLiteValue: SQLiteValueConvertible {
    public static var valueKind: String { "a value" }
    public var sqliteValue: SQLiteValue { self }
    public init?(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension Int64: SQLiteValueConvertible {
    public static var valueKind: String { "a whole number" }
    public var sqliteValue: SQLiteValue { .integer(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value):
            guard let exact = Int64(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    public static var valueKind: String { "a whole number" }
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self = Int(value)
    }
}

extension Bool: SQLiteValueConvertible {
    public static var valueKind: String { "a boolean (0 or 1)" }
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self = value != 0
    }
}

extension Double: SQLiteValueConvertible {
    public static var valueKind: String { "a number" }
    public var sqliteValue: SQLiteValue { .real(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension String: SQLiteValueConvertible {
    public static var valueKind: String { "text" }
    public var sqliteValue: SQLiteValue { .text(self) }
    /// Text as it is; a number as its digits; a blob as its bytes read as UTF-8 (what SQLite's
    /// own text conversion gives, with invalid bytes as U+FFFD), since another program may have
    /// stored text as a blob.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let value): self = value
        case .integer(let value): self = String(value)
        case .real(let value): self = "\(value)"
        case .blob(let bytes): self = String(decoding: bytes, as: UTF8.self)
        case .null: return nil
        }
    }
}

extension [UInt8]: SQLiteValueConvertible {
    public static var valueKind: String { "bytes" }
    public var sqliteValue: SQLiteValue { .blob(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let value): self = value
        case .text(let value): self = Array(value.utf8)
        default: return nil
        }
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    public static var valueKind: String { "\(Wrapped.valueKind) or NULL" }
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    public init?(sqliteValue: SQLiteValue) {
        if sqliteValue.isNull {
            self = .none
        } else if let value = Wrapped(sqliteValue: sqliteValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
