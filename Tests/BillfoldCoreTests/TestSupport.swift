import SeededRandom
import Foundation

extension SeededGenerator {
    /// Amounts of every size: mostly everyday ones, some huge, and the Int64 extremes.
    mutating func minorUnits() -> Int64 {
        switch Int.random(in: 0..<10, using: &self) {
        case 0: return [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 0, 1, -1].randomElement(using: &self)!
        case 1: return Int64.random(in: Int64.min...Int64.max, using: &self)
        case 2: return Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &self)
        default: return Int64.random(in: -10_000_000...10_000_000, using: &self)
        }
    }
}


enum TestLocales {
    static let enUS = Locale(identifier: "en_US")
    static let deDE = Locale(identifier: "de_DE")
    static let frFR = Locale(identifier: "fr_FR")
    static let jaJP = Locale(identifier: "ja_JP")
    /// The four the issue names, plus locales with other digits, signs and symbol placement.
    static let roundTrip = [enUS, deDE, frFR, jaJP,
                            Locale(identifier: "ar_BH"), Locale(identifier: "de_CH"), Locale(identifier: "sv_SE"),
                            Locale(identifier: "nl_NL"), Locale(identifier: "fa_IR"), Locale(identifier: "he_IL"),
                            Locale(identifier: "es_ES"), Locale(identifier: "hi_IN")]
}

let narrowNoBreakSpace = "\u{202F}"
let noBreakSpace = "\u{00A0}"
