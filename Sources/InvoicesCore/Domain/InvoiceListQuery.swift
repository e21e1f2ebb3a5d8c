import BillfoldCore
import Foundation
import Storage

/// The list's filter chips. Each shows the invoices whose badge (`InvoiceDisplayStatus`) it
/// names: Sent leaves out the overdue ones, which Overdue shows.
public enum InvoiceFilter: String, Sendable, Hashable, CaseIterable {
    case all
    case draft
    case sent
    case overdue
    case paid
    case cancelled

    public var title: String {
        switch self {
        case .all: tr("All")
        case .draft: tr("Draft")
        case .sent: tr("Sent")
        case .overdue: tr("Overdue")
        case .paid: tr("Paid")
        case .cancelled: tr("Cancelled")
        }
    }
}

public enum InvoiceSort: String, Sendable, Hashable, CaseIterable {
    case issueDate
    case dueDate
    /// By the total's value, across currencies as if they were one (100 JPY before 1.50 EUR).
    case amount

    public var title: String {
        switch self {
        case .issueDate: tr("Date")
        case .dueDate: tr("Due Date")
        case .amount: tr("Amount")
        }
    }
}

/// What the list pane shows: filter, search text, order, and optionally one client's invoices.
public struct InvoiceListQuery: Sendable, Hashable {
    public var filter: InvoiceFilter
    /// Words as typed; each must start a word of the number, the client's name or a line
    /// description (accents and case ignored). "acme web" finds Acme's invoices for web work.
    public var search: String
    public var sort: InvoiceSort
    /// Newest, latest-due or largest first when false.
    public var ascending: Bool
    public var clientID: ClientID?

    public init(filter: InvoiceFilter = .all, search: String = "", sort: InvoiceSort = .issueDate,
                ascending: Bool = false, clientID: ClientID? = nil) {
        self.filter = filter
        self.search = search
        self.sort = sort
        self.ascending = ascending
        self.clientID = clientID
    }
}

/// One list row: just what the row shows, read from the stored totals.
public struct InvoiceSummary: Sendable, Hashable, Identifiable {
    public let id: InvoiceID
    public let number: String
    public let clientName: String
    public let issueDate: CalendarDay
    public let dueDate: CalendarDay
    public let total: Money
    public let balanceDue: Money
    public let status: InvoiceStatus
    /// The badge, as of the `today` passed to the query.
    public let displayStatus: InvoiceDisplayStatus
}

/// Open amounts in one currency: what sent invoices still owe, and the part past due.
public struct OutstandingTotal: Sendable, Hashable {
    public let currency: Currency
    public let outstanding: Money
    public let overdue: Money
    /// How many invoices are overdue.
    public let overdueCount: Int
}

extension InvoiceRepository {
    /// The ids of every matching invoice in list order: the model of a virtualized list,
    /// whose rows then load with `summaries(for:)` as they scroll into view.
    public func invoiceIDs(matching query: InvoiceListQuery = InvoiceListQuery(),
                           today: CalendarDay = .today()) throws -> [InvoiceID] {
        let (sql, bindings) = Self.listSQL(columns: "i.id", query: query, today: today, paged: false)
        return try database.queryIntegers(sql, named: bindings).map { InvoiceID($0) }
    }

    /// The ids of the invoices whose number, client or line descriptions match `search` (as
    /// `InvoiceListQuery.search` reads it), in no order; nil when the text holds no word.
    /// Keeping the invoices of an unsearched list that are in this set gives the searched list
    /// without SQLite joining and sorting every match again (tens of ms for a one-letter word).
    public func invoiceIDs(matchingSearch search: String) throws -> Set<InvoiceID>? {
        guard let match = SearchText.matchExpression(search) else { return nil }
        let ids = try database.queryIntegers("SELECT rowid FROM invoices_search WHERE invoices_search MATCH :match",
                                             named: ["match": match])
        return Set(ids.map { InvoiceID($0) })
    }

    /// One page of matching rows in list order.
    public func invoiceSummaries(matching query: InvoiceListQuery = InvoiceListQuery(), limit: Int = 100,
                                 offset: Int = 0, today: CalendarDay = .today()) throws -> [InvoiceSummary] {
        var (sql, bindings) = Self.listSQL(columns: Self.summaryColumns, query: query, today: today, paged: true)
        bindings["limit"] = max(0, limit)
        bindings["offset"] = max(0, offset)
        var page: [InvoiceSummary] = []
        try database.queryColumns(sql, named: bindings) { page.append(try Self.summary($0, today: today)) }
        return page
    }

    /// Every matching row, handed to `body` as SQLite reads it, so a long list is never held
    /// at once; in list order unless `ordered` is false (then SQLite skips the sort).
    public func forEachInvoiceSummary(matching query: InvoiceListQuery = InvoiceListQuery(), today: CalendarDay = .today(),
                                      ordered: Bool = true, _ body: (InvoiceSummary) throws -> Void) throws {
        let (sql, bindings) = Self.listSQL(columns: Self.summaryColumns, query: query, today: today, paged: false, ordered: ordered)
        try database.queryColumns(sql, named: bindings) { try body(try Self.summary($0, today: today)) }
    }

    /// The rows for `ids`, in the order given; ids that no longer exist are left out.
    public func summaries(for ids: [InvoiceID], today: CalendarDay = .today()) throws -> [InvoiceSummary] {
        guard !ids.isEmpty else { return [] }
        let list = "[" + ids.map(\.description).joined(separator: ",") + "]"
        var byID: [InvoiceID: InvoiceSummary] = [:]
        try database.queryColumns("SELECT " + Self.summaryColumns + " FROM invoices_invoice i JOIN invoices_client c ON c.id = i.client_id WHERE i.id IN (SELECT value FROM json_each(:ids))", named: ["ids": list]) { columns in
            let summary = try Self.summary(columns, today: today)
            byID[summary.id] = summary
        }
        return ids.compactMap { byID[$0] }
    }

