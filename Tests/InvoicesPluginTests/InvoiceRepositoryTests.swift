import BillfoldCore
import Foundation
import Plans
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct RepositoryStorageTests {
    /// What the shell runs on another thread at start-up leaves the repository nothing to migrate.
    @Test func preparingTheLibraryOffTheMainThreadMigratesItOnce() async throws {
        let database = try Database.inMemory()
        try await Task.detached { try Invoices.prepareLibrary(database) }.value
        #expect(try database.schemaVersion(owner: "invoices") == InvoiceSchema.migrations.count)
        _ = try InvoiceRepository(database: database)
        #expect(try database.schemaVersion(owner: "invoices") == InvoiceSchema.migrations.count)
    }

    @Test func migratesAnEmptyDatabaseAndReopensWithEverythingThere() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("billfold.sqlite3")
        let logos = LogoStore(directory: directory.url.appendingPathComponent("logos"))
        var saved: Invoice
        do {
            let database = try Database.open(path: path)
            #expect(try database.schemaVersion(owner: "invoices") == 0)
            let repository = try InvoiceRepository(database: database, logos: logos)
            #expect(try database.schemaVersion(owner: "invoices") == InvoiceSchema.migrations.count)
            #expect(try !repository.hasProfile())
            #expect(try repository.invoiceCount() == 0 && repository.clients().isEmpty)
            try repository.saveProfile(BusinessProfile(name: "Studio", defaultCurrency: .chf, numberPattern: "R-{NNN}"))
            let client = try repository.save(Client(name: "Acme", currency: .chf))
            saved = try repository.save(Invoice(clientID: client.id, issueDate: day("2024-03-01"), dueDate: day("2024-03-31"),
                                                currency: .chf, lines: [line(price: "10.00", currency: .chf)]))
            database.close()
        }
        let database = try Database.open(path: path)
        let repository = try InvoiceRepository(database: database, logos: logos)
        #expect(try database.schemaVersion(owner: "invoices") == InvoiceSchema.migrations.count)
        #expect(try repository.profile().defaultCurrency == .chf)
        #expect(try repository.invoice(saved.id!) == saved)
        #expect(saved.number == "R-001")
        #expect(try repository.suggestedNumber(issuedOn: day("2024-04-01")) == "R-002")
    }

    @Test func theProfileRoundTripsAndStartsFromTheLocale() throws {
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        #expect(try repository.profile() == BusinessProfile.initial())
        var profile = BusinessProfile(name: "Zoë’s Atelier 🧵", address: "Rue de l’Église 3\n1003 Lausanne",
                                      email: "zoe@atelier.example", phone: "+41 21 000 00 00", taxID: "CHE-123.456.789 MWST",
                                      bankDetails: "PostFinance", iban: "CH93 0076 2011 6238 5295 7", bic: "POFICHBEXXX",
                                      logoFileName: "ab.png", defaultCurrency: .chf, paymentTermsDays: 30,
                                      defaultTaxRate: decimal("8.1"), numberPattern: "{YY}-{NNN}",
                                      defaultNotes: "Merci !", paymentInstructions: "Payable within 30 days.")
        try repository.saveProfile(profile)
        #expect(try repository.profile() == profile)
        #expect(try repository.hasProfile())
        profile.name = " "
        #expect(throws: InvoiceError.self) { try repository.saveProfile(profile) }
        #expect(try repository.profile().name == "Zoë’s Atelier 🧵")
    }

    @Test func anInvoiceRoundTripsWithEveryDetail() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Müller & Söhne 🍺", terms: 30)
        let long = (0..<800).map { "Line \($0): Konzeption, Gestaltung und Umsetzung — “quoted” ✓ 🎨" }.joined(separator: "\n")
        #expect(long.count >= 40_000)
        var invoice = Invoice(clientID: client.id, issueDate: day("2024-02-29"), dueDate: day("2024-03-30"), currency: .eur,
                              lines: [
                                  line(long, quantity: "12.5", price: "95.00", rate: "19", discount: "2.5", unit: "h"),
                                  line("Hosting\nMarch–May", quantity: "3", price: "9.99", rate: "7", unit: "month"),
                                  line("Fee", price: "0.01"),
                              ], discountPercent: decimal("3.25"), notes: "Danke!\nBis bald. 🙂")
        invoice = try fixture.repository.save(invoice)
        let loaded = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(loaded == invoice)
        #expect(loaded.lines[0].description == long)
        #expect(loaded.lines[0].quantity == decimal("12.5") && loaded.lines[0].discountPercent == decimal("2.5"))
        #expect(loaded.lines[2].discountPercent == nil)
        #expect(loaded.discountPercent == decimal("3.25"))

        // The stored totals are the domain's.
        let totals = try loaded.totals()
        let row = try #require(try fixture.database.query("SELECT subtotal_minor, discount_minor, tax_minor, total_minor, paid_minor, balance_minor FROM invoices_invoice WHERE id = ?", [loaded.id!]).first)
        let stored: [Int64] = try (0..<6).map { try row.value(at: $0) }
        #expect(stored == [totals.subtotal, totals.discount, totals.tax, totals.total, totals.paid, totals.balanceDue].map(\.minorUnits))
        #expect(try fixture.repository.summary(for: loaded.id!, today: day("2024-03-01"))?.total == totals.total)
    }

    @Test func paymentsAndStatusSurviveASave() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var invoice = try fixture.sentInvoice(for: client, lines: [line(price: "100.00", rate: "19")])
        try invoice.recordPayment(money("19.00"), on: day("2024-03-04"), note: "Part 1 ✓")
        invoice = try fixture.repository.save(invoice)
        var loaded = try #require(try fixture.repository.invoice(invoice.id!))
        #expect(loaded.payments == [Payment(date: day("2024-03-04"), amount: money("19.00"), note: "Part 1 ✓")])
        #expect(loaded.status == .sent && loaded.sentOn == day("2024-03-01"))
        try loaded.markPaid(on: day("2024-03-09"))
        try fixture.repository.save(loaded)
        #expect(try fixture.repository.invoice(invoice.id!)?.status == .paid)
        #expect(try fixture.repository.summary(for: invoice.id!)?.balanceDue.isZero == true)
    }
}

