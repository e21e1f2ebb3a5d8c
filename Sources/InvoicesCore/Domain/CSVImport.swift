import BillfoldCore
import Foundation
import Storage

/// How the file writes amounts and numbers: plainly ("1234.56", as Billfold exports) or the
/// way a locale does ("1.234,56" in German).
public struct CSVNumberFormat: Sendable, Hashable {
    public let locale: Locale
    public let isPlain: Bool

    public static let plain = CSVNumberFormat(locale: Locale(identifier: "en_US_POSIX"), isPlain: true)

    public static func locale(_ locale: Locale) -> CSVNumberFormat { CSVNumberFormat(locale: locale, isPlain: false) }

    /// What the choice shows: a sample amount first, so a narrow list still tells them apart, then the locale's name.
    public var title: String {
        if isPlain { return String(format: tr("%@ · Plain, as Billfold exports"), "1234.56") }
        let sample = NumberFormatting(locale: locale).string(from: Decimal(string: "1234.56") ?? 0, minimumFractionDigits: 2,
                                                             maximumFractionDigits: 2)
        let name = UserLocale.messages.localizedString(forIdentifier: locale.identifier) ?? locale.identifier
        return String(format: tr("%@ · %@"), sample, name)
    }

    /// The choices the import offers: the app's locale first, then plain, then common ones.
    public static func choices(appLocale: Locale = UserLocale.numeric) -> [CSVNumberFormat] {
        var seen: Set<String> = []
        return ([.locale(appLocale), .plain] + ["en_US", "en_GB", "de_DE", "de_CH", "fr_FR", "es_ES"].map { .locale(Locale(identifier: $0)) })
            .filter { seen.insert($0.isPlain ? "plain" : $0.locale.identifier).inserted }
    }
}

/// A CSV file read for import: its header and its other rows.
public struct CSVImportFile: Sendable, Hashable {
    public let header: [String]
    public let rows: [CSVRecord]

    /// The largest file read: far more rows than anyone keeps, small enough to hold in memory.
    public static let maximumSize = 64 * 1024 * 1024

    public init(data: Data) throws(CSVError) {
        var records = try CSV.parse(data)
        guard !records.isEmpty else { throw .empty }
        header = records.removeFirst().fields.map { $0.trimmingCharacters(in: .whitespaces) }
        rows = records
    }

    /// Whether the header is exactly the layout Billfold writes for `content` (its numbers are then plain).
    public func isBillfoldLayout(of content: CSVContent) -> Bool {
        header == content.fields.map(\.name)
    }

    /// The number format to start with: plain for Billfold's own files, else the app's locale.
    public func suggestedNumberFormat(for content: CSVContent) -> CSVNumberFormat {
        isBillfoldLayout(of: content) ? .plain : .locale(UserLocale.numeric)
    }
}

/// Which column of the file each field is read from.
public struct CSVMapping: Sendable, Hashable {
    /// Field name → column index.
    public var columns: [String: Int]

    public init(columns: [String: Int] = [:]) { self.columns = columns }

    /// Matches header names to fields: the documented name, the field's title in the user's
    /// language, or a common alias, ignoring case, spaces and punctuation. Each column is used once.
    public static func detect(header: [String], content: CSVContent) -> CSVMapping {
        var mapping = CSVMapping()
        var used: Set<Int> = []
        let keys = header.map(CSVField.key)
        // Exact names first, so "client_email" is not taken by the alias "email" of another field.
        for pass in 0..<2 {
            for field in content.fields where mapping.columns[field.name] == nil {
                let wanted = pass == 0 ? [CSVField.key(field.name)] : [CSVField.key(field.title)] + field.aliases
                if let index = keys.indices.first(where: { !used.contains($0) && wanted.contains(keys[$0]) }) {
                    mapping.columns[field.name] = index
                    used.insert(index)
                }
            }
        }
        return mapping
    }
}

/// One row's problem, with the line it starts on in the file.
public struct CSVImportProblem: Sendable, Hashable {
    public let line: Int
    public let message: String
}

/// An invoice ready to be added, with its client found or to be created.
public struct PendingInvoice: Sendable, Hashable {
    public var invoice: Invoice
    /// The client in the library, or nil when `newClient` is added with it.
    public var clientID: ClientID?
    public var newClient: ClientKey?
    public let line: Int
}

/// What identifies a client in an import: name and email, ignoring case and outer spaces.
public struct ClientKey: Sendable, Hashable {
    public let name: String
    public let email: String

