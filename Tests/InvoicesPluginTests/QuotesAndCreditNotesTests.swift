import BillfoldCore
import Foundation
import Plans
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct QuoteTests {
    private func sentQuote(_ fixture: Fixture, client: Client, issued: String = "2024-03-01",
                           lines: [LineItem] = [line("Design", quantity: "10", price: "90.00", rate: "19")]) throws -> Quote {
        var quote = Quote(clientID: client.id, issueDate: day(issued), validUntil: day(issued).adding(days: 30),
                          currency: .eur, lines: lines, discountPercent: 5, notes: "Start in April")
        quote = try fixture.repository.save(quote)
        try quote.markSent(on: day(issued))
        return try fixture.repository.save(quote)
    }

    @Test func quotesHaveTheirOwnNumbersWithoutGaps() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        try fixture.invoice(for: client, lines: [])
        let first = try fixture.repository.save(Quote.draft(for: client, today: day("2024-03-01")))
        let second = try fixture.repository.save(Quote.draft(for: client, today: day("2024-03-02")))
        #expect(first.number == "QUO-2024-0001" && second.number == "QUO-2024-0002")
        #expect(try fixture.repository.suggestedNumber(issuedOn: day("2024-03-01")) == "INV-2024-0002")

        var profile = try fixture.repository.profile()
        profile.quoteNumberPattern = "A-{NNN}"
        try fixture.repository.saveProfile(profile)
        #expect(try fixture.repository.profile().quoteNumberPattern == "A-{NNN}")
        #expect(try fixture.repository.save(Quote.draft(for: client, today: day("2024-03-03"))).number == "A-001")

        profile.quoteNumberPattern = "no counter"
        #expect(profile.validate().map(\.field) == [.quoteNumberPattern])
    }

    @Test func aQuoteMovesFromDraftToSentToAcceptedOrDeclined() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var quote = try fixture.repository.save(Quote.draft(for: client, today: day("2024-03-01")))
        #expect(throws: InvoiceError.nothingToSend) { try quote.markSent(on: day("2024-03-01")) }
        quote = try sentQuote(fixture, client: client)
        #expect(quote.displayStatus(today: day("2024-03-31")) == .sent)
        #expect(quote.displayStatus(today: day("2024-04-01")) == .expired)

        var changed = quote
        changed.notes = "Other notes"
        #expect(throws: InvoiceError.quoteLocked) { try fixture.repository.save(changed) }

        var declined = quote
        try declined.decline()
        declined = try fixture.repository.save(declined)
        #expect(try fixture.repository.quote(quote.id!)?.status == .declined)
        #expect(throws: InvoiceError.quoteTransitionNotAllowed(from: .declined, to: .accepted)) {
            try declined.accept(today: day("2024-03-02"))
        }
        try declined.reopen(today: day("2024-03-10"))
        declined = try fixture.repository.save(declined)
        #expect(declined.status == .draft && declined.number == quote.number && declined.issueDate == day("2024-03-01"))
    }

    @Test func anExpiredQuoteIsNotAcceptedButReopensWithANewValidity() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var quote = try sentQuote(fixture, client: client)
        #expect(throws: InvoiceError.quoteExpired) { try quote.accept(today: day("2024-04-02")) }
        try quote.reopen(today: day("2024-05-01"))
        #expect(quote.status == .draft && quote.issueDate == day("2024-05-01") && quote.validUntil == day("2024-05-31"))
        quote = try fixture.repository.save(quote)
        #expect(quote.displayStatus(today: day("2024-05-02")) == .draft)
    }

    @Test func convertingCopiesTheLinesAndLinksBothWays() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme", terms: 10)
        var quote = try sentQuote(fixture, client: client)
        try quote.accept(today: day("2024-03-05"))
        quote = try fixture.repository.save(quote)

        let invoice = try fixture.repository.convertToInvoice(quote.id!, today: day("2024-03-06"), plan: .free)
        #expect(invoice.status == .draft && invoice.number == "INV-2024-0001")
        #expect(invoice.lines == quote.lines && invoice.discountPercent == 5 && invoice.notes == "Start in April")
        #expect(invoice.issueDate == day("2024-03-06") && invoice.dueDate == day("2024-03-16"))
        #expect(try invoice.totals().total == quote.totals().total)
        #expect(try fixture.repository.quote(quote.id!)?.invoiceID == invoice.id)
        #expect(try fixture.repository.quote(convertedInto: invoice.id!)?.link.number == quote.number)
        #expect(throws: InvoiceError.quoteAlreadyConverted(invoiceNumber: invoice.number)) {
            try fixture.repository.convertToInvoice(quote.id!, today: day("2024-03-06"), plan: .free)
        }
    }

    @Test func convertingASentQuoteAcceptsItAndKeepsToThePlan() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let quote = try sentQuote(fixture, client: client)
        for _ in 0..<EntitlementLimits.freeInvoices { try fixture.invoice(for: client, lines: []) }
        #expect(throws: InvoiceError.freeTierLimitReached(limit: EntitlementLimits.freeInvoices)) {
            try fixture.repository.convertToInvoice(quote.id!, today: day("2024-03-06"), plan: .free)
        }
        // Nothing half-done: the quote is still sent, and no invoice was made.
        #expect(try fixture.repository.quote(quote.id!)?.status == .sent)
        #expect(try fixture.repository.invoiceCount() == EntitlementLimits.freeInvoices)
        // Quotes themselves do not count toward the limit.
        #expect(try fixture.repository.save(Quote.draft(for: client, today: day("2024-03-06"))).id != nil)

        let invoice = try fixture.repository.convertToInvoice(quote.id!, today: day("2024-03-06"), plan: .pro)
        #expect(try fixture.repository.quote(quote.id!)?.status == .accepted)
        #expect(try fixture.repository.quote(quote.id!)?.invoiceID == invoice.id)
    }

    @Test func theListShowsEveryQuoteNewestFirst() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let old = try sentQuote(fixture, client: client, issued: "2024-01-01")
        let new = try fixture.repository.save(Quote.draft(for: client, today: day("2024-03-01")))
        #expect(try fixture.repository.quoteIDs() == [new.id!, old.id!])
        let rows = try fixture.repository.quoteSummaries(for: [old.id!], today: day("2024-03-01"))
        #expect(rows.map(\.displayStatus) == [.expired])
        #expect(rows.first?.total == money("1017.45") && rows.first?.clientName == "Acme")
    }

    @Test func theQuotePDFSaysQuoteAndValidUntil() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let quote = try sentQuote(fixture, client: client)
        let text = try ReadBack(InvoicePDF.render(fixture.repository.document(for: quote), formatting: englishFormatting).data).compactText
        #expect(text.contains("Quote") && text.contains("QUO-2024-0001") && text.contains(compact("Valid until Mar 31, 2024")))
        #expect(text.contains(compact("QUOTED TOTAL")) && !text.contains(compact("AMOUNT DUE")) && !text.contains("IBAN"))
    }
}

