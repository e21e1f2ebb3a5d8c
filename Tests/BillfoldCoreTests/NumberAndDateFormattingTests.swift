import SeededRandom
import BillfoldCore
import Foundation
import Testing

private func dec(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }

@Suite struct NumberFormattingTests {
    @Test func plainNumbers() {
        let de = NumberFormatting(locale: TestLocales.deDE)
        #expect(de.string(from: dec("1234.5")) == "1.234,5")
        #expect(de.string(from: dec("1234.5"), minimumFractionDigits: 2) == "1.234,50")
        #expect(de.string(from: dec("2.345"), maximumFractionDigits: 2) == "2,35")
        #expect(de.string(from: dec("2.345"), maximumFractionDigits: 2, rounding: .halfEven) == "2,34")
        #expect(de.string(from: dec("-0.0001"), maximumFractionDigits: 2) == "0")
        #expect(de.string(from: 1_000_000) == "1.000.000")
        #expect(de.string(from: .nan) == "")
        #expect(de.decimalSeparator == ",")
        #expect(de.groupingSeparator == ".")
        #expect(NumberFormatting(locale: TestLocales.frFR).groupingSeparator == narrowNoBreakSpace)
        #expect(NumberFormatting(locale: TestLocales.enUS).string(from: dec("-1234567.125")) == "-1,234,567.125")
    }

    /// Rounding is done on the integer significand; Decimal's own rounding is the reference,
    /// for every rule, both signs, ties, and more decimals than are shown.
    @Test func roundingMatchesDecimalRounding() {
        let en = NumberFormatting(locale: TestLocales.enUS)
        var generator = SeededGenerator(seed: 11)
        let modes: [(RoundingRule, NSDecimalNumber.RoundingMode)] = [(.halfUp, .plain), (.halfEven, .bankers), (.up, .up), (.down, .down)]
        for index in 0..<3_000 {
            let digits = Int64.random(in: -9_000_000_000...9_000_000_000, using: &generator)
            let exponent = index % 5 == 0 ? Int.random(in: 1...4, using: &generator) : -Int.random(in: 0...12, using: &generator)
            var value = Decimal(sign: digits < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(digits.magnitude))
            if index % 3 == 0 { value = value / 2 }   // ties
            let maximum = Int.random(in: 0...6, using: &generator)
            for (rule, mode) in modes {
                var source = value, rounded = Decimal()
                NSDecimalRound(&rounded, &source, maximum, mode)
                #expect(en.string(from: value, maximumFractionDigits: maximum, rounding: rule)
                        == en.string(from: rounded, maximumFractionDigits: 40), "\(value) to \(maximum) by \(rule)")
            }
        }
        #expect(en.string(from: dec("0.05")) == "0.05")
        #expect(en.string(from: dec("1e-20"), maximumFractionDigits: 40) == "0.00000000000000000001")
        #expect(en.string(from: dec("12e3")) == "12,000")
    }

    @Test func percentages() {
        #expect(NumberFormatting(locale: TestLocales.deDE).percentString(from: 15) == "15\(noBreakSpace)%")
        #expect(NumberFormatting(locale: TestLocales.enUS).percentString(from: dec("7.7")) == "7.7%")
        #expect(NumberFormatting(locale: TestLocales.deDE).percentString(from: dec("7.75")) == "7,75\(noBreakSpace)%")
    }

    @Test func parsesNumbersAndPercentages() throws {
        let de = NumberFormatting(locale: TestLocales.deDE)
        #expect(try de.decimal(from: "1.234,5") == dec("1234.5"))
        #expect(try de.decimal(from: "0,25") == dec("0.25"))
        #expect(try de.decimal(from: "-3") == -3)
        #expect(try de.percent(from: "7,7 %") == dec("7.7"))
        #expect(try de.percent(from: "19") == 19)
        #expect(try NumberFormatting(locale: TestLocales.enUS).percent(from: "15%") == 15)
        #expect(throws: AmountParseError.tooManyDecimals(allowed: 2)) { try de.decimal(from: "1,234", maximumFractionDigits: 2) }
        #expect(throws: AmountParseError.invalidCharacter("x")) { try de.decimal(from: "3x") }
        #expect(throws: AmountParseError.tooLarge) { try de.decimal(from: String(repeating: "9", count: 39)) }
        #expect(try de.decimal(from: String(repeating: "9", count: 38)) == dec(String(repeating: "9", count: 38)))
    }

    @Test(arguments: TestLocales.roundTrip)
    func formattedNumbersParseBackExactly(locale: Locale) throws {
        let formatting = NumberFormatting(locale: locale)
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            let scale = Int.random(in: 0...6, using: &generator)
            let value = Decimal(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &generator))
                / Decimal(sign: .plus, exponent: scale, significand: 1)
            let text = formatting.string(from: value, maximumFractionDigits: 6)
            #expect(try formatting.decimal(from: text) == value, "\(locale.identifier): \(text)")
            let percent = formatting.percentString(from: value, maximumFractionDigits: 6)
            #expect(try formatting.percent(from: percent) == value, "\(locale.identifier): \(percent)")
        }
    }
}

