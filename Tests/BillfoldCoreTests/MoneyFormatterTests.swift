import SeededRandom
import BillfoldCore
import Foundation
import Testing

private let bhd = Currency(code: "BHD")!

@Suite struct MoneyFormatterTests {
    @Test func formatsForTheLocale() {
        let us = MoneyFormatter(locale: TestLocales.enUS)
        #expect(us.string(from: Money(minorUnits: 123_450, currency: .usd)) == "$1,234.50")
        #expect(us.string(from: Money(minorUnits: -123_450, currency: .usd)) == "-$1,234.50")
        #expect(us.string(from: Money(minorUnits: 5, currency: .eur)) == "€0.05")
        #expect(us.string(from: Money(minorUnits: 1_234_567, currency: bhd)) == "BHD\(noBreakSpace)1,234.567")

        let de = MoneyFormatter(locale: TestLocales.deDE)
        #expect(de.string(from: Money(minorUnits: 123_450, currency: .eur)) == "1.234,50\(noBreakSpace)€")
        #expect(de.string(from: Money(minorUnits: -123_450, currency: .eur)) == "-1.234,50\(noBreakSpace)€")
        #expect(de.string(from: Money(minorUnits: 123_450, currency: .eur), showSymbol: false) == "1.234,50")
        #expect(de.string(from: Money(minorUnits: -1, currency: .eur), showSymbol: false) == "-0,01")

        let fr = MoneyFormatter(locale: TestLocales.frFR)
        #expect(fr.string(from: Money(minorUnits: 123_450, currency: .eur))
                == "1\(narrowNoBreakSpace)234,50\(noBreakSpace)€")

