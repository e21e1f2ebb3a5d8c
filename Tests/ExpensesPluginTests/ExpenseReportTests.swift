import BillfoldCore
import Documents
@testable import ExpensesCore
@testable import ExpensesPlugin
import Foundation
import Graphics
import Storage
import Testing

/// Reports are read back with Poppler: text on each page, page count, metadata.
@Suite struct ExpenseReportTests {
    /// A two-page PDF receipt with real text, made with Documents.
    static func pdfReceipt() throws -> Data {
        var document = Document(pageSetup: PageSetup(paper: .a4), footer: nil)
        document.blocks = [.heading(Heading("Hotel Avenida Palace")), .text("Room 412, three nights"), .pageBreak,
                           .heading(Heading("Folio page two")), .text("City tax 12.00")]
        return try document.renderPDF().data
    }

    struct Sample {
        let workspace: Workspace
        let trip: Trip
        let report: ExpenseReport
        let missing: ReceiptReference
    }

    static func sample() throws -> Sample {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let photo = try repository.importReceipt(data: Samples.jpegTurnedRight, suggestedName: "dinner.jpg").reference
        let png = try repository.importReceipt(data: Samples.png, suggestedName: "metro.png").reference
        let folio = try repository.importReceipt(data: try pdfReceipt(), suggestedName: "folio.pdf").reference
        let lost = try repository.importReceipt(data: Samples.jpeg(comment: "lost"), suggestedName: "lost.jpg").reference
        try repository.addExpense(ExpenseDetails(date: day("2024-03-04"), category: .lodging, vendor: "Hotel Avenida Palace",
                                                 amount: eur(48000), receipt: folio), to: trip.id)
        try repository.addExpense(ExpenseDetails(date: day("2024-03-07"), category: .meals, vendor: "Hotel bar",
                                                 amount: eur(2350), notes: "On the same folio", receipt: folio), to: trip.id)
        try repository.addExpense(meal(usd(4250), vendor: "Taberna da Rua", rate: dec("0.9215"), receipt: photo), to: trip.id)
        try repository.addExpense(ExpenseDetails(date: day("2024-03-06"), category: .transit, vendor: "Metro Lisboa",
                                                 amount: eur(165), receipt: png), to: trip.id)
        try repository.addExpense(ExpenseDetails(date: day("2024-03-08"),
                                                 mileage: Mileage(distance: dec("41.5"), unit: .kilometres,
                                                                  ratePerUnit: dec("0.30"), currency: .eur)), to: trip.id)
        try repository.addExpense(ExpenseDetails(date: day("2024-03-08"), category: .supplies, vendor: "Papelaria",
                                                 amount: eur(899), receipt: lost), to: trip.id)
        try FileManager.default.removeItem(at: workspace.store.url(for: lost))
        let report = try ExpenseReport.load(trip.id, from: repository, traveller: "Ada Lovelace")
        return Sample(workspace: workspace, trip: trip, report: report, missing: lost)
    }

    static func render(_ report: ExpenseReport, keepingAs name: String = "expense-report-sample.pdf") throws -> (RenderedPDF, PDFDocument) {
        let locale = Locale(identifier: "en_US")
        let document = report.document(pageSetup: PageSetup(paper: .a4), moneyFormatter: MoneyFormatter(locale: locale),
                                       numberFormatting: NumberFormatting(locale: locale), locale: locale)
        let rendered = try document.renderPDF()
        keepArtifact(rendered.data, named: name)
        return (rendered, try PDFDocument(data: rendered.data))
    }

    /// With BILLFOLD_TEST_ARTIFACTS set to a directory, reports are kept there to look at.
    static func keepArtifact(_ data: Data, named name: String) {
        guard let directory = ProcessInfo.processInfo.environment["BILLFOLD_TEST_ARTIFACTS"], !directory.isEmpty else { return }
        try? data.write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }

    static func pageTexts(_ pdf: PDFDocument) throws -> [String] {
        try (0..<pdf.pageCount).map { try pdf.page(at: $0).text() }
    }

