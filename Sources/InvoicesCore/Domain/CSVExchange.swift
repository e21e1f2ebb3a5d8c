import BillfoldCore
import Foundation
import Storage

/// What a CSV file holds: clients, or invoices with their lines.
public enum CSVContent: String, Sendable, Hashable, CaseIterable {
    case clients
    case invoices

    /// The columns Billfold writes and reads, in file order. Names are fixed identifiers, the
    /// same in every language; amounts are plain decimals ("1234.50") with the currency in its
    /// own column; days are ISO 8601.
    public var fields: [CSVField] {
        switch self {
        case .clients: CSVField.clientFields
        case .invoices: CSVField.invoiceFields
        }
    }
}

/// A column of the documented CSV layout, and what the import reads from it.
public struct CSVField: Sendable, Hashable {
    /// The header name, e.g. "client_email".
    public let name: String
    /// What the column selector shows.
    public let title: String
    /// An import without it cannot work.
    public let isRequired: Bool
    /// Other header names that mean the same (lower case, letters and digits only).
    let aliases: [String]

    init(_ name: String, _ title: String, required: Bool = false, aliases: [String] = []) {
        self.name = name
        self.title = title
        self.isRequired = required
        self.aliases = aliases
    }

    /// Clients: one row each. A client is the same as one in the library when name and email
    /// match, ignoring case and spaces at the ends.
    public static var clientFields: [CSVField] {
        [
            CSVField("name", tr("Name"), required: true, aliases: ["client", "clientname", "company", "customer"]),
            CSVField("email", tr("Email"), aliases: ["emailaddress", "mail"]),
            CSVField("address", tr("Address"), aliases: ["street"]),
            CSVField("postcode", tr("Postcode"), aliases: ["zip", "zipcode", "postalcode", "plz"]),
            CSVField("city", tr("City"), aliases: ["town"]),
            CSVField("country", tr("Country"), aliases: ["countrycode"]),
            CSVField("tax_id", tr("Tax number")),
            CSVField("vat_id", tr("VAT ID"), aliases: ["vat", "vatnumber"]),
            CSVField("currency", tr("Currency")),
            CSVField("payment_terms_days", tr("Payment terms (days)"), aliases: ["terms", "paymentterms"]),
            CSVField("buyer_reference", tr("Buyer reference")),
            CSVField("electronic_address", tr("Electronic address")),
            CSVField("notes", tr("Notes")),
        ]
    }

    /// Invoices: one row per line, the invoice's own columns repeated on each; an invoice
    /// without lines is one row with the line columns empty. An invoice is the same as one in
    /// the library when its number is (ignoring case). The totals are written for spreadsheets
    /// and left out on import, which works them out from the lines.
    public static var invoiceFields: [CSVField] {
        [
            CSVField("number", tr("Invoice number"), required: true, aliases: ["invoice", "invoicenumber", "invoiceno", "no"]),
            CSVField("status", tr("Status"), aliases: ["state"]),
            CSVField("issue_date", tr("Issue date"), required: true, aliases: ["date", "invoicedate", "issued"]),
            CSVField("due_date", tr("Due date"), aliases: ["due", "duedate"]),
            CSVField("currency", tr("Currency")),
            CSVField("client_name", tr("Client"), required: true, aliases: ["client", "customer", "company", "name"]),
            CSVField("client_email", tr("Client email"), aliases: ["email", "customeremail"]),
            CSVField("discount_percent", tr("Invoice discount (%)"), aliases: ["discount"]),
            CSVField("notes", tr("Notes")),
            CSVField("buyer_reference", tr("Buyer reference")),
            CSVField("purchase_order", tr("Purchase order")),
            CSVField("line_description", tr("Line description"), aliases: ["description", "item"]),
            CSVField("line_quantity", tr("Quantity"), aliases: ["quantity", "qty"]),
            CSVField("line_unit", tr("Unit"), aliases: ["unit"]),
            CSVField("line_unit_code", tr("Unit code"), aliases: ["unitcode"]),
            CSVField("line_unit_price", tr("Unit price"), aliases: ["unitprice", "price", "rate"]),
            CSVField("line_tax_rate", tr("Tax rate (%)"), aliases: ["taxrate", "vatrate", "tax"]),
            CSVField("line_vat_category", tr("VAT category"), aliases: ["vatcategory"]),
            CSVField("line_discount_percent", tr("Line discount (%)"), aliases: ["linediscount"]),
            CSVField("net", tr("Net")),
            CSVField("tax", tr("Tax")),
            CSVField("total", tr("Total")),
            CSVField("paid", tr("Paid"), aliases: ["amountpaid"]),
            CSVField("balance", tr("Balance due")),
            CSVField("paid_on", tr("Last paid on"), aliases: ["paymentdate", "paidon"]),
        ]
    }

