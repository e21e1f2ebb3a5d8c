import BillfoldCore
import Foundation
import Storage

/// Why a recurring invoice cannot be saved or run.
public enum RecurringInvoiceError: Error, LocalizedError, Sendable, Equatable {
    case invalid([ValidationIssue<RecurringInvoiceField>])
    case notFound

    public var errorDescription: String? {
        switch self {
        case .invalid(let issues): issues.first?.message ?? tr("The recurring invoice is not complete.")
        case .notFound: tr("The recurring invoice no longer exists. It may have been deleted.")
        }
    }
}

/// A row of the recurring invoices list.
public struct RecurringInvoiceSummary: Sendable, Hashable {
    public let recurring: RecurringInvoice
    public let clientName: String
    /// How many periods have been issued.
    public let issuedCount: Int
    /// When the next invoice is issued; nil when the schedule has ended.
    public let nextIssueDate: CalendarDay?
}

/// One invoice a run of the schedule issued.
public struct IssuedRecurringInvoice: Sendable, Hashable {
    public let recurringID: RecurringInvoiceID
    public let period: DayRange
    /// The period as the invoice's lines name it.
    public let periodTitle: String
    public let invoiceID: InvoiceID
    public let number: String
}

/// What a run of the schedule did, and what it could not do yet.
public struct RecurringRun: Sendable, Hashable {
    public var issued: [IssuedRecurringInvoice] = []
    /// Periods that are due but wait for room under the free plan's invoice limit; the next run
    /// issues them once there is room. None is ever skipped.
    public var waitingForPlan = 0
    /// The limit that held them back.
    public var limit: Int?

