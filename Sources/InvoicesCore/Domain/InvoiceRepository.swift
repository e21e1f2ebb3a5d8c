import BillfoldCore
import Foundation
import Storage

/// A deleted invoice, complete, for Undo: hand it to `InvoiceRepository.restore`. Its number
/// stays reserved meanwhile, so nothing else can take it.
public struct DeletedInvoice: Sendable, Hashable {
    public let invoice: Invoice
    public let id: InvoiceID
}

/// What happens to a client's invoices when the client is deleted.
public enum ClientInvoicesOnDelete: Sendable, Hashable {
    /// The client leaves the client list but stays on file for its invoices, which keep
    /// showing its name and address.
    case keep
    /// The invoices are deleted with the client; their numbers stay reserved.
    case delete
}

/// What `deleteClient` did.
public enum ClientDeletion: Sendable, Hashable {
    /// The client had no invoices and is gone.
    case deleted
    /// The client is hidden from the client list; its invoices remain.
    case archived(keptInvoices: Int)
    /// The client and its invoices are gone.
    case deletedWithInvoices(count: Int)
}

/// A row of the client list.
public struct ClientSummary: Sendable, Hashable {
    public let client: Client
    /// Invoices of any status.
    public let invoiceCount: Int
    /// Open balances of sent invoices, one per currency, by currency code; empty when nothing is owed.
    public let outstanding: [Money]
}

/// Which document the template draws from invoice-shaped content.
public enum DocumentKind: Sendable, Hashable {
    case invoice
    /// A quote: valid until a day, with its status as of now.
    case quote(validUntil: CalendarDay, status: QuoteDisplayStatus)
    /// A credit note for the invoice with this number, issued on that day.
    case creditNote(invoice: DocumentLink)
}

/// Everything the invoice template needs to draw one invoice (or a quote or credit note).
public struct InvoiceDocument: Sendable, Hashable {
    public let kind: DocumentKind
    public let profile: BusinessProfile
    public let invoice: Invoice
    /// The snapshot taken when sent, or the client as it is now for a draft.
    public let billTo: BillTo
    public let totals: InvoiceTotals
    /// The logo file, when the profile has one and it is still there.
    public let logoURL: URL?

    public init(profile: BusinessProfile, invoice: Invoice, billTo: BillTo, totals: InvoiceTotals, logoURL: URL?,
                kind: DocumentKind = .invoice) {
        self.kind = kind
        self.profile = profile
        self.invoice = invoice
        self.billTo = billTo
        self.totals = totals
        self.logoURL = logoURL
    }
}

/// The Invoices plugin's data over the app's `Database`: the business profile, clients,
/// invoices with their lines and payments, numbering, search and sums.
///
/// Every write is one transaction. Reads return plain values; nothing is observed, so a view
/// re-queries after it saves. Rule violations throw `InvoiceError`; storage failures throw
/// `DatabaseError`. It is `Sendable`: a background task may use it, one call at a time per
/// connection, as `Database` explains.
public final class InvoiceRepository: Sendable {
    public let database: Database
    /// Where imported logos are kept.
    public let logos: LogoStore

    /// Brings the "invoices" tables up to date (a no-op when they are).
    public init(database: Database, logos: LogoStore = LogoStore()) throws {
        self.database = database
        self.logos = logos
        try database.migrate(owner: InvoiceSchema.owner, migrations: InvoiceSchema.migrations)
    }

    // MARK: - Business profile

    /// The saved profile, or `BusinessProfile.initial()` before one is saved.
    public func profile() throws -> BusinessProfile {
        try storedProfile() ?? .initial()
    }

    /// Whether the person has filled in the profile yet (the UI may ask for it first).
    public func hasProfile() throws -> Bool {
        try storedProfile() != nil
    }

    public func saveProfile(_ profile: BusinessProfile) throws {
        let issues = profile.validate()
        guard issues.isEmpty else { throw InvoiceError.invalidProfile(issues) }
        try database.transaction {
            try writeProfile(profile)
            try database.execute("UPDATE invoices_profile SET payment_qr_code = :on, quote_number_pattern = :quotes, credit_note_number_pattern = :credit_notes WHERE id = 1",
                                 named: ["on": profile.printsPaymentQRCode, "quotes": profile.quoteNumberPattern,
                                         "credit_notes": profile.creditNoteNumberPattern])
        }
    }

