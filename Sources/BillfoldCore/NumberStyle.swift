import Foundation

/// How one locale writes one kind of number (an amount in a currency, a plain decimal, a
/// percentage): taken once from Foundation's ICU data, then applied by hand to exact digit
/// strings so nothing passes through a Double and formatting and parsing share one source.
/// A class: formatting takes it from a cache for every number, and a reference is cheaper
/// to hand out than a copy of its strings and arrays.
final class NumberStyle: Sendable {
    let positivePrefix: String
    let positiveSuffix: String
    let negativePrefix: String
    let negativeSuffix: String
    let decimalSeparator: Character
    let groupingSeparator: Character
    let groupingSize: Int
    let secondaryGroupingSize: Int
    /// 2 where four-digit numbers stay ungrouped (es_ES, pl_PL: 1234 but 12.345), else 1.
    let minimumGroupingDigits: Int
    /// The locale's ten digits, zero first (ASCII for most, Arabic-Indic for ar_BH).
    let digits: [Character]
    /// Extra text a person may type around the number: currency symbols and codes, "%".
    var affixTokens: [String] { tokens.value }
    private let tokens: AffixTokens

    init(positivePrefix: String, positiveSuffix: String, negativePrefix: String, negativeSuffix: String,
         decimalSeparator: Character, groupingSeparator: Character, groupingSize: Int, secondaryGroupingSize: Int,
         minimumGroupingDigits: Int, digits: [Character], affixTokens: AffixTokens) {
        self.positivePrefix = positivePrefix
        self.positiveSuffix = positiveSuffix
        self.negativePrefix = negativePrefix
        self.negativeSuffix = negativeSuffix
        self.decimalSeparator = decimalSeparator
        self.groupingSeparator = groupingSeparator
        self.groupingSize = groupingSize
        self.secondaryGroupingSize = secondaryGroupingSize
        self.minimumGroupingDigits = minimumGroupingDigits
        self.digits = digits
        tokens = affixTokens
        positivePrefixBytes = Array(positivePrefix.utf8)
        positiveSuffixBytes = Array(positiveSuffix.utf8)
        negativePrefixBytes = Array(negativePrefix.utf8)
        negativeSuffixBytes = Array(negativeSuffix.utf8)
        decimalSeparatorBytes = Array(decimalSeparator.utf8)
        groupingSeparatorBytes = Array(groupingSeparator.utf8)
        digitBytes = digits.map { Array($0.utf8) }
    }

    // The same text as UTF-8, taken once: `format` runs for every amount on a page.
    private let positivePrefixBytes: [UInt8]
    private let positiveSuffixBytes: [UInt8]
    private let negativePrefixBytes: [UInt8]
    private let negativeSuffixBytes: [UInt8]
    private let decimalSeparatorBytes: [UInt8]
    private let groupingSeparatorBytes: [UInt8]
    private let digitBytes: [[UInt8]]

    enum Kind: Hashable, Sendable {
        case currency(String)
        /// An amount without its symbol: the currency's separators with a plain number's signs.
        case bareCurrency(String)
        case plain
        case percent
    }

    static func style(for locale: Locale, kind: Kind) -> NumberStyle {
        NumberStyleCache.shared.style(for: locale, kind: kind)
    }

