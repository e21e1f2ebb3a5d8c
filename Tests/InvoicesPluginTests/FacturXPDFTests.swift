import BillfoldCore
import Foundation
import PDFInspection
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Factur-X PDFs read back by pikepdf and checked by the e-invoice checker
/// (`Tests/EInvoice/check-einvoice.py`: the XSD and the EN 16931 schematron on the XML the
/// PDF carries). Needs the tests' venv (`build-aux/dev venv`; `build-aux/dev test` makes it).
@Suite struct FacturXPDFTests {
    static let facturXCases = EInvoiceFixtures.all.filter { $0.formats.contains(.facturX) }

    @Test func everyFacturXFixtureIsAPDFA3bCarryingItsXML() throws {
        #expect(Self.facturXCases.count >= 5)
        let directory = try TemporaryDirectory()
        for fixture in Self.facturXCases {
            let url = directory.url.appendingPathComponent("\(fixture.name).pdf")
            try EInvoiceExport.write(fixture.document, as: .facturX, to: url)
            let report = try PDFInspection.inspect(url)
            #expect((report["check"] as? [String]) == [], "\(fixture.name)")
            #expect((report["id"] as? [String])?.count == 2, "\(fixture.name)")

            let xmp = try #require(report["xmp"] as? [String: Any])
            #expect(xmp["pdfaid:part"] as? String == "3")
            #expect(xmp["pdfaid:conformance"] as? String == "B")
            #expect(xmp["fx:DocumentType"] as? String == "INVOICE")
            #expect(xmp["fx:DocumentFileName"] as? String == "factur-x.xml")
            #expect(xmp["fx:Version"] as? String == "1.0")
            #expect(xmp["fx:ConformanceLevel"] as? String == "EN 16931")
            let packet = try #require(report["xmp_packet"] as? String)
            #expect(packet.contains("<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>"))
            #expect(packet.contains("<pdfaSchema:prefix>fx</pdfaSchema:prefix>"))

            let intents = try #require(report["output_intents"] as? [[String: Any]])
            #expect(intents.count == 1 && intents.first?["S"] as? String == "/GTS_PDFA1")
            #expect((intents.first?["profile"] as? [String: Any])?["N"] as? Int == 3)

            let files = try #require(report["associated_files"] as? [[String: Any]])
            #expect(files.count == 1)
            #expect(files.first?["F"] as? String == "factur-x.xml")
            #expect(files.first?["UF"] as? String == "factur-x.xml")
            #expect(files.first?["relationship"] as? String == "/Data")
            #expect(files.first?["subtype"] as? String == "/text#2Fxml" || files.first?["subtype"] as? String == "/text/xml")
            let xml = try EInvoiceExport.ciiXML(fixture.document, format: .facturX)
            #expect(files.first?["size"] as? Int == xml.count)
            #expect(files.first?["contents"] as? String == String(decoding: xml, as: UTF8.self))
            #expect(files.first?["mod_date"] as? String != nil && files.first?["creation_date"] as? String != nil)
            #expect(report["embedded_file_names"] as? [String] == ["factur-x.xml"])

            let fonts = try #require(report["fonts"] as? [[String: Any]])
            #expect(!fonts.isEmpty)
            #expect(fonts.allSatisfy { $0["embedded"] as? Bool == true }, "\(fixture.name): \(fonts)")
            #expect(fonts.filter { $0["subtype"] as? String == "/Type0+/CIDFontType2" }
                .allSatisfy { $0["cid_to_gid_map"] as? String == "/Identity" }, "\(fixture.name): \(fonts)")
        }
    }

    @Test func theCheckerFindsEveryFacturXPDFValid() throws {
        let directory = try TemporaryDirectory()
        var files: [URL] = []
        for fixture in Self.facturXCases {
            let url = directory.url.appendingPathComponent("\(fixture.name).pdf")
            try EInvoiceExport.write(fixture.document, as: .facturX, to: url)
            files.append(url)
        }
        let result = try EInvoiceValidationTests.check(files)
        #expect(result.valid, "\(result.report)")
        #expect(result.report.components(separatedBy: "\n").filter { $0.hasPrefix("VALID ") }.count == files.count,
                "\(result.report)")
    }

    @Test func anInvoiceThatIsNotReadyIsRefusedAndNoFileIsLeft() throws {
        var fixture = try #require(Self.facturXCases.first).document
        var profile = fixture.profile
        profile.name = ""
        fixture = InvoiceDocument(profile: profile, invoice: fixture.invoice, billTo: fixture.billTo, totals: fixture.totals,
                                  logoURL: nil)
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("not-ready.pdf")
        #expect(throws: EInvoiceError.self) { try EInvoiceExport.write(fixture, as: .facturX, to: url) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}

/// `billfold invoice export NUMBER --format facturx --output FILE.pdf` writes the Factur-X PDF.
@Suite struct FacturXCommandLineTests {
    @Test func theCommandWritesAValidFacturXPDF() throws {
        let fixture = try Fixture()
        try fixture.repository.saveProfile(EInvoiceFixtures.seller)
        let buyer = EInvoiceFixtures.frenchBusiness
        let client = try fixture.repository.save(Client(name: buyer.name, email: buyer.email, address: buyer.address,
                                                         currency: .eur, vatID: buyer.vatID, postcode: buyer.postcode,
                                                         city: buyer.city, countryCode: buyer.countryCode,
                                                         eInvoiceFormat: .facturX))
        var invoice = Invoice.draft(for: client, profile: try fixture.repository.profile(), today: day("2026-03-02"))
        invoice.lines = [EInvoiceFixtures.line("Conseil", "8", "95.00")]
        invoice = try fixture.repository.save(invoice)
        try invoice.markSent(on: day("2026-03-02"))
        invoice = try fixture.repository.save(invoice)

        let url = fixture.directory.url.appendingPathComponent("facture.pdf")
        let captured = CapturedOutput()
        let status = InvoicesCommandLine.run(arguments: ["export", invoice.number, "--format", "facturx", "--output", url.path],
                                             database: fixture.database, plan: .pro, today: day("2026-03-10"), output: captured.output)
        #expect(status == 0, "\(captured.error)")
        let report = try PDFInspection.inspect(url)
        let files = try #require(report["associated_files"] as? [[String: Any]])
        #expect(files.first?["F"] as? String == "factur-x.xml")
        #expect((files.first?["contents"] as? String)?.contains("<ram:GrandTotalAmount>904.40</ram:GrandTotalAmount>") == true)
        #expect((report["xmp"] as? [String: Any])?["fx:ConformanceLevel"] as? String == "EN 16931")
        let result = try EInvoiceValidationTests.check([url])
        #expect(result.valid, "\(result.report)")
        // The payment QR code is on the page too.
        #expect(try PDFInspection.qrCodes(in: url).first?.hasPrefix("BCD\n002\n1\nSCT\nCOBADEFFXXX\nStudio Nord\n") == true)
    }
}
