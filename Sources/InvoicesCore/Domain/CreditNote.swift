import BillfoldCore
import Foundation

/// How much of one invoice line a credit note takes back.
public struct CreditedLine: Sendable, Hashable {
    /// The line's index on the invoice.
    public let invoiceLine: Int
    public let quantity: Decimal

    public init(invoiceLine: Int, quantity: Decimal) {
        self.invoiceLine = invoiceLine
        self.quantity = quantity
    }
}

/// An amount a credit note takes off without taking anything back, e.g. a price reduction for
/// a late delivery: a net amount taxed as one of the invoice's VAT groups. The invoice's
/// discount applies to it as to its lines.
public struct CreditedAmount: Sendable, Hashable {
    public let description: String
    public let net: Money
    public let vatCategory: VATCategory
    /// Per cent.
    public let taxRate: Decimal

    public init(description: String, net: Money, vatCategory: VATCategory, taxRate: Decimal) {
        self.description = description
        self.net = net
        self.vatCategory = vatCategory
        self.taxRate = taxRate
    }

    /// The line it is on the credit note: one lump sum.
    var lineItem: LineItem {
        LineItem(description: description, quantity: 1, unitPrice: net, taxRate: taxRate, vatCategory: vatCategory,
                 unitCode: .lumpSum)
    }
}

/// A credit note: the document that corrects or cancels a sent invoice, which itself never
/// changes. It takes back chosen quantities of the invoice's lines, at the invoice's prices,
/// tax and discount, so its amounts follow from the invoice's; and it may take off amounts
/// in the invoice's VAT groups. It is issued once, numbered from a sequence of its own
/// without gaps, and never edited or deleted.
public struct CreditNote: Sendable, Hashable {
    public internal(set) var id: CreditNoteID?
    /// Empty until issued.
    public internal(set) var number: String
    public let invoiceID: InvoiceID
    public var issueDate: CalendarDay
    /// Why, printed on it, e.g. "Two hours were billed twice".
    public var reason: String
    public var lines: [CreditedLine]
    public var amounts: [CreditedAmount]

    public init(invoiceID: InvoiceID, issueDate: CalendarDay, reason: String = "", lines: [CreditedLine],
                amounts: [CreditedAmount] = []) {
        id = nil
        number = ""
        self.invoiceID = invoiceID
        self.issueDate = issueDate
        self.reason = reason
        self.lines = lines
        self.amounts = amounts
    }

    /// A credit note for everything of `invoice` not yet credited by `earlier` notes.
    public static func full(of invoice: Invoice, after earlier: [CreditNote], on day: CalendarDay,
                            reason: String = "") -> CreditNote {
        let remaining = remainingQuantities(of: invoice, after: earlier)
        let lines = remaining.enumerated().filter { $0.element > 0 }
            .map { CreditedLine(invoiceLine: $0.offset, quantity: $0.element) }
        return CreditNote(invoiceID: invoice.id ?? InvoiceID(0), issueDate: day, reason: reason, lines: lines)
    }

    /// Per invoice line, the quantity `earlier` notes have not yet credited.
    public static func remainingQuantities(of invoice: Invoice, after earlier: [CreditNote]) -> [Decimal] {
        var remaining = invoice.lines.map(\.quantity)
        for note in earlier {
            for line in note.lines where remaining.indices.contains(line.invoiceLine) {
                remaining[line.invoiceLine] -= line.quantity
            }
        }
        return remaining
    }

    /// The credit note as invoice-shaped content for its PDF and e-invoice: the credited
    /// lines at the invoice's prices, then the amounts, with the invoice's client, currency,
    /// discount and references, under the credit note's own number and date.
    public func content(of invoice: Invoice) -> Invoice {
        var body = Invoice(number: number, clientID: invoice.clientID, issueDate: issueDate, dueDate: issueDate,
                           currency: invoice.currency, discountPercent: invoice.discountPercent, notes: reason)
        body.lines = lines.compactMap { credited in
            guard invoice.lines.indices.contains(credited.invoiceLine) else { return nil }
            var line = invoice.lines[credited.invoiceLine]
            line.quantity = credited.quantity
            return line
        } + amounts.map(\.lineItem)
        body.buyerReference = invoice.buyerReference
        body.purchaseOrderReference = invoice.purchaseOrderReference
        body.exemptionReason = invoice.exemptionReason
        body.deliveryDate = invoice.deliveryDate
        body.deliveryEndDate = invoice.deliveryEndDate
        body.status = .sent
        body.sentOn = issueDate
        body.billTo = invoice.billTo
        return body
    }