        let ja = MoneyFormatter(locale: TestLocales.jaJP)
        #expect(ja.string(from: Money(minorUnits: 1234, currency: .jpy)) == "¥1,234")
        #expect(ja.string(from: Money(minorUnits: 0, currency: .jpy)) == "¥0")
    }

    @Test func extremesFormatEveryDigit() {
        let us = MoneyFormatter(locale: TestLocales.enUS)
        #expect(us.string(from: Money(minorUnits: .max, currency: .usd)) == "$92,233,720,368,547,758.07")
        #expect(us.string(from: Money(minorUnits: .min, currency: .usd)) == "-$92,233,720,368,547,758.08")
        #expect(us.string(from: Money(minorUnits: .min, currency: .jpy)) == "-¥9,223,372,036,854,775,808")
    }

    @Test func parsesWhatPeopleType() throws {
        let de = MoneyFormatter(locale: TestLocales.deDE)
        #expect(try de.money(from: "1.234,50", currency: .eur).minorUnits == 123_450)
        #expect(try de.money(from: "1234,5", currency: .eur).minorUnits == 123_450)
        #expect(try de.money(from: "1.234,50 €", currency: .eur).minorUnits == 123_450)
        #expect(try de.money(from: "€ 1.234,50", currency: .eur).minorUnits == 123_450)
        #expect(try de.money(from: "EUR 12", currency: .eur).minorUnits == 1200)
        #expect(try de.money(from: "12 eur", currency: .eur).minorUnits == 1200)
        #expect(try de.money(from: "-12,5", currency: .eur).minorUnits == -1250)
        #expect(try de.money(from: "12,5-", currency: .eur).minorUnits == -1250)
        #expect(try de.money(from: "−12,5 €", currency: .eur).minorUnits == -1250)   // U+2212 minus
        #expect(try de.money(from: "(12,50 €)", currency: .eur).minorUnits == -1250)
        #expect(try de.money(from: "+3", currency: .eur).minorUnits == 300)
        #expect(try de.money(from: ",5", currency: .eur).minorUnits == 50)
        #expect(try de.money(from: "1 234,50", currency: .eur).minorUnits == 123_450)   // spaces group too
        #expect(try de.money(from: "  7  ", currency: .eur).minorUnits == 700)

        let us = MoneyFormatter(locale: TestLocales.enUS)
        #expect(try us.money(from: "1,234.50", currency: .usd).minorUnits == 123_450)
        #expect(try us.money(from: "$1,234.50", currency: .usd).minorUnits == 123_450)
        #expect(try us.money(from: "-$0.99", currency: .usd).minorUnits == -99)
        #expect(try us.money(from: "1,234,567", currency: .usd).minorUnits == 123_456_700)
        #expect(try us.money(from: "12.5000", currency: .usd).minorUnits == 1250)      // zeros beyond cents are fine
        #expect(try us.money(from: "€3", currency: .eur).minorUnits == 300)

        let fr = MoneyFormatter(locale: TestLocales.frFR)
        #expect(try fr.money(from: "1 234,50", currency: .eur).minorUnits == 123_450)
        #expect(try fr.money(from: "1\(narrowNoBreakSpace)234,50\(noBreakSpace)€", currency: .eur).minorUnits == 123_450)
        #expect(try fr.money(from: "1\(noBreakSpace)234,50 €", currency: .eur).minorUnits == 123_450)

        let ja = MoneyFormatter(locale: TestLocales.jaJP)
        #expect(try ja.money(from: "¥1,234", currency: .jpy).minorUnits == 1234)
        #expect(try ja.money(from: "1,234円", currency: .jpy).minorUnits == 1234)
        #expect(try ja.money(from: "￥1234", currency: .jpy).minorUnits == 1234)

        #expect(try us.money(from: "1.234", currency: bhd).minorUnits == 1234)
        #expect(try us.money(from: "BHD 0.5", currency: bhd).minorUnits == 500)

        let ar = MoneyFormatter(locale: Locale(identifier: "ar_BH"))
        #expect(try ar.money(from: "١٬٢٣٤٫٥٠٠", currency: bhd).minorUnits == 1_234_500)
        #expect(try ar.money(from: "1234", currency: bhd).minorUnits == 1_234_000)    // ASCII digits too
    }

    @Test func refusesWithAPreciseReason() {
        let de = MoneyFormatter(locale: TestLocales.deDE)
        let us = MoneyFormatter(locale: TestLocales.enUS)
        let fr = MoneyFormatter(locale: TestLocales.frFR)
        func error(_ formatter: MoneyFormatter, _ text: String, _ currency: Currency = .eur) -> AmountParseError? {
            do {
                _ = try formatter.money(from: text, currency: currency)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(de, "") == .empty)
        #expect(error(de, "   \t ") == .empty)
        #expect(error(de, "€") == .noDigits)
        #expect(error(de, "-") == .noDigits)
        #expect(error(de, ",") == .noDigits)
        #expect(error(de, "NaN") == .invalidCharacter("N"))
        #expect(error(de, "1e999") == .invalidCharacter("e"))
        #expect(error(de, "--5") == .misplacedSign)
        #expect(error(de, "-5-") == .misplacedSign)
        #expect(error(de, "5-3") == .misplacedSign)
        #expect(error(de, "1,2,3") == .multipleDecimalSeparators(decimalSeparator: ","))
        #expect(error(de, "12.5") == .misplacedGroupingSeparator(groupingSeparator: ".", decimalSeparator: ","))
        #expect(error(de, "1.2345") == .misplacedGroupingSeparator(groupingSeparator: ".", decimalSeparator: ","))
        #expect(error(de, "1,234.5") == .misplacedGroupingSeparator(groupingSeparator: ".", decimalSeparator: ","))
        #expect(error(de, ".123") == .misplacedGroupingSeparator(groupingSeparator: ".", decimalSeparator: ","))
        #expect(error(de, "1.234 567") == .misplacedGroupingSeparator(groupingSeparator: ".", decimalSeparator: ","))
        #expect(error(de, "1,234") == .tooManyDecimals(allowed: 2))
        #expect(error(us, "1234,50", .usd) == .misplacedGroupingSeparator(groupingSeparator: ",", decimalSeparator: "."))
        #expect(error(us, "1.2.3", .usd) == .multipleDecimalSeparators(decimalSeparator: "."))
        #expect(error(us, "1.5", .jpy) == .tooManyDecimals(allowed: 0))
        #expect(error(us, "1.2345", bhd) == .tooManyDecimals(allowed: 3))
        #expect(error(us, "$5", .eur) == .invalidCharacter("$"))
        #expect(error(fr, "12.50") == .unexpectedSeparator(found: ".", decimalSeparator: ","))
        #expect(error(de, "💶12") == .invalidCharacter("💶"))
        #expect(error(de, "12 👍🏽") == .invalidCharacter("👍🏽"))
        #expect(error(de, "1\u{0}2") == .invalidCharacter("\u{0}"))
        #expect(error(de, "①") == .invalidCharacter("①"))
        #expect(error(de, "Ⅻ") == .invalidCharacter("Ⅻ"))
        #expect(error(us, "99999999999999999999", .usd) == .tooLarge)
        #expect(error(us, "92,233,720,368,547,758.08", .usd) == .tooLarge)
        #expect(error(us, String(repeating: "9", count: 40_000), .usd) == .tooLarge)
    }

    @Test func int64LimitsAreReadExactly() throws {
        let us = MoneyFormatter(locale: TestLocales.enUS)
        #expect(try us.money(from: "92,233,720,368,547,758.07", currency: .usd).minorUnits == .max)
        #expect(try us.money(from: "-92,233,720,368,547,758.08", currency: .usd).minorUnits == .min)
        #expect(try us.money(from: String(repeating: "0", count: 40_000) + "1", currency: .usd).minorUnits == 100)
    }

    @Test func errorMessagesNameWhatToFix() {
        let errors: [AmountParseError] = [
            .empty, .invalidCharacter("x"), .unexpectedSeparator(found: ".", decimalSeparator: ","), .noDigits,
            .misplacedSign, .multipleDecimalSeparators(decimalSeparator: ","),
            .misplacedGroupingSeparator(groupingSeparator: ".", decimalSeparator: ","),
            .misplacedGroupingSeparator(groupingSeparator: narrowNoBreakSpace, decimalSeparator: ","),
            .tooManyDecimals(allowed: 0), .tooManyDecimals(allowed: 1), .tooManyDecimals(allowed: 3), .tooLarge,
        ]
        for error in errors {
            let message = error.errorDescription ?? ""
            #expect(!message.isEmpty)
            #expect(!message.contains("%@") && !message.contains("%d"), "unformatted: \(message)")
        }
        #expect(AmountParseError.invalidCharacter("x").errorDescription?.contains("x") == true)
        #expect(AmountParseError.tooManyDecimals(allowed: 3).errorDescription?.contains("3") == true)
        #expect(AmountParseError.tooManyDecimals(allowed: 1).errorDescription?.contains("place.") == true)
    }
}

