import BillfoldCore
import Foundation
import InvoicesCore
import Storage
import Testing

/// `billfold invoice recurring run` killed again and again in the middle of issuing years of
/// missed periods: every period ends up issued exactly once and the numbers have no gap.
@Suite(.serialized) struct RecurringRunFaultTests {
    /// A weekly recurring invoice that started about six years ago: some 300 periods to catch up.
    private func library() throws -> (Library, [CalendarDay]) {
        let library = try Library()
        try FileManager.default.createDirectory(at: library.dataFolder, withIntermediateDirectories: true)
        let database = try Database.open(path: library.databasePath)
        let repository = try InvoiceRepository(database: database)
        let client = try repository.save(Client(name: "Acme", email: "", currency: .eur))
        let start = CalendarDay.today().adding(days: -7 * 300)
        let recurring = try repository.save(RecurringInvoice(
            clientID: client.id, currency: .eur,
            lines: [LineItem(description: "Support {period}", quantity: 1, unitPrice: Money(minorUnits: 50_000, currency: .eur),
                             taxRate: 19)],
            interval: .weeks(1), startDate: start, issueMode: .sent))
        let due = recurring.duePeriods(through: .today()).map(recurring.periodStart)
        try database.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        database.close()
        try library.installProLicence()
        try library.handOver()
        return (library, due)
    }

    @Test func aRunKilledManyTimesIssuesEveryPeriodOnceWithGapFreeNumbers() throws {
        let (library, due) = try library()
        var killedMidway = 0
        for step in 0..<16 {
            let outcome = try library.run(["invoice", "recurring", "run"], killAfter: 0.02 + Double(step) * 0.03)
            let issued = try library.invoiceRows().count
            if outcome.killed, issued > 0, issued < due.count { killedMidway += 1 }
        }
        let last = try library.run(["invoice", "recurring", "run"])
        #expect(last.status == 0, "\(last.errors)")
        let again = try library.run(["invoice", "recurring", "run"])
        #expect(again.output == "No recurring invoice is due.\n")

        let database = try Database.open(path: library.databasePath)
        defer { database.close(); try? library.handOver() }
        let periods = try database.query("SELECT period_start FROM invoices_recurring_issue ORDER BY period_start")
            .map { try $0.value(at: 0, as: CalendarDay.self) }
        #expect(periods == due)
        let invoices = try database.query("SELECT i.number, l.description FROM invoices_invoice i JOIN invoices_line l ON l.invoice_id = i.id ORDER BY i.id")
            .map { (try $0.value(at: 0, as: String.self), try $0.value(at: 1, as: String.self)) }
        #expect(invoices.count == due.count)
        #expect(Set(invoices.map(\.1)).count == due.count, "each period's invoice names its own period")
        // Gap-free: the counters run 1, 2, 3, … in the order the invoices were written.
        let counters = invoices.compactMap { Int($0.0.split(separator: "-").last ?? "") }
        #expect(counters == Array(1...due.count), "\(counters.prefix(20))")
        #expect(killedMidway > 0, "no run was stopped half-way")
        #expect(try database.queryValue("PRAGMA integrity_check", as: String.self) == "ok")
    }
}
