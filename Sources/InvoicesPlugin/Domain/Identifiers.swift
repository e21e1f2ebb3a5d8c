import Foundation
import Storage

/// A saved invoice's id. Ids are never reused, even after a delete, so an id held by a list
/// row or an undo toast always means the same invoice.
public struct InvoiceID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Reads back `description`, e.g. an id kept in a `GtkStringList`.
    public init?(_ text: String) {
        guard let value = Int64(text) else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: InvoiceID, rhs: InvoiceID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A saved client's id.
public struct ClientID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public init?(_ text: String) {
        guard let value = Int64(text) else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: ClientID, rhs: ClientID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension InvoiceID: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(rawValue) }
    public static func decode(_ value: SQLValue, column: String) throws -> InvoiceID {
        InvoiceID(try Int64.decode(value, column: column))
    }
}

extension ClientID: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(rawValue) }
    public static func decode(_ value: SQLValue, column: String) throws -> ClientID {
        ClientID(try Int64.decode(value, column: column))
    }
}

/// A saved quote's id.
public struct QuoteID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public init?(_ text: String) {
        guard let value = Int64(text) else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: QuoteID, rhs: QuoteID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An issued credit note's id.
public struct CreditNoteID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public init?(_ text: String) {
        guard let value = Int64(text) else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: CreditNoteID, rhs: CreditNoteID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension QuoteID: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(rawValue) }
    public static func decode(_ value: SQLValue, column: String) throws -> QuoteID {
        QuoteID(try Int64.decode(value, column: column))
    }
}

extension CreditNoteID: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .integer(rawValue) }
    public static func decode(_ value: SQLValue, column: String) throws -> CreditNoteID {
        CreditNoteID(try Int64.decode(value, column: column))
    }
}
