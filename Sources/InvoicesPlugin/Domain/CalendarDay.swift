import BillfoldCore
import Foundation
import Storage

/// A day on the calendar with no time and no time zone: an invoice's issue or due date.
///
/// An invoice dated 1 March is dated 1 March wherever it is opened, so days are never kept as a
/// `Date` (an instant, which a time zone can push into the previous day). They are stored as
/// "yyyy-MM-dd" text, which sorts and compares as the days do.
public struct CalendarDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil for a day that does not exist (30 February) or a year outside 1…9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CalendarDay.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads "yyyy-MM-dd" exactly; nil for anything else.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = CalendarDay.number(bytes[0..<4]),
              let month = CalendarDay.number(bytes[5..<7]),
              let day = CalendarDay.number(bytes[8..<10]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let clamped = CalendarDay.fromDaysSinceEpoch(0)
        self = CalendarDay(year: parts.year ?? clamped.year, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? clamped
    }

    /// Today where the user is.
    public static func today(in timeZone: TimeZone = .current, now: Date = Date()) -> CalendarDay {
        CalendarDay(now, in: timeZone)
    }

    /// "2024-03-01": the stored form, also fine for logs and file names.
    public var iso8601: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    public var description: String { iso8601 }

    /// The day `count` days later (earlier when negative); stays within years 1…9999.
    public func adding(days count: Int) -> CalendarDay {
        let lowest = CalendarDay.daysSinceEpoch(year: 1, month: 1, day: 1)
        let highest = CalendarDay.daysSinceEpoch(year: 9999, month: 12, day: 31)
        let (sum, overflow) = daysSinceEpoch.addingReportingOverflow(count)
        let target = overflow ? (count < 0 ? lowest : highest) : min(max(sum, lowest), highest)
        return CalendarDay.fromDaysSinceEpoch(target)
    }

    /// Whole days from `other` to this day: positive when this day is later.
    public func days(since other: CalendarDay) -> Int {
        daysSinceEpoch - other.daysSinceEpoch
    }

    /// The instant this day starts in `timeZone`, for APIs that want a `Date`.
    public func startDate(in timeZone: TimeZone = .current) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: Double(daysSinceEpoch) * 86_400)
    }

    /// The day in the user's locale: "01.03.24" (short) or "01.03.2024" (medium) in de_DE.
    public func formatted(_ style: DateFormatting.Style = .medium, locale: Locale = UserLocale.time) -> String {
        // Formatted at midnight UTC with a UTC formatter, so no time zone can move the day.
        let utc = TimeZone(identifier: "UTC") ?? .current
        return DateFormatting(locale: locale, timeZone: utc).string(from: startDate(in: utc), style: style)
    }

    /// Reads a day as a person types it in `locale` (short, medium or ISO form).
    public static func parse(_ text: String, locale: Locale = UserLocale.time) throws(DateParseError) -> CalendarDay {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let date = try DateFormatting(locale: locale, timeZone: utc).date(from: text)
        return CalendarDay(date, in: utc)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = CalendarDay(iso8601: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a yyyy-MM-dd day: \(text)")
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    // MARK: - Day arithmetic (Howard Hinnant's civil-from-days algorithms)

    var daysSinceEpoch: Int {
        CalendarDay.daysSinceEpoch(year: year, month: month, day: day)
    }

    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func fromDaysSinceEpoch(_ days: Int) -> CalendarDay {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return CalendarDay(unchecked: year, month, day)
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension CalendarDay: SQLBindable, SQLColumnDecodable {
    public var sqlValue: SQLValue { .text(iso8601) }

    public static func decode(_ value: SQLValue, column: String) throws -> CalendarDay {
        let text = try String.decode(value, column: column)
        guard let day = CalendarDay(iso8601: text) else {
            throw DatabaseError.invalidValue(column: column, text: text, expected: "yyyy-MM-dd day")
        }
        return day
    }
}