    public init(name: String, email: String) {
        self.name = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        self.email = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    init(_ client: Client) { self.init(name: client.name, email: client.email) }
}

/// What an import would do, worked out before anything is written: nothing is imported until
/// `InvoiceRepository.importCSV` is called with it, and nothing at all while a row has a problem.
public struct CSVImportPreview: Sendable, Hashable {
    public let content: CSVContent
    /// Clients to add: the file's (a clients import) or those its invoices name (an invoices import).
    public var newClients: [Client] = []
    public var newInvoices: [PendingInvoice] = []
    /// Rows or invoices already in the library (or earlier in the file), left alone.
    public var alreadyThere = 0
    public var problems: [CSVImportProblem] = []
    /// Set when the plan does not allow that many invoices; then nothing can be imported.
    public var limitProblem: String?

    public var canImport: Bool {
        problems.isEmpty && limitProblem == nil && !(newClients.isEmpty && newInvoices.isEmpty)
    }

    /// "3 new clients, 2 already in the library" and the like.
    public var summary: String {
        var parts: [String] = []
        switch content {
        case .clients:
            parts.append(String(format: trn("%d new client", "%d new clients", newClients.count), newClients.count))
        case .invoices:
            parts.append(String(format: trn("%d new invoice", "%d new invoices", newInvoices.count), newInvoices.count))
            if !newClients.isEmpty {
                parts.append(String(format: trn("%d new client", "%d new clients", newClients.count), newClients.count))
            }
        }
        if alreadyThere > 0 {
            parts.append(String(format: trn("%d already in the library", "%d already in the library", alreadyThere), alreadyThere))
        }
        if !problems.isEmpty {
            parts.append(String(format: trn("%d row with a problem", "%d rows with problems", problems.count), problems.count))
        }
        return parts.joined(separator: ", ")
    }
}

/// What an import added.
public struct CSVImportResult: Sendable, Hashable {
    public let clientsAdded: Int
    public let invoicesAdded: Int
}

extension InvoiceRepository {
    /// Reads every row of `file` with `mapping` and `format` and says what importing it would do.
    public func previewImport(_ file: CSVImportFile, content: CSVContent, mapping: CSVMapping,
                              format: CSVNumberFormat, plan: InvoicePlan) throws -> CSVImportPreview {
        var reader = RowReader(file: file, mapping: mapping, format: format)
        var preview = CSVImportPreview(content: content)
        let missing = content.fields.filter { $0.isRequired && mapping.columns[$0.name] == nil }
        guard missing.isEmpty else {
            preview.problems.append(CSVImportProblem(line: 1, message: String(format: tr("Choose the column that holds “%@”."),
                                                                                 missing.map(\.title).joined(separator: "”, “"))))
            return preview
        }
        return try database.transaction(.deferred) {
            var known = try knownClients()
            switch content {
            case .clients:
                try previewClients(&preview, reader: &reader, known: &known)
            case .invoices:
                try previewInvoices(&preview, reader: &reader, known: known, plan: plan)
            }
            preview.problems.sort { $0.line < $1.line }
            return preview
        }
    }

    /// Adds what `preview` found, in one transaction, checking again that nothing is there
    /// twice and that the plan allows it; returns what was added.
    @discardableResult
    public func importCSV(_ preview: CSVImportPreview, plan: InvoicePlan) throws -> CSVImportResult {
        guard preview.problems.isEmpty else { throw CSVImportError.rowsHaveProblems(preview.problems.count) }
        return try database.transaction {
            var known = try knownClients()
            var clientsAdded = 0
            for client in preview.newClients where known[ClientKey(client)] == nil {
                known[ClientKey(client)] = try save(client).id
                clientsAdded += 1
            }
            let fresh = try preview.newInvoices.filter { try !isNumberTaken($0.invoice.number) }
            try plan.checkImport(adding: fresh.count, existingCount: invoiceCount())
            for pending in fresh {
                var invoice = pending.invoice
                invoice.clientID = pending.clientID ?? pending.newClient.flatMap { known[$0] }
                try save(invoice)
            }
            return CSVImportResult(clientsAdded: clientsAdded, invoicesAdded: fresh.count)
        }
    }

    // MARK: - Clients

