import BillfoldCore
@testable import ExpensesCore
@testable import ExpensesPlugin
import Foundation
import Storage
import Testing

@Suite struct CalendarDayTests {
    @Test func readsAndWritesISODaysOnly() {
        #expect(CalendarDay(isoString: "2024-02-29")?.isoString == "2024-02-29")
        #expect(CalendarDay(isoString: "2023-02-29") == nil)
        #expect(CalendarDay(isoString: "2024-13-01") == nil)
        #expect(CalendarDay(isoString: "2024-3-01") == nil)
        #expect(CalendarDay(isoString: "2024-03-01T00:00") == nil)
        #expect(CalendarDay(isoString: "０２０２-03-01") == nil)
        #expect(CalendarDay(year: 0, month: 1, day: 1) == nil)
        #expect(CalendarDay(year: 1900, month: 2, day: 29) == nil)
        #expect(CalendarDay(year: 2000, month: 2, day: 29) != nil)
    }

    @Test func dayArithmeticCrossesMonthsYearsAndLeapDays() {
        #expect(day("2024-02-28").adding(days: 1) == day("2024-02-29"))
        #expect(day("2024-02-28").adding(days: 2) == day("2024-03-01"))
        #expect(day("2023-12-31").adding(days: 1) == day("2024-01-01"))
        #expect(day("2024-03-01").adding(days: -1) == day("2024-02-29"))
        #expect(day("2024-01-01").days(to: day("2025-01-01")) == 366)
        #expect(day("1970-01-01").daysSinceEpoch == 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: -700_000...2_900_000, using: &generator)
            #expect(CalendarDay(daysSinceEpoch: count).daysSinceEpoch == count)
        }
    }

    /// The day a receipt was dated is the same wherever the laptop is when it is read back.
    @Test(arguments: ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin", "America/Los_Angeles", "UTC"])
    func daysDoNotShiftWithTheTimeZone(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        for text in ["2024-03-31", "2024-10-27", "2024-01-01", "2024-12-31"] {
            let original = day(text)
            #expect(CalendarDay(original.middayUTC, in: .gmt) == original)
            #expect(original.formatted(.medium, locale: Locale(identifier: "en_US")).contains(String(original.day)))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let local = try #require(calendar.date(from: DateComponents(year: original.year, month: original.month,
                                                                          day: original.day, hour: 23, minute: 30)))
            #expect(CalendarDay(local, in: timeZone) == original)
        }
    }

    @Test func parsesWhatPeopleTypeInTheirLocale() throws {
        #expect(try CalendarDay.parse("01.03.2024", locale: Locale(identifier: "de_DE")) == day("2024-03-01"))
        #expect(try CalendarDay.parse("3/1/24", locale: Locale(identifier: "en_US")) == day("2024-03-01"))
        #expect(try CalendarDay.parse("2024-03-01", locale: Locale(identifier: "fr_FR")) == day("2024-03-01"))
        #expect(throws: DateParseError.self) { try CalendarDay.parse("soon", locale: Locale(identifier: "en_US")) }
    }

    @Test func rangesListEveryDayOnce() {
        let range = DayRange(day("2024-02-27"), day("2024-03-02"))
        #expect(Array(range).map(\.isoString) == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"])
        #expect(range.dayCount == 5)
        #expect(DayRange(day("2024-03-02"), day("2024-02-27")) == range)
        #expect(Array(DayRange(day("2024-03-02"), day("2024-03-02"))) == [day("2024-03-02")])
        #expect(range.contains(day("2024-02-29")))
        #expect(!range.contains(day("2024-03-03")))
    }

    @Test func storesAsSortableText() throws {
        let database = try Database.inMemory()
        try database.executeScript("CREATE TABLE t (d TEXT)")
        for text in ["2024-03-10", "2023-12-31", "2024-03-09"] {
            try database.execute("INSERT INTO t VALUES (?)", [day(text)])
        }
        let days: [CalendarDay] = try database.query("SELECT d FROM t ORDER BY d").map { try $0[0] }
        #expect(days == [day("2023-12-31"), day("2024-03-09"), day("2024-03-10")])
        try database.execute("INSERT INTO t VALUES ('yesterday')")
        #expect(throws: DatabaseError.self) {
            _ = try database.query("SELECT d FROM t WHERE d = 'yesterday'").map { row -> CalendarDay in try row[0] }
        }
    }
}
