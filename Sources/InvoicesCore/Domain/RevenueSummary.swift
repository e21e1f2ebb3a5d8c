import BillfoldCore
import Foundation
import Storage

/// A year's revenue for the tax return, by issue date (accrual): every invoice sent or paid
/// that was issued in the year counts in its issue month, whether or not it has been paid, and
/// every credit note comes off in its own issue month, so a correction never rewrites a year
/// already declared. An invoice cancelled by credit notes counts like a sent one (its credit
/// notes take it off again); drafts and invoices cancelled before they were sent do not.
/// Amounts come from `InvoiceTotals`, the computation the PDFs print, and each currency is
/// summed on its own.
public struct RevenueSummary: Sendable, Hashable {
    public struct Amounts: Sendable, Hashable {
        public var net: Money
        public var tax: Money
        public var gross: Money
        public var invoiceCount: Int

        static func zero(_ currency: Currency) -> Amounts {
            Amounts(net: .zero(currency), tax: .zero(currency), gross: .zero(currency), invoiceCount: 0)
        }

        mutating func add(_ totals: InvoiceTotals) throws(MoneyError) {
            net = try net.adding(totals.netTotal)
            tax = try tax.adding(totals.tax)
            gross = try gross.adding(totals.total)
            invoiceCount += 1
        }

        /// A credit note: its amounts come off; it is not an invoice, so the count stays.
        mutating func subtract(_ totals: InvoiceTotals) throws(MoneyError) {
            net = try net.subtracting(totals.netTotal)
            tax = try tax.subtracting(totals.tax)
            gross = try gross.subtracting(totals.total)
        }
    }

    /// One VAT category and rate over the year: the taxable amounts and the tax on them.
    public struct TaxRate: Sendable, Hashable {
        public let category: VATCategory
        public let rate: Decimal
        public var taxable: Money
        public var tax: Money
    }

    public struct CurrencyPart: Sendable, Hashable {
        public let currency: Currency
        /// Twelve entries, January first.
        public var months: [Amounts]
        public var year: Amounts
        /// Lowest rate first.
        public var taxRates: [TaxRate]
    }

    public let year: Int
    /// By currency code.
    public let currencies: [CurrencyPart]

    public var isEmpty: Bool { currencies.isEmpty }

    public static let csvHeader = ["year", "month", "currency", "net", "tax", "gross", "invoices"]
    public static let csvTaxHeader = ["year", "currency", "vat_category", "tax_rate", "taxable", "tax"]

    /// RFC 4180 text: a row per month and currency, then one with month "total"; after an
    /// empty line, the year's tax per category and rate.
    public func csv() -> String {
        var rows: [[String]] = []
        for part in currencies {
            for (index, month) in part.months.enumerated() {
                rows.append(Self.row(year, String(format: "%02d", index + 1), part.currency, month))
            }
            rows.append(Self.row(year, "total", part.currency, part.year))
        }
        var text = CSV.text(header: Self.csvHeader, rows: rows) + "\r\n"
        let taxRows = currencies.flatMap { part in
            part.taxRates.map { [String(year), part.currency.code, $0.category.code, PlainAmount.string($0.rate),
                                 PlainAmount.string($0.taxable), PlainAmount.string($0.tax)] }
        }
        text += CSV.text(header: Self.csvTaxHeader, rows: taxRows)
        return text
    }

    private static func row(_ year: Int, _ month: String, _ currency: Currency, _ amounts: Amounts) -> [String] {
        [String(year), month, currency.code, PlainAmount.string(amounts.net), PlainAmount.string(amounts.tax),
         PlainAmount.string(amounts.gross), String(amounts.invoiceCount)]
    }
}

extension InvoiceRepository {
    /// Invoices that are revenue: sent or paid, or cancelled by credit notes after being sent.
    static let revenueInvoice = "(i.status IN ('sent', 'paid') OR (i.status = 'cancelled' AND EXISTS (SELECT 1 FROM invoices_credit_note c WHERE c.invoice_id = i.id)))"

    /// The years in which revenue invoices or credit notes were issued, newest first.
    public func revenueYears() throws -> [Int] {
        try database.queryIntegers("SELECT CAST(substr(issue_date, 1, 4) AS INTEGER) AS year FROM invoices_invoice i WHERE \(Self.revenueInvoice) UNION SELECT CAST(substr(issue_date, 1, 4) AS INTEGER) FROM invoices_credit_note ORDER BY year DESC", named: [:])
            .map { Int($0) }
    }

