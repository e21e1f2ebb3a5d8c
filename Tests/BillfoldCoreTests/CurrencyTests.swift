import BillfoldCore
import Foundation
import Testing

@Suite struct CurrencyTests {
    @Test func exponentsFollowISO4217() throws {
        #expect(try #require(Currency(code: "JPY")).minorUnitExponent == 0)
        #expect(try #require(Currency(code: "EUR")).minorUnitExponent == 2)
        #expect(try #require(Currency(code: "BHD")).minorUnitExponent == 3)
        #expect(try #require(Currency(code: "KWD")).minorUnitExponent == 3)
        #expect(try #require(Currency(code: "CLF")).minorUnitExponent == 4)
        #expect(try #require(Currency(code: "ISK")).minorUnitExponent == 0)
        #expect(try #require(Currency(code: "BHD")).minorUnitsPerMajorUnit == 1000)
    }

    @Test func codesAreReadCaseInsensitivelyAndUnknownOnesRefused() {
        #expect(Currency(code: "eur") == .eur)
        #expect(Currency(code: "XXX") == nil)   // "no currency"
        #expect(Currency(code: "XAU") == nil)   // gold has no minor unit
        #expect(Currency(code: "HRK") == nil)   // withdrawn in 2023
        #expect(Currency(code: "") == nil)
        #expect(Currency(code: "EURO") == nil)
    }

    @Test func allIsSortedUniqueAndComplete() {
        let codes = Currency.all.map(\.code)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        #expect(codes.count > 150)
        for code in ["USD", "EUR", "GBP", "CHF", "JPY", "CNY", "INR", "BRL", "ZAR", "XOF", "XCG", "ZWG"] {
            #expect(codes.contains(code), "missing \(code)")
        }
    }

    @Test func localeCurrencyFallsBackToUSD() {
        #expect(Currency.forLocale(Locale(identifier: "de_DE")) == .eur)
        #expect(Currency.forLocale(Locale(identifier: "ja_JP")) == .jpy)
        #expect(Currency.forLocale(Locale(identifier: "de_CH")) == .chf)
        #expect(Currency.forLocale(Locale(identifier: "en_US")) == .usd)
        #expect(Currency.forLocale(Locale(identifier: "en")) == .usd)   // no region
    }

    @Test func namesAreLocalized() {
        #expect(Currency.eur.localizedName(locale: Locale(identifier: "en_US")) == "Euro")
        #expect(Currency.chf.localizedName(locale: Locale(identifier: "de_DE")) == "Schweizer Franken")
    }

    @Test func encodesAsTheBareCode() throws {
        let data = try JSONEncoder().encode([Currency.eur])
        #expect(String(decoding: data, as: UTF8.self) == #"["EUR"]"#)
        #expect(try JSONDecoder().decode([Currency].self, from: data) == [.eur])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([Currency].self, from: Data(#"["ZZZ"]"#.utf8))
        }
    }
}
