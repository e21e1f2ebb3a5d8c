import BillfoldCore
import Foundation

/// An invoice's amounts, exact to the minor unit, worked out the way tax authorities and
/// EN 16931 expect. The PDF and the e-invoice both print these values, so they always agree:
///
/// 1. Each line's net is quantity × unit price less its discount, rounded half-up **once**.
/// 2. The subtotal is the sum of the line nets.
/// 3. Lines are grouped by VAT category and rate (EN 16931's VAT breakdown, BG-23). The invoice
///    discount is the discount per cent of the subtotal, rounded half-up once, then split
///    across the groups in proportion to each group's net (largest remainder, so the parts add
///    up to the discount exactly); each part is a document-level allowance of its group. A 10 %
///    discount thus lowers every base by about 10 %, and tax is charged on what is really paid.
/// 4. For each group, the tax is the rate applied to the group's discounted net, summed over
///    all its lines first and rounded half-up once (BR-CO-17). Three lines of 0.05 at 7 % give
///    0.01 tax (7 % of 0.15), not 0.00 (three times 7 % of 0.05).
/// 5. Total = subtotal − discount + Σ tax; balance due = total − credit notes − payments. With
///    the sums taken over these rounded amounts, BR-CO-10 to BR-CO-16 hold by construction.
///    Every open amount (the list's sums, a client's balance, reports) reads this balance.
public struct InvoiceTotals: Sendable, Hashable {
    /// One VAT category and rate's part of the invoice.
    public struct TaxLine: Sendable, Hashable {
        public let category: VATCategory
        /// Per cent.
        public let rate: Decimal
        /// The lines' nets in this group before the invoice discount.
        public let lineNet: Money
        /// This group's share of the invoice discount (zero without one).
        public let discount: Money
        /// The lines' nets in this group, after its share of the invoice discount.
        public let taxableAmount: Money
        public let tax: Money
    }

    public let currency: Currency
    /// Each line's net, in line order.
    public let lineNets: [Money]
    public let subtotal: Money
    /// The invoice-level discount as a positive amount (zero without one).
    public let discount: Money
    /// Subtotal less the discount: what tax is charged on.
    public let netTotal: Money
    /// One per VAT category and rate, lowest rate first; groups with no lines are left out.
    public let taxLines: [TaxLine]
    public let tax: Money
    public let total: Money
    /// What credit notes for this invoice took off (zero without one).
    public let credited: Money
    /// The total less what credit notes took off: what payments are taken from.
    public let totalAfterCredits: Money
    public let paid: Money
    public let balanceDue: Money

    /// What goes back to the client when credit notes took off more than was still owed
    /// (a paid invoice, credited): the balance below zero, as a positive amount; else nil.
    public var refundDue: Money? {
        balanceDue.isNegative ? try? balanceDue.negated() : nil
    }

    public init(lines: [LineItem], discountPercent: Decimal, payments: [Payment], currency: Currency,
                credited: Money? = nil) throws(InvoiceError) {
        do {
            var nets: [Money] = []
            nets.reserveCapacity(lines.count)
            for line in lines {
                guard line.unitPrice.currency == currency else {
                    throw InvoiceError.currencyMismatch(expected: currency, found: line.unitPrice.currency)
                }
                nets.append(try line.netAmount())
            }
            let subtotal = try Money.sum(nets, currency: currency)

            // Grouped by comparing with ==, which treats 7 and 7.0 as one rate (their hashes
            // need not agree, so no dictionary).
            var groups: [(category: VATCategory, rate: Decimal, net: Money)] = []
            for (line, net) in zip(lines, nets) {
                if let index = groups.firstIndex(where: { $0.rate == line.taxRate && $0.category == line.vatCategory }) {
                    groups[index].net = try groups[index].net.adding(net)
                } else {
                    groups.append((line.vatCategory, line.taxRate, net))
                }
            }
            let order = VATCategory.allCases
            groups.sort {
                $0.rate != $1.rate ? $0.rate < $1.rate
                    : (order.firstIndex(of: $0.category) ?? 0) < (order.firstIndex(of: $1.category) ?? 0)
            }

            var discount = Money.zero(currency)
            var discountByRate: [Money] = groups.map { _ in Money.zero(currency) }
            if discountPercent != 0, subtotal.isPositive {
                discount = try subtotal.percentage(discountPercent, rounding: .halfUp)
                let weights = groups.map { max($0.net.decimalValue, 0) }
                if weights.contains(where: { $0 > 0 }) {
                    discountByRate = try discount.allocated(byRatios: weights)
                }
            }

            var taxLines: [TaxLine] = []
            for (index, group) in groups.enumerated() {
                let base = try group.net.subtracting(discountByRate[index])
                let tax = try base.percentage(group.rate, rounding: .halfUp)
                taxLines.append(TaxLine(category: group.category, rate: group.rate, lineNet: group.net,
                                        discount: discountByRate[index], taxableAmount: base, tax: tax))
            }
            let tax = try Money.sum(taxLines.map(\.tax), currency: currency)
            let netTotal = try subtotal.subtracting(discount)
            let total = try netTotal.adding(tax)
            var paid = Money.zero(currency)
            for payment in payments {
                guard payment.amount.currency == currency else {
                    throw InvoiceError.paymentCurrencyMismatch(expected: currency, found: payment.amount.currency)
                }
                paid = try paid.adding(payment.amount)
            }

            self.currency = currency
            self.lineNets = nets
            self.subtotal = subtotal
            self.discount = discount
            self.netTotal = netTotal
            self.taxLines = taxLines
            self.tax = tax
            self.total = total
            let credited = credited ?? .zero(currency)
            guard credited.currency == currency else {
                throw InvoiceError.currencyMismatch(expected: currency, found: credited.currency)
            }
            self.credited = credited
            self.paid = paid
            totalAfterCredits = try total.subtracting(credited)
            self.balanceDue = try totalAfterCredits.subtracting(paid)
        } catch let error as InvoiceError {
            throw error
        } catch {
            throw .amountTooLarge
        }
    }

    /// Totals of an invoice with nothing on it.
    public static func zero(_ currency: Currency) -> InvoiceTotals {
        InvoiceTotals(emptyIn: currency)
    }

    private init(emptyIn currency: Currency) {
        let zero = Money.zero(currency)
        self.currency = currency
        lineNets = []
        subtotal = zero
        discount = zero
        netTotal = zero
        taxLines = []
        tax = zero
        total = zero
        credited = zero
        totalAfterCredits = zero
        paid = zero
        balanceDue = zero
    }
}

extension InvoiceTotals.TaxLine {
    /// How the PDF and the form name the group: "Tax 19 % on €100.00" for a rate, the
    /// category for the others ("Reverse charge on €100.00").
    public func title(rate: String, base: String) -> String {
        category == .standard || category == .zeroRated
            ? String(format: tr("Tax %@ on %@"), rate, base)
            : String(format: tr("%@ on %@"), category.title, base)
    }
}
