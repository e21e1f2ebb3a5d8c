import BillfoldCore
import Foundation
import Plans
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct RecurringInvoiceTests {
    private let english = Locale(identifier: "en_US")

    @discardableResult
    private func template(_ fixture: Fixture, client: Client, interval: RecurrenceInterval = .monthly,
                          start: String, end: String? = nil, mode: RecurringIssueMode = .draft,
                          description: String = "Retainer {period}") throws -> RecurringInvoice {
        try fixture.repository.save(RecurringInvoice(
            clientID: client.id, currency: client.currency, lines: [line(description, price: "1000.00", rate: "19")],
            interval: interval, startDate: day(start), endDate: end.map(day), issueMode: mode))
    }

    @Test func aClientWithRecurringInvoicesIsNotDeletedAndNeitherAreThey() throws {
        let fixture = try Fixture()
        let client = try fixture.repository.save(Client(name: "Acme", currency: .eur))
        _ = try template(fixture, client: client, start: "2027-01-01")
        #expect(throws: InvoiceError.clientHasRecurringInvoices(count: 1)) {
            try fixture.repository.deleteClient(try #require(client.id))
        }
        #expect(try fixture.repository.clients().map(\.name) == ["Acme"])
        #expect(try fixture.repository.recurringInvoices().count == 1)
    }

    @Test func monthsCountFromTheStartDayAndKeepToTheEndOfShortMonths() {
        let recurring = RecurringInvoice(clientID: nil, currency: .eur, startDate: day("2027-01-31"))
        #expect((0..<4).map { recurring.periodStart($0).isoString } == ["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"])
        #expect(recurring.period(1) == DayRange(day("2027-02-28"), day("2027-03-30")))
        var weekly = recurring
        weekly.interval = .weeks(2)
        #expect(weekly.periodStart(3) == day("2027-03-14"))
        var quarterly = recurring
        quarterly.interval = .quarterly
        quarterly.startDate = day("2027-11-01")
        #expect(quarterly.periodStart(1) == day("2028-02-01"))
    }

    @Test func duePeriodsStopAtTodayAndAtTheEndDate() {
        var recurring = RecurringInvoice(clientID: nil, currency: .eur, startDate: day("2027-01-01"))
        #expect(recurring.duePeriods(through: day("2026-12-31")) == [])
        #expect(recurring.duePeriods(through: day("2027-03-01")) == [0, 1, 2])
        recurring.endDate = day("2027-02-15")
        #expect(recurring.duePeriods(through: day("2027-06-01")) == [0, 1])
        #expect(recurring.nextPeriod(after: day("2027-02-01")) == nil)
        #expect(recurring.duePeriods(through: day("2027-06-01"), after: day("2027-01-01")) == [1])
    }

    @Test func periodTitlesFollowTheLocale() {
        let march = DayRange(day("2027-03-01"), day("2027-03-31"))
        #expect(RecurringInvoice.periodTitle(march, interval: .monthly, locale: english) == "March 2027")
        #expect(RecurringInvoice.periodTitle(march, interval: .monthly, locale: Locale(identifier: "de_DE")) == "März 2027")
        #expect(RecurringInvoice.periodTitle(DayRange(day("2027-01-01"), day("2027-12-31")), interval: .yearly, locale: english) == "2027")
        let fortnight = DayRange(day("2027-03-03"), day("2027-03-16"))
        #expect(RecurringInvoice.periodTitle(fortnight, interval: .weeks(2), locale: english) == "Mar 3, 2027 – Mar 16, 2027")
    }

    @Test func placeholdersAreFilledAndALineWithoutOneSaysThePeriod() {
        var recurring = RecurringInvoice(clientID: nil, currency: .eur,
                                         lines: [line("Hosting {period} ({start} to {end})", price: "5.00")],
                                         startDate: day("2027-03-01"))
        let march = recurring.period(0)
        #expect(recurring.lines(for: march, locale: english).map(\.description) == ["Hosting March 2027 (Mar 1, 2027 to Mar 31, 2027)"])
        recurring.lines = [line("Support", price: "5.00"), line("Backups", price: "1.00")]
        #expect(recurring.lines(for: march, locale: english).map(\.description) == ["Support\nMarch 2027", "Backups"])
    }

    @Test func missedMonthsAreEachIssuedOnceWithTheirPeriodAndNothingTwice() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        let recurring = try template(fixture, client: acme, start: "2027-01-01")
        let run = try fixture.repository.issueDueRecurringInvoices(today: day("2027-03-15"), plan: .pro, locale: english)
        #expect(run.issued.map(\.periodTitle) == ["January 2027", "February 2027", "March 2027"])
        let invoices = try run.issued.map { try #require(try fixture.repository.invoice($0.invoiceID)) }
        #expect(invoices.map { $0.lines[0].description } == ["Retainer January 2027", "Retainer February 2027", "Retainer March 2027"])
        #expect(invoices.map(\.number) == ["INV-2027-0001", "INV-2027-0002", "INV-2027-0003"])
        #expect(invoices.allSatisfy { $0.status == .draft && $0.issueDate == day("2027-03-15") })
        #expect(invoices[1].deliveryDate == day("2027-02-01") && invoices[1].deliveryEndDate == day("2027-02-28"))

        let again = try fixture.repository.issueDueRecurringInvoices(today: day("2027-03-15"), plan: .pro)
        #expect(again.issued.isEmpty)
        #expect(try fixture.repository.invoiceCount() == 3)
        let summary = try #require(try fixture.repository.recurringInvoices().first { $0.recurring.id == recurring.id })
        #expect(summary.issuedCount == 3 && summary.nextIssueDate == day("2027-04-01"))

        // A deleted invoice's period is not issued again.
        try fixture.repository.delete(invoices[0].id!)
        #expect(try fixture.repository.issueDueRecurringInvoices(today: day("2027-03-31"), plan: .pro).issued.isEmpty)
    }

    @Test func issueAndMarkSentSendsEachInvoiceOnTheDayItIsIssued() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme", terms: 30)
        try template(fixture, client: acme, interval: .weeks(1), start: "2027-03-01", mode: .sent)
        let run = try fixture.repository.issueDueRecurringInvoices(today: day("2027-03-08"), plan: .pro)
        let invoices = try run.issued.map { try #require(try fixture.repository.invoice($0.invoiceID)) }
        #expect(invoices.count == 2)
        #expect(invoices.allSatisfy { $0.status == .sent && $0.sentOn == day("2027-03-08") && $0.dueDate == day("2027-04-07") })
    }

    @Test func aPausedTemplateIssuesNothingUntilResumedThenCatchesUp() throws {
        let fixture = try Fixture()
        var recurring = try template(fixture, client: try fixture.client("Acme"), start: "2027-01-01")
        recurring.isPaused = true
        recurring = try fixture.repository.save(recurring)
        #expect(try fixture.repository.issueDueRecurringInvoices(today: day("2027-02-10"), plan: .pro).issued.isEmpty)
        recurring.isPaused = false
        try fixture.repository.save(recurring)
        #expect(try fixture.repository.issueDueRecurringInvoices(today: day("2027-02-10"), plan: .pro).issued.count == 2)
    }

    @Test func theFreePlanIssuesUpToItsLimitAndSaysWhatWaitsWithoutSkippingIt() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        for _ in 0..<3 { try fixture.invoice(for: acme, lines: [line(price: "10.00")]) }
        try template(fixture, client: acme, start: "2027-01-01")
        let free = InvoicePlan(status: .free)
        let run = try fixture.repository.issueDueRecurringInvoices(today: day("2027-04-01"), plan: free, locale: english)
        #expect(run.issued.map(\.periodTitle) == ["January 2027", "February 2027"])
        #expect(run.waitingForPlan == 2)
        #expect(run.summary == "2 recurring invoices issued. 2 recurring invoices wait: the free version keeps up to 5 invoices. Upgrade to Billfold Pro to issue them.")
        // With room again, the waiting periods are issued, in order.
        let later = try fixture.repository.issueDueRecurringInvoices(today: day("2027-04-01"), plan: .pro, locale: english)
        #expect(later.issued.map(\.periodTitle) == ["March 2027", "April 2027"])
    }

    @Test func eachInvoiceCarriesTheTemplatesNotesOrElseTheProfiles() throws {
        let fixture = try Fixture()
        var profile = try fixture.repository.profile()
        profile.defaultNotes = "Thank you for your business."
        try fixture.repository.saveProfile(profile)
        let acme = try fixture.client("Acme")
        var recurring = try template(fixture, client: acme, start: "2027-01-01")
        let first = try fixture.repository.issueDueRecurringInvoices(today: day("2027-01-01"), plan: .pro).issued[0]
        #expect(try fixture.repository.invoice(first.invoiceID)?.notes == "Thank you for your business.")
        recurring.notes = "Retainer as agreed on 3 December."
        try fixture.repository.save(recurring)
        let second = try fixture.repository.issueDueRecurringInvoices(today: day("2027-02-01"), plan: .pro).issued[0]
        #expect(try fixture.repository.invoice(second.invoiceID)?.notes == "Retainer as agreed on 3 December.")
    }

    @Test func aTemplateIsCheckedBeforeItIsSaved() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        var recurring = RecurringInvoice(clientID: acme.id, currency: .eur, interval: .weeks(0), startDate: day("2027-03-01"),
                                         endDate: day("2027-02-01"))
        #expect(recurring.validate().map(\.field) == [.interval, .endDate, .lines])
        recurring.interval = .monthly
        recurring.endDate = nil
        recurring.lines = [line("", price: "1.00")]
        #expect(throws: RecurringInvoiceError.self) { try fixture.repository.save(recurring) }
        #expect(try fixture.repository.recurringInvoices().isEmpty)
    }

    @Test func editingKeepsIssuedPeriodsAndDeletingKeepsTheInvoices() throws {
        let fixture = try Fixture()
        var recurring = try template(fixture, client: try fixture.client("Acme"), start: "2027-01-01")
        try fixture.repository.issueDueRecurringInvoices(today: day("2027-02-01"), plan: .pro)
        recurring.lines[0].description = "Support {period}"
        // A schedule moved after issuing goes on after the last period issued, never back over it.
        recurring.startDate = day("2026-12-15")
        try fixture.repository.save(recurring)
        #expect(try fixture.repository.issueDueRecurringInvoices(today: day("2027-02-10"), plan: .pro).issued.isEmpty)
        let next = try fixture.repository.issueDueRecurringInvoices(today: day("2027-02-15"), plan: .pro, locale: english)
        #expect(next.issued.map(\.periodTitle) == ["Feb 15, 2027 – Mar 14, 2027"])
        try fixture.repository.deleteRecurringInvoice(recurring.id!)
        #expect(try fixture.repository.recurringInvoices().isEmpty)
        #expect(try fixture.repository.invoiceCount() == 3)
    }

    @Test func theCommandRunsTheScheduleAndSaysWhatItIssued() throws {
        let fixture = try Fixture()
        try template(fixture, client: try fixture.client("Acme"), start: "2024-02-01")
        let formatting = InvoicesCommandLine.Formatting(money: MoneyFormatter(locale: english), dateLocale: english)
        let captured = CapturedOutput()
        let status = InvoicesCommandLine.run(arguments: ["recurring", "run"], database: fixture.database, plan: .pro,
                                             today: day("2024-04-01"), formatting: formatting, output: captured.output)
        #expect(status == 0)
        #expect(captured.standard == "Issued INV-2024-0001 for February 2024.\nIssued INV-2024-0002 for March 2024.\nIssued INV-2024-0003 for April 2024.\n3 recurring invoices issued.")
        let second = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["recurring", "run"], database: fixture.database, plan: .pro,
                                        today: day("2024-04-01"), formatting: formatting, output: second.output) == 0)
        #expect(second.standard == "No recurring invoice is due.")
        let list = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["recurring", "list"], database: fixture.database, plan: .pro,
                                        today: day("2024-04-01"), formatting: formatting, output: list.output) == 0)
        let lines = list.standard.components(separatedBy: "\n")
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[0].hasPrefix("Client") && lines[0].contains("Next"))
        #expect(lines[2].hasPrefix("Acme") && lines[2].contains("Monthly") && lines[2].contains("€1,000.00")
                && lines[2].contains("May 1, 2024") && lines[2].hasSuffix("3"), "\(lines[2])")
        let wrong = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["recurring"], database: fixture.database, plan: .pro,
                                        output: wrong.output) == 2)
        #expect(wrong.error.hasPrefix("Unknown invoice command “recurring”."))
        #expect(wrong.error.contains("billfold invoice recurring list|run"))
    }
}