    /// The revenue summary of `year`. Reads the invoices and their lines in two passes, not
    /// one query per invoice.
    public func revenueSummary(year: Int) throws -> RevenueSummary {
        let bounds: [String: (any SQLBindable)?] = ["first": String(format: "%04d-01-01", year),
                                                    "last": String(format: "%04d-12-31", year)]
        struct Header { let month: Int; let currency: Currency; let discount: Decimal }
        var headers: [Int64: Header] = [:]
        var lines: [Int64: [LineItem]] = [:]
        try database.transaction(.deferred) {
            try database.query("SELECT i.id, i.issue_date, i.currency, i.discount_percent FROM invoices_invoice i WHERE \(Self.revenueInvoice) AND i.issue_date BETWEEN :first AND :last",
                               named: bounds) { row in
                let issued: CalendarDay = try row[1]
                headers[try row[0]] = Header(month: issued.month, currency: try Self.currency(row, 2), discount: try row[3])
            }
            try database.query("SELECT l.invoice_id, l.description, l.quantity, l.unit, l.unit_price_minor, l.tax_rate, l.discount_percent, l.vat_category, l.unit_code FROM invoices_line l JOIN invoices_invoice i ON i.id = l.invoice_id WHERE \(Self.revenueInvoice) AND i.issue_date BETWEEN :first AND :last ORDER BY l.invoice_id, l.position",
                               named: bounds) { row in
                let id: Int64 = try row[0]
                guard let header = headers[id] else { return }
                lines[id, default: []].append(LineItem(
                    description: try row[1], quantity: try row[2], unit: try row[3],
                    unitPrice: Money(minorUnits: try row[4], currency: header.currency), taxRate: try row[5],
                    discountPercent: try row[6], vatCategory: try Self.vatCategory(row, 7), unitCode: UnitCode(try row[8])))
            }
        }
        // Credit notes are few: each is read with its invoice, whose lines and prices it credits.
        var credits: [(month: Int, totals: InvoiceTotals)] = []
        try database.transaction(.deferred) {
            let ids = try database.queryIntegers("SELECT id FROM invoices_credit_note WHERE issue_date BETWEEN :first AND :last ORDER BY id",
                                                 named: bounds)
            for id in ids {
                guard let note = try creditNote(CreditNoteID(id)), let invoice = try invoice(note.invoiceID) else { continue }
                credits.append((note.issueDate.month, try note.totals(of: invoice)))
            }
        }
        var parts: [String: RevenueSummary.CurrencyPart] = [:]
        func book(_ totals: InvoiceTotals, month: Int, credit: Bool) throws {
            let currency = totals.total.currency
            var part = parts[currency.code] ?? RevenueSummary.CurrencyPart(
                currency: currency, months: Array(repeating: .zero(currency), count: 12), year: .zero(currency), taxRates: [])
            if credit {
                try part.months[month - 1].subtract(totals)
                try part.year.subtract(totals)
            } else {
                try part.months[month - 1].add(totals)
                try part.year.add(totals)
            }
            for line in totals.taxLines {
                let taxable = credit ? try line.taxableAmount.negated() : line.taxableAmount
                let tax = credit ? try line.tax.negated() : line.tax
                if let index = part.taxRates.firstIndex(where: { $0.category == line.category && $0.rate == line.rate }) {
                    part.taxRates[index].taxable = try part.taxRates[index].taxable.adding(taxable)
                    part.taxRates[index].tax = try part.taxRates[index].tax.adding(tax)
                } else {
                    part.taxRates.append(.init(category: line.category, rate: line.rate, taxable: taxable, tax: tax))
                }
            }
            parts[currency.code] = part
        }
        for (id, header) in headers {
            let totals = try InvoiceTotals(lines: lines[id] ?? [], discountPercent: header.discount, payments: [],
                                           currency: header.currency)
            try book(totals, month: header.month, credit: false)
        }
        for credit in credits { try book(credit.totals, month: credit.month, credit: true) }
        let order = VATCategory.allCases
        let currencies = parts.keys.sorted().compactMap { code -> RevenueSummary.CurrencyPart? in
            guard var part = parts[code] else { return nil }
            // A rate whose invoices were all credited in the same year has nothing to declare.
            part.taxRates.removeAll { $0.taxable.isZero && $0.tax.isZero }
            part.taxRates.sort {
                $0.rate != $1.rate ? $0.rate < $1.rate
                    : (order.firstIndex(of: $0.category) ?? 0) < (order.firstIndex(of: $1.category) ?? 0)
            }
            return part
        }
        return RevenueSummary(year: year, currencies: currencies)
    }
}
