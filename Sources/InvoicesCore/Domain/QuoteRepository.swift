import BillfoldCore
import Foundation
import Storage

/// One row of the quote list.
public struct QuoteSummary: Sendable, Hashable, Identifiable {
    public let id: QuoteID
    public let number: String
    public let clientName: String
    public let issueDate: CalendarDay
    public let validUntil: CalendarDay
    public let total: Money
    public let status: QuoteStatus
    public let displayStatus: QuoteDisplayStatus
    public let invoiceID: InvoiceID?
}

/// A document that points at another: the quote an invoice came from, a credit note of an invoice.
public struct DocumentLink: Sendable, Hashable {
    public let number: String
    public let issueDate: CalendarDay
}

/// The sequences that number documents other than invoices. Each has its own pattern in the
/// profile and its own counters, so each runs without gaps.
enum DocumentSequence {
    case quote
    case creditNote

    var table: String {
        switch self {
        case .quote: "invoices_quote"
        case .creditNote: "invoices_credit_note"
        }
    }

    /// Kept apart from the invoices' counters even when the patterns read the same.
    var counterPrefix: String {
        switch self {
        case .quote: "quote:"
        case .creditNote: "credit-note:"
        }
    }

    func pattern(in profile: BusinessProfile) -> InvoiceNumberPattern {
        let text = self == .quote ? profile.quoteNumberPattern : profile.creditNoteNumberPattern
        let fallback = self == .quote ? BusinessProfile.defaultQuotePattern : BusinessProfile.defaultCreditNotePattern
        // A saved profile's pattern was validated; the fallback covers a database edited by hand.
        return (try? InvoiceNumberPattern(text)) ?? (try? InvoiceNumberPattern(fallback)) ?? .standard
    }
}

extension InvoiceRepository {
    /// The next number of `sequence` for a document issued on `day`; with `reserve`, the
    /// counter moves on, inside the caller's transaction, so a failed save gives it back.
    func nextNumber(_ sequence: DocumentSequence, on day: CalendarDay, reserve: Bool) throws -> String {
        let pattern = sequence.pattern(in: try profile())
        let scope = sequence.counterPrefix + pattern.scope(on: day)
        return try database.transaction {
            var counter = try database.queryValue("SELECT last_value FROM invoices_counter WHERE scope = ?", [scope], as: Int.self) ?? 0
            var candidate: String
            repeat {
                counter += 1
                candidate = pattern.number(counter: counter, on: day)
            } while try database.queryValue("SELECT 1 FROM \(sequence.table) WHERE number = ?", [candidate], as: Int.self) != nil
            if reserve {
                try database.execute("INSERT INTO invoices_counter (scope, last_value) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET last_value = excluded.last_value", [scope, counter])
            }
            return candidate
        }
    }

    /// The number the next quote issued on `day` would get; nothing is reserved.
    public func suggestedQuoteNumber(issuedOn day: CalendarDay) throws -> String {
        try nextNumber(.quote, on: day, reserve: false)
    }

    // MARK: - Quotes

    public func quote(_ id: QuoteID) throws -> Quote? {
        guard let row = try database.query(Self.quoteSelect + " WHERE id = ?", [id]).first else { return nil }
        return try loadQuote(row)
    }

    /// The quote with this number, ignoring case (for the command line).
    public func quote(number: String) throws -> Quote? {
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        guard let row = try database.query(Self.quoteSelect + " WHERE number = ?", [trimmed]).first else { return nil }
        return try loadQuote(row)
    }

    /// How many quotes exist, of any status.
    public func quoteCount() throws -> Int {
        try database.queryValue("SELECT count(*) FROM invoices_quote", as: Int.self) ?? 0
    }