    private func writeProfile(_ profile: BusinessProfile) throws {
        try database.execute(
            "INSERT INTO invoices_profile (id, name, address, email, phone, tax_id, bank_details, iban, bic, logo_file, currency, payment_terms_days, default_tax_rate, number_pattern, default_notes, payment_instructions, vat_id, postcode, city, country, contact_name, electronic_address, default_vat_category, default_exemption_reason) VALUES (1, :name, :address, :email, :phone, :tax_id, :bank_details, :iban, :bic, :logo_file, :currency, :terms, :tax_rate, :pattern, :notes, :instructions, :vat_id, :postcode, :city, :country, :contact_name, :electronic_address, :vat_category, :exemption_reason) ON CONFLICT (id) DO UPDATE SET name = excluded.name, address = excluded.address, email = excluded.email, phone = excluded.phone, tax_id = excluded.tax_id, bank_details = excluded.bank_details, iban = excluded.iban, bic = excluded.bic, logo_file = excluded.logo_file, currency = excluded.currency, payment_terms_days = excluded.payment_terms_days, default_tax_rate = excluded.default_tax_rate, number_pattern = excluded.number_pattern, default_notes = excluded.default_notes, payment_instructions = excluded.payment_instructions, vat_id = excluded.vat_id, postcode = excluded.postcode, city = excluded.city, country = excluded.country, contact_name = excluded.contact_name, electronic_address = excluded.electronic_address, default_vat_category = excluded.default_vat_category, default_exemption_reason = excluded.default_exemption_reason",
            named: [
                "name": profile.name, "address": profile.address, "email": profile.email, "phone": profile.phone,
                "tax_id": profile.taxID, "bank_details": profile.bankDetails, "iban": profile.iban, "bic": profile.bic,
                "logo_file": profile.logoFileName, "currency": profile.defaultCurrency.code,
                "terms": profile.paymentTermsDays, "tax_rate": profile.defaultTaxRate,
                "pattern": profile.numberPattern, "notes": profile.defaultNotes,
                "instructions": profile.paymentInstructions, "vat_id": profile.vatID, "postcode": profile.postcode,
                "city": profile.city, "country": profile.countryCode, "contact_name": profile.contactName,
                "electronic_address": profile.electronicAddress, "vat_category": profile.defaultVATCategory.code,
                "exemption_reason": profile.defaultExemptionReason,
            ])
    }

    private func storedProfile() throws -> BusinessProfile? {
        guard let row = try database.query("SELECT name, address, email, phone, tax_id, bank_details, iban, bic, logo_file, currency, payment_terms_days, default_tax_rate, number_pattern, default_notes, payment_instructions, vat_id, postcode, city, country, contact_name, electronic_address, default_vat_category, default_exemption_reason FROM invoices_profile WHERE id = 1").first
        else { return nil }
        var profile = BusinessProfile(
            name: try row[0], address: try row[1], email: try row[2], phone: try row[3], taxID: try row[4],
            bankDetails: try row[5], iban: try row[6], bic: try row[7], logoFileName: try row[8],
            defaultCurrency: try Self.currency(row, 9), paymentTermsDays: try row[10], defaultTaxRate: try row[11],
            numberPattern: try row[12], defaultNotes: try row[13], paymentInstructions: try row[14],
            vatID: try row[15], postcode: try row[16], city: try row[17], countryCode: try row[18],
            contactName: try row[19], electronicAddress: try row[20], defaultVATCategory: try Self.vatCategory(row, 21),
            defaultExemptionReason: try row[22])
        if let setting = try database.query("SELECT payment_qr_code, quote_number_pattern, credit_note_number_pattern FROM invoices_profile WHERE id = 1").first {
            profile.printsPaymentQRCode = try setting[0]
            profile.quoteNumberPattern = try setting[1]
            profile.creditNoteNumberPattern = try setting[2]
        }
        return profile
    }

    // MARK: - Clients

    /// Clients in the client list (not archived), by name; `search` keeps those whose name or
    /// email contains it, ignoring case and accents.
    public func clients(matching search: String = "") throws -> [Client] {
        let all = try database.query(Self.clientSelect + " WHERE archived = 0 ORDER BY name COLLATE NOCASE, id")
            .map(Self.client)
        let needle = search.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !needle.isEmpty else { return all }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        return all.filter {
            $0.name.range(of: needle, options: options) != nil || $0.email.range(of: needle, options: options) != nil
        }
    }

    /// Any client, archived ones included (an invoice may point at one).
    public func client(_ id: ClientID) throws -> Client? {
        try database.query(Self.clientSelect + " WHERE id = ?", [id]).first.map(Self.client)
    }

