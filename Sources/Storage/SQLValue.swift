import Foundation
import BillfoldCore

/// One value as SQLite stores it.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    var typeName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }
}

/// A Swift value that can be bound to a statement parameter.
///
/// Storage conventions, used everywhere so columns compare and sort correctly:
/// - `Bool` is 0 or 1;
/// - `Decimal` is TEXT in its exact plain form ("1234.5"), never a REAL;
/// - `Date` is TEXT, ISO 8601 in UTC with milliseconds ("2024-03-01T09:30:00.000Z"), which
///   sorts chronologically as text and is understood by SQLite's date functions;
/// - money is two columns: INTEGER minor units and a TEXT currency code.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

/// A Swift value that can be read from a result column.
public protocol SQLColumnDecodable {
    static func decode(_ value: SQLValue, column: String) throws -> Self
}

extension SQLValue: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { self }
    public static func decode(_ value: SQLValue, column: String) throws -> SQLValue { value }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension Optional: SQLColumnDecodable where Wrapped: SQLColumnDecodable {
    public static func decode(_ value: SQLValue, column: String) throws -> Wrapped? {
        if case .null = value { return nil }
        return try Wrapped.decode(value, column: column)
    }
}

extension Int64: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(self) }
    public static func decode(_ value: SQLValue, column: String) throws -> Int64 {
        guard case .integer(let integer) = value else { throw mismatch(value, column, "INTEGER") }
        return integer
    }
}

extension Int: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public static func decode(_ value: SQLValue, column: String) throws -> Int {
        guard let integer = Int(exactly: try Int64.decode(value, column: column)) else {
            throw DatabaseError.typeMismatch(column: column, expected: "Int", found: "INTEGER")
        }
        return integer
    }
}

extension Int32: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public static func decode(_ value: SQLValue, column: String) throws -> Int32 {
        guard let integer = Int32(exactly: try Int64.decode(value, column: column)) else {
            throw DatabaseError.typeMismatch(column: column, expected: "Int32", found: "INTEGER")
        }
        return integer
    }
}

extension Bool: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    public static func decode(_ value: SQLValue, column: String) throws -> Bool {
        try Int64.decode(value, column: column) != 0
    }
}

extension Double: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .real(self) }
    public static func decode(_ value: SQLValue, column: String) throws -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: throw mismatch(value, column, "REAL")
        }
    }
}

extension String: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .text(self) }
    public static func decode(_ value: SQLValue, column: String) throws -> String {
        guard case .text(let text) = value else { throw mismatch(value, column, "TEXT") }
        return text
    }
}

extension Data: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .blob(self) }
    public static func decode(_ value: SQLValue, column: String) throws -> Data {
        guard case .blob(let data) = value else { throw mismatch(value, column, "BLOB") }
        return data
    }
}

extension UUID: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .text(uuidString) }
    public static func decode(_ value: SQLValue, column: String) throws -> UUID {
        let text = try String.decode(value, column: column)
        guard let uuid = UUID(uuidString: text) else {
            throw DatabaseError.invalidValue(column: column, text: text, expected: "UUID")
        }
        return uuid
    }
}

extension Decimal: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { isNaN ? .null : .text(plainText) }

    /// Reads exact TEXT; INTEGER is exact too. A REAL (from arithmetic in SQL) is read through
    /// its shortest decimal form, which is the value the Double was meant to hold.
    public static func decode(_ value: SQLValue, column: String) throws -> Decimal {
        switch value {
        case .text(let text):
            guard let decimal = DecimalText.parse(text) else {
                throw DatabaseError.invalidValue(column: column, text: text, expected: "decimal number")
            }
            return decimal
        case .integer(let integer):
            return Decimal(integer)
        case .real(let real):
            guard real.isFinite, let decimal = Decimal(string: "\(real)", locale: DecimalText.posix) else {
                throw DatabaseError.invalidValue(column: column, text: "\(real)", expected: "decimal number")
            }
            return decimal
        default:
            throw mismatch(value, column, "TEXT")
        }
    }
}

extension Date: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .text(DateText.string(from: self)) }

    /// Reads the ISO 8601 TEXT this module writes (and SQLite's "YYYY-MM-DD HH:MM:SS");
    /// INTEGER or REAL are taken as Unix seconds.
    public static func decode(_ value: SQLValue, column: String) throws -> Date {
        switch value {
        case .text(let text):
            guard let date = DateText.date(from: text) else {
                throw DatabaseError.invalidValue(column: column, text: text, expected: "ISO 8601 date")
            }
            return date
        case .integer(let seconds):
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        case .real(let seconds):
            return Date(timeIntervalSince1970: seconds)
        default:
            throw mismatch(value, column, "TEXT")
        }
    }
}

private func mismatch(_ value: SQLValue, _ column: String, _ expected: String) -> DatabaseError {
    if case .null = value { return .unexpectedNull(column: column) }
    return .typeMismatch(column: column, expected: expected, found: value.typeName)
}

enum DecimalText {
    static let posix = Locale(identifier: "en_US_POSIX")

    /// Decimal(string:) stops at the first bad character ("12abc" → 12); stored text must be
    /// a number in plain form as a whole or it is reported, not silently truncated. Up to 19
    /// significant digits, the Decimal is made from the digits read here, exactly and without
    /// Decimal(string:), which cost more than the rest of loading an invoice line.
    static func parse(_ text: String) -> Decimal? {
        var sawDigit = false
        var sawPoint = false
        var significand: UInt64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                if sawPoint { fractionDigits += 1 }
                if significand > 0 || byte != UInt8(ascii: "0") {
                    significand = significand &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                    significantDigits += 1
                }
            case UInt8(ascii: "."): if sawPoint { return nil } else { sawPoint = true }
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if index != 0 { return nil }
            default: return nil
            }
        }
        guard sawDigit else { return nil }
        if significand > 0, significantDigits <= 19, fractionDigits <= 38 {
            let sign: FloatingPointSign = text.utf8.first == UInt8(ascii: "-") ? .minus : .plus
            return Decimal(sign: sign, exponent: -fractionDigits, significand: Decimal(significand))
        }
        guard let decimal = Decimal(string: text, locale: posix), !decimal.isNaN else { return nil }
        return decimal
    }
}
