import Foundation

/// One result row, copied out of SQLite so it stays valid after the statement moves on.
public struct Row: Sendable, Hashable {
    public let columnNames: [String]
    public let values: [SQLValue]

    public init(columnNames: [String], values: [SQLValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    public var count: Int { values.count }

    /// The column at `index`, e.g. `let id: Int64 = try row[0]` or `let note: String? = try row[2]`.
    @inlinable // specialized where rows are read: a list decodes millions of values
    public subscript<T: SQLColumnDecodable>(index: Int) -> T {
        get throws { try value(at: index) }
    }

    /// The column called `name` (as in the SELECT, case-insensitively), e.g. `let total: Int64 = try row["total"]`.
    public subscript<T: SQLColumnDecodable>(name: String) -> T {
        get throws { try value(named: name) }
    }

    @inlinable
    public func value<T: SQLColumnDecodable>(at index: Int, as type: T.Type = T.self) throws -> T {
        guard values.indices.contains(index) else { throw DatabaseError.noSuchColumn("#\(index)") }
        let name = columnNames.indices.contains(index) ? columnNames[index] : "#\(index)"
        return try T.decode(values[index], column: name)
    }

    public func value<T: SQLColumnDecodable>(named name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columnNames.firstIndex(of: name)
                ?? columnNames.firstIndex(where: { $0.caseInsensitiveCompare(name) == .orderedSame })
        else { throw DatabaseError.noSuchColumn(name) }
        return try value(at: index)
    }
}
