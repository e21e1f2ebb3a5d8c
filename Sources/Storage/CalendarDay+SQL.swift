import BillfoldCore

/// Stored as TEXT "YYYY-MM-DD", which sorts and compares by day in SQL.
extension CalendarDay: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .text(isoString) }

    public static func decode(_ value: SQLValue, column: String) throws -> CalendarDay {
        let text = try String.decode(value, column: column)
        guard let day = CalendarDay(isoString: text) else {
            throw DatabaseError.invalidValue(column: column, text: text, expected: "YYYY-MM-DD day")
        }
        return day
    }
}
