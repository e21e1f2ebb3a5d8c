import BillfoldCore
import Foundation
import Plans
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct InvoiceRulesTests {
    private func draft(lines: [LineItem] = [line(price: "100.00", rate: "19")], issued: String = "2024-03-01",
                       due: String = "2024-03-15") -> Invoice {
        Invoice(number: "INV-1", clientID: ClientID(1), issueDate: day(issued), dueDate: day(due),
                currency: .eur, lines: lines)
    }

    private func sent() throws -> Invoice {
        var invoice = draft()
        try invoice.markSent(on: day("2024-03-01"))
        return invoice
    }

    // MARK: - Status

    @Test func aDraftIsSentThenPaidInParts() throws {
        var invoice = draft()
        #expect(invoice.status == .draft && !invoice.isLocked)
        try invoice.markSent(on: day("2024-03-02"))
        #expect(invoice.status == .sent && invoice.sentOn == day("2024-03-02") && invoice.isLocked)

        try invoice.recordPayment(money("19.00"), on: day("2024-03-10"), note: "Deposit")
        #expect(invoice.status == .sent)
        #expect(try invoice.totals().balanceDue == money("100.00"))
        try invoice.recordPayment(money("100.00"), on: day("2024-03-20"))
        #expect(invoice.status == .paid)
        #expect(try invoice.totals().balanceDue.isZero)
        #expect(invoice.payments.map(\.note) == ["Deposit", ""])
    }

    @Test func overpayingIsRefusedAndSaysWhatIsOwed() throws {
        var invoice = try sent()
        try invoice.recordPayment(money("100.00"), on: day("2024-03-05"))
        #expect(throws: InvoiceError.overpayment(balance: money("19.00"))) {
            try invoice.recordPayment(money("19.01"), on: day("2024-03-06"))
        }
        let message = InvoiceError.overpayment(balance: money("19.00")).localizedDescription
        #expect(message.contains("19"))
        #expect(invoice.payments.count == 1 && invoice.status == .sent)
    }

    @Test func paymentsNeedASentInvoiceAndAPositiveAmountInItsCurrency() throws {
        var draft = self.draft()
        #expect(throws: InvoiceError.paymentNeedsSentInvoice(.draft)) {
            try draft.recordPayment(money("1.00"), on: day("2024-03-05"))
        }
        var invoice = try sent()
        #expect(throws: InvoiceError.paymentNotPositive) { try invoice.recordPayment(money("0.00"), on: day("2024-03-05")) }
        #expect(throws: InvoiceError.paymentNotPositive) { try invoice.recordPayment(money("-5.00"), on: day("2024-03-05")) }
        #expect(throws: InvoiceError.paymentCurrencyMismatch(expected: .eur, found: .usd)) {
            try invoice.recordPayment(money("5.00", .usd), on: day("2024-03-05"))
        }
        try invoice.cancel()
        #expect(throws: InvoiceError.paymentNeedsSentInvoice(.cancelled)) {
            try invoice.recordPayment(money("5.00"), on: day("2024-03-05"))
        }
    }

    @Test func markPaidRecordsWhatIsLeft() throws {
        var invoice = try sent()
        try invoice.recordPayment(money("19.00"), on: day("2024-03-05"))
        try invoice.markPaid(on: day("2024-03-09"), note: "Bank transfer")
        #expect(invoice.status == .paid)
        #expect(invoice.payments.last == Payment(date: day("2024-03-09"), amount: money("100.00"), note: "Bank transfer"))
        #expect(throws: InvoiceError.transitionNotAllowed(from: .paid, to: .paid)) { try invoice.markPaid(on: day("2024-03-10")) }
    }

    @Test func removingAPaymentReopensAPaidInvoice() throws {
        var invoice = try sent()
        try invoice.markPaid(on: day("2024-03-09"))
        try invoice.removePayment(at: 0)
        #expect(invoice.status == .sent && invoice.payments.isEmpty)
        #expect(throws: InvoiceError.noSuchPayment(3)) { try invoice.removePayment(at: 3) }
    }

    @Test func reopeningRemovesOnlyThePaymentThatSettledTheInvoice() throws {
        var invoice = try sent()
        try invoice.recordPayment(money("19.00"), on: day("2024-03-05"))
        try invoice.markPaid(on: day("2024-03-09"))
        let removed = try invoice.reopen()
        #expect(removed == Payment(date: day("2024-03-09"), amount: money("100.00")))
        #expect(invoice.status == .sent)
        #expect(invoice.payments == [Payment(date: day("2024-03-05"), amount: money("19.00"))])
        #expect(try invoice.totals().balanceDue == money("100.00"))
        #expect(throws: InvoiceError.transitionNotAllowed(from: .sent, to: .sent)) { try invoice.reopen() }

        var nothingToPay = draft(lines: [line(price: "0.00")])
        try nothingToPay.markSent(on: day("2024-03-01"))
        #expect(throws: InvoiceError.transitionNotAllowed(from: .paid, to: .sent)) { try nothingToPay.reopen() }
    }

    @Test func cancellingKeepsTheInvoiceAndItsPayments() throws {
        var invoice = try sent()
        try invoice.recordPayment(money("10.00"), on: day("2024-03-05"))
        try invoice.cancel()
        #expect(invoice.status == .cancelled && invoice.payments.count == 1 && invoice.number == "INV-1")
        #expect(throws: InvoiceError.transitionNotAllowed(from: .cancelled, to: .cancelled)) { try invoice.cancel() }

        var paid = try sent()
        try paid.markPaid(on: day("2024-03-05"))
        #expect(throws: InvoiceError.transitionNotAllowed(from: .paid, to: .cancelled)) { try paid.cancel() }

        var draft = self.draft()
        try draft.cancel()
        #expect(draft.status == .cancelled)
    }

    @Test func sendingNeedsALineAndAValidInvoice() throws {
        var empty = draft(lines: [])
        #expect(throws: InvoiceError.nothingToSend) { try empty.markSent(on: day("2024-03-01")) }
        var broken = draft(lines: [line(quantity: "-1", price: "5.00")])
        #expect(throws: InvoiceError.self) { try broken.markSent(on: day("2024-03-01")) }
        #expect(broken.status == .draft)
        var twice = try sent()
        #expect(throws: InvoiceError.transitionNotAllowed(from: .sent, to: .sent)) { try twice.markSent(on: day("2024-03-02")) }
    }

    @Test func anInvoiceWithNothingToPayIsPaidWhenSent() throws {
        var invoice = draft(lines: [line(price: "0.00")])
        try invoice.markSent(on: day("2024-03-01"))
        #expect(invoice.status == .paid)
    }

    @Test func theStatusGraph() {
        #expect(InvoiceStatus.draft.canBecome(.sent) && InvoiceStatus.sent.canBecome(.paid))
        #expect(InvoiceStatus.paid.canBecome(.sent))   // a payment removed
        #expect(InvoiceStatus.draft.canBecome(.cancelled) && InvoiceStatus.sent.canBecome(.cancelled))
        #expect(!InvoiceStatus.sent.canBecome(.draft) && !InvoiceStatus.paid.canBecome(.draft))
        #expect(!InvoiceStatus.paid.canBecome(.cancelled) && !InvoiceStatus.cancelled.canBecome(.sent))
        #expect(!InvoiceStatus.draft.canBecome(.paid))
    }

    // MARK: - Overdue is derived

    @Test func overdueFollowsTheDueDateAndTheBalance() throws {
        var invoice = try sent()   // due 2024-03-15
        #expect(invoice.displayStatus(today: day("2024-03-15")) == .sent)
        #expect(invoice.displayStatus(today: day("2024-03-16")) == .overdue)
        try invoice.recordPayment(money("50.00"), on: day("2024-03-16"))
        #expect(invoice.displayStatus(today: day("2024-03-16")) == .overdue)   // still owes 69.00
        try invoice.markPaid(on: day("2024-03-17"))
        #expect(invoice.displayStatus(today: day("2024-12-31")) == .paid)
        #expect(draft().displayStatus(today: day("2030-01-01")) == .draft)
        var cancelled = try sent()
        try cancelled.cancel()
        #expect(cancelled.displayStatus(today: day("2030-01-01")) == .cancelled)
        #expect(InvoiceDisplayStatus.overdue.tone == .warning && InvoiceDisplayStatus.paid.tone == .success)
    }

    // MARK: - Locking

    @Test func aSentInvoicesNumberLinesAndAmountsAreLocked() throws {
        let stored = try sent()
        var edited = stored
        #expect(edited.lockedChanges(comparedTo: stored).isEmpty)
        edited.number = "INV-2"
        edited.lines[0].unitPrice = money("90.00")
        edited.discountPercent = 5
        edited.clientID = ClientID(2)
        // What the client received stays as it was, notes and due date included: a credit note corrects it.
        edited.notes = "Thanks!"
        edited.dueDate = day("2024-03-31")
        #expect(edited.lockedChanges(comparedTo: stored) == [.number, .client, .dueDate, .notes, .lines, .discount])
        #expect(InvoiceError.locked(.lines).localizedDescription.contains("Duplicate"))

        var changedDraft = draft()
        changedDraft.lines = []
        #expect(changedDraft.lockedChanges(comparedTo: draft()).isEmpty)
    }

    // MARK: - Duplicate, due dates

    @Test func duplicateMakesAFreshDraftWithTheSameTerms() throws {
        var original = try sent()
        original.notes = "Project Alpha"
        try original.recordPayment(money("10.00"), on: day("2024-03-05"))
        let copy = original.duplicated(today: day("2024-06-10"))
        #expect(copy.id == nil && copy.number.isEmpty && copy.status == .draft)
        #expect(copy.issueDate == day("2024-06-10") && copy.dueDate == day("2024-06-24"))
        #expect(copy.lines == original.lines && copy.notes == "Project Alpha" && copy.clientID == original.clientID)
        #expect(copy.payments.isEmpty && copy.sentOn == nil && copy.billTo == nil)
    }

    @Test func dueDatesComeFromTheTerms() {
        #expect(InvoiceRules.dueDate(issuedOn: day("2024-02-20"), termsDays: 14) == day("2024-03-05"))
        #expect(InvoiceRules.dueDate(issuedOn: day("2023-12-31"), termsDays: 30) == day("2024-01-30"))
        #expect(InvoiceRules.dueDate(issuedOn: day("2024-03-01"), termsDays: 0) == day("2024-03-01"))
        let profile = BusinessProfile(defaultCurrency: .eur, paymentTermsDays: 30)
        let client = Client(id: ClientID(4), name: "Acme", currency: .usd, paymentTermsDays: 7)
        let invoice = Invoice.draft(for: client, profile: profile, today: day("2024-05-01"))
        #expect(invoice.dueDate == day("2024-05-08") && invoice.currency == .usd && invoice.clientID == ClientID(4))
        var noTerms = client
        noTerms.paymentTermsDays = nil
        #expect(Invoice.draft(for: noTerms, profile: profile, today: day("2024-05-01")).dueDate == day("2024-05-31"))
    }

    // MARK: - Validation

    @Test func longDescriptionsAreFine() {
        let long = String(repeating: "Design review, with notes 🎨\n", count: 1_500)
        #expect(long.count >= 40_000)
        #expect(draft(lines: [line(long, price: "1.00")]).validate().isEmpty)
    }

    @Test func mistakesAreReportedOnTheirFieldsWithActionableMessages() {
        var invoice = draft(lines: [
            line("   ", quantity: "-2", price: "-1.00", rate: "120", discount: "150"),
            line("OK", quantity: "0", price: "1.00", currency: .usd),
            line("OK", quantity: "1.1234567", price: "1.00", unit: String(repeating: "h", count: 30)),
        ], issued: "2024-03-10", due: "2024-03-01")
        invoice.clientID = nil
        invoice.discountPercent = -5
        let issues = invoice.validate()
        let fields = Set(issues.map(\.field))
        #expect(fields == [
            .client, .dueDate, .discount,
            .line(0, .description), .line(0, .quantity), .line(0, .unitPrice), .line(0, .taxRate), .line(0, .discount),
            .line(1, .quantity), .line(1, .unitPrice),
            .line(2, .quantity), .line(2, .unit),
        ])
        #expect(issues.allSatisfy { !$0.message.isEmpty && $0.message.hasSuffix(".") })
        #expect(issues.first { $0.field == .line(1, .unitPrice) }?.message.contains("EUR") == true)
        #expect(InvoiceError.invalidInvoice(issues).localizedDescription == issues[0].message)
    }

    @Test func aTooLongDescriptionIsRefused() {
        let tooLong = String(repeating: "x", count: LineItem.maximumDescriptionLength + 1)
        #expect(draft(lines: [line(tooLong, price: "1.00")]).validate().map(\.field) == [.line(0, .description)])
    }

    @Test func clientsNeedANameAndAPlausibleEmail() {
        #expect(Client(name: "  ", currency: .eur).validate().map(\.field) == [.name])
        #expect(Client(name: "Acme", email: "acme.example", currency: .eur).validate().map(\.field) == [.email])
        #expect(Client(name: "Acme", email: "a@b", currency: .eur).validate().map(\.field) == [.email])
        #expect(Client(name: "Acme", email: "billing@acme.example", currency: .eur, paymentTermsDays: 400)
            .validate().map(\.field) == [.paymentTerms])
        #expect(Client(name: "Acme", email: "billing@acme.example", currency: .eur).validate().isEmpty)
    }

    @Test func theProfileChecksIBANBICAndPattern() {
        var profile = BusinessProfile(name: "Studio", defaultCurrency: .eur)
        profile.iban = "DE89 3704 0044 0532 0130 00"
        profile.bic = "COBADEFFXXX"
        #expect(profile.validate().isEmpty)
        profile.iban = "DE88 3704 0044 0532 0130 00"
        profile.bic = "COBA1"
        profile.numberPattern = "INV-{YYYY}"
        profile.defaultTaxRate = 101
        profile.name = ""
        #expect(profile.validate().map(\.field) == [.name, .iban, .bic, .taxRate, .numberPattern])
        #expect(profile.validate()[1].message.contains("typo"))
    }

    // MARK: - Free tier

    @MainActor @Test func theFreeTierAllowsFiveInvoices() {
        #expect(InvoicePlan(FreeTier()).allowsNewInvoice(existingCount: 4))
        #expect(!InvoicePlan(FreeTier()).allowsNewInvoice(existingCount: EntitlementLimits.freeInvoices))
        #expect(!InvoicePlan(nil).allowsNewInvoice(existingCount: 5))
        #expect(InvoicePlan(ProTier()).allowsNewInvoice(existingCount: 100_000))
        #expect(throws: InvoiceError.freeTierLimitReached(limit: 5)) {
            try InvoicePlan(nil).checkNewInvoice(existingCount: 5)
        }
        #expect(InvoiceRules.canCreateInvoice(existingCount: 10, limit: nil))
    }

    @MainActor @Test func theLimitSaysHowManyThereAreAndHowManyTheFreePlanHolds() {
        #expect(InvoicePlan(FreeTier()).limitMessage(existingCount: 4) == nil)
        #expect(InvoicePlan(FreeTier()).limitMessage(existingCount: 5)
            == "You have 5 invoices. The free plan holds at most 5 invoices.")
        // A lapsed licence leaves more than the free plan holds; they all stay.
        #expect(InvoicePlan(nil).limitMessage(existingCount: 12) == "You have 12 invoices. The free plan holds at most 5 invoices.")
        #expect(InvoicePlan(ProTier()).limitMessage(existingCount: 100_000) == nil)
    }

    @MainActor @Test func pdfExportIsPro() {
        #expect(!InvoicePlan(nil).allowsPDFExport)
        #expect(throws: InvoiceError.pdfExportNeedsPro) { try InvoicePlan(FreeTier()).checkPDFExport() }
        #expect(InvoicePlan(ProTier()).allowsPDFExport)
    }
}

@MainActor
private final class ProTier: Entitlements {
    var status: EntitlementStatus {
        EntitlementStatus(tier: .pro, features: Set(Feature.allCases), license: nil, condition: .active)
    }

    func observe(_ handler: @escaping @MainActor @Sendable () -> Void) -> ObservationToken { .inert() }
}
