import SeededRandom
import BillfoldCore
import Foundation
import Testing

private func eur(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .eur) }
private func dec(_ text: String) -> Decimal { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }

@Suite struct MoneyTests {
    @Test(arguments: [
        ("2.345", RoundingRule.halfUp, Int64(235)), ("2.345", .halfEven, 234), ("2.355", .halfEven, 236),
        ("-2.345", .halfUp, -235), ("-2.345", .halfEven, -234),
        ("2.341", .up, 235), ("-2.349", .up, -234), ("2.349", .down, 234), ("-2.341", .down, -235),
        ("0.005", .halfUp, 1), ("-0.005", .halfUp, -1), ("12.34", .halfUp, 1234),
    ])
    func decimalAmountsRoundByTheNamedRule(text: String, rule: RoundingRule, expected: Int64) throws {
        #expect(try Money(dec(text), currency: .eur, rounding: rule).minorUnits == expected)
    }

    @Test func exponentComesFromTheCurrency() throws {
        let bhd = try #require(Currency(code: "BHD"))
        #expect(try Money(dec("1.2345"), currency: bhd).minorUnits == 1235)
        #expect(try Money(dec("1234.5"), currency: .jpy).minorUnits == 1235)
        #expect(try Money(dec("1234.5"), currency: .jpy, rounding: .halfEven).minorUnits == 1234)
        #expect(Money(minorUnits: 1235, currency: bhd).decimalValue == dec("1.235"))
        #expect(Money(minorUnits: -5, currency: .eur).decimalValue == dec("-0.05"))
        #expect(Money(minorUnits: Int64.min, currency: .eur).decimalValue == dec("-92233720368547758.08"))
    }

    @Test func decimalValueRoundTripsEveryAmount() throws {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<5_000 {
            let money = Money(minorUnits: generator.minorUnits(), currency: [.eur, .jpy, Currency(code: "BHD")!].randomElement(using: &generator)!)
            #expect(try Money(money.decimalValue, currency: money.currency) == money)
        }
    }

    @Test func arithmeticIsCheckedNotWrapped() throws {
        #expect(try eur(150).adding(eur(250)) == eur(400))
        #expect(try eur(150).subtracting(eur(250)) == eur(-100))
        #expect(throws: MoneyError.overflow) { try eur(.max).adding(eur(1)) }
        #expect(throws: MoneyError.overflow) { try eur(.min).subtracting(eur(1)) }
        #expect(throws: MoneyError.overflow) { try eur(.min).negated() }
        #expect(throws: MoneyError.overflow) { try Money(dec("1e30"), currency: .eur) }
        #expect(throws: MoneyError.overflow) { try eur(.max).multiplied(by: 2) }
        #expect(throws: MoneyError.notANumber) { try eur(1).multiplied(by: .nan) }
        #expect(throws: MoneyError.notANumber) { try Money(.nan, currency: .eur) }
    }

    @Test func currenciesAreNeverMixed() {
        let dollars = Money(minorUnits: 100, currency: .usd)
        #expect(throws: MoneyError.currencyMismatch(.eur, .usd)) { try eur(100).adding(dollars) }
        #expect(throws: MoneyError.currencyMismatch(.eur, .usd)) { try eur(100).subtracting(dollars) }
        #expect(throws: MoneyError.currencyMismatch(.eur, .usd)) { try Money.sum([eur(1), dollars], currency: .eur) }
    }

    @Test func sums() throws {
        #expect(try Money.sum([], currency: .jpy) == .zero(.jpy))
        #expect(try Money.sum([eur(1), eur(2), eur(-4)], currency: .eur) == eur(-1))
        #expect(throws: MoneyError.overflow) { try Money.sum([eur(.max), eur(1)], currency: .eur) }
    }