    /// The row for one invoice, e.g. after it was saved.
    public func summary(for id: InvoiceID, today: CalendarDay = .today()) throws -> InvoiceSummary? {
        try summaries(for: [id], today: today).first
    }

    /// How many invoices match (the list's row count without loading it).
    public func invoiceCount(matching query: InvoiceListQuery, today: CalendarDay = .today()) throws -> Int {
        let (sql, bindings) = Self.listSQL(columns: "count(*)", query: query, today: today, paged: false, ordered: false)
        return try database.query(sql, named: bindings).first.map { try $0.value(at: 0, as: Int.self) } ?? 0
    }

    /// The list header's sums: per currency, what sent invoices still owe and how much of it
    /// is overdue `today`. Summed in SQL over the stored balances.
    public func outstandingTotals(today: CalendarDay = .today()) throws -> [OutstandingTotal] {
        try database.query("SELECT currency, sum(balance_minor), sum(CASE WHEN due_date < :today THEN balance_minor ELSE 0 END), sum(CASE WHEN due_date < :today AND balance_minor > 0 THEN 1 ELSE 0 END) FROM invoices_invoice WHERE status = 'sent' GROUP BY currency ORDER BY currency",
                           named: ["today": today]).map { row in
            let currency = try Self.currency(row, 0)
            return OutstandingTotal(currency: currency, outstanding: Money(minorUnits: try row[1], currency: currency),
                                    overdue: Money(minorUnits: try row[2], currency: currency),
                                    overdueCount: try row[3])
        }
    }

    // MARK: - SQL

    static let summaryColumns = "i.id, i.number, c.name, i.issue_date, i.due_date, i.currency, i.total_minor, i.balance_minor, i.status"

    static func summary(_ row: ColumnReader, today: CalendarDay) throws -> InvoiceSummary {
        let code: String = try row[5]
        let currency = try currency(code: code, column: row.name(of: 5))
        let statusText: String = try row[8]
        guard let status = InvoiceStatus(rawValue: statusText) else {
            throw DatabaseError.invalidValue(column: "status", text: statusText, expected: "invoice status")
        }
        let dueDate = try row.day(4)
        let balance = Money(minorUnits: try row[7], currency: currency)
        return InvoiceSummary(id: try row[0], number: try row[1], clientName: try row[2], issueDate: try row.day(3),
                              dueDate: dueDate, total: Money(minorUnits: try row[6], currency: currency),
                              balanceDue: balance, status: status,
                              displayStatus: InvoiceDisplayStatus(status: status, dueDate: dueDate, balance: balance, today: today))
    }

    static func listSQL(columns: String, query: InvoiceListQuery, today: CalendarDay, paged: Bool,
                        ordered: Bool = true) -> (String, [String: (any SQLBindable)?]) {
        var conditions: [String] = []
        var bindings: [String: (any SQLBindable)?] = [:]
        switch query.filter {
        case .all:
            break
        case .draft, .paid, .cancelled:
            conditions.append("i.status = '\(query.filter.rawValue)'")
        case .sent:
            conditions.append("i.status = 'sent' AND NOT (i.due_date < :today AND i.balance_minor > 0)")
            bindings["today"] = today
        case .overdue:
            conditions.append("i.status = 'sent' AND i.due_date < :today AND i.balance_minor > 0")
            bindings["today"] = today
        }
        if let clientID = query.clientID {
            conditions.append("i.client_id = :client")
            bindings["client"] = clientID
        }
        var sql = "SELECT \(columns) FROM invoices_invoice i"
        if let match = SearchText.matchExpression(query.search) {
            // Starting from the matches and joining beats "id IN (matches)", which first
            // builds a temporary list of every match.
            sql = "SELECT \(columns) FROM invoices_search JOIN invoices_invoice i ON i.id = invoices_search.rowid"
            conditions.insert("invoices_search MATCH :match", at: 0)
            bindings["match"] = match
        }
        // CROSS JOIN keeps the invoices the outer loop: unsorted, SQLite would start from the
        // smaller client table and reach each invoice through an index, 2.7× slower at 100 000.
        if columns.contains("c.") { sql += " CROSS JOIN invoices_client c ON c.id = i.client_id" }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if ordered {
            let direction = query.ascending ? "ASC" : "DESC"
            let key: String
            switch query.sort {
            case .issueDate: key = "i.issue_date"
            case .dueDate: key = "i.due_date"
            case .amount: key = "i.amount_key"
            }
            sql += " ORDER BY \(key) \(direction), i.id \(direction)"
        }
        if paged { sql += " LIMIT :limit OFFSET :offset" }
        return (sql, bindings)
    }
}

/// Turns what a person types in the search field into an FTS5 query.
enum SearchText {
    /// Each run of letters and digits becomes a quoted prefix term; all must match. Nil when
    /// nothing searchable was typed (only spaces or punctuation): then nothing is filtered.
    static func matchExpression(_ text: String) -> String? {
        var terms: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                terms.append(current)
                current = ""
            }
        }
        if !current.isEmpty { terms.append(current) }
        guard !terms.isEmpty else { return nil }
        // Letters and digits only, so a term never holds a quote; the quotes keep FTS5 from
        // reading a word such as AND, OR or NEAR as an operator.
        return terms.map { "\"\($0)\"*" }.joined(separator: " ")
    }
}
