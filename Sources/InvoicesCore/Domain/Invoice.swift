import BillfoldCore
import Foundation

/// An invoice as a value: edit a copy, then hand it to `InvoiceRepository.save`, which checks
/// the rules again against what is stored. Status, payments and the bill-to snapshot change
/// only through the methods below, so an invoice cannot reach a state the rules forbid.
public struct Invoice: Sendable, Hashable {
    /// Nil until saved.
    public internal(set) var id: InvoiceID?
    /// Empty means "take the next number from the pattern when first saved"; while a draft, it
    /// can be changed to any number no other invoice has had.
    public var number: String
    public var clientID: ClientID?
    public var issueDate: CalendarDay
    public var dueDate: CalendarDay
    public var currency: Currency
    public var lines: [LineItem]
    /// Per cent off the whole invoice, spread over the tax rates (see `InvoiceTotals`).
    public var discountPercent: Decimal
    /// Printed on the invoice.
    public var notes: String
    /// The client's reference for the invoice (BT-10), e.g. a German authority's Leitweg-ID.
    public var buyerReference: String
    /// The client's purchase order number (BT-13).
    public var purchaseOrderReference: String
    /// The day the work was delivered (BT-72), or the first day of the period (BT-73).
    public var deliveryDate: CalendarDay?
    /// With it, the delivery is the period from `deliveryDate` to this day (BT-74).
    public var deliveryEndDate: CalendarDay?
    /// Why lines marked exempt carry no VAT, e.g. the law that exempts them; printed and sent.
    public var exemptionReason: String
    public internal(set) var status: InvoiceStatus
    /// The day it was marked as sent.
    public internal(set) var sentOn: CalendarDay?
    public internal(set) var payments: [Payment]
    /// The client's details as printed when the invoice was sent; nil for a draft, which
    /// always shows the client as it is now.
    public internal(set) var billTo: BillTo?
    /// How many times it was saved; a save from an older copy is refused.
    public internal(set) var revision: Int
    /// The sum of its credit notes' totals, in minor units of `currency`; only issuing a credit
    /// note changes it (`InvoiceRepository.issue(_:)`).
    public internal(set) var creditedMinorUnits: Int64

    public init(number: String = "", clientID: ClientID?, issueDate: CalendarDay, dueDate: CalendarDay,
                currency: Currency, lines: [LineItem] = [], discountPercent: Decimal = 0, notes: String = "") {
        self.id = nil
        self.number = number
        self.clientID = clientID
        self.issueDate = issueDate
        self.dueDate = dueDate
        self.currency = currency
        self.lines = lines
        self.discountPercent = discountPercent
        self.notes = notes
        self.buyerReference = ""
        self.purchaseOrderReference = ""
        self.deliveryDate = nil
        self.deliveryEndDate = nil
        self.exemptionReason = ""
        self.status = .draft
        self.sentOn = nil
        self.payments = []
        self.billTo = nil
        self.revision = 0
        self.creditedMinorUnits = 0
    }

    /// A new draft for `client`: its currency and terms (or the profile's), the profile's
    /// default notes, issued `today`. The number is assigned when it is first saved.
    public static func draft(for client: Client, profile: BusinessProfile, today: CalendarDay) -> Invoice {
        var invoice = Invoice(clientID: client.id, issueDate: today,
                              dueDate: InvoiceRules.dueDate(issuedOn: today, termsDays: client.paymentTerms(default: profile)),
                              currency: client.currency, notes: profile.defaultNotes)
        invoice.buyerReference = client.buyerReference
        invoice.exemptionReason = profile.defaultExemptionReason
        return invoice
    }

    /// A draft line with the profile's tax rate and VAT category and a zero price in the invoice's currency.
    public func newLine(profile: BusinessProfile) -> LineItem {
        let category = profile.defaultVATCategory
        return LineItem(description: "", quantity: 1, unit: UnitCode.hour.word, unitPrice: .zero(currency),
                        taxRate: category.hasRate ? profile.defaultTaxRate : 0, vatCategory: category, unitCode: .hour)
    }

