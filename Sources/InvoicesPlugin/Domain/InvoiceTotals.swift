import BillfoldCore
import Foundation

/// An invoice's amounts, exact to the minor unit, worked out the way tax authorities expect:
///
/// 1. Each line's net is quantity × unit price less its discount, rounded half-up **once**.
/// 2. The subtotal is the sum of the line nets.
/// 3. The invoice discount is the discount per cent of the subtotal, rounded half-up once, then
///    split across the tax rates in proportion to each rate's net (largest remainder, so the
///    parts add up to the discount exactly). A 10 % discount thus lowers every rate's base by
///    about 10 %, and the tax is charged on what the client really pays.
/// 4. For each rate, the tax is the rate applied to that rate's discounted net, summed over
///    all its lines first and rounded half-up once. Three lines of 0.05 at 7 % give 0.01 tax
///    (7 % of 0.15), not 0.00 (three times 7 % of 0.05).
/// 5. Total = subtotal − discount + Σ tax; balance due = total − payments.
public struct InvoiceTotals: Sendable, Hashable {
    /// One rate's part of the invoice.
    public struct TaxLine: Sendable, Hashable {
        /// Per cent.
        public let rate: Decimal
        /// The lines' nets at this rate, after its share of the invoice discount.
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
    /// One per distinct rate, lowest rate first; rates with no lines are left out.
    public let taxLines: [TaxLine]
    public let tax: Money
    public let total: Money
    public let paid: Money
    public let balanceDue: Money

    public init(lines: [LineItem], discountPercent: Decimal, payments: [Payment], currency: Currency) throws(InvoiceError) {
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
            var groups: [(rate: Decimal, net: Money)] = []
            for (line, net) in zip(lines, nets) {
                if let index = groups.firstIndex(where: { $0.rate == line.taxRate }) {
                    groups[index].net = try groups[index].net.adding(net)
                } else {
                    groups.append((line.taxRate, net))
                }
            }
            groups.sort { $0.rate < $1.rate }

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
                taxLines.append(TaxLine(rate: group.rate, taxableAmount: base, tax: tax))
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
            self.paid = paid
            self.balanceDue = try total.subtracting(paid)
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
        paid = zero
        balanceDue = zero
    }
}
