import Foundation

/// Plain numbers and percentages for the user's locale: quantities, hours, tax rates.
/// Values are `Decimal`, formatted from their exact digits; parsing reads what a person types.
public struct NumberFormatting: Sendable {
    public let locale: Locale
    // Looked up once here rather than in the shared cache for every number.
    private let plainStyle: NumberStyle
    private let percentStyle: NumberStyle

    public init(locale: Locale = UserLocale.numeric) {
        self.locale = locale
        plainStyle = NumberStyle.style(for: locale, kind: .plain)
        percentStyle = NumberStyle.style(for: locale, kind: .percent)
    }

    /// A decimal such as a quantity: "1.234,5" in de_DE. Rounded to `maximumFractionDigits`
    /// by `rounding`, padded with zeros to `minimumFractionDigits`. NaN gives an empty string.
    public func string(from value: Decimal, minimumFractionDigits: Int = 0,
                       maximumFractionDigits: Int = 6, rounding: RoundingRule = .halfUp) -> String {
        format(value, style: plainStyle,
               minimumFractionDigits: minimumFractionDigits, maximumFractionDigits: maximumFractionDigits,
               rounding: rounding)
    }

    public func string(from value: Int) -> String {
        string(from: Decimal(value))
    }

    /// A percentage given in per cent: 15 → "15 %" in de_DE, "15%" in en_US, 7.7 → "7,7 %".
    public func percentString(from percent: Decimal, minimumFractionDigits: Int = 0,
                              maximumFractionDigits: Int = 2, rounding: RoundingRule = .halfUp) -> String {
        format(percent, style: percentStyle,
               minimumFractionDigits: minimumFractionDigits, maximumFractionDigits: maximumFractionDigits,
               rounding: rounding)
    }

    /// Reads a number typed in this locale ("1.234,5", "-3", "0,25"). Pass
    /// `maximumFractionDigits` to refuse more decimals than a field allows.
    public func decimal(from text: String, maximumFractionDigits: Int? = nil) throws(AmountParseError) -> Decimal {
        let parsed = try AmountParser(style: plainStyle).parse(text)
        return try parsed.decimal(maximumFractionDigits: maximumFractionDigits)
    }

    /// Reads a percentage in per cent, with or without the percent sign: "7,7 %" → 7.7.
    public func percent(from text: String, maximumFractionDigits: Int? = nil) throws(AmountParseError) -> Decimal {
        let parsed = try AmountParser(style: percentStyle).parse(text)
        return try parsed.decimal(maximumFractionDigits: maximumFractionDigits)
    }

    /// The separator before the decimals, e.g. "," in de_DE.
    public var decimalSeparator: String {
        String(plainStyle.decimalSeparator)
    }

    /// The separator between thousands, e.g. "." in de_DE, a narrow no-break space in fr_FR.
    public var groupingSeparator: String {
        String(plainStyle.groupingSeparator)
    }

    private func format(_ value: Decimal, style: NumberStyle, minimumFractionDigits: Int,
                        maximumFractionDigits: Int, rounding: RoundingRule) -> String {
        guard !value.isNaN else { return "" }
        let maximum = max(0, maximumFractionDigits)
        let minimum = min(max(0, minimumFractionDigits), maximum)
        let rounded = Self.roundedDigits(value, maximumFractionDigits: maximum, rounding: rounding)
        let negative = rounded.negative
        var digits = rounded.digits
        var fractionCount = rounded.fractionCount
        while fractionCount > minimum, digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            fractionCount -= 1
        }
        while fractionCount < minimum {
            digits.append(UInt8(ascii: "0"))
            fractionCount += 1
        }
        if digits.count == fractionCount { digits.insert(UInt8(ascii: "0"), at: 0) }
        let isZero = digits.allSatisfy { $0 == UInt8(ascii: "0") }
        return style.format(negative: negative && !isZero, digits: digits, fractionCount: fractionCount)
    }

    /// The value rounded to at most `maximum` decimals, as ASCII digits with a zero before the
    /// point where it is below one ("0.05" → "005", two decimals). Integer arithmetic where
    /// the significand fits in 64 bits, as for quantities and rates; Decimal's otherwise.
    static func roundedDigits(_ value: Decimal, maximumFractionDigits maximum: Int,
                              rounding: RoundingRule) -> (negative: Bool, digits: [UInt8], fractionCount: Int) {
        var digits: [UInt8] = []
        digits.reserveCapacity(24)
        if let parts = value.integerParts, parts.exponent <= 18, -parts.exponent - maximum <= 18 {
            var significand = Int128(parts.significand)
            var exponent = parts.exponent
            if exponent < -maximum {
                significand = rounding.divide(significand, by: Int128(Int64.powersOfTen[-exponent - maximum]))
                exponent = -maximum
            }
            if significand == 0 { return (false, [UInt8(ascii: "0")], 0) }
            digits.append(contentsOf: String(significand.magnitude).utf8)
            if exponent > 0 { digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent)) }
            let fractionCount = max(0, -exponent)
            if digits.count <= fractionCount {
                digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: fractionCount - digits.count + 1), at: 0)
            }
            return (significand < 0, digits, fractionCount)
        }
        var source = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, maximum, rounding.foundationMode)
        // The plain text is locale-independent: optional "-", digits, optional "." digits.
        var negative = false
        var fractionCount = 0
        var inFraction = false
        for byte in rounded.plainText.utf8 {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): inFraction = true
            default:
                digits.append(byte)
                if inFraction { fractionCount += 1 }
            }
        }
        return (negative, digits, fractionCount)
    }
}