    /// The VAT categories of its lines, each once, in the order of `VATCategory.allCases`.
    public var vatCategories: [VATCategory] {
        // One pass over the lines, not one per category: an invoice may have thousands.
        var present = Set<VATCategory>()
        for line in lines {
            present.insert(line.vatCategory)
            if present.count == VATCategory.allCases.count { break }
        }
        return VATCategory.allCases.filter(present.contains)
    }

    // MARK: - Amounts and status

    public func totals() throws(InvoiceError) -> InvoiceTotals {
        try InvoiceTotals(lines: lines, discountPercent: discountPercent, payments: payments, currency: currency,
                          credited: Money(minorUnits: creditedMinorUnits, currency: currency))
    }

    /// The badge to show `today`: overdue when sent, past due and not fully paid.
    public func displayStatus(today: CalendarDay) -> InvoiceDisplayStatus {
        let balance = (try? totals().balanceDue) ?? .zero(currency)
        return InvoiceDisplayStatus(status: status, dueDate: dueDate, balance: balance, today: today)
    }

    /// Once sent, nothing the client received changes: number, client, currency, dates, lines,
    /// discount, notes and the e-invoice details (references, delivery, exemption reason). A
    /// credit note corrects or cancels it instead.
    public var isLocked: Bool { status != .draft }

    /// Only an invoice that was never sent can be deleted; one that was is corrected or
    /// cancelled by a credit note, so its number and amounts stay on record.
    public var canBeDeleted: Bool { sentOn == nil && status != .sent && status != .paid }

    /// The locked fields this invoice changes compared with `stored`; empty when `stored` is a
    /// draft or nothing locked changed.
    public func lockedChanges(comparedTo stored: Invoice) -> [LockedField] {
        guard stored.isLocked else { return [] }
        var changed: [LockedField] = []
        if number != stored.number { changed.append(.number) }
        if clientID != stored.clientID { changed.append(.client) }
        if currency != stored.currency { changed.append(.currency) }
        if issueDate != stored.issueDate { changed.append(.issueDate) }
        if dueDate != stored.dueDate { changed.append(.dueDate) }
        if notes != stored.notes { changed.append(.notes) }
        if lines != stored.lines { changed.append(.lines) }
        if discountPercent != stored.discountPercent { changed.append(.discount) }
        if buyerReference != stored.buyerReference || purchaseOrderReference != stored.purchaseOrderReference
            || deliveryDate != stored.deliveryDate || deliveryEndDate != stored.deliveryEndDate
            || exemptionReason != stored.exemptionReason {
            changed.append(.eInvoiceDetails)
        }
        return changed
    }

    // MARK: - Validation

    public static let maximumNumberLength = 64
    public static let maximumNotesLength = 100_000
    public static let maximumReferenceLength = 200