@Suite struct CreditNoteTests {
    @Test func aSentInvoiceIsNeverDeletedOrChanged() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var invoice = try fixture.sentInvoice(for: client, lines: [line(price: "100.00")])
        #expect(throws: InvoiceError.sentInvoiceCannotBeDeleted(number: invoice.number)) {
            try fixture.repository.delete(invoice.id!)
        }
        #expect(throws: InvoiceError.sentInvoiceCannotBeDeleted(number: invoice.number)) {
            try fixture.repository.deleteClient(client.id!, invoices: .delete)
        }
        var notes = invoice
        notes.notes = "changed"
        #expect(throws: InvoiceError.locked(.notes)) { try fixture.repository.save(notes) }
        var due = invoice
        due.dueDate = due.dueDate.adding(days: 5)
        #expect(throws: InvoiceError.locked(.dueDate)) { try fixture.repository.save(due) }
        try invoice.cancel()
        #expect(throws: InvoiceError.cancelNeedsCreditNote) { try fixture.repository.save(invoice) }
        #expect(try fixture.repository.invoice(invoice.id!)?.status == .sent)
    }

    @Test func aFullCreditNoteCancelsTheInvoice() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let invoice = try fixture.sentInvoice(for: client, lines: [line("Design", quantity: "3", price: "100.00", rate: "19"),
                                                                   line("Hosting", price: "20.00", rate: "7")])
        let note = try fixture.repository.issue(CreditNote.full(of: invoice, after: [], on: day("2024-03-10"), reason: "Cancelled order"))
        #expect(note.number == "CN-2024-0001")
        let credited = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(credited.status == .cancelled)
        #expect(try credited.totals().credited == invoice.totals().total)
        #expect(try credited.totals().balanceDue.isZero)
        #expect(try fixture.repository.outstandingTotals(today: day("2024-03-10")).allSatisfy { $0.outstanding.isZero })
        #expect(throws: InvoiceError.creditNeedsSentInvoice(.cancelled)) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"),
                                                    lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        }
        #expect(try fixture.repository.creditNotes(forInvoice: invoice.id!) == [note])
        // Its PDF asks for nothing: no amount due, no due date, no payment details.
        let text = try ReadBack(InvoicePDF.render(fixture.repository.document(for: invoice.id!), formatting: englishFormatting).data).compactText
        #expect(text.contains(compact("NOTHING DUE")) && !text.contains(compact("AMOUNT DUE")))
        #expect(!text.contains(compact("Due Mar 15, 2024")) && text.contains(compact("Due date")))
        #expect(!text.contains(compact("Please transfer to the account below.")))
    }

    @Test func aPartialCreditNoteLowersTheBalanceAndTheOutstandingSum() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var invoice = try fixture.sentInvoice(for: client, lines: [line("Design", quantity: "3", price: "100.00", rate: "19"),
                                                                   line("Hosting", price: "20.00", rate: "7")])
        try invoice.recordPayment(money("100.00"), on: day("2024-03-05"))
        invoice = try fixture.repository.save(invoice)
        // 378.40 total; 100.00 paid.
        #expect(try invoice.totals().balanceDue == money("278.40"))

        let note = try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-10"),
                                                           reason: "One hour less", lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        let after = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(after.status == .sent)
        #expect(try after.totals().credited == money("119.00"))
        #expect(try after.totals().balanceDue == money("159.40"))
        #expect(try fixture.repository.summary(for: invoice.id!)?.balanceDue == money("159.40"))
        #expect(try fixture.repository.outstandingTotals(today: day("2024-03-10")).first?.outstanding == money("159.40"))
        #expect(try fixture.repository.creditNoteSummaries(for: [note.id!]).first?.total == money("119.00"))
        #expect(try fixture.repository.creditNoteSummaries(for: [note.id!]).first?.invoiceNumber == invoice.number)

        // No more than what is left; then the rest settles it.
        #expect(throws: InvoiceError.creditTooLarge(line: 0, remaining: "2")) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"),
                                                    lines: [CreditedLine(invoiceLine: 0, quantity: 3)]))
        }
        #expect(throws: InvoiceError.creditNoteEmpty) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"), lines: []))
        }
        var paying = after
        try paying.markPaid(on: day("2024-03-12"))
        #expect(paying.payments.last?.amount == money("159.40"))
        // A saved copy keeps what credit notes took off.
        #expect(try fixture.repository.save(paying).totals().credited == money("119.00"))
    }

    @Test func aDraftGetsNoCreditNoteAndNumbersRunWithoutGaps() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let draft = try fixture.invoice(for: client, lines: [line(price: "10.00")])
        #expect(throws: InvoiceError.creditNeedsSentInvoice(.draft)) {
            try fixture.repository.issue(CreditNote(invoiceID: draft.id!, issueDate: day("2024-03-11"),
                                                    lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        }
        let sent = try fixture.sentInvoice(for: client, lines: [line(quantity: "4", price: "10.00")])
        for _ in 0..<3 {
            try fixture.repository.issue(CreditNote(invoiceID: sent.id!, issueDate: day("2024-03-11"),
                                                    lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        }
        #expect(try fixture.repository.creditNoteIDs().count == 3)
        let numbers = try fixture.repository.creditNoteSummaries(for: fixture.repository.creditNoteIDs()).map(\.number)
        #expect(numbers == ["CN-2024-0003", "CN-2024-0002", "CN-2024-0001"])
    }

    @Test func theCreditNotePDFNamesTheInvoice() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let invoice = try fixture.sentInvoice(for: client, lines: [line("Design", quantity: "2", price: "50.00", rate: "19")])
        let note = try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-10"),
                                                           reason: "One hour less", lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        let text = try ReadBack(InvoicePDF.render(fixture.repository.document(for: note), formatting: englishFormatting).data).compactText
        #expect(text.contains(compact("Credit note for invoice INV-2024-0001")))
        #expect(text.contains("CN-2024-0001") && text.contains("€59.50") && text.contains(compact("One hour less")))
        #expect(!text.contains(compact("AMOUNT DUE")))
        let invoiceText = try ReadBack(InvoicePDF.render(fixture.repository.document(for: invoice.id!), formatting: englishFormatting).data).compactText
        #expect(invoiceText.contains(compact("Credit notes")) && invoiceText.contains("-€59.50"))
    }

    @Test func anAmountIsTakenOffAVATGroupWithoutTakingAnythingBack() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let invoice = try fixture.sentInvoice(for: client, lines: [line("Design", quantity: "3", price: "100.00", rate: "19"),
                                                                   line("Booklet", price: "20.00", rate: "7")])
        func reduction(_ net: String, rate: String = "19") -> CreditedAmount {
            CreditedAmount(description: "  Price reduction for late delivery ", net: money(net), vatCategory: .standard,
                           taxRate: Decimal(string: rate)!)
        }
        let note = try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-10"),
                                                           lines: [], amounts: [reduction("50.00")]))
        #expect(try note.totals(of: invoice).total == money("59.50"))
        let stored = try #require(try fixture.repository.creditNote(note.id!))
        #expect(stored.amounts == [CreditedAmount(description: "Price reduction for late delivery", net: money("50.00"),
                                                  vatCategory: .standard, taxRate: 19)])
        #expect(stored.lines.isEmpty)
        let after = try #require(try fixture.repository.invoice(invoice.id!))
        // Nothing was taken back: the invoice stays sent, with 59.50 less to pay.
        #expect(after.status == .sent)
        #expect(try after.totals().balanceDue == invoice.totals().balanceDue.subtracting(money("59.50")))
        let text = try ReadBack(InvoicePDF.render(fixture.repository.document(for: stored), formatting: englishFormatting).data).compactText
        #expect(text.contains(compact("Price reduction for late delivery")) && text.contains("€59.50"))

        // 300.00 was billed at 19 %, 50.00 of it is credited: 250.00 is left, as amounts or lines.
        #expect(throws: InvoiceError.creditExceedsGroup(category: .standard, rate: 19, left: money("250.00"))) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"),
                                                    lines: [CreditedLine(invoiceLine: 0, quantity: 3)]))
        }
        #expect(throws: InvoiceError.creditExceedsGroup(category: .standard, rate: 19, left: money("250.00"))) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"),
                                                    lines: [], amounts: [reduction("250.01")]))
        }
        #expect(InvoiceError.creditExceedsGroup(category: .standard, rate: 19, left: money("250.00")).localizedDescription
            == "Only \(MoneyFormatter().string(from: money("250.00"))) billed at 19% VAT is left to credit, before any discount. Take off at most that.")
        #expect(throws: InvoiceError.creditAmountGroupNotBilled) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"),
                                                    lines: [], amounts: [reduction("1.00", rate: "16")]))
        }
        #expect(throws: InvoiceError.creditAmountNotPositive) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"),
                                                    lines: [], amounts: [reduction("0.00")]))
        }
        #expect(throws: InvoiceError.creditAmountDescription) {
            try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"), lines: [],
                                                    amounts: [CreditedAmount(description: " ", net: money("1.00"),
                                                                             vatCategory: .standard, taxRate: 19)]))
        }
        // Two of the three hours, and the booklet, still fit; then everything is credited.
        try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-11"),
                                                lines: [CreditedLine(invoiceLine: 0, quantity: 2), CreditedLine(invoiceLine: 1, quantity: 1)],
                                                amounts: [reduction("50.00")]))
        let credited = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(try credited.totals().balanceDue.isZero && credited.totals().credited == invoice.totals().total)
    }

    @Test func versionSixKeepsEveryCreditNote() throws {
        let database = try Database.inMemory()
        try database.migrate(owner: InvoiceSchema.owner, migrations: Array(InvoiceSchema.migrations.prefix(5)))
        try insertVersionThreeInvoice(database)
        try database.execute("INSERT INTO invoices_credit_note (id, number, invoice_id, issue_date, reason, currency, total_minor, created_at) VALUES (1, 'CN-2024-0001', 1, '2024-03-05', 'Half an hour less', 'EUR', 5950, '2024-03-05T10:00:00Z')")
        try database.execute("INSERT INTO invoices_credit_note_line (credit_note_id, position, invoice_line, quantity) VALUES (1, 0, 0, '0.5')")

        let repository = try InvoiceRepository(database: database)
        #expect(try database.schemaVersion(owner: "invoices") == InvoiceSchema.migrations.count)
        let note = try #require(try repository.creditNote(CreditNoteID(1)))
        #expect(note.lines == [CreditedLine(invoiceLine: 0, quantity: Decimal(string: "0.5")!)] && note.amounts.isEmpty)
        #expect(note.reason == "Half an hour less")
        // The rest of the hour can be taken off as an amount now.
        try repository.issue(CreditNote(invoiceID: InvoiceID(1), issueDate: day("2024-03-06"), lines: [],
                                        amounts: [CreditedAmount(description: "Goodwill", net: money("50.00"),
                                                                 vatCategory: .standard, taxRate: 19)]))
        #expect(try repository.invoice(InvoiceID(1))?.totals().balanceDue.isZero == true)
    }

    /// Design, 2 × 50.00 at 19 %: 119.00, paid on 5 March 2024.
    func paidInvoice(_ fixture: Fixture) throws -> Invoice {
        var invoice = try fixture.sentInvoice(for: try fixture.client("Acme"),
                                              lines: [line("Design", quantity: "2", price: "50.00", rate: "19")])
        try invoice.markPaid(on: day("2024-03-05"))
        return try fixture.repository.save(invoice)
    }

    @Test func aPaidInvoiceCreditedOwesARefundNotANegativeBalance() throws {
        let fixture = try Fixture()
        let invoice = try paidInvoice(fixture)
        func pdfText() throws -> String {
            try ReadBack(InvoicePDF.render(fixture.repository.document(for: invoice.id!), formatting: englishFormatting).data).compactText
        }
        let paid = try pdfText()
        #expect(paid.contains(compact("PAID IN FULL")) && paid.contains(compact("Balance due")))
        #expect(paid.contains(compact("Please transfer to the account below.")))

        try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-10"),
                                                reason: "One hour less", lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        let credited = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(credited.status == .paid)
        #expect(try credited.totals().balanceDue == money("-59.50"))
        #expect(try credited.totals().refundDue == money("59.50"))
        let text = try pdfText()
        // What goes back is named and shown as an amount; the credit stays a deduction.
        #expect(text.contains(compact("REFUND DUE")) && text.components(separatedBy: compact("Refund due")).count == 2)
        // Payments are taken from what the credit left of the total.
        #expect(text.contains(compact("Total after credit notes") + "€59.50"))
        #expect(!text.contains(compact("PAID IN FULL")) && !text.contains(compact("Balance due")))
        #expect(text.contains(compact("Credit notes")) && text.contains("-€59.50"))
        #expect(text.components(separatedBy: "-€").count == 3) // the credit and the payment, not the balance
        // Nothing asks the client to pay.
        #expect(!text.contains(compact("Please transfer to the account below.")))
    }

    @Test func aRefundPaysBackWhatIsDueAndNoMore() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var invoice = try fixture.sentInvoice(for: client, lines: [line("Design", quantity: "2", price: "50.00", rate: "19")])
        // Nothing goes back while the client still owes money.
        #expect(throws: InvoiceError.noRefundDue) { try invoice.recordRefund(money("1.00"), on: day("2024-03-05")) }
        try invoice.markPaid(on: day("2024-03-05"))
        invoice = try fixture.repository.save(invoice)
        #expect(throws: InvoiceError.noRefundDue) { try invoice.recordRefund(money("1.00"), on: day("2024-03-06")) }
        try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-10"),
                                                lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        var credited = try #require(try fixture.repository.invoice(invoice.id!))

        #expect(throws: InvoiceError.refundNotPositive) { try credited.recordRefund(money("0.00"), on: day("2024-03-12")) }
        #expect(throws: InvoiceError.overRefund(due: money("59.50"))) {
            try credited.recordRefund(money("59.51"), on: day("2024-03-12"))
        }
        #expect(throws: InvoiceError.paymentCurrencyMismatch(expected: .eur, found: .usd)) {
            try credited.recordRefund(money("10.00", .usd), on: day("2024-03-12"))
        }
        try credited.recordRefund(money("50.00"), on: day("2024-03-12"), note: "Transfer")
        #expect(try credited.totals().refundDue == money("9.50"))
        try credited.recordRefund(money("9.50"), on: day("2024-03-13"))
        credited = try fixture.repository.save(credited)

        let stored = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(stored.status == .paid)
        #expect(stored.payments.map(\.amount) == [money("119.00"), money("-50.00"), money("-9.50")])
        #expect(stored.payments.map(\.isRefund) == [false, true, true])
        #expect(try stored.totals().balanceDue.isZero && stored.totals().refundDue == nil)
        // The refund settled nothing: reopening would take it for the client's payment.
        var reopening = stored
        #expect(throws: InvoiceError.transitionNotAllowed(from: .paid, to: .sent)) { try reopening.reopen() }

        let text = try ReadBack(InvoicePDF.render(fixture.repository.document(for: invoice.id!), formatting: englishFormatting).data).compactText
        #expect(text.contains(compact("Refunded on Mar 12, 2024") + "€50.00"))
        #expect(text.contains(compact("Refunded on Mar 13, 2024") + "€9.50"))
        #expect(text.contains(compact("PAID IN FULL")) && !text.contains(compact("Refund due")))
    }

    @Test func aPaidInvoiceCreditedInFullIsCancelledAndRefundedInFull() throws {
        let fixture = try Fixture()
        let invoice = try paidInvoice(fixture)
        try fixture.repository.issue(CreditNote.full(of: invoice, after: [], on: day("2024-03-10")))
        var cancelled = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(cancelled.status == .cancelled)
        #expect(try cancelled.totals().refundDue == money("119.00"))
        try cancelled.recordRefund(money("119.00"), on: day("2024-03-11"))
        cancelled = try fixture.repository.save(cancelled)
        #expect(cancelled.status == .cancelled)
        #expect(try cancelled.totals().balanceDue.isZero && cancelled.totals().paid.isZero)
    }
}