@Suite struct NumberingTests {
    @Test func numbersFollowThePatternAndRestartEachYear() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        #expect(try fixture.repository.suggestedNumber(issuedOn: day("2024-01-05")) == "INV-2024-0001")
        #expect(try fixture.repository.suggestedNumber(issuedOn: day("2024-01-05")) == "INV-2024-0001")   // not reserved
        let first = try fixture.invoice(for: client, issued: "2024-01-05", lines: [])
        let second = try fixture.invoice(for: client, issued: "2024-06-05", lines: [])
        let nextYear = try fixture.invoice(for: client, issued: "2025-01-02", lines: [])
        #expect([first.number, second.number, nextYear.number] == ["INV-2024-0001", "INV-2024-0002", "INV-2025-0001"])
    }

    @Test func aBrokenStoredPatternFallsBackToTheStandardOne() throws {
        let fixture = try Fixture(pattern: "R{NN}")
        try fixture.database.execute("UPDATE invoices_profile SET number_pattern = 'no counter'")
        #expect(try fixture.repository.suggestedNumber(issuedOn: day("2024-03-01")) == "INV-2024-0001")
    }

    @Test func aDeletedInvoicesNumberIsNeverGivenOutAgain() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let first = try fixture.invoice(for: client, lines: [])
        let second = try fixture.invoice(for: client, lines: [])
        try fixture.repository.delete(second.id!)
        try fixture.repository.delete(first.id!)
        #expect(try fixture.invoice(for: client, lines: []).number == "INV-2024-0003")
        var typed = Invoice(number: "inv-2024-0002", clientID: client.id, issueDate: day("2024-03-01"),
                            dueDate: day("2024-03-01"), currency: .eur)
        #expect(throws: InvoiceError.numberTaken("inv-2024-0002")) { try fixture.repository.save(typed) }
        typed.number = "INV-2024-0003"
        #expect(throws: InvoiceError.numberTaken("INV-2024-0003")) { try fixture.repository.save(typed) }
        #expect(InvoiceError.numberTaken("X-1").localizedDescription.contains("X-1"))
    }

    @Test func aDraftsNumberCanBeEditedAndHandTypedNumbersAreSkipped() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var draft = try fixture.invoice(for: client, lines: [])
        #expect(draft.number == "INV-2024-0001")
        draft.number = "  INV-2024-0002 "
        draft = try fixture.repository.save(draft)
        #expect(draft.number == "INV-2024-0002")
        #expect(try fixture.repository.invoice(number: "inv-2024-0002")?.id == draft.id)
        // The counter has moved past 1 already, and 2 is taken by hand: the next is 3.
        #expect(try fixture.invoice(for: client, lines: []).number == "INV-2024-0003")
        // The renamed draft's old number was never sent, so it is free again.
        #expect(try fixture.invoice(for: client, lines: [], number: "INV-2024-0001").number == "INV-2024-0001")
        // Changing only the letter case keeps the number.
        draft.number = "inv-2024-0002"
        #expect(try fixture.repository.save(draft).number == "inv-2024-0002")
    }
}

