import Foundation

/// How an amount that falls between two minor units is brought onto one. Always named at the
/// call site when it matters, so a reader can see which rule an invoice total follows.
public enum RoundingRule: Sendable, Hashable {
    /// Ties go away from zero (2.5 → 3, −2.5 → −3): commercial rounding.
    case halfUp
    /// Ties go to the even neighbour (2.5 → 2, 3.5 → 4): banker's rounding.
    case halfEven
    /// Toward positive infinity (2.1 → 3, −2.9 → −2).
    case up
    /// Toward negative infinity (2.9 → 2, −2.1 → −3).
    case down

    var foundationMode: NSDecimalNumber.RoundingMode {
        switch self {
        case .halfUp: return .plain
        case .halfEven: return .bankers
        case .up: return .up
        case .down: return .down
        }
    }
}

extension RoundingRule {
    /// `value / divisor` (divisor positive) rounded by this rule, as `NSDecimalRound` rounds.
    func divide(_ value: Int128, by divisor: Int128) -> Int128 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        guard remainder != 0 else { return quotient }
        // The neighbour away from zero; the quotient itself is the one toward zero.
        let away = value < 0 ? quotient - 1 : quotient + 1
        let twice = remainder.magnitude * 2
        switch self {
        case .up: return value > 0 ? away : quotient
        case .down: return value < 0 ? away : quotient
        case .halfUp: return twice >= divisor.magnitude ? away : quotient
        case .halfEven:
            if twice != divisor.magnitude { return twice > divisor.magnitude ? away : quotient }
            return quotient % 2 == 0 ? quotient : away
        }
    }
}

public enum MoneyError: Error, LocalizedError, Equatable, Sendable {
    /// The result does not fit in 64-bit minor units.
    case overflow
    /// Two amounts in different currencies were combined.
    case currencyMismatch(Currency, Currency)
    /// A quantity, rate or ratio was not a number.
    case notANumber
    /// An amount was to be split into zero or a negative number of parts.
    case invalidPartCount(Int)
    /// Ratios were empty, negative or all zero.
    case invalidRatios

    public var errorDescription: String? {
        switch self {
        case .overflow:
            return tr("The amount is too large to calculate with.")
        case .currencyMismatch(let a, let b):
            return String(format: tr("Amounts in %@ and %@ cannot be combined."), a.code, b.code)
        case .notANumber:
            return tr("The quantity or rate is not a number.")
        case .invalidPartCount(let count):
            return String(format: tr("An amount cannot be split into %d parts."), count)
        case .invalidRatios:
            return tr("Split ratios must be zero or positive, and at least one must be above zero.")
        }
    }
}

extension Int64 {
    /// 10⁰ through 10¹⁸, every power of ten an Int64 holds.
    static let powersOfTen: [Int64] = (0...18).map { (0..<$0).reduce(1) { result, _ in result * 10 } }
}