    fileprivate static func make(locale: Locale, kind: Kind) -> NumberStyle {
        if case .bareCurrency(let code) = kind {
            let currency = style(for: locale, kind: .currency(code))
            let plain = style(for: locale, kind: .plain)
            return NumberStyle(positivePrefix: plain.positivePrefix, positiveSuffix: plain.positiveSuffix,
                               negativePrefix: plain.negativePrefix, negativeSuffix: plain.negativeSuffix,
                               decimalSeparator: currency.decimalSeparator, groupingSeparator: currency.groupingSeparator,
                               groupingSize: currency.groupingSize, secondaryGroupingSize: currency.secondaryGroupingSize,
                               minimumGroupingDigits: currency.minimumGroupingDigits, digits: currency.digits,
                               affixTokens: currency.tokens)
        }
        let formatter = NumberFormatter()
        formatter.locale = locale
        switch kind {
        case .currency(let code), .bareCurrency(let code):
            formatter.numberStyle = .currency
            formatter.currencyCode = code
        case .plain:
            formatter.numberStyle = .decimal
        case .percent:
            formatter.numberStyle = .percent
        }

        let decimalText: String
        let groupingText: String
        if case .currency = kind {
            decimalText = formatter.currencyDecimalSeparator ?? formatter.decimalSeparator ?? "."
            groupingText = formatter.currencyGroupingSeparator ?? formatter.groupingSeparator ?? ","
        } else {
            decimalText = formatter.decimalSeparator ?? "."
            groupingText = formatter.groupingSeparator ?? ","
        }

        // The locale's digits and grouping, read off a plain number. Each formatter costs ICU a
        // fresh set-up, so other kinds take them from the plain style.
        let digits: [Character]
        let minimumGroupingDigits: Int
        if case .plain = kind {
            (digits, minimumGroupingDigits) = digitsAndGrouping(formatter)
        } else {
            let plain = style(for: locale, kind: .plain)
            (digits, minimumGroupingDigits) = (plain.digits, plain.minimumGroupingDigits)
        }

        let tokens: AffixTokens
        switch kind {
        case .currency(let code), .bareCurrency(let code):
            let symbol = formatter.currencySymbol
            tokens = AffixTokens { [code, symbol, englishSymbol(code)].compactMap { $0 } + (alternateSymbols[code] ?? []) }
        case .percent:
            let symbol = formatter.percentSymbol
            tokens = AffixTokens { ["%", "٪", "％", symbol].compactMap { $0 } }
        case .plain:
            tokens = AffixTokens { [] }
        }

        // The affixes are read off real output rather than the formatter's prefix properties:
        // ICU adds CLDR currency spacing ("BHD 1,234.567") only while formatting.
        let affixSample = NSDecimalNumber(string: "1234.5")
        let positive = affixes(formatter.string(from: affixSample))
        let negative = affixes(formatter.string(from: affixSample.multiplying(by: -1)))
        let positivePrefix = positive?.prefix ?? formatter.positivePrefix ?? ""
        let positiveSuffix = positive?.suffix ?? formatter.positiveSuffix ?? ""
        let negativePrefix = negative?.prefix ?? formatter.negativePrefix ?? "-"
        let negativeSuffix = negative?.suffix ?? formatter.negativeSuffix ?? ""
        return NumberStyle(
            positivePrefix: positivePrefix,
            positiveSuffix: positiveSuffix,
            negativePrefix: negativePrefix,
            negativeSuffix: negativeSuffix,
            decimalSeparator: decimalText.first ?? ".",
            groupingSeparator: groupingText.first ?? ",",
            groupingSize: formatter.usesGroupingSeparator ? formatter.groupingSize : 0,
            secondaryGroupingSize: formatter.secondaryGroupingSize,
            minimumGroupingDigits: minimumGroupingDigits,
            digits: digits,
            affixTokens: tokens)
    }

    /// The ten digits, zero first, and whether a four-digit number stays ungrouped (2) or not (1).
    private static func digitsAndGrouping(_ decimal: NumberFormatter) -> ([Character], Int) {
        var digits = Array("0123456789")
        // Grouping separators are never digits: the filter leaves the ten in order.
        let sample = Array(decimal.string(from: 1_234_567_890) ?? "").filter { $0.isLocaleDigit }
        if sample.count == 10 {
            digits = [sample[9]] + Array(sample[0..<9])
        }
        // Does the locale group a four-digit number? es_ES and pl_PL do not.
        let four = (decimal.string(from: 1234) ?? "").withoutFormatCharacters
        return (digits, four.allSatisfy({ $0.isLocaleDigit }) ? 2 : 1)
    }

    /// The symbol an English speaker types for the currency ("$", "CA$").
    private static func englishSymbol(_ code: String) -> String? {
        let english = NumberFormatter()
        english.locale = Locale(identifier: "en_US")
        english.numberStyle = .currency
        english.currencyCode = code
        return english.currencySymbol
    }

    /// The text before the first digit and after the last one.
    private static func affixes(_ text: String?) -> (prefix: String, suffix: String)? {
        guard let characters = text.map(Array.init),
              let first = characters.firstIndex(where: { $0.isLocaleDigit }),
              let last = characters.lastIndex(where: { $0.isLocaleDigit }) else { return nil }
        return (String(characters[..<first]), String(characters[(last + 1)...]))
    }

    /// Symbols people commonly type that the locale data does not list for that locale.
    private static let alternateSymbols: [String: [String]] = [
        "USD": ["$", "US$"], "EUR": ["€"], "GBP": ["£"], "JPY": ["¥", "￥", "円"],
        "CNY": ["¥", "￥", "元"], "KRW": ["₩", "원"], "INR": ["₹", "Rs", "Rs."], "CHF": ["Fr.", "SFr."],
        "CAD": ["$", "CA$"], "AUD": ["$", "A$"], "NZD": ["$", "NZ$"], "SEK": ["kr"], "NOK": ["kr"],
        "DKK": ["kr."], "PLN": ["zł"], "RUB": ["₽"], "UAH": ["₴"], "TRY": ["₺"], "ILS": ["₪"],
    ]