@Suite struct LockingAndTransitionTests {
    @Test func theRepositoryRefusesChangesToASentInvoicesLockedFields() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let other = try fixture.client("Globex")
        let sent = try fixture.sentInvoice(for: client, lines: [line(price: "100.00", rate: "19")])
        var edited = sent
        edited.lines.append(line(price: "1.00"))
        #expect(throws: InvoiceError.locked(.lines)) { try fixture.repository.save(edited) }
        edited = sent
        edited.number = "NEW-1"
        #expect(throws: InvoiceError.locked(.number)) { try fixture.repository.save(edited) }
        edited = sent
        edited.clientID = other.id
        #expect(throws: InvoiceError.locked(.client)) { try fixture.repository.save(edited) }
        edited = sent
        edited.notes = "Thank you"
        #expect(throws: InvoiceError.locked(.notes)) { try fixture.repository.save(edited) }
        edited = sent
        edited.dueDate = day("2024-04-30")
        #expect(throws: InvoiceError.locked(.dueDate)) { try fixture.repository.save(edited) }
        #expect(try fixture.repository.invoice(sent.id!) == sent)
    }

    @Test func aStaleCopyCannotUndoAnotherSave() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let draft = try fixture.invoice(for: client, lines: [line(price: "5.00")])
        var sent = draft
        try sent.markSent(on: day("2024-03-02"))
        sent = try fixture.repository.save(sent)
        #expect(throws: InvoiceError.changedSinceLoaded) { try fixture.repository.save(draft) }

        // Two copies of the sent invoice: a payment saved through one is not lost through the other.
        var paying = sent
        var editing = sent
        try paying.recordPayment(money("2.00"), on: day("2024-03-05"))
        try fixture.repository.save(paying)
        editing.notes = "Thanks"
        #expect(throws: InvoiceError.changedSinceLoaded) { try fixture.repository.save(editing) }
        #expect(try fixture.repository.invoice(sent.id!)?.payments.count == 1)
        #expect(try fixture.repository.invoice(sent.id!)?.revision == 3)
    }

    @Test func sendingKeepsTheBillToAsItWas() throws {
        let fixture = try Fixture()
        var client = try fixture.client("Acme")
        client.address = "1 Main St"
        client = try fixture.repository.save(client)
        let draft = try fixture.invoice(for: client, lines: [line(price: "5.00")])
        let sent = try fixture.sentInvoice(for: client, lines: [line(price: "5.00")])
        #expect(sent.billTo == BillTo(name: "Acme", address: "1 Main St"))
        client.name = "Acme Corporation"
        client.address = "2 Side St"
        try fixture.repository.save(client)
        #expect(try fixture.repository.document(for: sent.id!).billTo.name == "Acme")
        #expect(try fixture.repository.document(for: draft.id!).billTo == BillTo(name: "Acme Corporation", address: "2 Side St"))
        // The list shows the client as it is now, and search finds the new name.
        let today = day("2024-03-02")
        #expect(try fixture.repository.summary(for: sent.id!, today: today)?.clientName == "Acme Corporation")
        #expect(try fixture.repository.invoiceIDs(matching: InvoiceListQuery(search: "corp"), today: today).count == 2)
    }

    @Test func aPreviewOfAnUnsavedDraftShowsItsComingNumberAndClient() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let draft = Invoice.draft(for: client, profile: try fixture.repository.profile(), today: day("2024-05-02"))
        let document = try fixture.repository.document(for: draft)
        #expect(document.invoice.number == "INV-2024-0001" && document.billTo.name == "Acme")
        #expect(document.profile.name == "Studio Nord" && document.logoURL == nil)
        #expect(document.invoice.dueDate == day("2024-05-16"))
        #expect(try fixture.repository.invoiceCount() == 0)
    }

    @Test func invalidInvoicesAndMissingClientsAreRefused() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        var invoice = Invoice(clientID: client.id, issueDate: day("2024-03-01"), dueDate: day("2024-03-01"), currency: .eur,
                              lines: [line(quantity: "-1", price: "5.00")])
        #expect(throws: InvoiceError.invalidInvoice(invoice.validate())) { try fixture.repository.save(invoice) }
        invoice.lines = []
        invoice.clientID = ClientID(999)
        #expect(throws: InvoiceError.clientNotFound) { try fixture.repository.save(invoice) }
        #expect(throws: InvoiceError.invalidClient([ValidationIssue(.name, Client(name: "", currency: .eur).validate()[0].message)])) {
            try fixture.repository.save(Client(name: "", currency: .eur))
        }
        #expect(try fixture.repository.invoiceCount() == 0)
        #expect(try fixture.repository.suggestedNumber(issuedOn: day("2024-03-01")) == "INV-2024-0001")
    }
}

