import BillfoldCore
import Documents
import Foundation
import Graphics
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite(.serialized) @MainActor struct ReceivablesTests {
    @Test func bucketsCountDaysPastTheDueDate() {
        #expect(AgeingBucket(daysPastDue: -5) == .current)
        #expect(AgeingBucket(daysPastDue: 0) == .current)
        #expect(AgeingBucket(daysPastDue: 1) == .upTo30)
        #expect(AgeingBucket(daysPastDue: 30) == .upTo30)
        #expect(AgeingBucket(daysPastDue: 31) == .upTo60)
        #expect(AgeingBucket(daysPastDue: 60) == .upTo60)
        #expect(AgeingBucket(daysPastDue: 61) == .upTo90)
        #expect(AgeingBucket(daysPastDue: 90) == .upTo90)
        #expect(AgeingBucket(daysPastDue: 91) == .over90)
    }

    /// The SQL that sums the report puts every due date in the same bucket as the Swift rule.
    @Test func theSQLBucketsAgreeWithTheRule() throws {
        let database = try Database.inMemory()
        let asOf = day("2024-03-01")
        let (sql, bindings) = AgeingBucket.sqlCase(dueDate: ":due", asOf: asOf)
        for offset in -5...130 {
            var named = bindings
            named["due"] = asOf.adding(days: -offset)
            let index = try database.query("SELECT " + sql, named: named).first.map { try $0.value(at: 0, as: Int.self) }
            #expect(index == AgeingBucket(daysPastDue: offset).rawValue, "\(offset) days past due")
        }
    }

    @Test func openAmountsArePerClientAndCurrencyInTheirBuckets() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        let bolt = try fixture.client("Bolt")
        let yen = try fixture.client("Yamada", currency: .jpy)
        // Due 2024-03-15: 17 days late on 2024-04-01.
        try fixture.sentInvoice(for: acme, issued: "2024-03-01", terms: 14, lines: [line(price: "100.00")])
        // Due 2024-01-15: 77 days late.
        try fixture.sentInvoice(for: acme, issued: "2024-01-01", terms: 14, lines: [line(price: "50.00")])
        // Due 2024-04-10: not yet due.
        try fixture.sentInvoice(for: bolt, issued: "2024-03-27", terms: 14, lines: [line(price: "19.99", rate: "19")])
        try fixture.sentInvoice(for: yen, issued: "2023-11-01", terms: 10, lines: [line(price: "5000", currency: .jpy)])
        // Drafts and cancelled invoices owe nothing; nor does one issued after the day.
        try fixture.invoice(for: acme, issued: "2024-03-01", lines: [line(price: "999.00")])
        // A sent invoice is cancelled by a credit note for all of it.
        let cancelled = try fixture.sentInvoice(for: bolt, issued: "2024-02-01", lines: [line(price: "999.00")])
        try fixture.repository.issue(CreditNote.full(of: cancelled, after: [], on: cancelled.issueDate))
        try fixture.sentInvoice(for: bolt, issued: "2024-04-02", lines: [line(price: "999.00")])

        let report = try fixture.repository.receivables(asOf: day("2024-04-01"))
        #expect(report.rows.map(\.clientName) == ["Acme", "Bolt", "Yamada"])
        let acmeRow = report.rows[0]
        #expect(acmeRow.amount(in: .upTo30) == money("100.00"))
        #expect(acmeRow.amount(in: .upTo90) == money("50.00"))
        #expect(acmeRow.total == money("150.00") && acmeRow.invoiceCount == 2)
        #expect(report.rows[1].amount(in: .current) == money("23.79"))
        #expect(report.rows[2].amount(in: .over90) == money("5000", .jpy))
        // Euros and yen each have their own total; they are never added.
        #expect(report.totals.map(\.currency) == [.eur, .jpy])
        #expect(report.totals[0].total == money("173.79"))
        #expect(report.totals[1].total == money("5000", .jpy))
    }

    @Test func paymentsAfterTheDayDoNotCountYet() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        var invoice = try fixture.sentInvoice(for: acme, issued: "2024-03-01", terms: 14, lines: [line(price: "100.00")])
        try invoice.recordPayment(money("30.00"), on: day("2024-03-10"))
        try invoice.recordPayment(money("70.00"), on: day("2024-04-20"))
        invoice = try fixture.repository.save(invoice)
        #expect(invoice.status == .paid)

        #expect(try fixture.repository.receivables(asOf: day("2024-03-05")).totals.first?.total == money("100.00"))
        #expect(try fixture.repository.receivables(asOf: day("2024-03-10")).totals.first?.total == money("70.00"))
        let april = try fixture.repository.receivables(asOf: day("2024-04-19"))
        #expect(april.rows.first?.amount(in: .upTo60) == money("70.00"))
        #expect(try fixture.repository.receivables(asOf: day("2024-04-20")).isEmpty)
        // The stored balance is what the invoice itself says today.
        #expect(try fixture.repository.receivables(asOf: day("2024-04-20")).totals.isEmpty)
    }

    @Test func theCSVHasPlainAmountsAndACurrencyColumn() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme, Inc.")
        try fixture.sentInvoice(for: acme, issued: "2024-03-01", terms: 14, lines: [line(quantity: "1000", price: "12.34")])
        let csv = try fixture.repository.receivables(asOf: day("2024-04-01")).csv()
        let records = try CSV.parse(Data(csv.utf8)).map(\.fields)
        #expect(records[0] == ReceivablesReport.csvHeader)
        #expect(records[1] == ["2024-04-01", "Acme, Inc.", "EUR", "0.00", "12340.00", "0.00", "0.00", "0.00", "12340.00", "1"])
        #expect(records[2][1] == "total" && records[2][8] == "12340.00")
        #expect(csv.hasSuffix("\r\n"))
    }

    @Test func thePDFShowsEachCurrencyAndItsTotals() throws {
        let fixture = try Fixture()
        try fixture.sentInvoice(for: try fixture.client("Acme"), issued: "2024-03-01", terms: 14, lines: [line(price: "100.00")])
        try fixture.sentInvoice(for: try fixture.client("Yamada", currency: .jpy), issued: "2024-03-01",
                                lines: [line(price: "5000", currency: .jpy)])
        let report = try fixture.repository.receivables(asOf: day("2024-04-01"))
        let formatting = InvoiceTemplate.Formatting(money: MoneyFormatter(locale: Locale(identifier: "en_US")),
                                                    dateLocale: Locale(identifier: "en_US"), paper: .a4)
        let pdf = try ReportTemplates.document(report, businessName: "Studio Nord", formatting: formatting).renderPDF()
        let text = try ReadBack(pdf.data).compactText
        for expected in ["Receivables", "As of Apr 1, 2024", "Acme", "Yamada", "€100.00", "¥5,000", "1–30 days", "Over 90 days"] {
            #expect(text.contains(compact(expected)), "\(expected) missing")
        }
        #expect(pdf.pageCount == 1)
    }

    @Test func revenueIsByIssueMonthWithTaxPerRate() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        try fixture.sentInvoice(for: acme, issued: "2024-01-15", lines: [line(price: "100.00", rate: "19"), line(price: "50.00", rate: "7")])
        var paid = try fixture.sentInvoice(for: acme, issued: "2024-03-02", lines: [line(price: "200.00", rate: "19")])
        try paid.markPaid(on: day("2025-01-10"))
        try fixture.repository.save(paid)
        // Not revenue: a draft, another year. An invoice cancelled by a credit note in its own
        // month counts and comes off again there.
        try fixture.invoice(for: acme, issued: "2024-02-01", lines: [line(price: "999.00", rate: "19")])
        let cancelled = try fixture.sentInvoice(for: acme, issued: "2024-02-01", lines: [line(price: "999.00")])
        try fixture.repository.issue(CreditNote.full(of: cancelled, after: [], on: cancelled.issueDate))
        try fixture.sentInvoice(for: acme, issued: "2023-12-31", lines: [line(price: "999.00")])

        let summary = try fixture.repository.revenueSummary(year: 2024)
        #expect(summary.currencies.count == 1)
        let euros = summary.currencies[0]
        #expect(euros.months[0] == .init(net: money("150.00"), tax: money("22.50"), gross: money("172.50"), invoiceCount: 1))
        #expect(euros.months[1] == .init(net: money("0.00"), tax: money("0.00"), gross: money("0.00"), invoiceCount: 1))
        #expect(euros.months[2].gross == money("238.00"))
        #expect(euros.year.net == money("350.00") && euros.year.tax == money("60.50") && euros.year.gross == money("410.50"))
        #expect(euros.taxRates.map(\.rate) == [7, 19])
        #expect(euros.taxRates[1].taxable == money("300.00") && euros.taxRates[1].tax == money("57.00"))
        #expect(try fixture.repository.revenueYears() == [2024, 2023])

        let csv = try CSV.parse(Data(summary.csv().utf8)).map(\.fields)
        #expect(csv[0] == RevenueSummary.csvHeader)
        #expect(csv[1] == ["2024", "01", "EUR", "150.00", "22.50", "172.50", "1"])
        #expect(csv[13] == ["2024", "total", "EUR", "350.00", "60.50", "410.50", "3"])
        #expect(csv[14] == RevenueSummary.csvTaxHeader)
        #expect(csv[15] == ["2024", "EUR", "S", "7", "50.00", "3.50"])

        let formatting = InvoiceTemplate.Formatting(money: MoneyFormatter(locale: Locale(identifier: "de_DE")),
                                                    numbers: NumberFormatting(locale: Locale(identifier: "de_DE")),
                                                    dateLocale: Locale(identifier: "de_DE"), paper: .a4)
        let text = try ReadBack(ReportTemplates.document(summary, businessName: "Studio Nord", formatting: formatting)
            .renderPDF().data).compactText
        for expected in ["Revenue 2024", "Januar", "März", "410,50", "57,00", "19"] {
            #expect(text.contains(compact(expected)), "\(expected) missing")
        }
    }

    /// A credit note comes off the revenue of its own month and year, partly or fully, and
    /// leaves the year the invoice was declared in as it was.
    @Test func aCreditNoteComesOffTheRevenueOfItsOwnMonth() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        let invoice = try fixture.sentInvoice(for: acme, issued: "2024-11-04",
                                              lines: [line("Design", quantity: "3", price: "100.00", rate: "19")])
        try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2025-02-10"), reason: "One hour less",
                                                lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        let earlier = try fixture.repository.revenueSummary(year: 2024).currencies[0]
        #expect(earlier.year.gross == money("357.00") && earlier.months[10].net == money("300.00"))
        let later = try fixture.repository.revenueSummary(year: 2025).currencies[0]
        #expect(later.months[1] == .init(net: money("-100.00"), tax: money("-19.00"), gross: money("-119.00"), invoiceCount: 0))
        #expect(later.taxRates.first?.taxable == money("-100.00") && later.taxRates.first?.tax == money("-19.00"))
        #expect(try fixture.repository.revenueYears() == [2025, 2024])

        // The rest credited in March cancels the invoice; 2024 still shows it as issued.
        let rest = try #require(try fixture.repository.invoice(invoice.id!))
        try fixture.repository.issue(CreditNote.full(of: rest, after: try fixture.repository.creditNotes(forInvoice: invoice.id!),
                                                     on: day("2025-03-01")))
        #expect(try fixture.repository.invoice(invoice.id!)?.status == .cancelled)
        #expect(try fixture.repository.revenueSummary(year: 2024).currencies[0].year.gross == money("357.00"))
        #expect(try fixture.repository.revenueSummary(year: 2025).currencies[0].year.gross == money("-357.00"))
    }

    /// What an invoice was credited after the day it still owed on that day, as with payments.
    @Test func creditNotesAfterTheDayDoNotCountYet() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        let invoice = try fixture.sentInvoice(for: acme, issued: "2024-03-01", terms: 14,
                                              lines: [line(quantity: "2", price: "100.00")])
        try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-20"), reason: "",
                                                lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        #expect(try fixture.repository.receivables(asOf: day("2024-03-19")).totals.first?.total == money("200.00"))
        #expect(try fixture.repository.receivables(asOf: day("2024-03-20")).totals.first?.total == money("100.00"))

        let rest = try #require(try fixture.repository.invoice(invoice.id!))
        try fixture.repository.issue(CreditNote.full(of: rest, after: try fixture.repository.creditNotes(forInvoice: invoice.id!),
                                                     on: day("2024-04-02")))
        let before = try fixture.repository.receivables(asOf: day("2024-04-01"))
        #expect(before.totals.first?.total == money("100.00") && before.rows.first?.invoiceCount == 1)
        #expect(try fixture.repository.receivables(asOf: day("2024-04-02")).isEmpty)
    }

    /// 120 clients make a report of several landscape pages: the header row repeats, every
    /// word stays on its page, and the metadata names the report and the business.
    @Test func aLongReceivablesReportStaysOnItsPages() throws {
        let fixture = try Fixture()
        for index in 0..<120 {
            let client = try fixture.client(String(format: "Client %03d with a rather long company name", index))
            try fixture.sentInvoice(for: client, issued: "2024-01-01", terms: index, lines: [line(price: "100.00")])
        }
        let report = try fixture.repository.receivables(asOf: day("2024-04-01"))
        #expect(report.rows.count == 120)
        let pdf = try ReadBack(ReportTemplates.document(report, businessName: "Studio Nord", formatting: englishFormatting)
            .renderPDF().data)
        #expect(pdf.pages.count > 1)
        #expect(pdf.document.title == "Receivables – As of Apr 1, 2024")
        #expect(pdf.document.author == "Studio Nord")
        for (index, page) in pdf.pages.enumerated() {
            #expect(page.size.width > page.size.height, "landscape")
            #expect(compact(page.text()).contains("Over90days"), "the header row on page \(index + 1)")
            let bounds = Rect(origin: .zero, size: page.size)
            for run in page.textRuns() {
                #expect(run.rect.minX >= bounds.minX && run.rect.maxX <= bounds.maxX
                    && run.rect.minY >= bounds.minY && run.rect.maxY <= bounds.maxY, "\(run.text) is off page \(index + 1)")
            }
        }
        #expect(pdf.compactText.contains(compact("Client 119 with a rather long company name")))
        #expect(pdf.compactText.contains("€12,000.00"))
    }
}