    /// Inserts a new client (no id) or updates one; returns it with its id.
    @discardableResult
    public func save(_ client: Client) throws -> Client {
        let issues = client.validate()
        guard issues.isEmpty else { throw InvoiceError.invalidClient(issues) }
        var saved = client
        saved.name = client.name.trimmingCharacters(in: .whitespacesAndNewlines)
        try database.transaction {
            let values: [String: (any SQLBindable)?] = [
                "name": saved.name, "email": saved.email, "address": saved.address, "tax_id": saved.taxID,
                "currency": saved.currency.code, "terms": saved.paymentTermsDays, "notes": saved.notes,
                "vat_id": saved.vatID, "postcode": saved.postcode, "city": saved.city, "country": saved.countryCode,
                "electronic_address": saved.electronicAddress, "buyer_reference": saved.buyerReference,
                "einvoice_format": saved.eInvoiceFormat?.rawValue,
            ]
            if let id = saved.id {
                guard let stored = try self.client(id) else { throw InvoiceError.clientNotFound }
                var update = values
                update["id"] = id
                try database.execute("UPDATE invoices_client SET name = :name, email = :email, address = :address, tax_id = :tax_id, currency = :currency, payment_terms_days = :terms, notes = :notes, vat_id = :vat_id, postcode = :postcode, city = :city, country = :country, electronic_address = :electronic_address, buyer_reference = :buyer_reference, einvoice_format = :einvoice_format WHERE id = :id", named: update)
                if stored.name != saved.name {
                    try database.execute("UPDATE invoices_search SET client = ? WHERE rowid IN (SELECT id FROM invoices_invoice WHERE client_id = ?)", [saved.name, id])
                }
            } else {
                try database.execute("INSERT INTO invoices_client (name, email, address, tax_id, currency, payment_terms_days, notes, vat_id, postcode, city, country, electronic_address, buyer_reference, einvoice_format) VALUES (:name, :email, :address, :tax_id, :currency, :terms, :notes, :vat_id, :postcode, :city, :country, :electronic_address, :buyer_reference, :einvoice_format)", named: values)
                saved.id = ClientID(database.lastInsertRowID)
            }
        }
        return saved
    }

    /// Deletes a client. Without `invoices`, a client that has invoices is refused with
    /// `InvoiceError.clientHasInvoices(count:)`: the UI then asks the person (“Keep its 12
    /// invoices” / “Delete them too”) and calls again with their choice.
    @discardableResult
    public func deleteClient(_ id: ClientID, invoices: ClientInvoicesOnDelete? = nil) throws -> ClientDeletion {
        try database.transaction {
            guard try client(id) != nil else { throw InvoiceError.clientNotFound }
            let recurring = try recurringInvoiceCount(ofClient: id)
            if recurring > 0 { throw InvoiceError.clientHasRecurringInvoices(count: recurring) }
            let count = try database.queryValue("SELECT count(*) FROM invoices_invoice WHERE client_id = ?", [id], as: Int.self) ?? 0
            // Quotes are never deleted (their numbers run without gaps), so a client with quotes
            // stays on file for them, out of the client list.
            let hasQuotes = try database.queryValue("SELECT 1 FROM invoices_quote WHERE client_id = ? LIMIT 1", [id], as: Int.self) != nil
            if count == 0 {
                try database.execute(hasQuotes ? "UPDATE invoices_client SET archived = 1 WHERE id = ?" : "DELETE FROM invoices_client WHERE id = ?", [id])
                return hasQuotes ? .archived(keptInvoices: 0) : .deleted
            }
            switch invoices {
            case nil:
                throw InvoiceError.clientHasInvoices(count: count)
            case .keep:
                try database.execute("UPDATE invoices_client SET archived = 1 WHERE id = ?", [id])
                return .archived(keptInvoices: count)
            case .delete:
                if let sent = try database.query("SELECT number FROM invoices_invoice WHERE client_id = ? AND (sent_on IS NOT NULL OR status IN ('sent', 'paid')) LIMIT 1", [id]).first {
                    throw InvoiceError.sentInvoiceCannotBeDeleted(number: try sent[0])
                }
                let ids = try database.query("SELECT id FROM invoices_invoice WHERE client_id = ?", [id])
                    .map { try $0.value(at: 0, as: InvoiceID.self) }
                for invoiceID in ids { try deleteRow(invoiceID) }
                try database.execute(hasQuotes ? "UPDATE invoices_client SET archived = 1 WHERE id = ?" : "DELETE FROM invoices_client WHERE id = ?", [id])
                return .deletedWithInvoices(count: count)
            }
        }
    }