@Suite struct ListQueryTests {
    /// Five invoices across two clients and two currencies, seen on 2024-04-01.
    private struct Scenario {
        let fixture: Fixture
        let draft, sentFuture, overdue, paid, cancelled: Invoice
        let today = day("2024-04-01")

        init() throws {
            fixture = try Fixture()
            let acme = try fixture.client("Acme Corporation")
            let zoe = try fixture.client("Zoë Müller", currency: .usd)
            draft = try fixture.invoice(for: acme, issued: "2024-03-20", lines: [line("Website redesign", price: "1000.00", rate: "19")])
            sentFuture = try fixture.sentInvoice(for: zoe, issued: "2024-03-25", terms: 30,
                                                 lines: [line("Logo design, three concepts", price: "500.00", currency: .usd)])
            var overdue = try fixture.sentInvoice(for: acme, issued: "2024-02-01", terms: 14,
                                                  lines: [line("Hosting for March", price: "30.00", rate: "19")])
            try overdue.recordPayment(money("10.00"), on: day("2024-02-20"))
            self.overdue = try fixture.repository.save(overdue)
            var paid = try fixture.sentInvoice(for: zoe, issued: "2024-01-10", terms: 14,
                                               lines: [line("Acme-style brochure", price: "20.00", currency: .usd)])
            try paid.markPaid(on: day("2024-01-20"))
            self.paid = try fixture.repository.save(paid)
            let cancelled = try fixture.sentInvoice(for: acme, issued: "2024-01-05", terms: 7,
                                                    lines: [line("Cancelled workshop", price: "7000.00")])
            try fixture.repository.issue(CreditNote.full(of: cancelled, after: [], on: day("2024-01-06")))
            self.cancelled = try #require(try fixture.repository.invoice(cancelled.id!))
        }

