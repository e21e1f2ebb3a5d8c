import BillfoldCore
import Foundation
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct ReminderTests {
    @Test func interestIsWorkedOutPerDayOnWholeNumbersAndRoundedOnce() throws {
        // 1 190.00 at 12.12 % for 30 days: 119 000 × 1 212 × 30 / 3 650 000 = 1 185.4356… cents.
        let interest = try StatutoryInterest.amount(on: money("1190.00"), percentPerYear: decimal("12.12"),
                                                    from: day("2024-03-15"), to: day("2024-04-14"))
        #expect(interest == money("11.85"))
        // Exactly half a cent rounds up; a leap year still counts 365 days.
        #expect(try StatutoryInterest.amount(on: money("182.50"), percentPerYear: 1, from: day("2024-02-28"),
                                             to: day("2024-02-29")) == money("0.01"))
        #expect(try StatutoryInterest.amount(on: money("182.49"), percentPerYear: 1, from: day("2024-02-28"),
                                             to: day("2024-02-29")) == money("0.00"))
        #expect(try StatutoryInterest.amount(on: money("36500.00"), percentPerYear: 10, from: day("2024-01-01"),
                                             to: day("2025-01-01")) == money("3660.00"))
        // Nothing before or on the due date, and yen have no minor unit to round to.
        #expect(try StatutoryInterest.amount(on: money("100.00"), percentPerYear: 9, from: day("2024-03-15"),
                                             to: day("2024-03-15")).isZero)
        #expect(try StatutoryInterest.amount(on: Money(minorUnits: 1_000_000, currency: .jpy), percentPerYear: decimal("9.5"),
                                             from: day("2024-01-01"), to: day("2024-01-11")) == Money(minorUnits: 2603, currency: .jpy))
    }

    @Test func onlyAnOverdueSentInvoiceGetsAReminder() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        let draft = try fixture.invoice(for: acme, lines: [line(price: "100.00")])
        #expect(throws: ReminderError.notOverdue) {
            try Reminder.draft(for: draft, level: .friendly, on: day("2024-06-01"), fee: .zero(.eur), interestRate: 0, deadlineDays: 14)
        }
        let sent = try fixture.sentInvoice(for: acme, lines: [line(price: "100.00")])
        #expect(throws: ReminderError.notOverdue) {
            try Reminder.draft(for: sent, level: .friendly, on: sent.dueDate, fee: .zero(.eur), interestRate: 0, deadlineDays: 14)
        }
        #expect(throws: ReminderError.negativeFee) {
            try Reminder.draft(for: sent, level: .first, on: day("2024-06-01"), fee: money("-1.00"), interestRate: 0, deadlineDays: 14)
        }
        #expect(throws: ReminderError.invalidRate) {
            try Reminder.draft(for: sent, level: .first, on: day("2024-06-01"), fee: .zero(.eur), interestRate: 101, deadlineDays: 14)
        }
    }

    @Test func remindersAreRecordedInOrderAndEachLetterListsTheOnesBefore() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        let invoice = try fixture.sentInvoice(for: acme, issued: "2024-03-01", lines: [line(price: "1000.00", rate: "19")])
        #expect(ReminderLevel.next(after: nil) == .friendly)
        let friendly = try fixture.repository.record(
            try Reminder.draft(for: invoice, level: .friendly, on: day("2024-03-25"), fee: .zero(.eur), interestRate: 0, deadlineDays: 7))
        let first = try fixture.repository.record(
            try Reminder.draft(for: invoice, level: ReminderLevel.next(after: friendly.level), on: day("2024-04-14"),
                               fee: money("5.00"), interestRate: decimal("12.12"), deadlineDays: 10))
        #expect(try fixture.repository.reminders(for: invoice.id!).map(\.level) == [.friendly, .first])
        #expect(first.interest == money("11.85") && first.deadline == day("2024-04-24"))

        let document = try fixture.repository.document(for: first)
        #expect(document.previous.map(\.level) == [.friendly])
        #expect(try document.totalToPay() == money("1206.85"))   // 1 190.00 + 5.00 + 11.85

        let pdf = try ReadBack(try ReminderPDF.render(document, formatting: englishFormatting).data)
        let text = pdf.compactText
        for expected in ["FirstDunningNotice", invoice.number, "Acme", "€1,190.00", "Reminderfee", "€5.00",
                         "Interestat12.12%ayearfor30days", "€11.85", "Totaltopay", "€1,206.85", "Apr24,2024",
                         "Earlierreminders", "PaymentReminder", "StudioNord"] {
            #expect(text.contains(expected), "missing \(expected)")
        }
    }

    @Test func beforeTheProfileIsFilledInTheFooterStartsWithTheLetter() throws {
        let fixture = try Fixture()
        let invoice = try fixture.sentInvoice(for: try fixture.client("Acme"), lines: [line(price: "100.00")])
        let reminder = try Reminder.draft(for: invoice, level: .friendly, on: day("2024-04-01"), fee: .zero(.eur),
                                          interestRate: 0, deadlineDays: 14)
        let document = try fixture.repository.document(for: reminder)
        let unnamed = ReminderDocument(profile: .initial(), invoice: document.invoice, billTo: document.billTo,
                                       reminder: reminder, previous: [], logoURL: nil)
        let text = try ReadBack(try ReminderPDF.render(unnamed, formatting: englishFormatting).data).pages[0].text()
        #expect(text.contains("Payment Reminder for invoice \(invoice.number)"))
        #expect(!text.contains("· Payment Reminder"))
    }

    @Test func aReminderIsRecordedOnlyWhileItMatchesTheInvoice() throws {
        let fixture = try Fixture()
        var invoice = try fixture.sentInvoice(for: try fixture.client("Acme"), lines: [line(price: "100.00")])
        let reminder = try Reminder.draft(for: invoice, level: .first, on: day("2024-05-01"), fee: money("2.50"),
                                          interestRate: 9, deadlineDays: 14)
        try invoice.recordPayment(money("40.00"), on: day("2024-04-30"))
        try fixture.repository.save(invoice)
        #expect(throws: InvoiceError.changedSinceLoaded) { try fixture.repository.record(reminder) }
        #expect(try fixture.repository.reminders(for: invoice.id!).isEmpty)
    }
}