@Suite struct QuotesMigrationTests {
    @Test func versionFourKeepsEveryInvoiceAndAddsTheNewSequences() throws {
        let database = try Database.inMemory()
        try database.migrate(owner: InvoiceSchema.owner, migrations: Array(InvoiceSchema.migrations.prefix(3)))
        #expect(try database.schemaVersion(owner: "invoices") == 3)
        try database.execute("INSERT INTO invoices_profile (id, name, address, email, phone, tax_id, bank_details, iban, bic, logo_file, currency, payment_terms_days, default_tax_rate, number_pattern, default_notes, payment_instructions, payment_qr_code) VALUES (1, 'Studio Nord', 'Hafenstraße 1', '', '', '', '', '', '', NULL, 'EUR', 14, '19', 'R-{NNN}', 'Thanks', 'Pay soon', 0)")
        try insertVersionThreeInvoice(database)
        try database.execute("INSERT INTO invoices_number VALUES ('R-001', 1)")
        try database.execute("INSERT INTO invoices_counter VALUES ('R-{NNN}', 1)")

        let repository = try InvoiceRepository(database: database)
        #expect(try database.schemaVersion(owner: "invoices") == InvoiceSchema.migrations.count)
        let profile = try repository.profile()
        #expect(profile.numberPattern == "R-{NNN}" && !profile.printsPaymentQRCode && profile.paymentInstructions == "Pay soon")
        #expect(profile.quoteNumberPattern == "QUO-{YYYY}-{NNNN}" && profile.creditNoteNumberPattern == "CN-{YYYY}-{NNNN}")
        let invoice = try #require(try repository.invoice(InvoiceID(1)))
        #expect(invoice.status == .sent && invoice.revision == 2 && invoice.notes == "Thank you" && invoice.lines.count == 1)
        #expect(try invoice.totals().balanceDue == money("119.00") && invoice.creditedMinorUnits == 0)
        #expect(try repository.suggestedNumber(issuedOn: day("2024-04-01")) == "R-002")
        #expect(try repository.quoteIDs().isEmpty && repository.creditNoteIDs().isEmpty)

        let note = try repository.issue(CreditNote.full(of: invoice, after: [], on: day("2024-04-01")))
        #expect(note.number == "CN-2024-0001")
        #expect(try repository.invoice(InvoiceID(1))?.status == .cancelled)
    }
}