    /// The client list's rows: each client (as `clients(matching:)` finds them) with how many
    /// invoices it has and what it owes per currency, summed in SQL in one pass.
    public func clientSummaries(matching search: String = "") throws -> [ClientSummary] {
        var counts: [ClientID: Int] = [:]
        var owed: [ClientID: [Money]] = [:]
        try database.query("SELECT client_id, currency, count(*), sum(CASE WHEN status = 'sent' THEN balance_minor ELSE 0 END) FROM invoices_invoice GROUP BY client_id, currency ORDER BY client_id, currency") { row in
            let id: ClientID = try row[0]
            counts[id, default: 0] += try row.value(at: 2, as: Int.self)
            let balance = Money(minorUnits: try row[3], currency: try Self.currency(row, 1))
            if !balance.isZero { owed[id, default: []].append(balance) }
        }
        return try clients(matching: search).map { client in
            let id = client.id ?? ClientID(0)
            return ClientSummary(client: client, invoiceCount: counts[id] ?? 0, outstanding: owed[id] ?? [])
        }
    }

    /// What a client owes: the open balance of its sent invoices, one amount per currency.
    public func outstandingBalance(ofClient id: ClientID) throws -> [Money] {
        try database.query("SELECT currency, sum(balance_minor) FROM invoices_invoice WHERE client_id = ? AND status = 'sent' GROUP BY currency ORDER BY currency", [id])
            .map { Money(minorUnits: try $0[1], currency: try Self.currency($0, 0)) }
    }

    /// How many recurring invoices are made for a client.
    public func recurringInvoiceCount(ofClient id: ClientID) throws -> Int {
        try database.queryValue("SELECT count(*) FROM invoices_recurring WHERE client_id = ?", [id], as: Int.self) ?? 0
    }

    /// How many invoices a client has, of any status.
    public func invoiceCount(ofClient id: ClientID) throws -> Int {
        try database.queryValue("SELECT count(*) FROM invoices_invoice WHERE client_id = ?", [id], as: Int.self) ?? 0
    }

    private static let clientSelect = "SELECT id, name, email, address, tax_id, currency, payment_terms_days, notes, archived, vat_id, postcode, city, country, electronic_address, buyer_reference, einvoice_format FROM invoices_client"

    private static func client(_ row: Row) throws -> Client {
        let formatText: String? = try row[15]
        var format: EInvoiceFormat?
        if let formatText {
            guard let known = EInvoiceFormat(rawValue: formatText) else {
                throw DatabaseError.invalidValue(column: "einvoice_format", text: formatText, expected: "e-invoice format")
            }
            format = known
        }
        var client = Client(id: try row[0], name: try row[1], email: try row[2], address: try row[3], taxID: try row[4],
                            currency: try currency(row, 5), paymentTermsDays: try row[6], notes: try row[7],
                            vatID: try row[9], postcode: try row[10], city: try row[11], countryCode: try row[12],
                            electronicAddress: try row[13], buyerReference: try row[14], eInvoiceFormat: format)
        client.isArchived = try row[8]
        return client
    }

    // MARK: - Invoices

    /// How many invoices exist (any status): what the free tier's limit counts.
    public func invoiceCount() throws -> Int {
        try database.queryValue("SELECT count(*) FROM invoices_invoice", as: Int.self) ?? 0
    }

    public func invoice(_ id: InvoiceID) throws -> Invoice? {
        guard let row = try database.query(Self.invoiceSelect + " WHERE id = ?", [id]).first else { return nil }
        return try loadInvoice(row)
    }

    /// The invoice with this number, ignoring case (for the command line).
    public func invoice(number: String) throws -> Invoice? {
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        guard let row = try database.query(Self.invoiceSelect + " WHERE number = ?", [trimmed]).first else { return nil }
        return try loadInvoice(row)
    }

    /// The number the next invoice issued on `day` would get; nothing is reserved.
    public func suggestedNumber(issuedOn day: CalendarDay) throws -> String {
        try nextNumber(issuedOn: day, reserve: false)
    }

