import BillfoldCore
import Foundation

/// Reads the values of an e-invoice exactly: amounts from their decimal text straight into
/// minor units of the document currency (never through a floating-point number), dates in the
/// forms CII and UBL use.
struct EInvoiceValues {
    let currency: Currency

    /// The amount in `node`, or nil when the element is absent. `currencyID`, when present,
    /// must be the document currency.
    func money(_ node: XMLNode?, _ field: String) throws(EInvoiceError) -> Money? {
        guard let node, let text = node.value else { return nil }
        if let code = node.attributes["currencyID"]?.trimmingCharacters(in: .whitespaces), !code.isEmpty,
           code != currency.code {
            throw .currencyMismatch(field: field, found: code, expected: currency)
        }
        guard let number = DecimalText(text) else { throw .invalidAmount(field: field, text: text) }
        guard let minor = number.minorUnits(exponent: currency.minorUnitExponent) else {
            if number.hasExcessDecimals(exponent: currency.minorUnitExponent) {
                throw .tooManyDecimals(field: field, text: text, currency: currency)
            }
            throw .amountTooLarge(field: field)
        }
        return Money(minorUnits: minor, currency: currency)
    }

    func requiredMoney(_ node: XMLNode?, _ field: String) throws(EInvoiceError) -> Money {
        guard let money = try money(node, field) else { throw .missingField(field) }
        return money
    }

    /// A rate or quantity: any number of decimals, exact.
    static func decimal(_ node: XMLNode?, _ field: String) throws(EInvoiceError) -> Decimal? {
        guard let text = node?.value else { return nil }
        guard let number = DecimalText(text), let value = number.decimal else { throw .invalidAmount(field: field, text: text) }
        return value
    }

    /// CII's format 102 ("20240315"), or ISO 8601 ("2024-03-15") as UBL writes it.
    static func day(_ text: String?, _ field: String) throws(EInvoiceError) -> CalendarDay? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        let digits = text.filter { $0 != "-" }
        guard digits.count == 8, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              text.count == 8 || text.count == 10,
              let year = Int(digits.prefix(4)), let month = Int(digits.dropFirst(4).prefix(2)),
              let day = Int(digits.suffix(2)), let value = CalendarDay(year: year, month: month, day: day) else {
            throw .invalidDate(field: field, text: text)
        }
        return value
    }

    static func currency(_ text: String?) throws(EInvoiceError) -> Currency {
        guard let code = text?.trimmingCharacters(in: .whitespacesAndNewlines), !code.isEmpty else {
            throw .missingField(tr("invoice currency"))
        }
        guard let currency = Currency(code: code.uppercased()) else { throw .unknownCurrency(code) }
        return currency
    }
}

/// A number written as XML Schema's `xs:decimal`: an optional sign, digits, an optional point
/// and digits ("1234.50", "-3", ".5"). Nothing else is accepted, not even an exponent.
struct DecimalText: Equatable {
    let negative: Bool
    let integerDigits: String
    let fractionDigits: String

    init?(_ text: String) {
        var rest = Substring(text)
        var negative = false
        if let sign = rest.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        let isDigits = { (s: String) in s.utf8.allSatisfy { (48...57).contains($0) } }
        guard isDigits(integer), isDigits(fraction), !(integer.isEmpty && fraction.isEmpty) else { return nil }
        self.negative = negative
        integerDigits = integer
        fractionDigits = fraction
    }

    /// Decimals beyond what the currency has, that are not zeros.
    func hasExcessDecimals(exponent: Int) -> Bool {
        fractionDigits.dropFirst(exponent).contains { $0 != "0" }
    }

    /// Minor units for a currency with `exponent` decimals; nil when decimals would be lost
    /// (trailing zeros are fine: "10.500" EUR) or the value overflows.
    func minorUnits(exponent: Int) -> Int64? {
        guard !hasExcessDecimals(exponent: exponent) else { return nil }
        let kept = fractionDigits.prefix(exponent)
        let digits = integerDigits + kept + String(repeating: "0", count: exponent - kept.count)
        var value: Int64 = 0
        for byte in digits.utf8 {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.addingReportingOverflow(Int64(byte - 48))
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        return negative ? -value : value
    }

    /// The exact value, or nil when it has more digits than `Decimal` keeps (38).
    var decimal: Decimal? {
        let significant = (integerDigits + fractionDigits).drop { $0 == "0" }.count
        guard significant <= 38 else { return nil }
        let text = (negative ? "-" : "") + (integerDigits.isEmpty ? "0" : integerDigits)
            + (fractionDigits.isEmpty ? "" : "." + fractionDigits)
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