    private func previewClients(_ preview: inout CSVImportPreview, reader: inout RowReader,
                                known: inout [ClientKey: ClientID]) throws {
        var inFile: Set<ClientKey> = []
        let fallbackCurrency = try profile().defaultCurrency
        for row in reader.file.rows {
            guard reader.check(row, into: &preview) else { continue }
            var problems: [String] = []
            var client = Client(name: reader.text("name", row), email: reader.text("email", row), currency: fallbackCurrency)
            client.address = reader.text("address", row)
            client.postcode = reader.text("postcode", row)
            client.city = reader.text("city", row)
            client.countryCode = reader.text("country", row).uppercased()
            client.taxID = reader.text("tax_id", row)
            client.vatID = reader.text("vat_id", row)
            client.buyerReference = reader.text("buyer_reference", row)
            client.electronicAddress = reader.text("electronic_address", row)
            client.notes = reader.text("notes", row)
            reader.currency("currency", row, problems: &problems).map { client.currency = $0 }
            client.paymentTermsDays = reader.integer("payment_terms_days", row, problems: &problems)
            problems += client.validate().map(\.message)
            if !problems.isEmpty {
                preview.problems.append(CSVImportProblem(line: row.line, message: problems.joined(separator: " ")))
                continue
            }
            let key = ClientKey(client)
            if known[key] != nil || !inFile.insert(key).inserted {
                preview.alreadyThere += 1
            } else {
                preview.newClients.append(client)
            }
        }
    }

    // MARK: - Invoices

    private func previewInvoices(_ preview: inout CSVImportPreview, reader: inout RowReader,
                                 known: [ClientKey: ClientID], plan: InvoicePlan) throws {
        let profile = try profile()
        // Rows of one invoice, in file order, by number (ignoring case).
        var order: [String] = []
        var groups: [String: [CSVRecord]] = [:]
        for row in reader.file.rows {
            guard reader.check(row, into: &preview) else { continue }
            let number = reader.text("number", row)
            guard !number.isEmpty else {
                preview.problems.append(CSVImportProblem(line: row.line, message: tr("The invoice number is empty.")))
                continue
            }
            let key = number.lowercased()
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        var newClients: [ClientKey: Client] = [:]
        for key in order {
            guard let rows = groups[key], let first = rows.first else { continue }
            let number = reader.text("number", first)
            if try isNumberTaken(number) {
                preview.alreadyThere += 1
                continue
            }
            var problems: [String] = []
            let clientKey = ClientKey(name: reader.text("client_name", first), email: reader.text("client_email", first))
            let existing = known[clientKey]
            let existingClient = try existing.flatMap { try client($0) }
            let currency = reader.currency("currency", first, problems: &problems)
                ?? existingClient?.currency ?? newClients[clientKey]?.currency ?? profile.defaultCurrency
            let issued = reader.day("issue_date", first, problems: &problems)
            let terms = existingClient.map { $0.paymentTerms(default: profile) } ?? profile.paymentTermsDays
            let due = reader.day("due_date", first, problems: &problems)
            var invoice = Invoice(number: number, clientID: existing ?? ClientID(0), issueDate: issued ?? .today(),
                                  dueDate: due ?? InvoiceRules.dueDate(issuedOn: issued ?? .today(), termsDays: terms),
                                  currency: currency)
            invoice.discountPercent = reader.decimal("discount_percent", first, problems: &problems) ?? 0
            invoice.notes = reader.text("notes", first)
            invoice.buyerReference = reader.text("buyer_reference", first)
            invoice.purchaseOrderReference = reader.text("purchase_order", first)
            for row in rows {
                var rowProblems: [String] = []
                if row != first {
                    for field in ["issue_date", "currency", "client_name", "client_email"]
                    where reader.text(field, row) != reader.text(field, first) && !reader.text(field, row).isEmpty {
                        rowProblems.append(String(format: tr("Its %@ differs from line %d of the same invoice."),
                                                  field, first.line))
                    }
                }
                if let line = reader.lineItem(row, currency: currency, problems: &rowProblems) { invoice.lines.append(line) }
                if !rowProblems.isEmpty, row != first {
                    preview.problems.append(CSVImportProblem(line: row.line, message: rowProblems.joined(separator: " ")))
                } else {
                    problems += rowProblems
                }
            }
            if problems.isEmpty {
                problems += invoice.validate().map(\.message)
            }
            if problems.isEmpty {
                do {
                    try reader.applyStatus(first, to: &invoice)
                } catch {
                    problems.append(error.localizedDescription)
                }
            }
            guard problems.isEmpty else {
                preview.problems.append(CSVImportProblem(line: first.line, message: problems.joined(separator: " ")))
                continue
            }
            var pending = PendingInvoice(invoice: invoice, clientID: existing, newClient: nil, line: first.line)
            if existing == nil {
                pending.newClient = clientKey
                if newClients[clientKey] == nil {
                    let client = Client(name: reader.text("client_name", first).trimmingCharacters(in: .whitespacesAndNewlines),
                                        email: reader.text("client_email", first).trimmingCharacters(in: .whitespacesAndNewlines),
                                        currency: currency)
                    let issues = client.validate()
                    if let issue = issues.first {
                        preview.problems.append(CSVImportProblem(line: first.line, message: issue.message))
                        continue
                    }
                    newClients[clientKey] = client
                    preview.newClients.append(client)
                }
            }
            preview.newInvoices.append(pending)
        }
        do {
            try plan.checkImport(adding: preview.newInvoices.count, existingCount: invoiceCount())
        } catch {
            preview.limitProblem = error.localizedDescription
        }
    }

    /// Clients in the library, archived ones too, by what identifies them in an import.
    private func knownClients() throws -> [ClientKey: ClientID] {
        var known: [ClientKey: ClientID] = [:]
        try database.query("SELECT id, name, email FROM invoices_client ORDER BY id") { row in
            let key = ClientKey(name: try row[1], email: try row[2])
            if known[key] == nil { known[key] = try row[0] }
        }
        return known
    }

    /// Whether an invoice has, or a deleted one had, this number.
    func isNumberTaken(_ number: String) throws -> Bool {
        try database.queryValue("SELECT 1 FROM invoices_number WHERE number = ?",
                                [number.trimmingCharacters(in: .whitespaces)], as: Int.self) != nil
    }
}

/// Why an import was refused as a whole.
public enum CSVImportError: Error, LocalizedError, Hashable, Sendable {
    case rowsHaveProblems(Int)
    case unreadable(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .rowsHaveProblems(let count):
            return String(format: trn("%d row has a problem, so nothing was imported. Correct it in the file and import again.",
                                      "%d rows have problems, so nothing was imported. Correct them in the file and import again.",
                                      count), count)
        case .unreadable(let path, let reason):
            return String(format: tr("“%@” could not be read: %@"), path, reason)
        }
    }
}

/// Reads one row's fields through the mapping, in the file's number format.
struct RowReader {
    let file: CSVImportFile
    let mapping: CSVMapping
    let money: MoneyFormatter
    let numbers: NumberFormatting
    let dateLocale: Locale

