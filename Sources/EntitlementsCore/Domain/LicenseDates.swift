import BillfoldCore
import Foundation

/// Licence dates as a person reads them.
public enum LicenseDates {
    /// The last day on which a licence with this expiry is valid, as a long date.
    ///
    /// A licence issued for "through 31 January" expires at midnight UTC starting 1 February;
    /// showing that instant in a time zone east of UTC would say "1 February", and west of it
    /// the expiry day would look one short. So a midnight-UTC expiry names the UTC day before
    /// it; any other instant names the local day of the licence's last valid second.
    public static func lastValidDay(expiresAt: Date, timeZone: TimeZone = .current, locale: Locale = UserLocale.time) -> String {
        let lastValidSecond = expiresAt.addingTimeInterval(-1)
        let utc = TimeZone(identifier: "UTC")!
        let isMidnightUTC = Int64(expiresAt.timeIntervalSince1970) % 86_400 == 0
        return longDate(lastValidSecond, timeZone: isMidnightUTC ? utc : timeZone, locale: locale)
    }

    /// A day as a long date ("31 January 2026") in `timeZone`.
    public static func longDate(_ date: Date, timeZone: TimeZone = .current, locale: Locale = UserLocale.time) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        return date.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: locale, calendar: calendar,
                                               timeZone: timeZone))
    }
}