@Suite struct MoneyRoundTripTests {
    /// parse(format(x)) == x for every amount, locale and currency, with and without the symbol.
    @Test(arguments: TestLocales.roundTrip)
    func formattedAmountsParseBackExactly(locale: Locale) throws {
        let formatter = MoneyFormatter(locale: locale)
        let currencies: [Currency] = [.eur, .usd, .jpy, bhd, .chf, Currency(code: "CLF")!]
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<3_000 {
            let money = Money(minorUnits: generator.minorUnits(),
                              currency: currencies.randomElement(using: &generator)!)
            let text = formatter.string(from: money)
            #expect(try formatter.money(from: text, currency: money.currency) == money,
                    "\(locale.identifier): \(text)")
            let bare = formatter.string(from: money, showSymbol: false)
            #expect(try formatter.money(from: bare, currency: money.currency) == money,
                    "\(locale.identifier): \(bare)")
        }
    }
}

@Suite struct ParserRobustnessTests {
    private let formatters = TestLocales.roundTrip.map { MoneyFormatter(locale: $0) }
    private let numbers = TestLocales.roundTrip.map { NumberFormatting(locale: $0) }

    /// Every input either parses or throws an AmountParseError; nothing traps.
    private func feed(_ text: String) {
        for formatter in formatters {
            _ = try? formatter.money(from: text, currency: .eur)
            _ = try? formatter.money(from: text, currency: .jpy)
        }
        for number in numbers {
            _ = try? number.decimal(from: text)
            _ = try? number.percent(from: text)
        }
    }

    @Test func knownNastyStrings() {
        let nasty = [
            "NaN", "nan", "-NaN", "inf", "-Infinity", "1e999", "1E-999", "0x1F", "--5", "-+5", "+-5", "((5))", "(5",
            "5)", "()", "-", "+", ".", ",", "..", ",,", "'", "’", "1'234.5", "1’234.50", "٫", "١e٢",
            "💶", "12💶", "🇩🇪1", "👨‍👩‍👧‍👦", "\u{202E}12", "\u{200F}-\u{200F}5", "\u{FEFF}7", "\u{0}", "\u{7F}",
            "1\u{301}", "\u{FFFD}", "€€5", "5€€", "EUREUR5", "$-$5", "12 34", "1 2 3", "\n\t", String(repeating: " ", count: 40_000),
            String(repeating: "-", count: 40_000), String(repeating: "1,", count: 20_000),
            String(repeating: ".", count: 40_000), String(repeating: "9", count: 40_000) + ",5",
            String(repeating: "€", count: 40_000), String(repeating: "😀", count: 40_000),
            "0," + String(repeating: "0", count: 40_000), "0." + String(repeating: "1", count: 40_000),
        ]
        for text in nasty { feed(text) }
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<1_500 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            feed(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func randomNumberLikeTextNeverCrashesTheParser() {
        // Mostly characters a parser treats specially, so the fuzzing reaches deep branches.
        let alphabet: [Character] = Array("0123456789.,-+()' €$¥%٫٬١٢۱−\u{202F}\u{A0}\u{200F}EURe")
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<3_000 {
            let count = Int.random(in: 0..<16, using: &generator)
            feed(String((0..<count).map { _ in alphabet.randomElement(using: &generator)! }))
        }
    }

    @Test func hugeStringsFinish() {
        var generator = SeededGenerator(seed: 9)
        let alphabet: [Character] = Array("0123456789.,- ")
        for _ in 0..<4 {
            feed(String((0..<40_000).map { _ in alphabet.randomElement(using: &generator)! }))
        }
    }
}