    init(file: CSVImportFile, mapping: CSVMapping, format: CSVNumberFormat) {
        self.file = file
        self.mapping = mapping
        money = MoneyFormatter(locale: format.locale)
        numbers = NumberFormatting(locale: format.locale)
        dateLocale = format.isPlain ? UserLocale.time : format.locale
    }

    /// False, with the problem noted, when the row's fields do not match the header's.
    func check(_ row: CSVRecord, into preview: inout CSVImportPreview) -> Bool {
        guard row.fields.count == file.header.count else {
            preview.problems.append(CSVImportProblem(line: row.line, message: String(
                format: tr("The row has %d fields but the header has %d. Check for a missing quote or separator."),
                row.fields.count, file.header.count)))
            return false
        }
        return true
    }

    func text(_ field: String, _ row: CSVRecord) -> String {
        guard let index = mapping.columns[field], row.fields.indices.contains(index) else { return "" }
        return row.fields[index].trimmingCharacters(in: .whitespaces)
    }

    private func described(_ field: String, _ message: String) -> String {
        let title = CSVContent.allCases.lazy.flatMap(\.fields).first { $0.name == field }?.title ?? field
        return String(format: tr("%@: %@"), title, message)
    }

    func currency(_ field: String, _ row: CSVRecord, problems: inout [String]) -> Currency? {
        let code = text(field, row).uppercased()
        guard !code.isEmpty else { return nil }
        guard let currency = Currency(code: code) else {
            problems.append(described(field, String(format: tr("“%@” is not a currency code such as EUR or USD."), code)))
            return nil
        }
        return currency
    }

    func integer(_ field: String, _ row: CSVRecord, problems: inout [String]) -> Int? {
        let value = text(field, row)
        guard !value.isEmpty else { return nil }
        guard let number = Int(value) else {
            problems.append(described(field, String(format: tr("“%@” is not a whole number."), value)))
            return nil
        }
        return number
    }