    public func totals(of invoice: Invoice) throws(InvoiceError) -> InvoiceTotals {
        try content(of: invoice).totals()
    }

    /// Checks the note against `invoice` and the notes issued for it before: the invoice was
    /// sent and is not cancelled; each line credits more than zero and at most what is left;
    /// each amount is above zero in one of the invoice's VAT groups; and no group is credited
    /// more, in all, than it was billed.
    public func check(against invoice: Invoice, after earlier: [CreditNote]) throws(InvoiceError) {
        guard invoice.status == .sent || invoice.status == .paid else { throw .creditNeedsSentInvoice(invoice.status) }
        guard !lines.isEmpty || !amounts.isEmpty, lines.allSatisfy({ $0.quantity > 0 }) else { throw .creditNoteEmpty }
        var remaining = Self.remainingQuantities(of: invoice, after: earlier)
        for line in lines {
            guard remaining.indices.contains(line.invoiceLine) else { throw .creditNoteEmpty }
            guard line.quantity <= remaining[line.invoiceLine] else {
                throw .creditTooLarge(line: line.invoiceLine,
                                      remaining: NumberFormatting().string(from: max(0, remaining[line.invoiceLine])))
            }
            remaining[line.invoiceLine] -= line.quantity
        }
        if reason.count > Invoice.maximumNotesLength {
            throw .invalidInvoice([.init(.notes, tr("Shorten the reason to at most 100 000 characters."))])
        }
        try checkAmounts(against: invoice, after: earlier)
    }

    private func checkAmounts(against invoice: Invoice, after earlier: [CreditNote]) throws(InvoiceError) {
        // Quantities alone never take off more than was billed; their checks above suffice.
        guard !(earlier + [self]).allSatisfy({ $0.amounts.isEmpty }) else { return }
        let billed = try invoice.totals().taxLines
        for amount in amounts {
            let description = amount.description.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !description.isEmpty, description.count <= LineItem.maximumDescriptionLength else {
                throw .creditAmountDescription
            }
            guard amount.net.currency == invoice.currency else {
                throw .currencyMismatch(expected: invoice.currency, found: amount.net.currency)
            }
            guard amount.net.isPositive else { throw .creditAmountNotPositive }
        }
        // Per VAT group, what the notes take off before the discount: at most what was billed.
        var left: [VATGroup: Money] = [:]
        for group in billed { left[VATGroup(group)] = group.lineNet }
        for note in earlier {
            for group in try note.totals(of: invoice).taxLines {
                guard let rest = left[VATGroup(group)] else { continue }
                do { left[VATGroup(group)] = try rest.subtracting(group.lineNet) } catch { throw .amountTooLarge }
            }
        }
        for group in try totals(of: invoice).taxLines {
            guard let rest = left[VATGroup(group)] else { throw .creditAmountGroupNotBilled }
            if group.lineNet.minorUnits > rest.minorUnits {
                throw .creditExceedsGroup(category: group.category, rate: group.rate,
                                          left: rest.isNegative ? .zero(invoice.currency) : rest)
            }
        }
    }

    private struct VATGroup: Hashable {
        let category: VATCategory
        let rate: Decimal

        init(_ line: InvoiceTotals.TaxLine) {
            category = line.category
            rate = line.rate
        }
    }

    /// Whether, with this note, nothing of `invoice` is left to credit.
    public func creditsEverything(of invoice: Invoice, after earlier: [CreditNote]) -> Bool {
        Self.remainingQuantities(of: invoice, after: earlier + [self]).allSatisfy { $0 <= 0 }
    }
}