        func ids(_ query: InvoiceListQuery) throws -> [InvoiceID] {
            try fixture.repository.invoiceIDs(matching: query, today: today)
        }
    }

    @Test func filtersMatchTheBadges() throws {
        let s = try Scenario()
        #expect(try s.ids(InvoiceListQuery(filter: .all)) == [s.sentFuture, s.draft, s.overdue, s.paid, s.cancelled].map { $0.id! })
        #expect(try s.ids(InvoiceListQuery(filter: .draft)) == [s.draft.id!])
        #expect(try s.ids(InvoiceListQuery(filter: .sent)) == [s.sentFuture.id!])
        #expect(try s.ids(InvoiceListQuery(filter: .overdue)) == [s.overdue.id!])
        #expect(try s.ids(InvoiceListQuery(filter: .paid)) == [s.paid.id!])
        #expect(try s.ids(InvoiceListQuery(filter: .cancelled)) == [s.cancelled.id!])
        let rows = try s.fixture.repository.invoiceSummaries(matching: InvoiceListQuery(), today: s.today)
        #expect(rows.map(\.displayStatus) == [.sent, .draft, .overdue, .paid, .cancelled])
        #expect(rows[2].balanceDue == money("25.70") && rows[2].total == money("35.70"))
        #expect(rows[0].clientName == "Zoë Müller" && rows[0].total == money("500.00", .usd))
        // On its due date an invoice is not overdue yet.
        #expect(try s.fixture.repository.invoiceIDs(matching: InvoiceListQuery(filter: .overdue), today: day("2024-02-15")).isEmpty)
        #expect(try s.fixture.repository.invoiceCount(matching: InvoiceListQuery(filter: .sent), today: s.today) == 1)
    }

    /// The list pane searches by keeping the unsearched list's ids that match: for every
    /// filter, sort and search that gives exactly the list SQL gives.
    @Test func filteringByTheSearchsMatchesGivesTheSearchedList() throws {
        let s = try Scenario()
        let repository = s.fixture.repository
        for filter in InvoiceFilter.allCases {
            for sort in InvoiceSort.allCases {
                for search in ["ac", "acme web", "muller", "MÜLL", "concepts", s.overdue.number, "nothing-like-this", " -- "] {
                    let searched = InvoiceListQuery(filter: filter, search: search, sort: sort)
                    let unsearched = InvoiceListQuery(filter: filter, sort: sort)
                    let all = try repository.invoiceIDs(matching: unsearched, today: s.today)
                    let kept = try repository.invoiceIDs(matchingSearch: search).map { matches in all.filter(matches.contains) } ?? all
                    #expect(kept == (try repository.invoiceIDs(matching: searched, today: s.today)), "\(filter) \(sort) \(search)")
                }
            }
        }
        #expect(try repository.invoiceIDs(matchingSearch: " -- ") == nil)
        #expect(try repository.invoiceIDs(matchingSearch: "\"OR AND NEAR(")?.isEmpty == true)
    }

    @Test func searchMatchesNumbersClientsAndDescriptionsByWordPrefix() throws {
        let s = try Scenario()
        #expect(try Set(s.ids(InvoiceListQuery(search: "ac"))) == Set([s.draft, s.overdue, s.cancelled, s.paid].map { $0.id! }))
        #expect(try s.ids(InvoiceListQuery(search: "acme web")) == [s.draft.id!])
        #expect(try s.ids(InvoiceListQuery(search: "muller")) == [s.sentFuture.id!, s.paid.id!])   // accents ignored
        #expect(try s.ids(InvoiceListQuery(search: "MÜLL")) == [s.sentFuture.id!, s.paid.id!])
        #expect(try s.ids(InvoiceListQuery(search: "concepts")) == [s.sentFuture.id!])
        #expect(try s.ids(InvoiceListQuery(search: s.overdue.number)) == [s.overdue.id!])
        #expect(try s.ids(InvoiceListQuery(search: "nothing-like-this")).isEmpty)
        #expect(try s.ids(InvoiceListQuery(search: " -- ")).count == 5)   // only punctuation: no filter
        #expect(try s.ids(InvoiceListQuery(search: "\"OR AND NEAR(")).isEmpty)   // no FTS syntax leaks through
        #expect(try s.ids(InvoiceListQuery(filter: .paid, search: "acme")) == [s.paid.id!])
    }