    /// Saves a new invoice (no id) or changes to one, with its lines and payments, in one
    /// transaction, and returns it as stored (id, number and bill-to filled in).
    ///
    /// Checks: the invoice is valid; its client exists; nothing saved it since it was loaded
    /// (`changedSinceLoaded`: reload and apply the change again); the number is not used by
    /// another invoice now or before (`numberTaken`); the status change is one the rules allow;
    /// and a sent invoice's locked fields are unchanged (`locked`). An empty number takes the
    /// next one from the profile's pattern.
    @discardableResult
    public func save(_ invoice: Invoice) throws -> Invoice {
        let issues = invoice.validate()
        guard issues.isEmpty else { throw InvoiceError.invalidInvoice(issues) }
        var saved = invoice
        saved.number = invoice.number.trimmingCharacters(in: .whitespaces)
        let totals = try saved.totals()
        try database.transaction {
            guard let clientID = saved.clientID, let client = try client(clientID) else {
                throw InvoiceError.clientNotFound
            }
            let stored = try saved.id.map { id -> Invoice in
                guard let stored = try self.invoice(id) else { throw InvoiceError.invoiceNotFound }
                return stored
            }
            if let stored {
                // A copy loaded before another save would silently undo it (a payment, a status).
                guard stored.revision == saved.revision else { throw InvoiceError.changedSinceLoaded }
                guard stored.status.canBecome(saved.status) else {
                    throw InvoiceError.transitionNotAllowed(from: stored.status, to: saved.status)
                }
                if let field = saved.lockedChanges(comparedTo: stored).first { throw InvoiceError.locked(field) }
                if saved.status == .cancelled, stored.status != .draft, stored.status != .cancelled {
                    throw InvoiceError.cancelNeedsCreditNote
                }
                // Only issuing a credit note changes what was credited.
                saved.creditedMinorUnits = stored.creditedMinorUnits
            }
            saved.revision = (stored?.revision ?? 0) + 1
            if saved.status != .draft, saved.billTo == nil {
                saved.billTo = BillTo(client)
            }
            try assignNumber(&saved, previous: stored?.number)
            try writeInvoice(saved, totals: totals, clientName: client.name, insertID: nil)
            if saved.id == nil {
                saved.id = InvoiceID(database.lastInsertRowID)
            }
            try database.execute("UPDATE invoices_number SET invoice_id = ? WHERE number = ?", [saved.id, saved.number])
            try writeChildren(saved)
            try writeSearch(saved, clientName: client.name)
        }
        return saved
    }

    /// Deletes an invoice with its lines and payments. Its number stays reserved; pass the
    /// result to `restore` to undo.
    @discardableResult
    public func delete(_ id: InvoiceID) throws -> DeletedInvoice {
        try database.transaction {
            guard let invoice = try invoice(id) else { throw InvoiceError.invoiceNotFound }
            guard invoice.canBeDeleted else { throw InvoiceError.sentInvoiceCannotBeDeleted(number: invoice.number) }
            try deleteRow(id)
            return DeletedInvoice(invoice: invoice, id: id)
        }
    }

    /// Puts a deleted invoice back exactly as it was, under its old id and number.
    public func restore(_ deleted: DeletedInvoice) throws {
        try database.transaction {
            guard try invoice(deleted.id) == nil else { return }
            guard let clientID = deleted.invoice.clientID, let client = try client(clientID) else {
                throw InvoiceError.clientGoneForRestore
            }
            let owner = try database.query("SELECT invoice_id FROM invoices_number WHERE number = ?", [deleted.invoice.number]).first
            if let owner, let current: Int64 = try owner[0], current != deleted.id.rawValue {
                throw InvoiceError.numberTaken(deleted.invoice.number)
            }
            try database.execute("INSERT INTO invoices_number (number, invoice_id) VALUES (?, ?) ON CONFLICT (number) DO UPDATE SET invoice_id = excluded.invoice_id", [deleted.invoice.number, deleted.id])
            let totals = try deleted.invoice.totals()
            try writeInvoice(deleted.invoice, totals: totals, clientName: client.name, insertID: deleted.id)
            try writeChildren(deleted.invoice)
            try writeSearch(deleted.invoice, clientName: client.name)
        }
    }

    /// The invoice with everything its PDF shows.
    public func document(for id: InvoiceID) throws -> InvoiceDocument {
        try database.transaction(.deferred) {
            guard let invoice = try invoice(id) else { throw InvoiceError.invoiceNotFound }
            return try document(for: invoice)
        }
    }

