/// A saved row's id, typed per kind of record so that ids of different records cannot be
/// mixed up. SQLite never reuses them (`AUTOINCREMENT`), so an id held by a list row or an
/// undo toast always means the same record.
public protocol RowID: RawRepresentable<Int64>, Sendable, Hashable, Comparable, CustomStringConvertible,
    SQLBindable, SQLColumnDecodable {
    init(rawValue: Int64)
}

extension RowID {
    public init(_ rawValue: Int64) { self.init(rawValue: rawValue) }

    /// Reads back `description`, e.g. an id kept in a `GtkStringList`.
    public init?(_ text: String) {
        guard let value = Int64(text) else { return nil }
        self.init(rawValue: value)
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var sqlValue: SQLValue { .integer(rawValue) }

    public static func decode(_ value: SQLValue, column: String) throws -> Self {
        Self(rawValue: try Int64.decode(value, column: column))
    }
}