/// A client and a sent invoice of one line (Design, 1 h at 100.00, 19 %), as schema version 3
/// stores them: what the migration tests start from.
private func insertVersionThreeInvoice(_ database: Database) throws {
    try database.execute("INSERT INTO invoices_client (id, name, email, address, tax_id, currency, payment_terms_days, notes) VALUES (1, 'Lumière', '', '', '', 'EUR', NULL, '')")
    try database.execute("INSERT INTO invoices_invoice (id, number, client_id, issue_date, due_date, currency, discount_percent, notes, status, sent_on, bill_to_name, bill_to_address, bill_to_email, bill_to_tax_id, subtotal_minor, discount_minor, tax_minor, total_minor, paid_minor, balance_minor, amount_key, updated_at, revision) VALUES (1, 'R-001', 1, '2024-03-01', '2024-03-15', 'EUR', '0', 'Thank you', 'sent', '2024-03-01', 'Lumière SARL', '', '', '', 10000, 0, 1900, 11900, 0, 11900, 1190000000, '2024-03-01T10:00:00Z', 2)")
    try database.execute("INSERT INTO invoices_line (id, invoice_id, position, description, quantity, unit, unit_price_minor, tax_rate, discount_percent, vat_category, unit_code) VALUES (1, 1, 0, 'Design', '1', 'h', 10000, '19', NULL, 'S', 'HUR')")
}