    @Test func theCoverHasTheTripTheTravellerAndTheTotal() throws {
        let sample = try Self.sample()
        let (rendered, pdf) = try Self.render(sample.report)
        let cover = try pdf.page(at: 0).text()
        #expect(cover.contains("Lisbon conference"))
        #expect(cover.contains("Ada Lovelace"))
        #expect(cover.contains("Talk at the Swift meetup"))
        // 480.00 + 23.50 + 39.16 + 1.65 + 12.45 + 8.99 = 565.75
        #expect(cover.contains("€565.75"))
        #expect(cover.contains("Spending by Category"))
        for category in ["Lodging", "Meals", "Transit", "Supplies", "Mileage"] { #expect(cover.contains(category)) }
        #expect(pdf.title == "Expense report – Lisbon conference")
        #expect(pdf.author == "Ada Lovelace")
        #expect(rendered.pageCount == pdf.pageCount)
    }

    @Test func everyExpenseHasARowWithBothAmountsWhereTheyDiffer() throws {
        let sample = try Self.sample()
        let (_, pdf) = try Self.render(sample.report)
        let table = try pdf.page(at: 1).text()
        for vendor in ["Hotel Avenida Palace", "Hotel bar", "Taberna da Rua", "Metro Lisboa", "Papelaria"] {
            #expect(table.contains(vendor), "\(vendor) missing from the expense table")
        }
        #expect(table.contains("$42.50"))
        #expect(table.contains("0.9215"))
        #expect(table.contains("€39.16"))
        #expect(table.contains("41.5 km at 0.30 EUR per km"))
        #expect(table.contains("€565.75"))
    }

    @Test func oneReceiptPagePerImageAndEveryPageOfAPDFReceipt() throws {
        let sample = try Self.sample()
        let (_, pdf) = try Self.render(sample.report)
        let texts = try Self.pageTexts(pdf)
        // Cover, expenses, then: folio (2 pages), photo, PNG, the missing one.
        #expect(texts.count == 2 + 2 + 1 + 1 + 1)
        #expect(texts[2].contains("Receipt 1, page 1 of 2") && texts[2].contains("Hotel Avenida Palace")
                && texts[2].contains("Room 412"))
        #expect(texts[3].contains("Receipt 1, page 2 of 2") && texts[3].contains("City tax 12.00"))
        // The shared folio is captioned with both expenses.
        #expect(texts[2].contains("Hotel bar"))
        #expect(texts[4].contains("Receipt 2") && texts[4].contains("Taberna da Rua") && texts[4].contains("$42.50"))
        #expect(texts[5].contains("Receipt 3") && texts[5].contains("Metro Lisboa"))
        #expect(texts[6].contains("Receipt 4") && texts[6].contains("missing"))
        // The expense table points at the receipt pages.
        #expect(texts[1].contains("Receipt 2"))
    }

    /// A photo goes into the PDF as its cached copy's JPEG bytes, not decoded and compressed
    /// again, in the first report and the next; turned by its EXIF orientation, it is upright.
    @Test func aPhotoIsEmbeddedAsItsCachedCopyUpright() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        let data = try Samples.quarteredJPEG(width: 240, height: 160, orientation: 6)
        let photo = try workspace.repository.importReceipt(data: data, suggestedName: "turned.jpg").reference
        try workspace.repository.addExpense(meal(eur(1200), receipt: photo), to: trip.id)
        let report = try ExpenseReport.load(trip.id, from: workspace.repository, traveller: "Ada Lovelace")
        let folder = workspace.store.cacheDirectory.appendingPathComponent("print")
        for _ in 0..<2 {
            let (rendered, pdf) = try Self.render(report, keepingAs: "expense-report-turned.pdf")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(photo.digest) }
            #expect(names.count == 1)
            let copy = try Data(contentsOf: folder.appendingPathComponent(try #require(names.first)))
            #expect(rendered.data.range(of: copy) != nil)

            let page = try pdf.page(at: pdf.pageCount - 1).renderImage(scale: 0.5)
            let red = try #require(Samples.box(of: Samples.red, in: page))
            let blue = try #require(Samples.box(of: Samples.blue, in: page))
            let width = blue.maxX - blue.minX, height = blue.maxY - blue.minY
            #expect(height > width)
            #expect(red.minX > blue.minX + width / 3 && red.maxY < blue.maxY - height / 3)
        }
    }