    /// The document for an invoice that may not be saved yet (a live preview of the form); an
    /// invoice without a number shows the one it would get.
    public func document(for invoice: Invoice) throws -> InvoiceDocument {
        var invoice = invoice
        if invoice.number.trimmingCharacters(in: .whitespaces).isEmpty {
            invoice.number = try suggestedNumber(issuedOn: invoice.issueDate)
        }
        let profile = try profile()
        let billTo: BillTo
        if let snapshot = invoice.billTo {
            billTo = snapshot
        } else if let clientID = invoice.clientID, let client = try client(clientID) {
            billTo = BillTo(client)
        } else {
            billTo = BillTo(name: "")
        }
        let logoURL = profile.logoFileName.flatMap { logos.existingURL(forFileName: $0) }
        return InvoiceDocument(profile: profile, invoice: invoice, billTo: billTo, totals: try invoice.totals(),
                               logoURL: logoURL)
    }

    // MARK: - Internals

    static let invoiceSelect = "SELECT id, number, client_id, issue_date, due_date, currency, discount_percent, notes, status, sent_on, bill_to_name, bill_to_address, bill_to_email, bill_to_tax_id, revision, buyer_reference, purchase_order, delivery_date, delivery_end_date, exemption_reason, bill_to_vat_id, bill_to_postcode, bill_to_city, bill_to_country, bill_to_electronic_address FROM invoices_invoice"

    func loadInvoice(_ row: Row) throws -> Invoice {
        let id: InvoiceID = try row[0]
        let currency = try Self.currency(row, 5)
        var invoice = Invoice(number: try row[1], clientID: try row[2], issueDate: try row[3], dueDate: try row[4],
                              currency: currency, discountPercent: try row[6], notes: try row[7])
        invoice.id = id
        let statusText: String = try row[8]
        guard let status = InvoiceStatus(rawValue: statusText) else {
            throw DatabaseError.invalidValue(column: "status", text: statusText, expected: "invoice status")
        }
        invoice.status = status
        invoice.sentOn = try row[9]
        invoice.revision = try row[14]
        invoice.buyerReference = try row[15]
        invoice.purchaseOrderReference = try row[16]
        invoice.deliveryDate = try row[17]
        invoice.deliveryEndDate = try row[18]
        invoice.exemptionReason = try row[19]
        if let name: String = try row[10] {
            invoice.billTo = BillTo(name: name, address: try row[11] ?? "", email: try row[12] ?? "", taxID: try row[13] ?? "",
                                    vatID: try row[20] ?? "", postcode: try row[21] ?? "", city: try row[22] ?? "",
                                    countryCode: try row[23] ?? "", electronicAddress: try row[24] ?? "")
        }
        // Column by column: a 1 000-line invoice spent a third of its loading copying rows.
        try database.queryColumns("SELECT description, quantity, unit, unit_price_minor, tax_rate, discount_percent, vat_category, unit_code FROM invoices_line WHERE invoice_id = :invoice ORDER BY position", named: ["invoice": id]) { line in
            invoice.lines.append(LineItem(
                description: try line[0], quantity: try line[1], unit: try line[2],
                unitPrice: Money(minorUnits: try line[3], currency: currency), taxRate: try line[4],
                discountPercent: try line[5], vatCategory: try Self.vatCategory(code: try line[6]), unitCode: UnitCode(try line[7])))
        }
        invoice.creditedMinorUnits = try database.queryValue("SELECT coalesce(sum(total_minor), 0) FROM invoices_credit_note WHERE invoice_id = ?", [id], as: Int64.self) ?? 0
        try database.query("SELECT paid_on, amount_minor, note FROM invoices_payment WHERE invoice_id = ? ORDER BY position", [id]) { payment in
            invoice.payments.append(Payment(date: try payment[0], amount: Money(minorUnits: try payment[1], currency: currency),
                                            note: try payment[2]))
        }
        return invoice
    }

    /// Gives `invoice` a number: the next from the pattern when empty, else its own after
    /// checking no other invoice has or had it. A draft renamed from one number to another
    /// frees the old one, which never appeared on anything sent.
    private func assignNumber(_ invoice: inout Invoice, previous: String?) throws {
        if invoice.number.isEmpty {
            invoice.number = try nextNumber(issuedOn: invoice.issueDate, reserve: true)
        } else if previous.map({ $0.caseInsensitiveCompare(invoice.number) != .orderedSame }) ?? true {
            let taken = try database.queryValue("SELECT 1 FROM invoices_number WHERE number = ?", [invoice.number], as: Int.self) != nil
            guard !taken else { throw InvoiceError.numberTaken(invoice.number) }
        } else if let previous, previous != invoice.number {
            // Only the letter case changed: keep the reservation, with the new spelling.
            try database.execute("UPDATE invoices_number SET number = ? WHERE number = ?", [invoice.number, previous])
            return
        } else {
            return
        }
        if let previous {
            try database.execute("DELETE FROM invoices_number WHERE number = ?", [previous])
        }
        try database.execute("INSERT INTO invoices_number (number, invoice_id) VALUES (?, ?)", [invoice.number, invoice.id])
    }

