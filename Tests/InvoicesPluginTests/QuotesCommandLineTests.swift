import BillfoldCore
import Foundation
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct QuotesCommandLineTests {
    private let english = InvoicesCommandLine.Formatting(money: MoneyFormatter(locale: Locale(identifier: "en_US")),
                                                         dateLocale: Locale(identifier: "en_US"))

    private func run(_ kind: QuotesCommandLine.Kind, _ arguments: [String], _ fixture: Fixture, plan: InvoicePlan = .pro)
        -> (status: Int32, output: CapturedOutput) {
        let captured = CapturedOutput()
        let status = QuotesCommandLine.run(kind, arguments: arguments, database: fixture.database, plan: plan,
                                           today: day("2024-04-01"), formatting: english, output: captured.output)
        return (status, captured)
    }

    /// A sent quote, and a sent invoice with one credit note.
    private func filled() throws -> Fixture {
        let fixture = try Fixture()
        let acme = try fixture.client("Acme Corporation")
        var quote = try fixture.repository.save(Quote(clientID: acme.id, issueDate: day("2024-03-01"), validUntil: day("2024-03-20"),
                                                      currency: .eur, lines: [line(quantity: "2", price: "150.00", rate: "19")]))
        try quote.markSent(on: day("2024-03-01"))
        try fixture.repository.save(quote)
        var client = acme
        client.buyerReference = "991-12345-67"
        try fixture.repository.save(client)
        let invoice = try fixture.sentInvoice(for: acme, lines: [line(quantity: "3", price: "100.00", rate: "19")])
        try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-10"),
                                                lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        return fixture
    }

    @Test func quoteListShowsTotalValidityAndStatus() throws {
        let fixture = try filled()
        let (status, captured) = run(.quote, ["list"], fixture)
        #expect(status == 0 && captured.error.isEmpty)
        let lines = captured.standard.components(separatedBy: "\n")
        #expect(lines.count == 3 && lines[0].hasPrefix("Number") && lines[0].contains("Valid Until"))
        #expect(lines[2].hasPrefix("QUO-2024-0001") && lines[2].contains("€357.00") && lines[2].contains("Mar 20, 2024")
            && lines[2].hasSuffix("Expired"), "\(lines)")
        #expect(run(.quote, ["list"], try Fixture()).output.standard == "There are no quotes yet.")
    }

    @Test func creditNoteListNamesTheInvoice() throws {
        let fixture = try filled()
        let (status, captured) = run(.creditNote, ["list"], fixture)
        #expect(status == 0)
        let lines = captured.standard.components(separatedBy: "\n")
        #expect(lines.count == 3)
        #expect(lines[2].hasPrefix("CN-2024-0001") && lines[2].contains("INV-2024-0001") && lines[2].contains("€119.00")
            && lines[2].contains("Mar 10, 2024"), "\(lines)")
    }

    @Test func exportsFollowThePlan() throws {
        let fixture = try filled()
        let directory = try TemporaryDirectory()
        let quotePDF = directory.path("quote.pdf")
        #expect(run(.quote, ["export", "quo-2024-0001", "--output", quotePDF], fixture).status == 0)
        let quoteText = try ReadBack(Data(contentsOf: URL(fileURLWithPath: quotePDF))).compactText
        #expect(quoteText.contains("QUO-2024-0001") && quoteText.contains(compact("Valid until")))

        let notePDF = directory.path("note.pdf")
        #expect(run(.creditNote, ["export", "CN-2024-0001", "--output", notePDF], fixture).status == 0)
        #expect(try ReadBack(Data(contentsOf: URL(fileURLWithPath: notePDF))).compactText.contains(compact("Credit note for invoice INV-2024-0001")))

        // The free plan keeps PDFs for Pro, here as in the window; nothing is written.
        let refused = directory.path("refused.pdf")
        let free = run(.creditNote, ["export", "CN-2024-0001", "--output", refused], fixture, plan: .free)
        #expect(free.status == 1 && free.output.error == InvoiceError.pdfExportNeedsPro.localizedDescription)
        #expect(!FileManager.default.fileExists(atPath: refused))

        // Quotes are not e-invoices; unknown numbers say how to find the right one.
        #expect(run(.quote, ["export", "QUO-2024-0001", "--format", "xrechnung", "--output", refused], fixture).status == 2)
        let missing = run(.creditNote, ["export", "CN-9", "--output", refused], fixture)
        #expect(missing.status == 1 && missing.output.error.contains("billfold credit-note list"))
    }

    @Test func aCreditNoteExportsAsXRechnungOnTheFreePlan() throws {
        let fixture = try Fixture()
        try fixture.repository.saveProfile(EInvoiceFixtures.seller)
        let client = try fixture.repository.save(Client(name: "Stadt Musterstadt", email: "rechnung@musterstadt.example",
                                                        address: "Rathausplatz 1", currency: .eur, postcode: "12345",
                                                        city: "Musterstadt", countryCode: "DE", buyerReference: "991-12345-67"))
        var invoice = Invoice.draft(for: client, profile: EInvoiceFixtures.seller, today: day("2024-03-01"))
        invoice.lines = [line(quantity: "3", price: "100.00", rate: "19")]
        invoice = try fixture.repository.save(invoice)
        try invoice.markSent(on: day("2024-03-01"))
        invoice = try fixture.repository.save(invoice)
        let note = try fixture.repository.issue(CreditNote(invoiceID: invoice.id!, issueDate: day("2024-03-10"),
                                                           lines: [CreditedLine(invoiceLine: 0, quantity: 1)]))
        let directory = try TemporaryDirectory()
        let xml = directory.path("note.xml")
        let result = run(.creditNote, ["export", note.number, "--format", "xrechnung", "--output", xml], fixture, plan: .free)
        #expect(result.status == 0, "\(result.output.error)")
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(text.contains("<ram:TypeCode>381</ram:TypeCode>") && text.contains("<ram:IssuerAssignedID>INV-2024-0001</ram:IssuerAssignedID>"))
        #expect(text.contains("<ram:BuyerReference>991-12345-67</ram:BuyerReference>"))
    }
}
