import BillfoldCore
import Documents
import Foundation
import Graphics
import Storage
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// A rendered invoice read back with Poppler.
struct ReadBack {
    let document: PDFDocument
    let pages: [PDFPage]

    init(_ data: Data) throws {
        let document = try PDFDocument(data: data)
        self.document = document
        pages = try (0..<document.pageCount).map { try document.page(at: $0) }
    }

    /// Every page's text without whitespace, so wrapped text compares whole.
    var compactText: String { pages.map { compact($0.text()) }.joined() }
}

func compact(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace }))
}

/// Formats pinned to one locale and A4, so the text the tests look for does not depend on the machine.
let englishFormatting = InvoiceTemplate.Formatting(money: MoneyFormatter(locale: Locale(identifier: "en_US")),
                                                   numbers: NumberFormatting(locale: Locale(identifier: "en_US")),
                                                   dateLocale: Locale(identifier: "en_US"), paper: .a4)

/// A small PNG (a blue square) for the logo.
func logoPNG() throws -> Data {
    let surface = try ImageSurface(pixelWidth: 120, pixelHeight: 40, hasAlpha: false)
    let context = DrawingContext(surface: surface)
    context.fill(Rect(x: 0, y: 0, width: 120, height: 40), color: Color(hex: 0x1C71D8))
    return try surface.pngData()
}

@Suite struct InvoiceTemplateTests {
    /// The profile and client of a real-looking invoice, with a logo.
    private func scenario(lines: [LineItem], discount: String = "0", send: Bool = true) throws -> (Fixture, Invoice) {
        let fixture = try Fixture()
        var profile = try fixture.repository.profile()
        let logo = fixture.directory.url.appendingPathComponent("logo.png")
        try logoPNG().write(to: logo)
        profile.logoFileName = try fixture.repository.logos.importLogo(from: logo)
        profile.taxID = "DE123456789"
        profile.phone = "+49 40 1234567"
        profile.iban = "DE89370400440532013000"
        profile.bic = "COBADEFFXXX"
        try fixture.repository.saveProfile(profile)
        var client = Client(name: "Acme Corporation", email: "ap@acme.example", address: "500 Market Street\nSan Francisco, CA 94105\nUSA",
                            taxID: "US-98-7654321", currency: .eur)
        client = try fixture.repository.save(client)
        var invoice = try fixture.invoice(for: client, issued: "2024-03-01", terms: 14, lines: lines, discount: discount)
        invoice.notes = "Thank you for your business!"
        invoice = try fixture.repository.save(invoice)
        if send {
            try invoice.markSent(on: day("2024-03-01"))
            invoice = try fixture.repository.save(invoice)
        }
        return (fixture, invoice)
    }

    private func render(_ fixture: Fixture, _ invoice: Invoice) throws -> ReadBack {
        let source = try fixture.repository.document(for: invoice.id!)
        return try ReadBack(InvoicePDF.render(source, formatting: englishFormatting).data)
    }

    @Test func aThreeLineInvoiceShowsEverythingTheClientNeeds() throws {
        let (fixture, invoice) = try scenario(lines: [
            line("Website redesign\nHome page, product pages and checkout", quantity: "32.5", price: "95.00", rate: "19", unit: "h"),
            line("Hosting, March to May", quantity: "3", price: "9.99", rate: "19", discount: "10", unit: "month"),
            line("Printed brochure", quantity: "500", price: "0.42", rate: "7", unit: "pcs"),
        ], discount: "5")
        let totals = try invoice.totals()
        let pdf = try render(fixture, invoice)
        #expect(pdf.pages.count == 1)
        let text = pdf.compactText
        for expected in ["Invoice", invoice.number, "Mar1,2024", "Mar15,2024", "StudioNord", "DE123456789",
                         "AcmeCorporation", "500MarketStreet", "US-98-7654321",
                         "Websiteredesign", "Homepage,productpagesandcheckout", "Hosting,MarchtoMay", "Less10%discount",
                         "Printedbrochure", "32.5", "€95.00", "€3,087.50", "€26.97", "€210.00",
                         "Subtotal", "€3,324.47", "Discount5%", "-€166.22", "Tax19%", "Tax7%", "Total",
                         compact(MoneyFormatter(locale: Locale(identifier: "en_US")).string(from: totals.total)),
                         "DE893704004405320130", "COBADEFFXXX", "Thankyouforyourbusiness!", "Page1of1"] {
            #expect(text.contains(expected), "missing \(expected)")
        }
        #expect(pdf.document.title == "Invoice \(invoice.number)")
        #expect(pdf.document.author == "Studio Nord")
        #expect(!text.contains("Draft"))
    }

    @Test func longInvoicesFlowOverPagesWithEveryWordAndNothingOffThePage() throws {
        let descriptions = (0..<60).map { index in
            "Item \(index): " + String(repeating: "careful work on part \(index) of the project, ", count: 1 + index % 6) + "done."
        }
        let (fixture, invoice) = try scenario(lines: descriptions.map { line($0, quantity: "1", price: "10.00", rate: "19") })
        let pdf = try render(fixture, invoice)
        #expect(pdf.pages.count > 1)
        let text = pdf.compactText
        for description in descriptions { #expect(text.contains(compact(description))) }
        for (index, page) in pdf.pages.enumerated() {
            #expect(compact(page.text()).contains("Page\(index + 1)of\(pdf.pages.count)"))
            let bounds = Rect(origin: .zero, size: page.size)
            for run in page.textRuns() {
                #expect(run.rect.minX >= bounds.minX && run.rect.maxX <= bounds.maxX
                    && run.rect.minY >= bounds.minY && run.rect.maxY <= bounds.maxY, "\(run.text) is off page \(index + 1)")
            }
        }
        #expect(text.contains("€714.00"))   // 60 × 10.00 plus 19 %
    }

