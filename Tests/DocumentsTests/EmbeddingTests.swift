import Foundation
import Testing
import Graphics
@testable import Documents

@Suite struct EmbeddingTests {
    /// A two-page PDF "receipt" made by the engine itself.
    static func receipt() throws -> Data {
        var document = Document(pageSetup: PageSetup(paper: .custom(Size(width: 226, height: 400)), margins: EdgeInsets(all: 16)))
        document.footer = nil
        document.blocks = [.paragraph(Paragraph("Café Lisboa receipt")), .keyValues(KeyValueList([.init("Espresso", "1.20")])),
                           .pageBreak, .paragraph(Paragraph("Second receipt page"))]
        return try document.renderPDF().data
    }

    @Test func everyPageOfAnAttachedPDFIsPlacedAsText() throws {
        var document = Document()
        document.blocks = [.heading(Heading("Receipts")), .pdfPages(EmbeddedPDF(try Self.receipt(), maxHeight: 300))]
        let pdf = try ReadBack(document.renderPDF())
        let all = pdf.pages.map { $0.text() }.joined(separator: "\n")
        #expect(all.contains("Café Lisboa receipt"))
        #expect(all.contains("Second receipt page"))
        #expect(all.contains("Espresso"))
        let printable = document.pageSetup.printableArea
        for page in pdf.pages {
            for run in page.textRuns() { #expect(printable.contains(run.rect, tolerance: 0.5), "\(run.text) at \(run.rect)") }
        }
    }

    @Test func selectedPagesOnly() throws {
        var document = Document()
        document.blocks = [.pdfPages(EmbeddedPDF(try Self.receipt(), pages: [1]))]
        let text = try ReadBack(document.renderPDF()).pages.map { $0.text() }.joined()
        #expect(text.contains("Second receipt page"))
        #expect(!text.contains("Café Lisboa"))
    }

    /// A report gives each receipt page a block of its own; the blocks share the receipt's bytes.
    @Test func pagesOfOnePDFInBlocksOfTheirOwnKeepTheirOrder() throws {
        let receipt = try Self.receipt()
        var document = Document()
        document.blocks = [.heading(Heading("Second first")), .pdfPages(EmbeddedPDF(receipt, pages: [1])),
                           .heading(Heading("Then the first")), .pdfPages(EmbeddedPDF(receipt, pages: [0]))]
        let text = try ReadBack(document.renderPDF()).pages.map { $0.text() }.joined(separator: "\n")
        let second = try #require(text.range(of: "Second receipt page"))
        let first = try #require(text.range(of: "Café Lisboa receipt"))
        #expect(second.lowerBound < first.lowerBound)

        document.blocks = [.pdfPages(EmbeddedPDF(receipt, pages: [0])), .pdfPages(EmbeddedPDF(receipt, pages: [2]))]
        #expect(throws: DocumentError.self) { try document.renderPDF() }
    }

    @Test func aDamagedPDFIsATypedError() {
        var document = Document()
        document.blocks = [.pdfPages(EmbeddedPDF(Data("%PDF-1.5 broken".utf8)))]
        do {
            _ = try document.renderPDF()
            Issue.record("a damaged PDF must not render")
        } catch {
            guard case .embeddedPDF = error else {
                Issue.record("expected an embedded PDF error, got \(error)")
                return
            }
        }
    }
}

@Suite struct ChartTests {
    static let chart = Chart(kind: .bar, categories: ["Travel", "Hotel", "Meals"],
                             series: [ChartSeries("Spent", values: [400, 700, 150])])

    @Test func aChartInADocumentHasItsLabelsAsText() throws {
        var document = Document()
        document.blocks = [.chart(ChartBlock(Self.chart))]
        let text = try ReadBack(document.renderPDF()).pages[0].text()
        for label in ["Travel", "Hotel", "Meals", "700", "400"] { #expect(text.contains(label)) }
    }

    @Test func barsAreDrawnInThePaletteColourAtTheirHeight() throws {
        let image = try ImageSurface(pixelWidth: 300, pixelHeight: 200, hasAlpha: false)
        let context = DrawingContext(surface: image)
        context.fill(Rect(x: 0, y: 0, width: 300, height: 200), color: .black)
        var style = ChartStyle.dark
        style.palette = [Color(hex: 0xFF8800)]
        ChartPainter(chart: Self.chart, style: style).draw(in: context, rect: Rect(x: 0, y: 0, width: 300, height: 200))
        // Scan the middle column (Hotel, the tallest bar) for the bar colour.
        var barRows = 0
        for y in 0..<200 {
            if let c = image.color(atX: 175, y: y), c.red > 0.9, c.green > 0.45, c.green < 0.6, c.blue < 0.1 { barRows += 1 }
        }
        var shortRows = 0
        for y in 0..<200 {
            if let c = image.color(atX: 262, y: y), c.red > 0.9, c.green > 0.45, c.green < 0.6, c.blue < 0.1 { shortRows += 1 }
        }
        #expect(barRows > 80)
        #expect(shortRows > 5 && shortRows < barRows / 3)
    }

    @Test func axisTicksAreRoundAndCoverTheValues() {
        let scale = AxisScale(values: [12, 730, -40])
        #expect(scale.minimum <= -40 && scale.maximum >= 730)
        #expect(scale.ticks.contains(0))
        let steps = zip(scale.ticks.dropFirst(), scale.ticks).map { $0 - $1 }
        #expect(Set(steps.map { ($0 * 1000).rounded() }).count == 1)
        #expect(AxisScale(values: []).ticks.count >= 2)
    }
}
