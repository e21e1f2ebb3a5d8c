import BillfoldCore
import Foundation

/// The VAT of one category and rate on an expense, as the supplier's invoice states it (an
/// e-invoice's BG-23): the taxable amount and the tax on it, exact, in the currency paid.
/// Nothing here is computed: these are the supplier's numbers, kept to reclaim the VAT.
public struct ExpenseVAT: Hashable, Sendable, Codable {
    /// UNTDID 5305 code: S standard, Z zero, E exempt, AE reverse charge, K intra-community,
    /// G export, O not subject, L/M Canary Islands and Ceuta/Melilla taxes.
    public var categoryCode: String
    /// Percent (19 for 19 %); nil where the category has none (O).
    public var rate: Decimal?
    /// BT-116.
    public var taxableAmount: Money
    /// BT-117.
    public var taxAmount: Money

    public init(categoryCode: String, rate: Decimal?, taxableAmount: Money, taxAmount: Money) {
        self.categoryCode = categoryCode
        self.rate = rate
        self.taxableAmount = taxableAmount
        self.taxAmount = taxAmount
    }

    public var currency: Currency { taxAmount.currency }

    /// "Standard rate", "Reverse charge"…: the category in words.
    public var localizedCategory: String {
        switch categoryCode {
        case "S": return tr("Standard rate")
        case "Z": return tr("Zero rated")
        case "E": return tr("Exempt from VAT")
        case "AE": return tr("Reverse charge")
        case "K": return tr("Intra-community supply")
        case "G": return tr("Export outside the EU")
        case "O": return tr("Not subject to VAT")
        default: return categoryCode
        }
    }

    /// "19 %" in the locale's way, or the category's name when it has no rate.
    public func rateText(_ numbers: NumberFormatting = NumberFormatting()) -> String {
        guard let rate else { return localizedCategory }
        return numbers.percentString(from: rate, minimumFractionDigits: 0, maximumFractionDigits: 3)
    }
}

extension Array where Element == ExpenseVAT {
    /// The VAT of every rate together; nil when there is none.
    public func totalTax() throws(MoneyError) -> Money? {
        guard let currency = first?.currency else { return nil }
        return try Money.sum(map(\.taxAmount), currency: currency)
    }

    /// Taxable amounts plus taxes: the invoice total these lines account for; nil when none.
    public func grossTotal() throws(MoneyError) -> Money? {
        guard let currency = first?.currency else { return nil }
        return try Money.sum(flatMap { [$0.taxableAmount, $0.taxAmount] }, currency: currency)
    }
}

extension ExpenseVAT {
    /// The VAT of many expenses summed per currency, category and rate, in the order first met:
    /// what can be reclaimed, rate by rate.
    public static func totals(of expenses: [Expense]) throws(MoneyError) -> [ExpenseVAT] {
        struct Key: Hashable {
            let currency: Currency
            let category: String
            let rate: Decimal?
        }
        var order: [Key] = []
        var sums: [Key: ExpenseVAT] = [:]
        for line in expenses.flatMap(\.vat) {
            let key = Key(currency: line.currency, category: line.categoryCode, rate: line.rate)
            if var sum = sums[key] {
                sum.taxableAmount = try sum.taxableAmount.adding(line.taxableAmount)
                sum.taxAmount = try sum.taxAmount.adding(line.taxAmount)
                sums[key] = sum
            } else {
                order.append(key)
                sums[key] = line
            }
        }
        return order.compactMap { sums[$0] }
    }
}
