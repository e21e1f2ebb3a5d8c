import BillfoldCore
import Foundation

/// The status a quote is saved with. Expired is not one of them: it follows from the validity
/// date, as overdue does for invoices (see `QuoteDisplayStatus`).
public enum QuoteStatus: String, Sendable, Hashable, CaseIterable {
    case draft
    case sent
    case accepted
    case declined

    public var title: String {
        switch self {
        case .draft: tr("Draft")
        case .sent: tr("Sent")
        case .accepted: tr("Accepted")
        case .declined: tr("Declined")
        }
    }
}

/// What a quote's badge shows: its status, with a sent quote past its validity date shown as expired.
public enum QuoteDisplayStatus: String, Sendable, Hashable, CaseIterable {
    case draft
    case sent
    case expired
    case accepted
    case declined

    public init(status: QuoteStatus, validUntil: CalendarDay, today: CalendarDay) {
        switch status {
        case .draft: self = .draft
        case .sent: self = validUntil < today ? .expired : .sent
        case .accepted: self = .accepted
        case .declined: self = .declined
        }
    }

    public var title: String {
        switch self {
        case .draft: tr("Draft")
        case .sent: tr("Sent")
        case .expired: tr("Expired")
        case .accepted: tr("Accepted")
        case .declined: tr("Declined")
        }
    }

    /// The badge's colour in the terms invoices use.
    public var tone: InvoiceDisplayStatus.Tone {
        switch self {
        case .draft: .neutral
        case .sent: .accent
        case .expired: .warning
        case .accepted: .success
        case .declined: .dimmed
        }
    }
}

/// A quote (estimate) as a value: edit a copy while it is a draft, then hand it to
/// `InvoiceRepository.save(_:)`. Its number comes from the profile's quote pattern when first
/// saved, from a sequence of its own without gaps; a quote is never deleted, it is declined.
public struct Quote: Sendable, Hashable {
    public internal(set) var id: QuoteID?
    /// Empty until first saved.
    public internal(set) var number: String
    public var clientID: ClientID?
    public var issueDate: CalendarDay
    /// The last day the client can accept it.
    public var validUntil: CalendarDay
    public var currency: Currency
    public var lines: [LineItem]
    public var discountPercent: Decimal
    public var notes: String
    public internal(set) var status: QuoteStatus
    public internal(set) var sentOn: CalendarDay?
    /// The invoice it became, once converted.
    public internal(set) var invoiceID: InvoiceID?
    public internal(set) var revision: Int

    public static let defaultValidityDays = 30

    public init(clientID: ClientID?, issueDate: CalendarDay, validUntil: CalendarDay, currency: Currency,
                lines: [LineItem] = [], discountPercent: Decimal = 0, notes: String = "") {
        id = nil
        number = ""
        self.clientID = clientID
        self.issueDate = issueDate
        self.validUntil = validUntil
        self.currency = currency
        self.lines = lines
        self.discountPercent = discountPercent
        self.notes = notes
        status = .draft
        sentOn = nil
        invoiceID = nil
        revision = 0
    }

    /// A new draft for `client` in its currency, issued `today` and valid for 30 days.
    public static func draft(for client: Client, today: CalendarDay) -> Quote {
        Quote(clientID: client.id, issueDate: today, validUntil: today.adding(days: defaultValidityDays),
              currency: client.currency)
    }

    public func totals() throws(InvoiceError) -> InvoiceTotals {
        try InvoiceTotals(lines: lines, discountPercent: discountPercent, payments: [], currency: currency)
    }

    public func displayStatus(today: CalendarDay) -> QuoteDisplayStatus {
        QuoteDisplayStatus(status: status, validUntil: validUntil, today: today)
    }

    /// Only a draft changes; a sent quote is what the client has.
    public var isLocked: Bool { status != .draft }

    /// What keeps it from being saved, each tied to its field (the invoice's fields, with the
    /// due date standing for the validity date).
    public func validate() -> [ValidationIssue<InvoiceField>] {
        var issues: [ValidationIssue<InvoiceField>] = []
        if clientID == nil { issues.append(.init(.client, tr("Choose who the quote is for."))) }
        if validUntil < issueDate {
            issues.append(.init(.dueDate, tr("The quote cannot be valid until a day before it was issued.")))
        }
        if let problem = Discount.problem(discountPercent) { issues.append(.init(.discount, problem)) }
        if notes.count > Invoice.maximumNotesLength {
            issues.append(.init(.notes, tr("Shorten the notes to at most 100 000 characters.")))
        }
        for (index, line) in lines.enumerated() { issues += line.validate(index: index, currency: currency) }
        if issues.isEmpty {
            do { _ = try totals() } catch { issues.append(.init(.total, error.localizedDescription)) }
        }
        return issues
    }

    // MARK: - Status changes

    /// Draft → sent on `day`; it needs a line.
    public mutating func markSent(on day: CalendarDay) throws(InvoiceError) {
        guard status == .draft else { throw .quoteTransitionNotAllowed(from: status, to: .sent) }
        guard !lines.isEmpty else { throw .nothingToSend }
        let issues = validate()
        guard issues.isEmpty else { throw .invalidQuote(issues) }
        status = .sent
        sentOn = day
    }

    /// The client said yes, while the quote was still valid on `today`.
    public mutating func accept(today: CalendarDay) throws(InvoiceError) {
        guard status == .sent else { throw .quoteTransitionNotAllowed(from: status, to: .accepted) }
        guard validUntil >= today else { throw .quoteExpired }
        status = .accepted
    }

    public mutating func decline() throws(InvoiceError) {
        guard status == .sent else { throw .quoteTransitionNotAllowed(from: status, to: .declined) }
        status = .declined
    }

    /// A declined or expired quote goes back to draft, keeping its number, to be changed and
    /// sent again; an expired one is given the same number of days of validity from `today`.
    public mutating func reopen(today: CalendarDay) throws(InvoiceError) {
        let expired = displayStatus(today: today) == .expired
        guard status == .declined || expired else { throw .quoteTransitionNotAllowed(from: status, to: .draft) }
        if expired || validUntil < today {
            let days = max(1, issueDate.days(to: validUntil))
            issueDate = today
            validUntil = today.adding(days: days)
        }
        status = .draft
        sentOn = nil
    }

    /// The draft invoice an accepted quote becomes: its client, lines, discount and notes,
    /// issued `today` and due after the client's terms. The repository links the two.
    public func invoiceDraft(for client: Client, profile: BusinessProfile, today: CalendarDay) -> Invoice {
        var invoice = Invoice.draft(for: client, profile: profile, today: today)
        invoice.currency = currency
        invoice.lines = lines
        invoice.discountPercent = discountPercent
        if !notes.isEmpty { invoice.notes = notes }
        return invoice
    }
}