    private func nextNumber(issuedOn day: CalendarDay, reserve: Bool) throws -> String {
        // A saved profile's pattern was validated; the fallback covers a database edited by hand.
        let pattern = (try? InvoiceNumberPattern(try profile().numberPattern)) ?? .standard
        let scope = pattern.scope(on: day)
        return try database.transaction {
            var counter = try database.queryValue("SELECT last_value FROM invoices_counter WHERE scope = ?", [scope], as: Int.self) ?? 0
            var candidate: String
            // Skip numbers typed by hand or kept by deleted invoices.
            repeat {
                counter += 1
                candidate = pattern.number(counter: counter, on: day)
            } while try database.queryValue("SELECT 1 FROM invoices_number WHERE number = ?", [candidate], as: Int.self) != nil
            if reserve {
                try database.execute("INSERT INTO invoices_counter (scope, last_value) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET last_value = excluded.last_value", [scope, counter])
            }
            return candidate
        }
    }

    func writeInvoice(_ invoice: Invoice, totals: InvoiceTotals, clientName: String, insertID: InvoiceID?) throws {
        var values: [String: (any SQLBindable)?] = [
            "number": invoice.number, "client_id": invoice.clientID, "issue_date": invoice.issueDate,
            "due_date": invoice.dueDate, "currency": invoice.currency.code, "discount": invoice.discountPercent,
            "notes": invoice.notes, "status": invoice.status.rawValue, "sent_on": invoice.sentOn,
            "bill_to_name": invoice.billTo?.name, "bill_to_address": invoice.billTo?.address,
            "bill_to_email": invoice.billTo?.email, "bill_to_tax_id": invoice.billTo?.taxID,
            "bill_to_vat_id": invoice.billTo?.vatID, "bill_to_postcode": invoice.billTo?.postcode,
            "bill_to_city": invoice.billTo?.city, "bill_to_country": invoice.billTo?.countryCode,
            "bill_to_electronic_address": invoice.billTo?.electronicAddress,
            "buyer_reference": invoice.buyerReference, "purchase_order": invoice.purchaseOrderReference,
            "delivery_date": invoice.deliveryDate, "delivery_end_date": invoice.deliveryEndDate,
            "exemption_reason": invoice.exemptionReason,
            "subtotal": totals.subtotal.minorUnits, "discount_minor": totals.discount.minorUnits,
            "tax": totals.tax.minorUnits, "total": totals.total.minorUnits, "paid": totals.paid.minorUnits,
            "balance": totals.balanceDue.minorUnits, "amount_key": Self.amountKey(totals.total), "updated_at": Date(),
            "revision": invoice.revision,
        ]
        if let id = invoice.id, insertID == nil {
            values.updateValue(id, forKey: "id")
            try database.execute("UPDATE invoices_invoice SET number = :number, client_id = :client_id, issue_date = :issue_date, due_date = :due_date, currency = :currency, discount_percent = :discount, notes = :notes, status = :status, sent_on = :sent_on, bill_to_name = :bill_to_name, bill_to_address = :bill_to_address, bill_to_email = :bill_to_email, bill_to_tax_id = :bill_to_tax_id, subtotal_minor = :subtotal, discount_minor = :discount_minor, tax_minor = :tax, total_minor = :total, paid_minor = :paid, balance_minor = :balance, amount_key = :amount_key, updated_at = :updated_at, revision = :revision, bill_to_vat_id = :bill_to_vat_id, bill_to_postcode = :bill_to_postcode, bill_to_city = :bill_to_city, bill_to_country = :bill_to_country, bill_to_electronic_address = :bill_to_electronic_address, buyer_reference = :buyer_reference, purchase_order = :purchase_order, delivery_date = :delivery_date, delivery_end_date = :delivery_end_date, exemption_reason = :exemption_reason WHERE id = :id", named: values)
        } else {
            // A NULL id lets AUTOINCREMENT choose; a restore passes the old one.
            values.updateValue(insertID, forKey: "id")
            try database.execute("INSERT INTO invoices_invoice (id, number, client_id, issue_date, due_date, currency, discount_percent, notes, status, sent_on, bill_to_name, bill_to_address, bill_to_email, bill_to_tax_id, subtotal_minor, discount_minor, tax_minor, total_minor, paid_minor, balance_minor, amount_key, updated_at, revision, bill_to_vat_id, bill_to_postcode, bill_to_city, bill_to_country, bill_to_electronic_address, buyer_reference, purchase_order, delivery_date, delivery_end_date, exemption_reason) VALUES (:id, :number, :client_id, :issue_date, :due_date, :currency, :discount, :notes, :status, :sent_on, :bill_to_name, :bill_to_address, :bill_to_email, :bill_to_tax_id, :subtotal, :discount_minor, :tax, :total, :paid, :balance, :amount_key, :updated_at, :revision, :bill_to_vat_id, :bill_to_postcode, :bill_to_city, :bill_to_country, :bill_to_electronic_address, :buyer_reference, :purchase_order, :delivery_date, :delivery_end_date, :exemption_reason)", named: values)
        }
    }