    @Test func quantitiesAndPercentages() throws {
        #expect(try eur(1999).multiplied(by: 3) == eur(5997))
        #expect(try eur(1999).multiplied(by: dec("0.5")) == eur(1000))          // 999.5 → 1000
        #expect(try eur(1999).multiplied(by: dec("0.5"), rounding: .halfEven) == eur(1000))
        #expect(try eur(1997).multiplied(by: dec("0.5"), rounding: .halfEven) == eur(998))
        #expect(try eur(1999).multiplied(by: dec("0.5"), rounding: .down) == eur(999))
        #expect(try eur(10000).percentage(15) == eur(1500))
        #expect(try eur(1234).percentage(dec("7.7")) == eur(95))                // 95.018
        #expect(try eur(1250).percentage(19) == eur(238))                       // 237.5 → 238
        #expect(try eur(1250).percentage(19, rounding: .halfEven) == eur(238))  // 237.5 → 238 (even)
        #expect(try eur(1150).percentage(19, rounding: .halfEven) == eur(218))  // 218.5 → 218
        #expect(try eur(-1250).percentage(19) == eur(-238))
    }

    /// Products are worked out in integers; Decimal's own arithmetic is the reference, for
    /// every rule, both signs, exact ties, and factors with up to 18 decimals.
    @Test func productsMatchDecimalArithmeticForEveryRule() throws {
        func mode(_ rule: RoundingRule) -> NSDecimalNumber.RoundingMode {
            switch rule {
            case .halfUp: .plain
            case .halfEven: .bankers
            case .up: .up
            case .down: .down
            }
        }
        var generator = SeededGenerator(seed: 7)
        let rules: [RoundingRule] = [.halfUp, .halfEven, .up, .down]
        for index in 0..<4_000 {
            let units = index % 3 == 0 ? Int64.random(in: -99_999...99_999, using: &generator) : generator.minorUnits() / 1_000_000
            let decimals = Int.random(in: 0...(index % 10 == 0 ? 18 : 6), using: &generator)
            let digits = Int64.random(in: -2_000_000_000...2_000_000_000, using: &generator)
            // Halves, so ties come up often.
            let factor = index % 4 == 0 ? Decimal(digits) / 2 : Decimal(sign: digits < 0 ? .minus : .plus, exponent: -decimals,
                                                                           significand: Decimal(digits.magnitude))
            for rule in rules {
                let reference = Result { () throws(MoneyError) in
                    var product = Decimal(units) * factor, rounded = Decimal()
                    NSDecimalRound(&rounded, &product, 0, mode(rule))
                    guard let integer = Int64(rounded.plainText) else { throw MoneyError.overflow }
                    return integer
                }
                let fast = Result { () throws(MoneyError) in try eur(units).multiplied(by: factor, rounding: rule).minorUnits }
                #expect(fast == reference, "\(units) × \(factor) by \(rule)")
                let percent = Result { () throws(MoneyError) in try eur(units).percentage(factor, rounding: rule).minorUnits }
                let percentReference = Result { () throws(MoneyError) in
                    var product = Decimal(units) * factor / 100, rounded = Decimal()
                    NSDecimalRound(&rounded, &product, 0, mode(rule))
                    guard let integer = Int64(rounded.plainText) else { throw MoneyError.overflow }
                    return integer
                }
                #expect(percent == percentReference, "\(factor) % of \(units) by \(rule)")
            }
        }
        #expect(throws: MoneyError.overflow) { try eur(.max).multiplied(by: dec("1.5")) }
        #expect(throws: MoneyError.overflow) { try eur(.min).multiplied(by: -1) }
        #expect(try eur(.min).multiplied(by: 1) == eur(.min))
        #expect(try eur(3).multiplied(by: dec("1e-30"), rounding: .up) == eur(1))   // beyond the integer path
    }

    @Test func predicates() {
        #expect(Money.zero(.eur).isZero)
        #expect(eur(-1).isNegative)
        #expect(!eur(0).isNegative)
        #expect(eur(1).isPositive)
    }

    @Test func codableKeepsMinorUnitsAndCode() throws {
        let money = Money(minorUnits: -123_456, currency: Currency(code: "BHD")!)
        let data = try JSONEncoder().encode(money)
        #expect(try JSONDecoder().decode(Money.self, from: data) == money)
        #expect(String(decoding: data, as: UTF8.self).contains(#""BHD""#))
    }

