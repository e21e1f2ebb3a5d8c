import Foundation

/// A day on the calendar (2024-03-01), with no time and no time zone. Invoice, trip and expense
/// dates are days: a receipt dated 1 March stays 1 March wherever the laptop travels, which a
/// `Date` (an instant) cannot promise.
public struct CalendarDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil when the day does not exist (30 February) or the year is outside 1…9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CalendarDay.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads the ISO 8601 form "YYYY-MM-DD" and nothing else.
    public init?(isoString text: String) {
        var text = text
        guard let day = text.withUTF8(CalendarDay.init(isoUTF8:)) else { return nil }
        self = day
    }

    /// The same from UTF-8 bytes, e.g. straight from a database column: lists read two days
    /// a row, 100 000 rows at a time.
    public init?(isoUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day on which `date` falls in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = min(9999, max(1, parts.year ?? 1970))
        self = CalendarDay(year: year, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? CalendarDay(uncheckedYear: 1970, month: 1, day: 1)
    }

    /// Today where the user is (`now` is for tests).
    public static func today(in timeZone: TimeZone = .current, now: Date = Date()) -> CalendarDay {
        CalendarDay(now, in: timeZone)
    }

    /// Reads a day typed in the user's locale (short or medium form) or as ISO 8601.
    public static func parse(_ text: String, locale: Locale = UserLocale.time) throws(DateParseError) -> CalendarDay {
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        let date = try DateFormatting(locale: locale, timeZone: utc).date(from: text)
        return CalendarDay(date, in: utc)
    }

    private init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// "2024-03-01": how days are stored and exported, whatever the locale.
    public var isoString: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    public var description: String { isoString }

    /// Days since 1970-01-01 (negative before), for day arithmetic without a calendar.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` later (earlier when negative), kept within years 1…9999.
    public func adding(days: Int) -> CalendarDay {
        CalendarDay(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// How many days from `self` to `other` (positive when `other` is later).
    public func days(to other: CalendarDay) -> Int {
        other.daysSinceEpoch - daysSinceEpoch
    }

    public init(daysSinceEpoch days: Int) {
        let lowest = CalendarDay(uncheckedYear: 1, month: 1, day: 1).daysSinceEpoch
        let highest = CalendarDay(uncheckedYear: 9999, month: 12, day: 31).daysSinceEpoch
        let z = min(max(days, lowest), highest) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(uncheckedYear: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Midday UTC of this day: formatting it in UTC never moves it to a neighbouring day.
    public var middayUTC: Date {
        Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch) * 86_400 + 43_200)
    }

    /// The instant this day starts in `timeZone`, for APIs that want a `Date`.
    public func startDate(in timeZone: TimeZone = .current) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: Double(daysSinceEpoch) * 86_400)
    }

    /// The day in the user's locale, e.g. "01.03.2024" or "Mar 1, 2024".
    public func formatted(_ style: DateFormatting.Style = .medium, locale: Locale = UserLocale.time) -> String {
        DateFormatting(locale: locale, timeZone: TimeZone(identifier: "UTC") ?? .gmt)
            .string(from: middayUTC, style: style)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    // Codable as the ISO string, like the database column.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = CalendarDay(isoString: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a YYYY-MM-DD day: \(text)")
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(isoString)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// The days from `first` to `last`, both included.
public struct DayRange: Hashable, Sendable, Sequence {
    public let first: CalendarDay
    public let last: CalendarDay

    /// Swaps the ends when given in the wrong order.
    public init(_ first: CalendarDay, _ last: CalendarDay) {
        self.first = Swift.min(first, last)
        self.last = Swift.max(first, last)
    }

    public var dayCount: Int { first.days(to: last) + 1 }

    public func contains(_ day: CalendarDay) -> Bool { first <= day && day <= last }

    public func makeIterator() -> AnyIterator<CalendarDay> {
        var next: CalendarDay? = first
        let last = self.last
        return AnyIterator {
            guard let current = next else { return nil }
            next = current < last ? current.adding(days: 1) : nil
            return current
        }
    }

    /// "1 Mar 2024 – 5 Mar 2024", or a single day when both ends are the same.
    public func formatted(_ style: DateFormatting.Style = .medium, locale: Locale = UserLocale.time) -> String {
        if first == last { return first.formatted(style, locale: locale) }
        return String(format: tr("%@ – %@"), first.formatted(style, locale: locale), last.formatted(style, locale: locale))
    }
}
