import BillfoldCore
import Foundation
import Storage

/// One row of the credit note list.
public struct CreditNoteSummary: Sendable, Hashable, Identifiable {
    public let id: CreditNoteID
    public let number: String
    public let invoiceID: InvoiceID
    public let invoiceNumber: String
    public let clientName: String
    public let issueDate: CalendarDay
    public let total: Money
}

extension InvoiceRepository {
    /// Issues a credit note for a sent invoice: checks it against what earlier notes took
    /// back, gives it the next credit note number and takes its total off the invoice's
    /// balance, all in one transaction. Crediting everything left cancels the invoice.
    @discardableResult
    public func issue(_ note: CreditNote) throws -> CreditNote {
        try database.transaction {
            guard var invoice = try invoice(note.invoiceID) else { throw InvoiceError.invoiceNotFound }
            let earlier = try creditNotes(forInvoice: note.invoiceID)
            try note.check(against: invoice, after: earlier)
            var issued = note
            issued.reason = note.reason.trimmingCharacters(in: .whitespacesAndNewlines)
            issued.number = try nextNumber(.creditNote, on: note.issueDate, reserve: true)
            let total = try issued.totals(of: invoice).total
            try database.execute("INSERT INTO invoices_credit_note (number, invoice_id, issue_date, reason, currency, total_minor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 [issued.number, issued.invoiceID, issued.issueDate, issued.reason, invoice.currency.code,
                                  total.minorUnits, Date()])
            issued.id = CreditNoteID(database.lastInsertRowID)
            for (position, line) in issued.lines.enumerated() {
                try database.execute("INSERT INTO invoices_credit_note_line (credit_note_id, position, invoice_line, quantity) VALUES (?, ?, ?, ?)",
                                     [issued.id, position, line.invoiceLine, line.quantity])
            }
            issued.amounts = note.amounts.map { amount in
                CreditedAmount(description: amount.description.trimmingCharacters(in: .whitespacesAndNewlines), net: amount.net,
                               vatCategory: amount.vatCategory, taxRate: amount.taxRate)
            }
            for (position, amount) in issued.amounts.enumerated() {
                try database.execute("INSERT INTO invoices_credit_note_amount (credit_note_id, position, description, net_minor, vat_category, tax_rate) VALUES (?, ?, ?, ?, ?, ?)",
                                     [issued.id, position, amount.description, amount.net.minorUnits, amount.vatCategory.code,
                                      amount.taxRate])
            }
            try invoice.applyCredit(total, creditsEverything: issued.creditsEverything(of: invoice, after: earlier))
            invoice.revision += 1
            try writeInvoice(invoice, totals: try invoice.totals(), clientName: "", insertID: nil)
            return issued
        }
    }

    public func creditNote(_ id: CreditNoteID) throws -> CreditNote? {
        guard let row = try database.query(Self.creditNoteSelect + " WHERE id = ?", [id]).first else { return nil }
        return try loadCreditNote(row)
    }

    /// The credit note with this number, ignoring case (for the command line).
    public func creditNote(number: String) throws -> CreditNote? {
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        guard let row = try database.query(Self.creditNoteSelect + " WHERE number = ?", [trimmed]).first else { return nil }
        return try loadCreditNote(row)
    }

    /// An invoice's credit notes, oldest first.
    public func creditNotes(forInvoice id: InvoiceID) throws -> [CreditNote] {
        try database.query(Self.creditNoteSelect + " WHERE invoice_id = ? ORDER BY id", [id]).map(loadCreditNote)
    }

    /// The number the next credit note issued on `day` would get; nothing is reserved.
    public func suggestedCreditNoteNumber(issuedOn day: CalendarDay) throws -> String {
        try nextNumber(.creditNote, on: day, reserve: false)
    }

    /// Every credit note's id, newest first: the model of the virtualized list.
    public func creditNoteIDs() throws -> [CreditNoteID] {
        try database.queryIntegers("SELECT id FROM invoices_credit_note ORDER BY issue_date DESC, id DESC", named: [:])
            .map { CreditNoteID($0) }
    }

    public func creditNoteCount() throws -> Int {
        try database.queryValue("SELECT count(*) FROM invoices_credit_note", as: Int.self) ?? 0
    }

    /// The rows for `ids`, in the order given.
    public func creditNoteSummaries(for ids: [CreditNoteID]) throws -> [CreditNoteSummary] {
        guard !ids.isEmpty else { return [] }
        let list = "[" + ids.map(\.description).joined(separator: ",") + "]"
        var byID: [CreditNoteID: CreditNoteSummary] = [:]
        try database.query("SELECT n.id, n.number, n.invoice_id, i.number, coalesce(i.bill_to_name, c.name), n.issue_date, n.currency, n.total_minor FROM invoices_credit_note n JOIN invoices_invoice i ON i.id = n.invoice_id JOIN invoices_client c ON c.id = i.client_id WHERE n.id IN (SELECT value FROM json_each(?))", [list]) { row in
            let summary = CreditNoteSummary(id: try row[0], number: try row[1], invoiceID: try row[2], invoiceNumber: try row[3],
                                            clientName: try row[4], issueDate: try row[5],
                                            total: Money(minorUnits: try row[7], currency: try Self.currency(row, 6)))
            byID[summary.id] = summary
        }
        return ids.compactMap { byID[$0] }
    }

    /// Every credit note's row, newest first (for the command line).
    public func forEachCreditNoteSummary(_ body: (CreditNoteSummary) throws -> Void) throws {
        let ids = try creditNoteIDs()
        var start = 0
        while start < ids.count {
            let end = min(ids.count, start + 500)
            for summary in try creditNoteSummaries(for: Array(ids[start..<end])) { try body(summary) }
            start = end
        }
    }

    /// The credit note with everything its PDF and e-invoice show.
    public func document(for note: CreditNote) throws -> InvoiceDocument {
        try database.transaction(.deferred) {
            guard let invoice = try invoice(note.invoiceID) else { throw InvoiceError.invoiceNotFound }
            var content = note.content(of: invoice)
            if content.number.isEmpty { content.number = try suggestedCreditNoteNumber(issuedOn: note.issueDate) }
            let base = try document(for: content)
            return InvoiceDocument(profile: base.profile, invoice: base.invoice, billTo: base.billTo, totals: base.totals,
                                   logoURL: base.logoURL,
                                   kind: .creditNote(invoice: DocumentLink(number: invoice.number, issueDate: invoice.issueDate)))
        }
    }

    private static let creditNoteSelect = "SELECT id, number, invoice_id, issue_date, reason FROM invoices_credit_note"

    private func loadCreditNote(_ row: Row) throws -> CreditNote {
        let id: CreditNoteID = try row[0]
        var note = CreditNote(invoiceID: try row[2], issueDate: try row[3], reason: try row[4], lines: [])
        note.id = id
        note.number = try row[1]
        try database.query("SELECT invoice_line, quantity FROM invoices_credit_note_line WHERE credit_note_id = ? ORDER BY position", [id]) { line in
            note.lines.append(CreditedLine(invoiceLine: try line[0], quantity: try line[1]))
        }
        try database.query("SELECT n.currency, a.description, a.net_minor, a.vat_category, a.tax_rate FROM invoices_credit_note_amount a JOIN invoices_credit_note n ON n.id = a.credit_note_id WHERE a.credit_note_id = ? ORDER BY a.position", [id]) { amount in
            note.amounts.append(CreditedAmount(description: try amount[1],
                                               net: Money(minorUnits: try amount[2], currency: try Self.currency(amount, 0)),
                                               vatCategory: try Self.vatCategory(amount, 3), taxRate: try amount[4]))
        }
        return note
    }
}