    @Test func errorsExplainThemselves() {
        let errors: [MoneyError] = [.overflow, .currencyMismatch(.eur, .usd), .notANumber, .invalidPartCount(0), .invalidRatios]
        for error in errors {
            let message = error.errorDescription ?? ""
            #expect(!message.isEmpty && !message.contains("%"))
        }
        #expect(MoneyError.currencyMismatch(.eur, .usd).errorDescription?.contains("USD") == true)
    }
}

@Suite struct AllocationTests {
    @Test func splitsEvenlyWithTheLargerPartsFirst() throws {
        #expect(try eur(1000).allocated(into: 3) == [eur(334), eur(333), eur(333)])
        #expect(try eur(-1000).allocated(into: 3) == [eur(-334), eur(-333), eur(-333)])
        #expect(try eur(2).allocated(into: 3) == [eur(1), eur(1), eur(0)])
        #expect(try eur(1000).allocated(into: 1) == [eur(1000)])
        #expect(throws: MoneyError.invalidPartCount(0)) { try eur(1000).allocated(into: 0) }
        #expect(throws: MoneyError.invalidPartCount(-2)) { try eur(1000).allocated(into: -2) }
    }

    @Test func splitsByRatios() throws {
        #expect(try eur(1000).allocated(byRatios: [1, 1, 1]) == [eur(334), eur(333), eur(333)])
        #expect(try eur(1000).allocated(byRatios: [2, 1, 1]) == [eur(500), eur(250), eur(250)])
        #expect(try eur(100).allocated(byRatios: [0, 1]) == [eur(0), eur(100)])
        #expect(try eur(5).allocated(byRatios: [dec("0.3"), dec("0.7")]) == [eur(2), eur(3)])   // 1.5, 3.5
        // The leftover unit goes to the largest fraction, not simply the first part.
        #expect(try eur(10).allocated(byRatios: [1, 2]) == [eur(3), eur(7)])                    // 3.33, 6.67
        #expect(try eur(-10).allocated(byRatios: [1, 2]) == [eur(-3), eur(-7)])
        #expect(throws: MoneyError.invalidRatios) { try eur(1).allocated(byRatios: []) }
        #expect(throws: MoneyError.invalidRatios) { try eur(1).allocated(byRatios: [0, 0]) }
        #expect(throws: MoneyError.invalidRatios) { try eur(1).allocated(byRatios: [1, -1]) }
        #expect(throws: MoneyError.notANumber) { try eur(1).allocated(byRatios: [1, .nan]) }
    }

    @Test func equalPartsAlwaysSumAndDifferByAtMostOneUnit() throws {
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<5_000 {
            let money = eur(generator.minorUnits())
            let count = Int.random(in: 1...60, using: &generator)
            let parts = try money.allocated(into: count)
            #expect(parts.count == count)
            #expect(try Money.sum(parts, currency: .eur) == money)
            let magnitudes = parts.map { $0.minorUnits.magnitude }
            #expect((magnitudes.max() ?? 0) - (magnitudes.min() ?? 0) <= 1)
            #expect(magnitudes == magnitudes.sorted(by: >))
            #expect(parts.allSatisfy { $0.isZero || $0.isNegative == money.isNegative })
        }
    }

    @Test func ratioPartsAlwaysSumAndStayWithinOneUnitOfTheirShare() throws {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<3_000 {
            let money = eur(generator.minorUnits())
            let count = Int.random(in: 1...12, using: &generator)
            var ratios: [Decimal] = (0..<count).map { _ in
                Int.random(in: 0..<5, using: &generator) == 0
                    ? 0 : Decimal(Int.random(in: 1...10_000, using: &generator)) / 100
            }
            if ratios.allSatisfy({ $0 == 0 }) { ratios[0] = 1 }
            let parts = try money.allocated(byRatios: ratios)
            #expect(try Money.sum(parts, currency: .eur) == money)
            let total = ratios.reduce(0, +)
            for (part, ratio) in zip(parts, ratios) {
                if ratio == 0 { #expect(part.isZero) }
                let exact = Decimal(money.minorUnits) * ratio / total
                let distance = abs(Decimal(part.minorUnits) - exact)
                #expect(distance < 1, "part \(part.minorUnits) is \(distance) from its share \(exact)")
            }
        }
    }
}