    @Test func sortsByDateDueDateAndAmount() throws {
        let s = try Scenario()
        let byDateAscending = try s.ids(InvoiceListQuery(sort: .issueDate, ascending: true))
        #expect(byDateAscending == [s.cancelled, s.paid, s.overdue, s.draft, s.sentFuture].map { $0.id! })
        let byDue = try s.ids(InvoiceListQuery(sort: .dueDate, ascending: true))
        #expect(byDue == [s.cancelled, s.paid, s.overdue, s.draft, s.sentFuture].map { $0.id! })
        let byAmount = try s.ids(InvoiceListQuery(sort: .amount))
        #expect(byAmount == [s.cancelled, s.draft, s.sentFuture, s.overdue, s.paid].map { $0.id! })
    }

    @Test func pagesAndRowsByIDAgreeWithTheIDList() throws {
        let s = try Scenario()
        let ids = try s.ids(InvoiceListQuery(sort: .amount))
        let first = try s.fixture.repository.invoiceSummaries(matching: InvoiceListQuery(sort: .amount), limit: 2, offset: 0, today: s.today)
        let rest = try s.fixture.repository.invoiceSummaries(matching: InvoiceListQuery(sort: .amount), limit: 10, offset: 2, today: s.today)
        #expect((first + rest).map(\.id) == ids)
        let reversed = Array(ids.reversed()) + [InvoiceID(9999)]
        #expect(try s.fixture.repository.summaries(for: reversed, today: s.today).map(\.id) == Array(ids.reversed()))
        #expect(try s.fixture.repository.summaries(for: [], today: s.today).isEmpty)
    }

    @Test func outstandingAndOverdueTotalsPerCurrency() throws {
        let s = try Scenario()
        let totals = try s.fixture.repository.outstandingTotals(today: s.today)
        #expect(totals == [
            OutstandingTotal(currency: .eur, outstanding: money("25.70"), overdue: money("25.70"), overdueCount: 1),
            OutstandingTotal(currency: .usd, outstanding: money("500.00", .usd), overdue: money("0.00", .usd), overdueCount: 0),
        ])
    }

    @Test func aClientsInvoicesAndBalance() throws {
        let s = try Scenario()
        let acme = try #require(s.draft.clientID)
        #expect(try s.ids(InvoiceListQuery(clientID: acme)) == [s.draft, s.overdue, s.cancelled].map { $0.id! })
        #expect(try s.fixture.repository.outstandingBalance(ofClient: acme) == [money("25.70")])
        #expect(try s.fixture.repository.invoiceCount(ofClient: acme) == 3)
    }

    @Test func clientRowsCarryTheirCountsAndBalances() throws {
        let s = try Scenario()
        let rows = try s.fixture.repository.clientSummaries()
        #expect(rows.map(\.client.name) == ["Acme Corporation", "Zoë Müller"])
        #expect(rows.map(\.invoiceCount) == [3, 2])
        #expect(rows.map(\.outstanding) == [[money("25.70")], [money("500.00", .usd)]])
        #expect(try s.fixture.repository.clientSummaries(matching: "zoe").map(\.invoiceCount) == [2])
    }

    @Test func clientsAreListedByNameAndSearchedWithoutAccents() throws {
        let s = try Scenario()
        #expect(try s.fixture.repository.clients().map(\.name) == ["Acme Corporation", "Zoë Müller"])
        #expect(try s.fixture.repository.clients(matching: "zoe").map(\.name) == ["Zoë Müller"])
        #expect(try s.fixture.repository.clients(matching: "CORP").map(\.name) == ["Acme Corporation"])
    }
}