@Suite struct DateFormattingTests {
    private let utc = TimeZone(identifier: "UTC")!
    private let date = Date(timeIntervalSince1970: 1_700_000_000)   // 2023-11-14 22:13:20 UTC

    @Test func shortAndMedium() {
        let de = DateFormatting(locale: TestLocales.deDE, timeZone: utc)
        #expect(de.shortString(from: date) == "14.11.23")
        #expect(de.mediumString(from: date) == "14.11.2023")
        let us = DateFormatting(locale: TestLocales.enUS, timeZone: utc)
        #expect(us.shortString(from: date) == "11/14/23")
        #expect(us.mediumString(from: date) == "Nov 14, 2023")
        #expect(DateFormatting(locale: TestLocales.jaJP, timeZone: utc).mediumString(from: date) == "2023/11/14")
    }

    @Test func readsTheFormsItWrites() throws {
        let day = Date(timeIntervalSince1970: 1_699_920_000)              // 2023-11-14 00:00 UTC
        for locale in [TestLocales.deDE, TestLocales.enUS, TestLocales.frFR, TestLocales.jaJP] {
            let formatting = DateFormatting(locale: locale, timeZone: utc)
            #expect(try formatting.date(from: formatting.shortString(from: date)) == day, "\(locale.identifier)")
            #expect(try formatting.date(from: formatting.mediumString(from: date)) == day, "\(locale.identifier)")
            #expect(try formatting.date(from: " 2023-11-14 ") == day)
        }
    }

    @Test func refusesWhatIsNotADate() {
        let de = DateFormatting(locale: TestLocales.deDE, timeZone: utc)
        #expect(throws: DateParseError.empty) { try de.date(from: "  ") }
        for text in ["morgen", "32.13.2023", "2023-02-30", "💥", String(repeating: "1", count: 40_000)] {
            #expect(throws: DateParseError.self) { try de.date(from: text) }
        }
        do {
            _ = try de.date(from: "x")
            Issue.record("“x” was read as a date")
        } catch {
            guard case .unrecognized(let example) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(!example.isEmpty)
            #expect(error.errorDescription?.contains(example) == true)
        }
    }
}

@Suite struct AppPathsTests {
    @Test func followsTheXDGVariables() {
        let environment = ["HOME": "/home/ada", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/conf", "XDG_CACHE_HOME": "/cache"]
        #expect(AppPaths.dataDirectory(environment: environment).path == "/data/billfold")
        #expect(AppPaths.configDirectory(environment: environment).path == "/conf/billfold")
        #expect(AppPaths.cacheDirectory(environment: environment).path == "/cache/billfold")
        #expect(AppPaths.databaseFile(environment: environment).path == "/data/billfold/billfold.sqlite3")
        #expect(AppPaths.backupDirectory(environment: environment).path == "/data/billfold/backups")
        #expect(AppPaths.receiptsDirectory(environment: environment).path == "/data/billfold/receipts")
    }

    @Test func fallsBackToHomeAndIgnoresRelativeValues() {
        let environment = ["HOME": "/home/ada", "XDG_DATA_HOME": "relative/path", "XDG_CONFIG_HOME": ""]
        #expect(AppPaths.dataDirectory(environment: environment).path == "/home/ada/.local/share/billfold")
        #expect(AppPaths.configDirectory(environment: environment).path == "/home/ada/.config/billfold")
        #expect(AppPaths.cacheDirectory(environment: environment).path == "/home/ada/.cache/billfold")
    }

    @Test func databaseCanBeOverridden() {
        let environment = ["HOME": "/home/ada", "BILLFOLD_DATABASE": "/tmp/test/other.sqlite3"]
        #expect(AppPaths.databaseFile(environment: environment).path == "/tmp/test/other.sqlite3")
        #expect(AppPaths.databaseFile(environment: ["HOME": "/home/ada", "BILLFOLD_DATABASE": ""]).path
                == "/home/ada/.local/share/billfold/billfold.sqlite3")
    }

    @Test func createsPrivateDirectories() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("billfold-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = AppPaths.dataDirectory(environment: ["XDG_DATA_HOME": base.path])
        try AppPaths.createDirectory(directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }
}
