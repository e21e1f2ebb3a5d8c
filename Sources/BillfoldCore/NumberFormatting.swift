import Foundation

/// Plain numbers and percentages for the user's locale: quantities, hours, tax rates.
/// Values are `Decimal`, formatted from their exact digits; parsing reads what a person types.
public struct NumberFormatting: Sendable {
    public let locale: Locale

    public init(locale: Locale = UserLocale.numeric) {
        self.locale = locale
    }

    /// A decimal such as a quantity: "1.234,5" in de_DE. Rounded to `maximumFractionDigits`
    /// by `rounding`, padded with zeros to `minimumFractionDigits`. NaN gives an empty string.
    public func string(from value: Decimal, minimumFractionDigits: Int = 0,
                       maximumFractionDigits: Int = 6, rounding: RoundingRule = .halfUp) -> String {
        format(value, style: NumberStyle.style(for: locale, kind: .plain),
               minimumFractionDigits: minimumFractionDigits, maximumFractionDigits: maximumFractionDigits,
               rounding: rounding)
    }

    public func string(from value: Int) -> String {
        string(from: Decimal(value))
    }

    /// A percentage given in per cent: 15 → "15 %" in de_DE, "15%" in en_US, 7.7 → "7,7 %".
    public func percentString(from percent: Decimal, minimumFractionDigits: Int = 0,
                              maximumFractionDigits: Int = 2, rounding: RoundingRule = .halfUp) -> String {
        format(percent, style: NumberStyle.style(for: locale, kind: .percent),
               minimumFractionDigits: minimumFractionDigits, maximumFractionDigits: maximumFractionDigits,
               rounding: rounding)
    }

    /// Reads a number typed in this locale ("1.234,5", "-3", "0,25"). Pass
    /// `maximumFractionDigits` to refuse more decimals than a field allows.
    public func decimal(from text: String, maximumFractionDigits: Int? = nil) throws(AmountParseError) -> Decimal {
        let parsed = try AmountParser(style: NumberStyle.style(for: locale, kind: .plain)).parse(text)
        return try parsed.decimal(maximumFractionDigits: maximumFractionDigits)
    }

    /// Reads a percentage in per cent, with or without the percent sign: "7,7 %" → 7.7.
    public func percent(from text: String, maximumFractionDigits: Int? = nil) throws(AmountParseError) -> Decimal {
        let parsed = try AmountParser(style: NumberStyle.style(for: locale, kind: .percent)).parse(text)
        return try parsed.decimal(maximumFractionDigits: maximumFractionDigits)
    }

    /// The separator before the decimals, e.g. "," in de_DE.
    public var decimalSeparator: String {
        String(NumberStyle.style(for: locale, kind: .plain).decimalSeparator)
    }

    /// The separator between thousands, e.g. "." in de_DE, a narrow no-break space in fr_FR.
    public var groupingSeparator: String {
        String(NumberStyle.style(for: locale, kind: .plain).groupingSeparator)
    }

    private func format(_ value: Decimal, style: NumberStyle, minimumFractionDigits: Int,
                        maximumFractionDigits: Int, rounding: RoundingRule) -> String {
        guard !value.isNaN else { return "" }
        let maximum = max(0, maximumFractionDigits)
        let minimum = min(max(0, minimumFractionDigits), maximum)
        var source = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, maximum, rounding.foundationMode)
        // Decimal's description is locale-independent: optional "-", digits, optional "." digits.
        var text = rounded.description
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts.first.map(String.init) ?? "0"
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count > minimum, fraction.last == "0" { fraction.removeLast() }
        if fraction.count < minimum { fraction += String(repeating: "0", count: minimum - fraction.count) }
        let isZero = integer.allSatisfy { $0 == "0" } && fraction.allSatisfy { $0 == "0" }
        return style.format(negative: negative && !isZero, integerDigits: integer.isEmpty ? "0" : integer,
                            fractionDigits: fraction)
    }
}