    private func writeChildren(_ invoice: Invoice) throws {
        guard let id = invoice.id else { return }
        try database.execute("DELETE FROM invoices_line WHERE invoice_id = ?", [id])
        try database.execute("DELETE FROM invoices_payment WHERE invoice_id = ?", [id])
        for (position, line) in invoice.lines.enumerated() {
            try database.execute("INSERT INTO invoices_line (invoice_id, position, description, quantity, unit, unit_price_minor, tax_rate, discount_percent, vat_category, unit_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 [id, position, line.description, line.quantity, line.unit, line.unitPrice.minorUnits,
                                  line.taxRate, line.discountPercent, line.vatCategory.code, line.unitCode.code])
        }
        for (position, payment) in invoice.payments.enumerated() {
            try database.execute("INSERT INTO invoices_payment (invoice_id, position, paid_on, amount_minor, note) VALUES (?, ?, ?, ?, ?)",
                                 [id, position, payment.date, payment.amount.minorUnits, payment.note])
        }
    }

    private func writeSearch(_ invoice: Invoice, clientName: String) throws {
        guard let id = invoice.id else { return }
        try database.execute("DELETE FROM invoices_search WHERE rowid = ?", [id])
        try database.execute("INSERT INTO invoices_search (rowid, number, client, descriptions) VALUES (?, ?, ?, ?)",
                             [id, invoice.number, clientName, invoice.lines.map(\.description).joined(separator: "\n")])
    }

    /// Removes the invoice's rows; the number's reservation stays, without an owner.
    private func deleteRow(_ id: InvoiceID) throws {
        try database.execute("UPDATE invoices_number SET invoice_id = NULL WHERE invoice_id = ?", [id])
        try database.execute("DELETE FROM invoices_search WHERE rowid = ?", [id])
        try database.execute("DELETE FROM invoices_invoice WHERE id = ?", [id])
    }

    /// The total in ten-thousandths of a major unit, so amounts in currencies with different
    /// minor units sort by value; clamped at the extremes, which no invoice reaches.
    static func amountKey(_ money: Money) -> Int64 {
        var scale: Int64 = 1
        for _ in 0..<max(0, 4 - money.currency.minorUnitExponent) { scale *= 10 }
        let (scaled, overflow) = money.minorUnits.multipliedReportingOverflow(by: scale)
        if overflow { return money.minorUnits < 0 ? .min : .max }
        return scaled
    }

    static func vatCategory(_ row: Row, _ index: Int) throws -> VATCategory {
        try vatCategory(code: try row[index])
    }

    static func vatCategory(code: String) throws -> VATCategory {
        guard let category = VATCategory(rawValue: code) else {
            throw DatabaseError.invalidValue(column: "vat_category", text: code, expected: "VAT category code")
        }
        return category
    }

    static func currency(_ row: Row, _ index: Int) throws -> Currency {
        try currency(code: try row[index], column: row.columnNames.indices.contains(index) ? row.columnNames[index] : "currency")
    }

    static func currency(code: String, column: String) throws -> Currency {
        guard let currency = Currency(code: code) else {
            throw DatabaseError.invalidValue(column: column, text: code, expected: "ISO 4217 currency code")
        }
        return currency
    }
}
