import Foundation
import Testing
import Graphics
@testable import Documents

@Suite struct OutputTests {
    @Test func metadataIsStoredInThePDF() throws {
        let document = SampleDocuments.invoice(rows: 5)
        let pdf = try ReadBack(document.renderPDF())
        #expect(pdf.document.title == "Invoice 2024-017")
        #expect(pdf.document.author == "Ada Lovelace Consulting")
        #expect(pdf.document.subject == "Invoice for services")
        #expect(pdf.document.keywords == "invoice")
        #expect(pdf.document.creator == "Billfold")
        #expect(pdf.document.creationDate == Date(timeIntervalSince1970: 1_714_550_400))
    }

    /// The creation date as ISO 8601 with its offset, as Foundation writes it, in zones east,
    /// west, off the hour and at UTC, and before 1970.
    @Test(arguments: [0, 7200, -18000, 20700, -12600])
    func creationDatesCarryTheirOffset(seconds: Int) throws {
        let expected = ISO8601DateFormatter()
        expected.formatOptions = [.withInternetDateTime]
        expected.timeZone = try #require(TimeZone(secondsFromGMT: seconds))
        for date in [Date(timeIntervalSince1970: 1_714_550_400.75), Date(timeIntervalSince1970: 1_735_689_599),
                     Date(timeIntervalSince1970: -86_400 * 365 - 0.5)] {
            #expect(Document.pdfDate(date, utcOffset: seconds) == expected.string(from: date))
        }
    }

    @Test func fontsAreEmbeddedAndTextIsSelectable() throws {
        let rendered = try SampleDocuments.invoice(rows: 5).renderPDF()
        let bytes = String(decoding: rendered.data, as: UTF8.self)
        #expect(bytes.contains("/FontFile"))
        #expect(bytes.contains("/ToUnicode"))
        #expect(try ReadBack(rendered).pages[0].find("Invoice").count >= 1)
    }

    @Test func paperSizeFollowsThePageSetup() throws {
        for (paper, size) in [(PaperSize.a4, Size(width: 595.276, height: 841.89)), (.letter, Size(width: 612, height: 792))] {
            var document = Document(pageSetup: PageSetup(paper: paper))
            document.blocks = [.paragraph(Paragraph("Hello"))]
            let page = try ReadBack(document.renderPDF()).pages[0]
            #expect(abs(page.size.width - size.width) < 0.5 && abs(page.size.height - size.height) < 0.5)
        }
        var landscape = Document(pageSetup: PageSetup(paper: .a4, orientation: .landscape))
        landscape.blocks = [.paragraph(Paragraph("Wide"))]
        #expect(try ReadBack(landscape.renderPDF()).pages[0].size.width > 800)
    }

    @Test func localePaperIsLetterOnlyWhereLetterIsUsed() {
        #expect(PaperSize.fromMillimetres(width: 216, height: 279) == .letter)
        #expect(PaperSize.fromMillimetres(width: 216, height: 356) == .letter)
        #expect(PaperSize.fromMillimetres(width: 210, height: 297) == .a4)
        #expect(PaperSize.fromMillimetres(width: 0, height: 0) == .a4)
        // The C locale's paper is A4.
        #expect([PaperSize.a4, .letter].contains(PaperSize.current))
    }

    @Test func writingToAFileReplacesItWhole() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("invoice.pdf")
        try Data("old contents".utf8).write(to: url)
        let pages = try SampleDocuments.invoice(rows: 80).writePDF(to: url)
        let pdf = try ReadBack(Data(contentsOf: url))
        #expect(pdf.pageCount == pages)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(leftovers == ["invoice.pdf"])
    }

    @Test func writingIntoAMissingFolderIsAFileError() {
        let url = URL(fileURLWithPath: "/nonexistent-billfold-folder/invoice.pdf")
        do {
            try SampleDocuments.invoice(rows: 3).writePDF(to: url)
            Issue.record("writing into a missing folder must fail")
        } catch {
            guard case .fileWrite(.failed(_, ENOENT)) = error else {
                Issue.record("expected an output error, got \(error)")
                return
            }
            #expect(error.errorDescription?.contains("/nonexistent-billfold-folder/invoice.pdf") == true)
        }
    }

    @Test func thumbnailIsAPNGOfTheFirstPage() throws {
        let png = try SampleDocuments.invoice(rows: 40).thumbnailPNG(width: 200)
        let image = try RasterImage(data: png)
        #expect(image.format == "png")
        #expect(image.pixelWidth == 200)
        #expect(image.pixelHeight == 283)
    }

    @Test func printableDocumentDrawsAnyPageInAnyOrder() throws {
        let document = SampleDocuments.invoice(rows: 90)
        let pages = try PrintableDocument(document)
        let expected = try document.renderPDF().pageCount
        #expect(pages.pageCount == expected)
        #expect(pages.pageSize == document.pageSetup.pageSize)
        // Draw into a PDF out of order, as a print dialog's page range may ask.
        let surface = try PDFSurface(pageSize: pages.pageSize)
        let context = DrawingContext(surface: surface)
        for index in [2, 0, 1] {
            try pages.drawPage(index, in: context)
            context.showPage()
        }
        let printed = try ReadBack(surface.finishBytes())
        #expect(printed.pages[0].text().contains("Page 3 of \(expected)"))
        #expect(printed.pages[1].text().contains("Page 1 of \(expected)"))
        #expect(throws: DocumentError.self) { try pages.drawPage(expected, in: context) }
    }

    @Test func paginationFromABackgroundTaskDrivesPrinting() async throws {
        let document = SampleDocuments.invoice(rows: 60)
        let pagination = try await Task.detached { try document.paginate() }.value
        let pages = try PrintableDocument(document, pagination: pagination)
        #expect(pages.pageCount == pagination.pageCount)
        let image = try ImageSurface(pixelWidth: 100, pixelHeight: 142)
        let context = DrawingContext(surface: image)
        context.scale(x: 100 / pages.pageSize.width, y: 100 / pages.pageSize.width)
        try pages.drawPage(pagination.pageCount - 1, in: context)
        try context.checkStatus()
    }

    @Test func renderingInTheBackgroundGivesTheSameBytesAsInline() async throws {
        let document = SampleDocuments.invoice(rows: 30)
        let background = try await document.renderPDFInBackground()
        let inline = try document.renderPDF()
        #expect(background.pageCount == inline.pageCount)
        #expect(try ReadBack(background).pages.map { $0.text() } == ReadBack(inline).pages.map { $0.text() })
    }

    @Test func documentsRenderConcurrently() async throws {
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for rows in [10, 40, 70, 100] {
                group.addTask { try SampleDocuments.invoice(rows: rows).renderPDF().pageCount }
            }
            var counts: [Int] = []
            for try await count in group { counts.append(count) }
            return counts.sorted()
        }
        let expected = try [10, 40, 70, 100].map { try SampleDocuments.invoice(rows: $0).renderPDF().pageCount }.sorted()
        #expect(counts == expected)
    }
}