@Suite struct RecurringMigrationTests {
    /// A library at schema version 3 with an invoice keeps every row when it gains the new tables.
    @Test func migratingALibraryWithDataKeepsEveryRow() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("library.sqlite3")
        let old = try Database.open(path: path)
        try old.migrate(owner: InvoiceSchema.owner, migrations: Array(InvoiceSchema.migrations.prefix(3)))
        try old.execute("INSERT INTO invoices_client (name, email, address, tax_id, currency, notes) VALUES ('Acme', '', '', '', 'EUR', '')")
        try old.execute("INSERT INTO invoices_invoice (number, client_id, issue_date, due_date, currency, discount_percent, notes, status, subtotal_minor, discount_minor, tax_minor, total_minor, paid_minor, balance_minor, amount_key, updated_at, revision) VALUES ('INV-1', 1, '2024-01-01', '2024-01-15', 'EUR', '0', '', 'sent', 100, 0, 0, 100, 0, 100, 100, '2024-01-01', 1)")
        old.close()

        let database = try Database.open(path: path)
        let repository = try InvoiceRepository(database: database)
        #expect(try database.schemaVersion(owner: InvoiceSchema.owner) == InvoiceSchema.migrations.count)
        let invoice = try #require(try repository.invoice(number: "INV-1"))
        #expect(invoice.status == .sent && invoice.clientID != nil)
        #expect(try repository.reminders(for: invoice.id!).isEmpty)
        #expect(try repository.recurringInvoices().isEmpty)
    }
}