@Suite struct DeletionTests {
    @Test func deleteAndRestoreBringTheSameInvoiceBack() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        // Only an invoice never sent can be deleted.
        let invoice = try fixture.invoice(for: client, lines: [line("Unique gizmo", price: "10.00", rate: "7")])
        let keep = try fixture.invoice(for: client, lines: [])

        let deleted = try fixture.repository.delete(invoice.id!)
        #expect(deleted.invoice == invoice)
        #expect(try fixture.repository.invoice(invoice.id!) == nil)
        #expect(try fixture.repository.invoiceIDs(matching: InvoiceListQuery(search: "gizmo")).isEmpty)
        #expect(try fixture.repository.invoiceCount() == 1)
        #expect(throws: InvoiceError.invoiceNotFound) { try fixture.repository.delete(invoice.id!) }

        try fixture.repository.restore(deleted)
        #expect(try fixture.repository.invoice(invoice.id!) == invoice)
        #expect(try fixture.repository.invoiceIDs(matching: InvoiceListQuery(search: "gizmo")) == [invoice.id!])
        #expect(try fixture.repository.invoiceIDs(matching: InvoiceListQuery()).count == 2)
        #expect(keep.number == "INV-2024-0002")
        #expect(try fixture.repository.invoice(number: invoice.number)?.id == invoice.id)
    }

    @Test func aClientWithInvoicesIsNotDeletedWithoutADecision() throws {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme")
        let globex = try fixture.client("Globex")
        let lonely = try fixture.client("Initech")
        let first = try fixture.invoice(for: acme, lines: [])
        try fixture.invoice(for: acme, lines: [])
        let globexInvoice = try fixture.invoice(for: globex, lines: [])

        #expect(try fixture.repository.deleteClient(lonely.id!) == .deleted)
        #expect(throws: InvoiceError.clientHasInvoices(count: 2)) { try fixture.repository.deleteClient(acme.id!) }
        #expect(InvoiceError.clientHasInvoices(count: 2).localizedDescription.contains("2"))

        #expect(try fixture.repository.deleteClient(acme.id!, invoices: .keep) == .archived(keptInvoices: 2))
        #expect(try fixture.repository.clients().map(\.name) == ["Globex"])
        #expect(try fixture.repository.client(acme.id!)?.isArchived == true)
        #expect(try fixture.repository.summary(for: first.id!)?.clientName == "Acme")

        #expect(try fixture.repository.deleteClient(globex.id!, invoices: .delete) == .deletedWithInvoices(count: 1))
        #expect(try fixture.repository.client(globex.id!) == nil)
        #expect(try fixture.repository.invoice(globexInvoice.id!) == nil)
        #expect(try fixture.repository.suggestedNumber(issuedOn: day("2024-03-01")) == "INV-2024-0004")
        #expect(throws: InvoiceError.clientNotFound) { try fixture.repository.deleteClient(globex.id!) }
    }

    @Test func anInvoiceCannotComeBackWithoutItsClient() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        let invoice = try fixture.invoice(for: client, lines: [])
        let deleted = try fixture.repository.delete(invoice.id!)
        try fixture.repository.deleteClient(client.id!)
        #expect(throws: InvoiceError.clientGoneForRestore) { try fixture.repository.restore(deleted) }
    }

    @Test func theFreeTierCountsExistingInvoices() throws {
        let fixture = try Fixture()
        let client = try fixture.client("Acme")
        for _ in 0..<EntitlementLimits.freeInvoices { try fixture.invoice(for: client, lines: []) }
        let count = try fixture.repository.invoiceCount()
        #expect(!InvoiceRules.canCreateInvoice(existingCount: count, limit: EntitlementLimits.freeInvoices))
        try fixture.repository.delete(try #require(fixture.repository.invoiceIDs().first))
        #expect(InvoiceRules.canCreateInvoice(existingCount: try fixture.repository.invoiceCount(),
                                              limit: EntitlementLimits.freeInvoices))
    }
}
