import BillfoldCore
import Foundation
import Storage

extension InvoiceRepository {
    // MARK: - Payment reminders

    /// The reminders sent for an invoice, oldest first.
    public func reminders(for invoiceID: InvoiceID) throws -> [Reminder] {
        guard let currency = try database.queryValue("SELECT currency FROM invoices_invoice WHERE id = ?", [invoiceID],
                                                     as: String.self).flatMap(Currency.init(code:))
        else { throw InvoiceError.invoiceNotFound }
        return try database.query("SELECT id, level, sent_on, open_minor, fee_minor, interest_rate, interest_minor, deadline FROM invoices_reminder WHERE invoice_id = ? ORDER BY id", [invoiceID]).map { row in
            let levelText: String = try row[1]
            guard let level = ReminderLevel(rawValue: levelText) else {
                throw DatabaseError.invalidValue(column: "level", text: levelText, expected: "reminder level")
            }
            var reminder = Reminder(invoiceID: invoiceID, level: level, date: try row[2],
                                    openAmount: Money(minorUnits: try row[3], currency: currency),
                                    fee: Money(minorUnits: try row[4], currency: currency), interestRate: try row[5],
                                    interest: Money(minorUnits: try row[6], currency: currency), deadline: try row[7])
            reminder.id = try row[0]
            return reminder
        }
    }

    /// Records a reminder on its invoice's history, after checking it against the invoice as
    /// stored now: still sent, overdue and owing what the reminder says.
    @discardableResult
    public func record(_ reminder: Reminder) throws -> Reminder {
        try database.transaction {
            guard let invoice = try invoice(reminder.invoiceID) else { throw InvoiceError.invoiceNotFound }
            let current = try Reminder.draft(for: invoice, level: reminder.level, on: reminder.date, fee: reminder.fee,
                                             interestRate: reminder.interestRate,
                                             deadlineDays: reminder.date.days(to: reminder.deadline))
            guard current == reminder else { throw InvoiceError.changedSinceLoaded }
            try database.execute("INSERT INTO invoices_reminder (invoice_id, level, sent_on, open_minor, fee_minor, interest_rate, interest_minor, deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                 [reminder.invoiceID, reminder.level.rawValue, reminder.date, reminder.openAmount.minorUnits,
                                  reminder.fee.minorUnits, reminder.interestRate, reminder.interest.minorUnits, reminder.deadline])
            var saved = reminder
            saved.id = database.lastInsertRowID
            return saved
        }
    }

    /// The letter for `reminder`, listing the reminders recorded before it.
    public func document(for reminder: Reminder) throws -> ReminderDocument {
        try database.transaction(.deferred) {
            guard let invoice = try invoice(reminder.invoiceID) else { throw InvoiceError.invoiceNotFound }
            let invoiceDocument = try document(for: invoice)
            let previous = try reminders(for: reminder.invoiceID).filter { other in
                reminder.id.map { id in other.id.map { $0 < id } ?? false } ?? true
            }
            return ReminderDocument(profile: invoiceDocument.profile, invoice: invoice, billTo: invoiceDocument.billTo,
                                    reminder: reminder, previous: previous, logoURL: invoiceDocument.logoURL)
        }
    }
}