/// An exact amount of money: whole minor units (cents, yen, fils) of one currency.
/// Arithmetic is checked: overflow and mixing currencies are errors, never silent.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    public static func zero(_ currency: Currency) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    /// Converts a decimal amount in major units (12.345 EUR) to minor units with the given rule.
    public init(_ amount: Decimal, currency: Currency, rounding: RoundingRule = .halfUp) throws(MoneyError) {
        guard !amount.isNaN else { throw .notANumber }
        let scaled = amount * Decimal.powerOfTen(currency.minorUnitExponent)
        self.init(minorUnits: try Decimal.roundedInt64(scaled, rounding), currency: currency)
    }

    /// The amount in major units, exactly (1234 cents → 12.34).
    public var decimalValue: Decimal {
        Decimal(minorUnits) * Decimal.powerOfTen(-currency.minorUnitExponent)
    }

    public var isZero: Bool { minorUnits == 0 }
    public var isNegative: Bool { minorUnits < 0 }
    public var isPositive: Bool { minorUnits > 0 }

    public func adding(_ other: Money) throws(MoneyError) -> Money {
        try requireSameCurrency(other)
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: sum, currency: currency)
    }

    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        try requireSameCurrency(other)
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        guard !overflow else { throw .overflow }
        return Money(minorUnits: difference, currency: currency)
    }

    public func negated() throws(MoneyError) -> Money {
        guard minorUnits != .min else { throw .overflow }
        return Money(minorUnits: -minorUnits, currency: currency)
    }

    /// The amount times a quantity (3.5 hours, 0.25 kg), rounded to a minor unit by `rounding`.
    public func multiplied(by quantity: Decimal, rounding: RoundingRule = .halfUp) throws(MoneyError) -> Money {
        guard !quantity.isNaN else { throw .notANumber }
        if let units = try Self.integerProduct(minorUnits, quantity, shift: 0, rounding) {
            return Money(minorUnits: units, currency: currency)
        }
        let product = Decimal(minorUnits) * quantity
        return Money(minorUnits: try Decimal.roundedInt64(product, rounding), currency: currency)
    }

    /// `percent` per cent of the amount: `percentage(15)` is 15 %, `percentage(7.7)` is 7.7 %.
    public func percentage(_ percent: Decimal, rounding: RoundingRule = .halfUp) throws(MoneyError) -> Money {
        guard !percent.isNaN else { throw .notANumber }
        if let units = try Self.integerProduct(minorUnits, percent, shift: -2, rounding) {
            return Money(minorUnits: units, currency: currency)
        }
        let product = Decimal(minorUnits) * percent / 100
        return Money(minorUnits: try Decimal.roundedInt64(product, rounding), currency: currency)
    }

    /// `units × factor × 10^shift`, rounded by `rule`, in 128-bit integers: the same result as
    /// Decimal arithmetic, at a tenth of its cost (an invoice multiplies every line). Nil where
    /// the factor's digits or exponent do not suit, and Decimal should do it.
    static func integerProduct(_ units: Int64, _ factor: Decimal, shift: Int, _ rule: RoundingRule) throws(MoneyError) -> Int64? {
        guard let parts = factor.integerParts else { return nil }
        let exponent = parts.exponent + shift
        guard (-18...18).contains(exponent) else { return nil }
        var product = Int128(units) * Int128(parts.significand)
        let scale = Int128(Int64.powersOfTen[abs(exponent)])
        if exponent >= 0 {
            let (scaled, overflow) = product.multipliedReportingOverflow(by: scale)
            guard !overflow else { throw .overflow }
            product = scaled
        } else {
            product = rule.divide(product, by: scale)
        }
        guard let result = Int64(exactly: product) else { throw .overflow }
        return result
    }

    /// Splits the amount into `parts` amounts that differ by at most one minor unit and sum
    /// exactly to it. The larger parts (in magnitude) come first: 10.00 / 3 → 3.34, 3.33, 3.33.
    public func allocated(into parts: Int) throws(MoneyError) -> [Money] {
        guard parts > 0 else { throw .invalidPartCount(parts) }
        let count = Int64(parts)
        let quotient = minorUnits / count
        let remainder = Int(minorUnits % count)   // same sign as minorUnits
        let step: Int64 = remainder < 0 ? -1 : 1
        return (0..<parts).map { index in
            Money(minorUnits: index < abs(remainder) ? quotient + step : quotient, currency: currency)
        }
    }

    /// Splits the amount in proportion to `ratios` (e.g. [2, 1, 1] or [0.5, 0.25, 0.25]) so the
    /// parts sum exactly to it. Each part is within one minor unit of its exact share; the
    /// units left over go to the parts whose exact shares had the largest fractions (ties:
    /// the earlier part). A zero ratio always gets zero.
    public func allocated(byRatios ratios: [Decimal]) throws(MoneyError) -> [Money] {
        guard !ratios.isEmpty else { throw .invalidRatios }
        if ratios.contains(where: { $0.isNaN }) { throw .notANumber }
        guard ratios.allSatisfy({ $0 >= 0 }) else { throw .invalidRatios }
        let total = ratios.reduce(Decimal(0), +)
        guard total > 0 else { throw .invalidRatios }

        // Work on the magnitude in Decimal (Int64.min has no Int64 magnitude), then restore the sign.
        let magnitude = Decimal(minorUnits.magnitude)
        var floors: [Decimal] = []
        var fractions: [Decimal] = []
        for ratio in ratios {
            let exact = magnitude * ratio / total
            var floor = Decimal()
            var value = exact
            NSDecimalRound(&floor, &value, 0, .down)
            floors.append(floor)
            fractions.append(exact - floor)
        }
        var leftover = magnitude - floors.reduce(Decimal(0), +)
        let receivers = ratios.indices
            .filter { ratios[$0] > 0 }
            .sorted { fractions[$0] != fractions[$1] ? fractions[$0] > fractions[$1] : $0 < $1 }
        // Decimal division keeps 38 digits, so the leftover is below the number of parts;
        // cycling still keeps the sum exact should rounding ever leave more.
        var position = 0
        while leftover > 0 {
            floors[receivers[position % receivers.count]] += 1
            leftover -= 1
            position += 1
        }
        let negative = minorUnits < 0
        var result: [Money] = []
        result.reserveCapacity(ratios.count)
        for floor in floors {
            let units = try Decimal.roundedInt64(negative ? -floor : floor, .down)
            result.append(Money(minorUnits: units, currency: currency))
        }
        return result
    }

    /// Adds amounts that must all be in `currency`; an empty list sums to zero.
    public static func sum(_ items: [Money], currency: Currency) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for item in items {
            total = try total.adding(item)
        }
        return total
    }

    /// A plain, locale-independent form for logs and debugging ("EUR 12.34");
    /// show amounts to people with `MoneyFormatter`.
    public var description: String {
        "\(currency.code) \(decimalValue)"
    }

    private func requireSameCurrency(_ other: Money) throws(MoneyError) {
        guard other.currency == currency else { throw .currencyMismatch(currency, other.currency) }
    }
}

