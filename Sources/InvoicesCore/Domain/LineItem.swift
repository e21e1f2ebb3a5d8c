import BillfoldCore
import Foundation

/// One line of an invoice: what was delivered, how much of it, at what price and tax.
public struct LineItem: Sendable, Hashable {
    /// Any length, several lines allowed; printed in full, wrapping across pages if it must.
    public var description: String
    /// Hours, pieces, days… up to 6 decimals.
    public var quantity: Decimal
    /// "h", "pcs", "day"; may be empty.
    public var unit: String
    /// Price of one unit before tax, in the invoice's currency.
    public var unitPrice: Money
    /// Per cent, e.g. 19 or 7.7; lines are taxed together per rate.
    public var taxRate: Decimal
    /// Per cent off this line, if any.
    public var discountPercent: Decimal?
    /// Why the line is taxed as it is; only `standard` has a rate above 0 %.
    public var vatCategory: VATCategory
    /// The unit as e-invoices name it; `unit` is the word printed.
    public var unitCode: UnitCode

    /// Without a category, a rate above 0 % is standard and 0 % is zero rate; without a unit
    /// code, it is guessed from the unit's word.
    public init(description: String, quantity: Decimal, unit: String = "", unitPrice: Money,
                taxRate: Decimal = 0, discountPercent: Decimal? = nil, vatCategory: VATCategory? = nil,
                unitCode: UnitCode? = nil) {
        self.description = description
        self.quantity = quantity
        self.unit = unit
        self.unitPrice = unitPrice
        self.taxRate = taxRate
        self.discountPercent = discountPercent
        self.vatCategory = vatCategory ?? .inferred(fromRate: taxRate)
        self.unitCode = unitCode ?? UnitCode.guess(from: unit)
    }

    public static let maximumDescriptionLength = 100_000
    public static let maximumUnitLength = 20
    public static let maximumQuantityDecimals = 6
    /// Big enough for any real quantity, small enough that quantity × price stays exact.
    public static let maximumQuantity: Decimal = 1_000_000_000

    /// The line's amount before tax: quantity × unit price less the line discount, rounded
    /// half-up to the currency's minor unit once.
    public func netAmount() throws(InvoiceError) -> Money {
        // Decimal division is slow (it works digit by digit), so a line without a discount skips it.
        var factor = quantity
        if let discountPercent, discountPercent != 0 { factor = quantity * (100 - discountPercent) / 100 }
        do {
            return try unitPrice.multiplied(by: factor, rounding: .halfUp)
        } catch {
            throw .amountTooLarge
        }
    }

    func validate(index: Int, currency: Currency) -> [ValidationIssue<InvoiceField>] {
        var issues: [ValidationIssue<InvoiceField>] = []
        func add(_ field: LineItemField, _ message: String) {
            issues.append(.init(.line(index, field), message))
        }
        if description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            add(.description, tr("Describe what this line is for."))
        } else if description.count > Self.maximumDescriptionLength {
            add(.description, tr("Shorten the description to at most 100 000 characters."))
        }
        if quantity.isNaN || quantity <= 0 {
            add(.quantity, tr("Enter a quantity above zero."))
        } else if quantity > Self.maximumQuantity {
            add(.quantity, tr("Enter a quantity of at most one billion."))
        } else if TaxRate.decimals(quantity) > Self.maximumQuantityDecimals {
            add(.quantity, tr("Use at most 6 decimal places in a quantity."))
        }
        if unit.count > Self.maximumUnitLength || unit.contains(where: \.isNewline) {
            add(.unit, tr("Keep the unit short, like “h” or “pcs”: at most 20 characters on one line."))
        }
        if unitPrice.currency != currency {
            add(.unitPrice, String(format: tr("Enter the price in %@, the invoice’s currency."), currency.code))
        } else if unitPrice.isNegative {
            add(.unitPrice, tr("Enter a price of zero or more; give a discount with the discount field."))
        }
        if let problem = TaxRate.problem(taxRate) {
            add(.taxRate, problem)
        } else if vatCategory.hasRate, taxRate == 0 {
            add(.taxRate, tr("A standard-rate line needs a tax rate above 0 %. For no tax, choose why: zero rate, exempt, reverse charge…"))
        } else if !vatCategory.hasRate, taxRate != 0 {
            add(.taxRate, String(format: tr("A line marked “%@” has a tax rate of 0 %%."), vatCategory.title))
        }
        if let discount = discountPercent, let problem = Discount.problem(discount) {
            add(.discount, problem)
        }
        return issues
    }
}

enum Discount {
    static func problem(_ percent: Decimal) -> String? {
        guard !percent.isNaN, TaxRate.range.contains(percent) else {
            return tr("Enter a discount between 0 % and 100 %.")
        }
        guard TaxRate.decimals(percent) <= 4 else { return tr("Use at most 4 decimal places in a discount.") }
        return nil
    }
}

/// Money received against an invoice.
public struct Payment: Sendable, Hashable {
    public var date: CalendarDay
    public var amount: Money
    public var note: String

    public init(date: CalendarDay, amount: Money, note: String = "") {
        self.date = date
        self.amount = amount
        self.note = note
    }

    /// Money paid back to the client (`Invoice.recordRefund`), kept as an amount below zero.
    public var isRefund: Bool { amount.isNegative }
}
