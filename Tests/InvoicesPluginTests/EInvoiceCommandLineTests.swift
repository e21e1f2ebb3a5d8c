import BillfoldCore
import Foundation
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// `billfold invoice export NUMBER --format pdf|facturx|xrechnung --output FILE`.
@Suite struct EInvoiceCommandLineTests {
    private func run(_ arguments: [String], _ fixture: Fixture) -> (status: Int32, output: CapturedOutput) {
        let captured = CapturedOutput()
        let status = InvoicesCommandLine.run(arguments: arguments, database: fixture.database, plan: .pro, today: day("2026-03-10"),
                                             output: captured.output)
        return (status, captured)
    }

    /// A sent invoice to a German authority with everything XRechnung needs.
    private func readyFixture() throws -> (Fixture, Invoice) {
        let fixture = try Fixture()
        var profile = EInvoiceFixtures.seller
        profile.numberPattern = InvoiceNumberPattern.defaultPattern
        try fixture.repository.saveProfile(profile)
        let authority = EInvoiceFixtures.germanAuthority
        let client = try fixture.repository.save(Client(name: authority.name, email: authority.email, address: authority.address,
                                                         currency: .eur, postcode: authority.postcode, city: authority.city,
                                                         countryCode: "DE", electronicAddress: authority.electronicAddress,
                                                         buyerReference: "991-12345-67", eInvoiceFormat: .xrechnung))
        var invoice = Invoice.draft(for: client, profile: profile, today: day("2026-03-02"))
        invoice.lines = [EInvoiceFixtures.line("Beratung", "8", "95.00")]
        invoice = try fixture.repository.save(invoice)
        try invoice.markSent(on: day("2026-03-02"))
        return (fixture, try fixture.repository.save(invoice))
    }

    @Test func anXRechnungIsWrittenAsXML() throws {
        let (fixture, invoice) = try readyFixture()
        let output = fixture.directory.url.appendingPathComponent("rechnung.xml")
        let (status, captured) = run(["export", invoice.number, "--format", "xrechnung", "--output", output.path], fixture)
        #expect(status == 0, "\(captured.error)")
        let xml = try String(contentsOf: output, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml"))
        #expect(xml.contains("xrechnung_3.0") && xml.contains("<ram:BuyerReference>991-12345-67</ram:BuyerReference>"))
        #expect(xml.contains("<ram:GrandTotalAmount>904.40</ram:GrandTotalAmount>"))
    }

    @Test func pdfStaysTheDefaultAndCanBeNamed() throws {
        let (fixture, invoice) = try readyFixture()
        for arguments in [[], ["--format", "pdf"]] {
            let output = fixture.directory.url.appendingPathComponent("invoice\(arguments.count).pdf")
            let (status, _) = run(["export", invoice.number] + arguments + ["--output", output.path], fixture)
            #expect(status == 0)
            #expect(try Data(contentsOf: output).prefix(5) == Data("%PDF-".utf8))
        }
    }

    @Test func anInvoiceThatIsNotReadySaysWhatIsMissingAndWritesNothing() throws {
        let (fixture, invoice) = try readyFixture()
        var client = try #require(try fixture.repository.client(invoice.clientID!))
        client.countryCode = ""
        try fixture.repository.save(client)
        var draft = Invoice.draft(for: client, profile: try fixture.repository.profile(), today: day("2026-03-03"))
        draft.buyerReference = ""
        draft.lines = [EInvoiceFixtures.line("Beratung", "1", "95.00")]
        draft = try fixture.repository.save(draft)
        let output = fixture.directory.url.appendingPathComponent("missing.xml")
        let (status, captured) = run(["export", draft.number, "--format", "xrechnung", "--output", output.path], fixture)
        #expect(status == 1)
        #expect(captured.error.contains("client’s country") && captured.error.contains("Leitweg-ID"), "\(captured.error)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let (fixture, invoice) = try readyFixture()
        let (status, captured) = run(["export", invoice.number, "--format", "ubl", "--output", "x.xml"], fixture)
        #expect(status == 2)
        #expect(captured.error.contains("“ubl” is not a valid value for --format"))
        #expect(captured.error.contains("--format pdf|facturx|xrechnung"))
    }
}