    func decimal(_ field: String, _ row: CSVRecord, problems: inout [String]) -> Decimal? {
        let value = text(field, row)
        guard !value.isEmpty else { return nil }
        do {
            return try numbers.decimal(from: value)
        } catch {
            problems.append(described(field, error.localizedDescription))
            return nil
        }
    }

    func amount(_ field: String, _ row: CSVRecord, currency: Currency, problems: inout [String]) -> Money? {
        let value = text(field, row)
        guard !value.isEmpty else { return nil }
        do {
            return try money.money(from: value, currency: currency)
        } catch {
            problems.append(described(field, error.localizedDescription))
            return nil
        }
    }

    /// ISO 8601 or the locale's short or medium form.
    func day(_ field: String, _ row: CSVRecord, problems: inout [String]) -> CalendarDay? {
        let value = text(field, row)
        guard !value.isEmpty else {
            if field == "issue_date" { problems.append(described(field, tr("Enter a date."))) }
            return nil
        }
        if let day = CalendarDay(isoString: value) { return day }
        do {
            return try CalendarDay.parse(value, locale: dateLocale)
        } catch {
            problems.append(described(field, String(format: tr("“%@” is not a date; write it as %@ or in the file’s locale."),
                                                    value, "2025-03-31")))
            return nil
        }
    }

    /// The row's line item, or nil for an invoice row without one.
    func lineItem(_ row: CSVRecord, currency: Currency, problems: inout [String]) -> LineItem? {
        let description = text("line_description", row)
        let hasLine = !description.isEmpty || !text("line_unit_price", row).isEmpty || !text("line_quantity", row).isEmpty
        guard hasLine else { return nil }
        let count = problems.count
        let quantity = decimal("line_quantity", row, problems: &problems) ?? 1
        let price = amount("line_unit_price", row, currency: currency, problems: &problems)
        if price == nil, problems.count == count {
            problems.append(described("line_unit_price", tr("Enter the line’s unit price.")))
        }
        let rate = decimal("line_tax_rate", row, problems: &problems) ?? 0
        let discount = decimal("line_discount_percent", row, problems: &problems)
        var category: VATCategory?
        let categoryCode = text("line_vat_category", row).uppercased()
        if !categoryCode.isEmpty {
            category = VATCategory(rawValue: categoryCode)
            if category == nil {
                problems.append(described("line_vat_category", String(format: tr("“%@” is not a VAT category code (S, Z, E, AE, K, G or O)."),
                                                                      categoryCode)))
            }
        }
        let unitCode = text("line_unit_code", row)
        guard problems.count == count, let price else { return nil }
        return LineItem(description: description, quantity: quantity, unit: text("line_unit", row), unitPrice: price,
                        taxRate: rate, discountPercent: discount, vatCategory: category,
                        unitCode: unitCode.isEmpty ? nil : UnitCode(unitCode))
    }

    /// Brings a new draft to the file's status: sent on its issue date, a payment of `paid`
    /// on `paid_on`, paid in full on `paid_on`, or cancelled.
    func applyStatus(_ row: CSVRecord, to invoice: inout Invoice) throws {
        let statusText = text("status", row).lowercased()
        guard !statusText.isEmpty else { return }
        guard let status = InvoiceStatus(rawValue: statusText) else {
            throw CSVRowError.unknownStatus(statusText)
        }
        var problems: [String] = []
        let paid = amount("paid", row, currency: invoice.currency, problems: &problems)
        let paidOn = day("paid_on", row, problems: &problems)
        if let problem = problems.first { throw CSVRowError.invalid(problem) }
        switch status {
        case .draft:
            return
        case .cancelled:
            try invoice.cancel()
        case .sent, .paid:
            try invoice.markSent(on: invoice.issueDate)
            if let paid, paid.isPositive {
                guard let paidOn else { throw CSVRowError.paymentNeedsDay }
                try invoice.recordPayment(paid, on: paidOn)
            }
            if status == .paid, invoice.status != .paid {
                guard let paidOn else { throw CSVRowError.paymentNeedsDay }
                try invoice.markPaid(on: paidOn)
            }
        }
    }
}

enum CSVRowError: Error, LocalizedError {
    case unknownStatus(String)
    case paymentNeedsDay
    case invalid(String)

    var errorDescription: String? {
        switch self {
        case .unknownStatus(let text):
            return String(format: tr("“%@” is not a status; use draft, sent, paid or cancelled."), text)
        case .paymentNeedsDay:
            return tr("A paid amount needs the day it was paid in the paid_on column.")
        case .invalid(let message):
            return message
        }
    }
}
