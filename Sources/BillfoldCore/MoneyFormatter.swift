import Foundation

/// Shows amounts the way the user's locale writes them and reads back what a person types:
/// "1.234,50 €" in de_DE, "€1,234.50" in en_US, "1 234,50 €" in fr_FR (narrow no-break
/// space), "¥1,234" in ja_JP. What it writes, it reads back to the same amount.
public struct MoneyFormatter: Sendable {
    public let locale: Locale

    public init(locale: Locale = UserLocale.monetary) {
        self.locale = locale
    }

    /// The amount with its currency's exact number of decimals, grouped for the locale.
    /// Without the symbol it is the bare number ("1.234,50"), e.g. for an entry field
    /// whose currency is shown beside it.
    public func string(from money: Money, showSymbol: Bool = true) -> String {
        let style = showSymbol ? currencyStyle(money.currency) : plainStyle(money.currency)
        let exponent = money.currency.minorUnitExponent
        // The magnitude's digits straight from the integer, with a zero before the decimals.
        var digits: [UInt8] = []
        digits.reserveCapacity(24)
        var magnitude = money.minorUnits.magnitude
        repeat {
            digits.append(UInt8(truncatingIfNeeded: magnitude % 10) + UInt8(ascii: "0"))
            magnitude /= 10
        } while magnitude > 0 || digits.count <= exponent
        digits.reverse()
        return style.format(negative: money.minorUnits < 0, digits: digits, fractionCount: exponent)
    }

    /// Reads an amount typed in this locale, with or without the currency's symbol or code.
    /// Digits beyond the currency's decimals are an error unless they are zeros.
    public func money(from text: String, currency: Currency) throws(AmountParseError) -> Money {
        let parsed = try AmountParser(style: currencyStyle(currency)).parse(text)
        let units = try parsed.minorUnits(exponent: currency.minorUnitExponent)
        return Money(minorUnits: units, currency: currency)
    }

    /// The symbol this locale shows for the currency ("€", "US$", "CHF").
    public func symbol(for currency: Currency) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .currency
        formatter.currencyCode = currency.code
        return formatter.currencySymbol ?? currency.code
    }

    /// The separator before the decimals in amounts, e.g. "," in de_DE.
    public var decimalSeparator: String {
        String(NumberStyle.style(for: locale, kind: .currency(Currency.forLocale(locale).code)).decimalSeparator)
    }

    private func currencyStyle(_ currency: Currency) -> NumberStyle {
        NumberStyle.style(for: locale, kind: .currency(currency.code))
    }

    /// Bare numbers keep the currency style's separators but take a plain number's signs.
    private func plainStyle(_ currency: Currency) -> NumberStyle {
        NumberStyle.style(for: locale, kind: .bareCurrency(currency.code))
    }
}