    /// A sentence for a toast or the terminal; nil when nothing happened.
    public var summary: String? {
        var parts: [String] = []
        if !issued.isEmpty {
            parts.append(String(format: trn("%d recurring invoice issued.", "%d recurring invoices issued.", issued.count),
                                issued.count))
        }
        if waitingForPlan > 0 {
            parts.append(String(format: trn("%d recurring invoice waits: the free version keeps up to %d invoices. Upgrade to Billfold Pro to issue it.",
                                             "%d recurring invoices wait: the free version keeps up to %d invoices. Upgrade to Billfold Pro to issue them.",
                                             waitingForPlan), waitingForPlan, limit ?? 0))
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

extension InvoiceRepository {
    // MARK: - Recurring invoices

    /// Every recurring invoice with its client's name, how many periods it issued and when it
    /// issues next, ordered by client.
    public func recurringInvoices() throws -> [RecurringInvoiceSummary] {
        try database.transaction(.deferred) {
            let rows = try database.query(Self.recurringSelect + " ORDER BY c.name COLLATE NOCASE, r.id")
            return try rows.map { row in
                let recurring = try loadRecurring(row)
                let issued = try issuedPeriods(of: recurring.id)
                let next = recurring.nextPeriod(after: issued.max()).map(recurring.periodStart)
                return RecurringInvoiceSummary(recurring: recurring, clientName: try row[10], issuedCount: issued.count,
                                               nextIssueDate: next)
            }
        }
    }

    public func recurringInvoice(_ id: RecurringInvoiceID) throws -> RecurringInvoice? {
        try database.query(Self.recurringSelect + " WHERE r.id = ?", [id]).first.map(loadRecurring)
    }

    /// Inserts a new recurring invoice (no id) or changes one; periods already issued stay issued.
    @discardableResult
    public func save(_ recurring: RecurringInvoice) throws -> RecurringInvoice {
        let issues = recurring.validate()
        guard issues.isEmpty else { throw RecurringInvoiceError.invalid(issues) }
        var saved = recurring
        try database.transaction {
            guard let clientID = saved.clientID, try client(clientID) != nil else { throw InvoiceError.clientNotFound }
            let (kind, weeks) = Self.stored(saved.interval)
            var values: [String: (any SQLBindable)?] = [
                "client_id": clientID, "currency": saved.currency.code, "interval": kind, "weeks": weeks,
                "start_date": saved.startDate, "end_date": saved.endDate, "issue_mode": saved.issueMode.rawValue,
                "paused": saved.isPaused, "notes": saved.notes,
            ]
            if let id = saved.id {
                guard try recurringInvoice(id) != nil else { throw RecurringInvoiceError.notFound }
                values["id"] = id
                try database.execute("UPDATE invoices_recurring SET client_id = :client_id, currency = :currency, interval = :interval, interval_weeks = :weeks, start_date = :start_date, end_date = :end_date, issue_mode = :issue_mode, paused = :paused, notes = :notes WHERE id = :id", named: values)
                try database.execute("DELETE FROM invoices_recurring_line WHERE recurring_id = ?", [id])
            } else {
                try database.execute("INSERT INTO invoices_recurring (client_id, currency, interval, interval_weeks, start_date, end_date, issue_mode, paused, notes) VALUES (:client_id, :currency, :interval, :weeks, :start_date, :end_date, :issue_mode, :paused, :notes)", named: values)
                saved.id = RecurringInvoiceID(database.lastInsertRowID)
            }
            for (position, line) in saved.lines.enumerated() {
                try database.execute("INSERT INTO invoices_recurring_line (recurring_id, position, description, quantity, unit, unit_price_minor, tax_rate, discount_percent, vat_category, unit_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     [saved.id, position, line.description, line.quantity, line.unit, line.unitPrice.minorUnits,
                                      line.taxRate, line.discountPercent, line.vatCategory.code, line.unitCode.code])
            }
        }
        return saved
    }

    /// Deletes a recurring invoice; the invoices it issued stay.
    public func deleteRecurringInvoice(_ id: RecurringInvoiceID) throws {
        try database.transaction {
            guard try recurringInvoice(id) != nil else { throw RecurringInvoiceError.notFound }
            try database.execute("DELETE FROM invoices_recurring WHERE id = ?", [id])
        }
    }

    /// The first day of each period of `id` that has been issued.
    public func issuedPeriods(of id: RecurringInvoiceID?) throws -> Set<CalendarDay> {
        guard let id else { return [] }
        return Set(try database.query("SELECT period_start FROM invoices_recurring_issue WHERE recurring_id = ?", [id])
            .map { try $0.value(at: 0, as: CalendarDay.self) })
    }

    /// Issues every invoice that is due by `today` and not issued yet, oldest period first,
    /// each in a transaction of its own with the record of its period: a run that is stopped
    /// half-way leaves whole invoices only, and a second run, here or in another process,
    /// finds the period taken and issues nothing twice. Periods the plan has no room for
    /// wait, counted in the result, for a later run.
    @discardableResult
    public func issueDueRecurringInvoices(today: CalendarDay = .today(), plan: InvoicePlan,
                                          locale: Locale = UserLocale.time) throws -> RecurringRun {
        var run = RecurringRun()
        let templates = try database.query(Self.recurringSelect + " WHERE r.paused = 0 ORDER BY r.id").map(loadRecurring)
        for template in templates {
            guard let id = template.id else { continue }
            for index in template.duePeriods(through: today, after: try issuedPeriods(of: id).max()) {
                let outcome = try database.transaction(.immediate) { () throws -> IssuedRecurringInvoice? in
                    let start = template.periodStart(index)
                    // Another process may have issued it since the list above was read.
                    guard try database.queryValue("SELECT 1 FROM invoices_recurring_issue WHERE recurring_id = ? AND period_start = ?",
                                                  [id, start], as: Int.self) == nil else { return nil }
                    guard plan.allowsNewInvoice(existingCount: try invoiceCount()) else {
                        run.waitingForPlan += 1
                        run.limit = plan.invoiceLimit
                        return nil
                    }
                    guard let clientID = template.clientID, let client = try client(clientID) else {
                        throw InvoiceError.clientNotFound
                    }
                    let invoice = try save(template.invoice(forPeriod: index, client: client, profile: try profile(),
                                                            today: today, locale: locale))
                    guard let invoiceID = invoice.id else { return nil }
                    try database.execute("INSERT INTO invoices_recurring_issue (recurring_id, period_start, invoice_id, issued_on) VALUES (?, ?, ?, ?)",
                                         [id, start, invoiceID, today])
                    return IssuedRecurringInvoice(recurringID: id, period: template.period(index),
                                                  periodTitle: RecurringInvoice.periodTitle(template.period(index), interval: template.interval, locale: locale),
                                                  invoiceID: invoiceID,
                                                  number: invoice.number)
                }
                if let outcome { run.issued.append(outcome) }
            }
        }
        return run
    }

    // MARK: - Internals

    private static let recurringSelect = "SELECT r.id, r.client_id, r.currency, r.interval, r.interval_weeks, r.start_date, r.end_date, r.issue_mode, r.paused, r.notes, c.name FROM invoices_recurring r JOIN invoices_client c ON c.id = r.client_id"

    private static func stored(_ interval: RecurrenceInterval) -> (String, Int) {
        switch interval {
        case .monthly: ("monthly", 1)
        case .quarterly: ("quarterly", 1)
        case .yearly: ("yearly", 1)
        case .weeks(let weeks): ("weeks", weeks)
        }
    }

    private func loadRecurring(_ row: Row) throws -> RecurringInvoice {
        let id: RecurringInvoiceID = try row[0]
        let currency = try Self.currency(row, 2)
        let kind: String = try row[3]
        let interval: RecurrenceInterval
        switch kind {
        case "monthly": interval = .monthly
        case "quarterly": interval = .quarterly
        case "yearly": interval = .yearly
        case "weeks": interval = .weeks(try row[4])
        default: throw DatabaseError.invalidValue(column: "interval", text: kind, expected: "recurrence interval")
        }
        let modeText: String = try row[7]
        guard let mode = RecurringIssueMode(rawValue: modeText) else {
            throw DatabaseError.invalidValue(column: "issue_mode", text: modeText, expected: "issue mode")
        }
        var recurring = RecurringInvoice(clientID: try row[1], currency: currency, interval: interval, startDate: try row[5],
                                         endDate: try row[6], issueMode: mode, isPaused: try row[8], notes: try row[9])
        recurring.id = id
        try database.query("SELECT description, quantity, unit, unit_price_minor, tax_rate, discount_percent, vat_category, unit_code FROM invoices_recurring_line WHERE recurring_id = ? ORDER BY position", [id]) { line in
            recurring.lines.append(LineItem(
                description: try line[0], quantity: try line[1], unit: try line[2],
                unitPrice: Money(minorUnits: try line[3], currency: currency), taxRate: try line[4],
                discountPercent: try line[5], vatCategory: try Self.vatCategory(line, 6), unitCode: UnitCode(try line[7])))
        }
        return recurring
    }
}
