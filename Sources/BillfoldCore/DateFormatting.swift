import Foundation

/// Why typed text could not be read as a date.
public enum DateParseError: Error, LocalizedError, Equatable, Sendable {
    case empty
    /// Not a date in any form this locale reads; `example` shows today's date in the short form.
    case unrecognized(example: String)

    public var errorDescription: String? {
        switch self {
        case .empty:
            return tr("Enter a date.")
        case .unrecognized(let example):
            return String(format: tr("Enter a date like %@."), example)
        }
    }
}

/// Dates in the user's locale: short ("14.11.23") and medium ("14.11.2023", "Nov 14, 2023").
public struct DateFormatting: Sendable {
    public enum Style: Sendable {
        case short
        case medium

        var foundationStyle: DateFormatter.Style {
            switch self {
            case .short: return .short
            case .medium: return .medium
            }
        }
    }

    public let locale: Locale
    public let timeZone: TimeZone

    public init(locale: Locale = UserLocale.time, timeZone: TimeZone = .current) {
        self.locale = locale
        self.timeZone = timeZone
    }

    public func string(from date: Date, style: Style) -> String {
        DateFormatterCache.shared.string(from: date, locale: locale, timeZone: timeZone, style: style)
    }

    public func shortString(from date: Date) -> String { string(from: date, style: .short) }
    public func mediumString(from date: Date) -> String { string(from: date, style: .medium) }

    /// The day in the medium style and the time in the short one ("1 Mar 2024, 09:30").
    public func mediumDateAndTimeString(from date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return formatter.string(from: date)
    }

    /// Reads a day typed in the short or medium form of the locale, or as ISO 8601
    /// ("2024-03-01"), and returns its start in `timeZone`.
    public func date(from text: String) throws(DateParseError) -> Date {
        let trimmed = text.withoutFormatCharacters.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        let iso = DateFormatter()
        iso.locale = Locale(identifier: "en_US_POSIX")
        iso.timeZone = timeZone
        iso.dateFormat = "yyyy-MM-dd"
        iso.isLenient = false
        for candidate in [formatter(.short), formatter(.medium), iso] {
            candidate.isLenient = false
            if let date = candidate.date(from: trimmed) {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = timeZone
                return calendar.startOfDay(for: date)
            }
        }
        throw .unrecognized(example: shortString(from: Date()))
    }

    private func formatter(_ style: Style) -> DateFormatter {
        // DateFormatter is not Sendable, so each call makes its own.
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.dateStyle = style.foundationStyle
        formatter.timeStyle = .none
        return formatter
    }
}

/// Making a DateFormatter costs far more than formatting with one (ICU loads the locale's
/// patterns each time), and a list formats thousands of dates: one formatter per locale, time
/// zone and style, used under a lock since DateFormatter is not Sendable.
private final class DateFormatterCache: @unchecked Sendable {
    static let shared = DateFormatterCache()
    private let lock = NSLock()
    private var formatters: [Key: DateFormatter] = [:]

    private struct Key: Hashable {
        let locale: String
        let timeZone: String
        let style: DateFormatting.Style
    }

    func string(from date: Date, locale: Locale, timeZone: TimeZone, style: DateFormatting.Style) -> String {
        let key = Key(locale: locale.identifier, timeZone: timeZone.identifier, style: style)
        return lock.withLock {
            if let formatter = formatters[key] { return formatter.string(from: date) }
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = timeZone
            formatter.dateStyle = style.foundationStyle
            formatter.timeStyle = .none
            formatters[key] = formatter
            return formatter.string(from: date)
        }
    }
}