extension Decimal {
    /// The plain form `description` gives ("-1234.5", "0.05", "1200"), built ~50× faster when
    /// the significand fits in 64 bits, as for amounts, quantities and rates.
    public var plainText: String {
        guard let parts = integerParts else { return description }
        if parts.significand == 0 { return "0" }
        var digits = String(parts.significand.magnitude)
        let exponent = parts.exponent
        if exponent > 0 {
            digits += String(repeating: "0", count: exponent)
        } else if exponent < 0 {
            let shift = -exponent
            if digits.count <= shift {
                digits = String(repeating: "0", count: shift - digits.count + 1) + digits
            }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -shift))
        }
        return parts.significand < 0 ? "-" + digits : digits
    }

    /// The value as `significand × 10^exponent` with a signed 64-bit significand; nil for NaN
    /// or a significand of more than 63 bits.
    var integerParts: (significand: Int64, exponent: Int)? {
        guard !isNaN else { return nil }
        let significand = self.significand
        let magnitude = NSDecimalNumber(decimal: significand).uint64Value
        guard magnitude <= UInt64(Int64.max), Decimal(magnitude) == significand else { return nil }
        let value = Int64(magnitude)
        return (sign == .minus ? -value : value, exponent)
    }

    static func powerOfTen(_ exponent: Int) -> Decimal {
        Decimal(sign: .plus, exponent: exponent, significand: 1)
    }

    /// Rounds to a whole number by `rule` and converts it to Int64 without passing through
    /// a Double, so every digit is kept; a value out of Int64's range is an overflow.
    static func roundedInt64(_ value: Decimal, _ rule: RoundingRule) throws(MoneyError) -> Int64 {
        // Callers reject NaN inputs first, so a NaN here is Decimal's own overflow.
        guard !value.isNaN else { throw .overflow }
        var source = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, 0, rule.foundationMode)
        guard !rounded.isNaN, let integer = Int64(rounded.plainText) else { throw .overflow }
        return integer
    }
}