    /// Attaching a photo decodes it anyway (a damaged one is refused), so its copy for the usual
    /// receipt page is made then: the first report, as the app makes it, decodes nothing.
    @Test func aPhotosCopyIsMadeWhenItIsAttached() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        let data = try Samples.quarteredJPEG(width: 2400, height: 1800, orientation: 1)
        let photo = try workspace.repository.importReceipt(data: data, suggestedName: "large.jpg").reference
        let folder = workspace.store.cacheDirectory.appendingPathComponent("print")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1 && names.allSatisfy { $0.hasPrefix(photo.digest) })
        let copy = folder.appendingPathComponent(try #require(names.first))
        let made = try FileManager.default.attributesOfItem(atPath: copy.path)
        let inspection = try ReceiptInspector.inspect(try Data(contentsOf: copy), isWholeFile: true)
        #expect(try #require(inspection.pixelWidth) < 2400)

        try workspace.repository.addExpense(meal(eur(1200), receipt: photo), to: trip.id)
        let report = try ExpenseReport.load(trip.id, from: workspace.repository, traveller: "Ada Lovelace")
        let rendered = try report.document().renderPDF()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == names)
        let after = try FileManager.default.attributesOfItem(atPath: copy.path)
        #expect(after[.systemFileNumber] as? Int == made[.systemFileNumber] as? Int)
        #expect(after[.modificationDate] as? Date == made[.modificationDate] as? Date)
        #expect(rendered.data.range(of: try Data(contentsOf: copy)) != nil)
    }

    /// An Adobe CMYK photo small enough to go in as it is still gets an RGB copy: Cairo would
    /// embed the CMYK JPEG without its inversion, and it would print as a negative.
    @Test func aCMYKPhotoPrintsInItsColours() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        let photo = try workspace.repository.importReceipt(data: Samples.redCMYKJPEG, suggestedName: "scan.jpg").reference
        try workspace.repository.addExpense(meal(eur(1200), receipt: photo), to: trip.id)
        let report = try ExpenseReport.load(trip.id, from: workspace.repository, traveller: "Ada Lovelace")
        let (_, pdf) = try Self.render(report, keepingAs: "expense-report-cmyk.pdf")
        let page = try pdf.page(at: pdf.pageCount - 1).renderImage(scale: 0.5)
        let red = try #require(Samples.box(of: Color(red: 200.0 / 255, green: 40.0 / 255, blue: 40.0 / 255), in: page))
        #expect(red.maxX - red.minX > 100 && red.maxY - red.minY > 70)
    }

    @Test func aDamagedPictureBecomesANoticeNotAFailedReport() throws {
        let sample = try Self.sample()
        let photo = try #require(sample.report.receiptPages.first { $0.reference.kind == .png }?.reference)
        var broken = Samples.png
        broken.removeSubrange(40..<broken.count)
        try broken.write(to: sample.workspace.store.url(for: photo))
        let (_, pdf) = try Self.render(sample.report, keepingAs: "expense-report-damaged.pdf")
        let texts = try Self.pageTexts(pdf)
        #expect(texts.contains { $0.contains("Metro Lisboa") && $0.contains("damaged") })
    }

    @Test func longTripsFlowOverPagesWithEveryRowAndTheHeaderRepeated() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        for index in 0..<120 {
            try workspace.repository.addExpense(meal(eur(Int64(100 + index)), on: "2024-03-0\(4 + index % 5)",
                                                     vendor: "Vendor number \(index + 1)"), to: trip.id)
        }
        let report = try ExpenseReport.load(trip.id, from: workspace.repository, traveller: "Ada Lovelace")
        let (_, pdf) = try Self.render(report, keepingAs: "expense-report-long.pdf")
        let texts = try Self.pageTexts(pdf)
        #expect(texts.count >= 4)
        let tablePages = texts.dropFirst()
        for index in 0..<120 {
            // "Vendor number 1" but not as the start of "Vendor number 12".
            let vendor = "Vendor number \(index + 1)(?![0-9])"
            #expect(tablePages.contains { $0.range(of: vendor, options: .regularExpression) != nil }, "\(vendor) is missing")
        }
        #expect(tablePages.allSatisfy { $0.contains("Vendor") && $0.contains("Amount (EUR)") })
        #expect(texts.last?.contains("Page \(texts.count) of \(texts.count)") == true)
    }

    @Test func anEmptyTripStillGetsACover() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        let report = try ExpenseReport.load(trip.id, from: workspace.repository, traveller: "")
        let (_, pdf) = try Self.render(report, keepingAs: "expense-report-empty.pdf")
        #expect(pdf.pageCount == 1)
        #expect(try pdf.page(at: 0).text().contains("no expenses"))
    }

    @Test func theCommandLineWritesTheReport() throws {
        let sample = try Self.sample()
        let target = sample.workspace.directory.file("lisbon.pdf")
        let captured = CapturedOutput()
        let status = ExpensesCommandLine.run(arguments: ["report", "Lisbon conference", "--output", target.path,
                                                         "--traveller", "Grace Hopper"],
                                             database: sample.workspace.database, receipts: sample.workspace.store,
                                             output: captured.output)
        #expect(status == 0, "\(captured.errorText)")
        let pdf = try PDFDocument(data: try Data(contentsOf: target))
        #expect(pdf.pageCount == 7)
        #expect(pdf.author == "Grace Hopper")
        #expect(captured.text.contains("lisbon.pdf"))
    }
}