    /// Everything that keeps the invoice from being saved, each tied to its field; empty when
    /// it can be saved. A draft may have no lines yet; sending needs one.
    public func validate() -> [ValidationIssue<InvoiceField>] {
        var issues: [ValidationIssue<InvoiceField>] = []
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        if trimmed.count > Self.maximumNumberLength {
            issues.append(.init(.number, tr("Shorten the invoice number to at most 64 characters.")))
        } else if number.contains(where: { $0.isNewline || $0 == "\t" }) {
            issues.append(.init(.number, tr("The invoice number must fit on one line.")))
        } else if !number.isEmpty, trimmed.isEmpty {
            issues.append(.init(.number, tr("Enter an invoice number, or leave it empty to number it automatically.")))
        }
        if clientID == nil {
            issues.append(.init(.client, tr("Choose who the invoice is for.")))
        }
        if dueDate < issueDate {
            issues.append(.init(.dueDate, tr("The due date cannot be before the issue date.")))
        }
        if let problem = Discount.problem(discountPercent) {
            issues.append(.init(.discount, problem))
        }
        if notes.count > Self.maximumNotesLength {
            issues.append(.init(.notes, tr("Shorten the notes to at most 100 000 characters.")))
        }
        for (field, text) in [(InvoiceField.buyerReference, buyerReference), (.purchaseOrder, purchaseOrderReference)]
        where text.count > Self.maximumReferenceLength || text.contains(where: \.isNewline) {
            issues.append(.init(field, tr("Keep a reference on one line of at most 200 characters.")))
        }
        if exemptionReason.count > Self.maximumReferenceLength * 5 {
            issues.append(.init(.exemptionReason, tr("Shorten the exemption reason to at most 1 000 characters.")))
        }
        if let end = deliveryEndDate {
            if let start = deliveryDate {
                if end < start { issues.append(.init(.delivery, tr("The delivery period cannot end before it starts."))) }
            } else {
                issues.append(.init(.delivery, tr("Enter the first day of the delivery period.")))
            }
        }
        for (index, line) in lines.enumerated() {
            issues += line.validate(index: index, currency: currency)
        }
        for (index, payment) in payments.enumerated() where payment.amount.currency != currency {
            issues.append(.init(.payment(index), String(format: tr("Enter the payment in %@, the invoice’s currency."), currency.code)))
        }
        if issues.isEmpty {
            do {
                _ = try totals()
            } catch {
                issues.append(.init(.total, error.localizedDescription))
            }
        }
        return issues
    }

    // MARK: - Status changes

    /// Draft → sent on `day`. The invoice must be valid and have at least one line. A sent
    /// invoice with nothing to pay (a total of zero) is paid at once: balance 0 means paid.
    public mutating func markSent(on day: CalendarDay) throws(InvoiceError) {
        guard status == .draft else { throw .transitionNotAllowed(from: status, to: .sent) }
        guard !lines.isEmpty else { throw .nothingToSend }
        let issues = validate()
        guard issues.isEmpty else { throw .invalidInvoice(issues) }
        status = .sent
        sentOn = day
        try settleIfPaid()
    }

    /// Records money received. Only a sent invoice takes payments, each above zero and at most
    /// the balance still due; the one that brings the balance to zero marks it paid.
    public mutating func recordPayment(_ amount: Money, on date: CalendarDay, note: String = "") throws(InvoiceError) {
        guard status == .sent else { throw .paymentNeedsSentInvoice(status) }
        guard amount.currency == currency else {
            throw .paymentCurrencyMismatch(expected: currency, found: amount.currency)
        }
        guard amount.isPositive else { throw .paymentNotPositive }
        let balance = try totals().balanceDue
        guard amount.minorUnits <= balance.minorUnits else { throw .overpayment(balance: balance) }
        payments.append(Payment(date: date, amount: amount, note: note))
        try settleIfPaid()
    }

    /// Records money paid back to the client, at most the refund due (credit notes took off
    /// more than was still owed). It is kept as a payment below zero, so the balance and what
    /// was received net of it stay sums of the payments; the status does not change.
    public mutating func recordRefund(_ amount: Money, on date: CalendarDay, note: String = "") throws(InvoiceError) {
        guard amount.currency == currency else {
            throw .paymentCurrencyMismatch(expected: currency, found: amount.currency)
        }
        guard let due = try totals().refundDue else { throw .noRefundDue }
        guard amount.isPositive else { throw .refundNotPositive }
        guard amount.minorUnits <= due.minorUnits else { throw .overRefund(due: due) }
        do {
            payments.append(Payment(date: date, amount: try amount.negated(), note: note))
        } catch {
            throw .amountTooLarge
        }
    }