    /// Header text reduced to what matching cares about: "Client E-mail" → "clientemail".
    static func key(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}

extension InvoiceRepository {
    /// Every client in the client list as CSV.
    public func clientsCSV() throws -> String {
        let rows = try clients().map { client in
            [client.name, client.email, client.address, client.postcode, client.city, client.countryCode, client.taxID,
             client.vatID, client.currency.code, client.paymentTermsDays.map(String.init) ?? "", client.buyerReference,
             client.electronicAddress, client.notes]
        }
        return CSV.text(header: CSVField.clientFields.map(\.name), rows: rows)
    }

    /// Every invoice, oldest first, a row per line, as CSV.
    public func invoicesCSV() throws -> String {
        var text = ""
        try writeInvoicesCSV { text += $0 }
        return text
    }

    /// The same CSV handed to `write` in pieces of about 64 KiB, so a large library is never
    /// held as one text; all of it read in one snapshot.
    public func writeInvoicesCSV(_ write: (String) throws -> Void) throws {
        var chunk = CSV.record(CSVField.invoiceFields.map(\.name))
        try database.transaction(.deferred) {
            let ids = try database.queryIntegers("SELECT id FROM invoices_invoice ORDER BY issue_date, id", named: [:])
            for id in ids {
                guard let invoice = try invoice(InvoiceID(id)) else { continue }
                for row in try csvRows(invoice) { chunk += CSV.record(row) }
                if chunk.utf8.count >= 64 * 1024 {
                    try write(chunk)
                    chunk = ""
                }
            }
        }
        if !chunk.isEmpty { try write(chunk) }
    }

    private func csvRows(_ invoice: Invoice) throws -> [[String]] {
        let totals = try invoice.totals()
        let client = try invoice.clientID.flatMap { try self.client($0) }
        let name = invoice.billTo?.name ?? client?.name ?? ""
        let email = invoice.billTo?.email ?? client?.email ?? ""
        let head = [invoice.number, invoice.status.rawValue, invoice.issueDate.isoString, invoice.dueDate.isoString,
                    invoice.currency.code, name, email, PlainAmount.string(invoice.discountPercent), invoice.notes,
                    invoice.buyerReference, invoice.purchaseOrderReference]
        let tail = [PlainAmount.string(totals.netTotal), PlainAmount.string(totals.tax), PlainAmount.string(totals.total),
                    PlainAmount.string(totals.paid), PlainAmount.string(totals.balanceDue),
                    invoice.payments.map(\.date).max()?.isoString ?? ""]
        guard !invoice.lines.isEmpty else { return [head + Array(repeating: "", count: 8) + tail] }
        return invoice.lines.map { line in
            head + [line.description, PlainAmount.string(line.quantity), line.unit, line.unitCode.code,
                    PlainAmount.string(line.unitPrice), PlainAmount.string(line.taxRate), line.vatCategory.code,
                    line.discountPercent.map(PlainAmount.string) ?? ""] + tail
        }
    }
}

extension OutputTarget {
    /// Writes what `body` hands over, piece by piece: to a file that appears only when whole,
    /// or to standard output.
    public func writeInPieces(_ body: (_ write: (String) throws -> Void) throws -> Void) throws {
        switch self {
        case .standardOutput:
            try body { try AtomicWrite.writeAll(Data($0.utf8), to: STDOUT_FILENO, path: displayName) }
        case .file(let url):
            try AtomicWrite.write(to: url) { descriptor in
                try body { try AtomicWrite.writeAll(Data($0.utf8), to: descriptor, path: url.path) }
            }
        }
    }
}