    /// Saves a new quote (numbered from the quote pattern) or changes to one. A draft changes
    /// freely; after that only its status moves: sent → accepted or declined, and a declined
    /// or expired one back to draft.
    @discardableResult
    public func save(_ quote: Quote) throws -> Quote {
        let issues = quote.validate()
        guard issues.isEmpty else { throw InvoiceError.invalidQuote(issues) }
        var saved = quote
        let totals = try saved.totals()
        try database.transaction {
            guard let clientID = saved.clientID, try client(clientID) != nil else { throw InvoiceError.clientNotFound }
            if let id = saved.id {
                guard let stored = try self.quote(id) else { throw InvoiceError.quoteNotFound }
                guard stored.revision == saved.revision else { throw InvoiceError.changedSinceLoaded }
                guard Self.quoteCanMove(from: stored.status, to: saved.status) else {
                    throw InvoiceError.quoteTransitionNotAllowed(from: stored.status, to: saved.status)
                }
                if stored.isLocked, saved.isLocked, !saved.hasSameContent(as: stored) { throw InvoiceError.quoteLocked }
                saved.number = stored.number
                // Only converting links an invoice, once.
                saved.invoiceID = stored.invoiceID ?? saved.invoiceID
            } else {
                saved.number = try nextNumber(.quote, on: saved.issueDate, reserve: true)
            }
            saved.revision += 1
            let values: [String: (any SQLBindable)?] = [
                "id": saved.id, "number": saved.number, "client_id": saved.clientID, "issue_date": saved.issueDate,
                "valid_until": saved.validUntil, "currency": saved.currency.code, "discount": saved.discountPercent,
                "notes": saved.notes, "status": saved.status.rawValue, "sent_on": saved.sentOn,
                "invoice_id": saved.invoiceID, "total": totals.total.minorUnits, "amount_key": Self.amountKey(totals.total),
                "updated_at": Date(), "revision": saved.revision,
            ]
            try database.execute("INSERT INTO invoices_quote (id, number, client_id, issue_date, valid_until, currency, discount_percent, notes, status, sent_on, invoice_id, total_minor, amount_key, updated_at, revision) VALUES (:id, :number, :client_id, :issue_date, :valid_until, :currency, :discount, :notes, :status, :sent_on, :invoice_id, :total, :amount_key, :updated_at, :revision) ON CONFLICT (id) DO UPDATE SET client_id = excluded.client_id, issue_date = excluded.issue_date, valid_until = excluded.valid_until, currency = excluded.currency, discount_percent = excluded.discount_percent, notes = excluded.notes, status = excluded.status, sent_on = excluded.sent_on, invoice_id = excluded.invoice_id, total_minor = excluded.total_minor, amount_key = excluded.amount_key, updated_at = excluded.updated_at, revision = excluded.revision", named: values)
            if saved.id == nil { saved.id = QuoteID(database.lastInsertRowID) }
            try database.execute("DELETE FROM invoices_quote_line WHERE quote_id = ?", [saved.id])
            for (position, line) in saved.lines.enumerated() {
                try database.execute("INSERT INTO invoices_quote_line (quote_id, position, description, quantity, unit, unit_price_minor, tax_rate, discount_percent, vat_category, unit_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     [saved.id, position, line.description, line.quantity, line.unit, line.unitPrice.minorUnits,
                                      line.taxRate, line.discountPercent, line.vatCategory.code, line.unitCode.code])
            }
        }
        return saved
    }

    /// Turns an accepted (or a sent, still valid) quote into a draft invoice with its lines,
    /// and links the two. The new invoice counts toward the plan's invoice limit.
    @discardableResult
    public func convertToInvoice(_ id: QuoteID, today: CalendarDay = .today(), plan: InvoicePlan) throws -> Invoice {
        try database.transaction {
            guard var quote = try quote(id) else { throw InvoiceError.quoteNotFound }
            if let invoiceID = quote.invoiceID, let invoice = try invoice(invoiceID) {
                throw InvoiceError.quoteAlreadyConverted(invoiceNumber: invoice.number)
            }
            if quote.status == .sent { try quote.accept(today: today) }
            guard quote.status == .accepted else {
                throw InvoiceError.quoteTransitionNotAllowed(from: quote.status, to: .accepted)
            }
            try plan.checkNewInvoice(existingCount: try invoiceCount())
            guard let clientID = quote.clientID, let client = try client(clientID) else { throw InvoiceError.clientNotFound }
            let invoice = try save(quote.invoiceDraft(for: client, profile: try profile(), today: today))
            quote.invoiceID = invoice.id
            try save(quote)
            return invoice
        }
    }

    /// The quote an invoice was made from, if any.
    public func quote(convertedInto invoiceID: InvoiceID) throws -> (id: QuoteID, link: DocumentLink)? {
        guard let row = try database.query("SELECT id, number, issue_date FROM invoices_quote WHERE invoice_id = ? LIMIT 1", [invoiceID]).first
        else { return nil }
        return (try row[0], DocumentLink(number: try row[1], issueDate: try row[2]))
    }

    /// Every quote's id, newest first: the model of the virtualized quote list.
    public func quoteIDs() throws -> [QuoteID] {
        try database.queryIntegers("SELECT id FROM invoices_quote ORDER BY issue_date DESC, id DESC", named: [:]).map { QuoteID($0) }
    }

    /// The rows for `ids`, in the order given.
    public func quoteSummaries(for ids: [QuoteID], today: CalendarDay = .today()) throws -> [QuoteSummary] {
        guard !ids.isEmpty else { return [] }
        let list = "[" + ids.map(\.description).joined(separator: ",") + "]"
        var byID: [QuoteID: QuoteSummary] = [:]
        try database.query("SELECT q.id, q.number, c.name, q.issue_date, q.valid_until, q.currency, q.total_minor, q.status, q.invoice_id FROM invoices_quote q JOIN invoices_client c ON c.id = q.client_id WHERE q.id IN (SELECT value FROM json_each(?))", [list]) { row in
            let status = try Self.quoteStatus(row, 7)
            let validUntil: CalendarDay = try row[4]
            let summary = QuoteSummary(id: try row[0], number: try row[1], clientName: try row[2], issueDate: try row[3],
                                       validUntil: validUntil,
                                       total: Money(minorUnits: try row[6], currency: try Self.currency(row, 5)),
                                       status: status,
                                       displayStatus: QuoteDisplayStatus(status: status, validUntil: validUntil, today: today),
                                       invoiceID: try row[8])
            byID[summary.id] = summary
        }
        return ids.compactMap { byID[$0] }
    }

    /// Every quote's row, newest first, handed over as read (for the command line).
    public func forEachQuoteSummary(today: CalendarDay = .today(), _ body: (QuoteSummary) throws -> Void) throws {
        let ids = try quoteIDs()
        var start = 0
        while start < ids.count {
            let end = min(ids.count, start + 500)
            for summary in try quoteSummaries(for: Array(ids[start..<end]), today: today) { try body(summary) }
            start = end
        }
    }

    /// The quote with everything its PDF shows.
    public func document(for quote: Quote) throws -> InvoiceDocument {
        var content = quote.invoiceDraftContent()
        if content.number.isEmpty { content.number = try suggestedQuoteNumber(issuedOn: quote.issueDate) }
        let base = try document(for: content)
        return InvoiceDocument(profile: base.profile, invoice: base.invoice, billTo: base.billTo, totals: base.totals,
                               logoURL: base.logoURL,
                               kind: .quote(validUntil: quote.validUntil, status: quote.displayStatus(today: .today())))
    }

    // MARK: - Internals

    private static let quoteSelect = "SELECT id, number, client_id, issue_date, valid_until, currency, discount_percent, notes, status, sent_on, invoice_id, revision FROM invoices_quote"

    private func loadQuote(_ row: Row) throws -> Quote {
        let id: QuoteID = try row[0]
        let currency = try Self.currency(row, 5)
        var quote = Quote(clientID: try row[2], issueDate: try row[3], validUntil: try row[4], currency: currency,
                          discountPercent: try row[6], notes: try row[7])
        quote.id = id
        quote.number = try row[1]
        quote.status = try Self.quoteStatus(row, 8)
        quote.sentOn = try row[9]
        quote.invoiceID = try row[10]
        quote.revision = try row[11]
        try database.query("SELECT description, quantity, unit, unit_price_minor, tax_rate, discount_percent, vat_category, unit_code FROM invoices_quote_line WHERE quote_id = ? ORDER BY position", [id]) { line in
            quote.lines.append(LineItem(
                description: try line[0], quantity: try line[1], unit: try line[2],
                unitPrice: Money(minorUnits: try line[3], currency: currency), taxRate: try line[4],
                discountPercent: try line[5], vatCategory: try Self.vatCategory(line, 6), unitCode: UnitCode(try line[7])))
        }
        return quote
    }

    private static func quoteStatus(_ row: Row, _ index: Int) throws -> QuoteStatus {
        let text: String = try row[index]
        guard let status = QuoteStatus(rawValue: text) else {
            throw DatabaseError.invalidValue(column: "status", text: text, expected: "quote status")
        }
        return status
    }

    private static func quoteCanMove(from old: QuoteStatus, to new: QuoteStatus) -> Bool {
        switch (old, new) {
        case (.draft, .sent), (.sent, .accepted), (.sent, .declined), (.declined, .draft), (.sent, .draft): true
        default: old == new
        }
    }
}

extension Quote {
    /// Whether what the client sees is the same in both.
    func hasSameContent(as other: Quote) -> Bool {
        clientID == other.clientID && issueDate == other.issueDate && validUntil == other.validUntil
            && currency == other.currency && lines == other.lines && discountPercent == other.discountPercent
            && notes == other.notes
    }

    /// The quote as invoice-shaped content: for the PDF (as sent), or for the form (as a draft).
    public func invoiceDraftContent(status: InvoiceStatus = .sent) -> Invoice {
        var content = Invoice(number: number, clientID: clientID, issueDate: issueDate, dueDate: validUntil,
                              currency: currency, lines: lines, discountPercent: discountPercent, notes: notes)
        content.status = status
        return content
    }
}