    /// Records a payment of whatever is still due, on `date`, and marks the invoice paid.
    public mutating func markPaid(on date: CalendarDay, note: String = "") throws(InvoiceError) {
        guard status == .sent else { throw .transitionNotAllowed(from: status, to: .paid) }
        let balance = try totals().balanceDue
        if balance.isPositive {
            try recordPayment(balance, on: date, note: note)
        } else {
            status = .paid
        }
    }

    /// Paid → sent again, for an invoice marked paid by mistake. The payment that settled it is
    /// removed: the books must not show money that did not arrive, and a sent invoice with
    /// nothing owed would be paid again at once. Earlier part payments stay. Returns the
    /// removed payment; an invoice paid without any (a total of zero) cannot be reopened.
    @discardableResult
    public mutating func reopen() throws(InvoiceError) -> Payment {
        // After a refund the last entry is money going back: it settled nothing.
        guard status == .paid, let settling = payments.last, settling.amount.isPositive else {
            throw .transitionNotAllowed(from: status, to: .sent)
        }
        payments.removeLast()
        status = .sent
        return settling
    }

    /// Removes a payment recorded by mistake; a paid invoice that now owes money is sent again.
    public mutating func removePayment(at index: Int) throws(InvoiceError) {
        guard payments.indices.contains(index) else { throw .noSuchPayment(index) }
        guard status == .sent || status == .paid else { throw .paymentNeedsSentInvoice(status) }
        payments.remove(at: index)
        if status == .paid, try totals().balanceDue.isPositive {
            status = .sent
        }
    }

    /// Cancels a draft or a sent invoice. It keeps its number and payments and stays in the
    /// list, marked cancelled; a paid invoice cannot be cancelled. The repository saves a sent
    /// one as cancelled only through a credit note for all of it (`applyCredit`).
    public mutating func cancel() throws(InvoiceError) {
        guard status.canBecome(.cancelled), status != .cancelled else {
            throw .transitionNotAllowed(from: status, to: .cancelled)
        }
        status = .cancelled
    }

    /// A new draft with the same client, lines, discount and notes, issued `today` with the
    /// same number of days to pay; it gets a new number when saved, and no payments.
    public func duplicated(today: CalendarDay) -> Invoice {
        let terms = max(0, issueDate.days(to: dueDate))
        var copy = Invoice(clientID: clientID, issueDate: today, dueDate: today.adding(days: terms),
                           currency: currency, lines: lines, discountPercent: discountPercent, notes: notes)
        copy.buyerReference = buyerReference
        copy.exemptionReason = exemptionReason
        return copy
    }

    /// Takes a credit note's total off the balance. Crediting everything left cancels the
    /// invoice; a credit that, with the payments, leaves nothing owed settles it as paid.
    public mutating func applyCredit(_ amount: Money, creditsEverything: Bool) throws(InvoiceError) {
        guard status == .sent || status == .paid else { throw .creditNeedsSentInvoice(status) }
        guard amount.currency == currency else { throw .currencyMismatch(expected: currency, found: amount.currency) }
        let (sum, overflow) = creditedMinorUnits.addingReportingOverflow(amount.minorUnits)
        guard !overflow else { throw .amountTooLarge }
        creditedMinorUnits = sum
        if creditsEverything {
            status = .cancelled
        } else {
            try settleIfPaid()
        }
    }

    private mutating func settleIfPaid() throws(InvoiceError) {
        if status == .sent, try !totals().balanceDue.isPositive {
            status = .paid
        }
    }
}

/// Rules that need more than one invoice.
public enum InvoiceRules {
    /// The due date for terms of `termsDays` days.
    public static func dueDate(issuedOn issueDate: CalendarDay, termsDays: Int) -> CalendarDay {
        issueDate.adding(days: max(0, termsDays))
    }

    /// Whether one more invoice may be created when `existingCount` exist and the tier allows
    /// at most `limit` (nil: unlimited).
    public static func canCreateInvoice(existingCount: Int, limit: Int?) -> Bool {
        guard let limit else { return true }
        return existingCount < limit
    }
}