    /// Writes a number from its ASCII digits, most significant first, with no sign and no
    /// leading zeros but at least one digit before the decimals; the last `fractionCount`
    /// digits go after the decimal separator. Built as UTF-8 bytes: no `Character` per digit.
    func format(negative: Bool, digits: [UInt8], fractionCount: Int) -> String {
        let integerCount = digits.count - fractionCount
        let grouped = groupingSize > 0 && integerCount >= groupingSize + minimumGroupingDigits
        let laterGroups = secondaryGroupingSize > 0 ? secondaryGroupingSize : groupingSize
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 * digits.count + 24)
        bytes.append(contentsOf: negative ? negativePrefixBytes : positivePrefixBytes)
        for index in 0..<digits.count {
            // A separator goes where the digits still to come fill whole groups, counted from the right.
            let following = integerCount - index
            if grouped, index > 0, following >= groupingSize, (following - groupingSize) % laterGroups == 0 {
                bytes.append(contentsOf: groupingSeparatorBytes)
            }
            if index == integerCount { bytes.append(contentsOf: decimalSeparatorBytes) }
            let digit = digitBytes[Int(digits[index] &- 48)]
            // Most locales write ASCII digits: one byte, no array copy.
            if digit.count == 1 { bytes.append(digit[0]) } else { bytes.append(contentsOf: digit) }
        }
        bytes.append(contentsOf: negative ? negativeSuffixBytes : positiveSuffixBytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A style's affix tokens, found on first use and kept: only parsing needs them, and a
/// currency's English symbol costs a whole ICU formatter to find.
final class AffixTokens: @unchecked Sendable {
    private let lock = NSLock()
    private var make: (() -> [String])?
    private var tokens: [String] = []

    init(_ make: @escaping () -> [String]) {
        self.make = make
    }

    var value: [String] {
        lock.lock()
        defer { lock.unlock() }
        if let make {
            // Longest first, so "US$" wins over "$".
            tokens = Array(Set(make().map { $0.withoutFormatCharacters }.filter { !$0.isEmpty }))
                .sorted { $0.count > $1.count }
            self.make = nil
        }
        return tokens
    }
}

private final class NumberStyleCache: @unchecked Sendable {
    static let shared = NumberStyleCache()
    private let lock = NSLock()
    private var styles: [Key: NumberStyle] = [:]
    /// The style asked for last: a page of amounts asks for the same one each time, and
    /// comparing two keys is cheaper than hashing one.
    private var last: (key: Key, style: NumberStyle)?

    /// Hashable parts, not an interpolated string: describing the enum goes through
    /// reflection, which cost more than the formatting itself.
    private struct Key: Hashable {
        let locale: String
        let kind: NumberStyle.Kind
    }

    func style(for locale: Locale, kind: NumberStyle.Kind) -> NumberStyle {
        let key = Key(locale: locale.identifier, kind: kind)
        lock.lock()
        if let last, last.key == key {
            lock.unlock()
            return last.style
        }
        if let cached = styles[key] {
            last = (key, cached)
            lock.unlock()
            return cached
        }
        lock.unlock()
        // Built outside the lock: NumberFormatter is slow to set up and the result is the
        // same whichever thread wins.
        let style = NumberStyle.make(locale: locale, kind: kind)
        lock.lock()
        styles[key] = style
        lock.unlock()
        return style
    }
}

extension Character {
    /// A decimal digit of any script (0–9, ٠–٩, ०–९, …), but not ①, Ⅷ or ½.
    var isLocaleDigit: Bool { localeDigitValue != nil }

    var localeDigitValue: Int? {
        guard unicodeScalars.count == 1, let scalar = unicodeScalars.first,
              scalar.properties.numericType == .decimal,
              let value = scalar.properties.numericValue else { return nil }
        return Int(value)
    }

    var asciiDigitValue: Int? {
        guard let ascii = asciiValue, ascii >= 48, ascii <= 57 else { return nil }
        return Int(ascii - 48)
    }
}

extension String {
    /// Drops invisible formatting marks (LRM, RLM, ALM, zero-width joiners) that ICU puts
    /// around numbers in right-to-left locales and that copy-and-paste carries along.
    var withoutFormatCharacters: String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars where scalar.properties.generalCategory != .format {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