    @Test func aFortyThousandCharacterDescriptionIsPrintedInFull() throws {
        let long = (0..<700).map { "Paragraph \($0) — analysis, design and review of the module. ✓" }.joined(separator: "\n")
        #expect(long.count >= 40_000)
        let (fixture, invoice) = try scenario(lines: [line(long, price: "1.00"), line("Short line", price: "2.00")])
        let pdf = try render(fixture, invoice)
        #expect(pdf.pages.count > 5)
        // The row is split between pages, with the running footer and the repeated header in
        // between, so each of its lines is looked for in order.
        let text = pdf.compactText
        var position = text.startIndex
        var missing: [String] = []
        for paragraph in long.split(separator: "\n") {
            if let found = text.range(of: compact(String(paragraph)), range: position..<text.endIndex) {
                position = found.upperBound
            } else {
                missing.append(String(paragraph))
            }
        }
        #expect(missing.isEmpty, "missing or out of order: \(missing.prefix(3))")
        #expect(text.contains("Shortline"))
    }

    @Test func draftsAndPaymentsAreShown() throws {
        let (fixture, draft) = try scenario(lines: [line("Work", price: "100.00")], send: false)
        #expect(try render(fixture, draft).compactText.contains("Draft"))

        let (paidFixture, sent) = try scenario(lines: [line("Work", price: "100.00", rate: "19")])
        var paid = sent
        try paid.recordPayment(money("50.00"), on: day("2024-03-10"))
        paid = try paidFixture.repository.save(paid)
        let text = try render(paidFixture, paid).compactText
        #expect(text.contains("PaidonMar10,2024") && text.contains("-€50.00"))
        #expect(text.contains("Balancedue") && text.contains("€69.00"))
    }

    @Test func labelsAndNumbersFollowTheLocale() throws {
        let (fixture, invoice) = try scenario(lines: [line("Arbeit", quantity: "1.5", price: "1000.00", rate: "19")])
        let german = InvoiceTemplate.Formatting(money: MoneyFormatter(locale: Locale(identifier: "de_DE")),
                                                numbers: NumberFormatting(locale: Locale(identifier: "de_DE")),
                                                dateLocale: Locale(identifier: "de_DE"), paper: .a4)
        let source = try fixture.repository.document(for: invoice.id!)
        let text = try ReadBack(InvoicePDF.render(source, formatting: german).data).compactText
        #expect(text.contains("1,5") && text.contains("1.500,00€") && text.contains("01.03.2024"))
    }

    @Test func theSavedFileIsNamedAfterTheNumber() {
        var invoice = Invoice(number: "INV-2024-0042", clientID: nil, issueDate: day("2024-03-01"),
                              dueDate: day("2024-03-01"), currency: .eur)
        #expect(InvoicePDF.suggestedFileName(for: invoice) == "INV-2024-0042.pdf")
        invoice.number = "2024/17"
        #expect(InvoicePDF.suggestedFileName(for: invoice) == "2024-17.pdf")
        invoice.number = ".."
        #expect(InvoicePDF.suggestedFileName(for: invoice) == "Invoice.pdf")
    }

    @Test func theCommandLineKeepsToTheFreePlan() throws {
        let (fixture, invoice) = try scenario(lines: [line("Consulting", quantity: "8", price: "120.00", rate: "19", unit: "h")])
        for format in ["pdf", "facturx"] {
            let output = fixture.directory.url.appendingPathComponent("free.\(format)")
            let captured = CapturedOutput()
            let status = InvoicesCommandLine.run(arguments: ["export", invoice.number, "--format", format, "--output", output.path],
                                                 database: fixture.database, plan: .free, output: captured.output)
            #expect(status == 1)
            #expect(captured.error == InvoiceError.pdfExportNeedsPro.localizedDescription)
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test func theCommandLineExportsAPDF() throws {
        let (fixture, invoice) = try scenario(lines: [line("Consulting", quantity: "8", price: "120.00", rate: "19", unit: "h")])
        let output = fixture.directory.url.appendingPathComponent("out.pdf")
        let captured = CapturedOutput()
        let status = InvoicesCommandLine.run(
            arguments: ["export", invoice.number.lowercased(), "--output", output.path], database: fixture.database, plan: .pro,
            formatting: .init(money: MoneyFormatter(locale: Locale(identifier: "en_US")),
                              numbers: NumberFormatting(locale: Locale(identifier: "en_US")),
                              dateLocale: Locale(identifier: "en_US")),
            output: captured.output)
        #expect(status == 0 && captured.error.isEmpty)
        let text = try ReadBack(Data(contentsOf: output)).compactText
        #expect(text.contains(invoice.number) && text.contains("Consulting") && text.contains("€1,142.40"))

        let missing = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["export", "NOPE-1", "--output", output.path], database: fixture.database, plan: .pro,
                                        output: missing.output) == 1)
        #expect(missing.error.contains("NOPE-1"))
        #expect(InvoicesCommandLine.run(arguments: ["export", invoice.number], database: fixture.database, plan: .pro,
                                        output: CapturedOutput().output) == 2)
        let folder = fixture.directory.url.appendingPathComponent("no/such/folder/out.pdf")
        let unwritable = CapturedOutput()
        #expect(InvoicesCommandLine.run(arguments: ["export", invoice.number, "-o", folder.path], database: fixture.database, plan: .pro,
                                        output: unwritable.output) == 1)
        #expect(!unwritable.error.isEmpty)
    }
}
