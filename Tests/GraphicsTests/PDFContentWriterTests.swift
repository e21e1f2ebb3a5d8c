import Foundation
import Testing
@testable import Graphics

/// The PDF's text, written by `PDFContentWriter` instead of Cairo: it must look, copy and search
/// exactly as Cairo's did.
@Suite struct PDFContentWriterTests {
    private static let pageSize = Size(width: 300, height: 200)

    /// Draws `pages`, one drawing each, on `surface`.
    private static func draw(_ pages: [(DrawingContext, TextEngine) -> Void], on surface: PDFSurface) {
        let context = DrawingContext(surface: surface)
        let engine = TextEngine()
        for page in pages {
            context.batching { page(context, engine) }
            context.showPage()
        }
    }

    /// The pages in a PDF made in memory, whose text the writer writes.
    private static func writerPDF(_ pages: [(DrawingContext, TextEngine) -> Void]) throws -> Data {
        let surface = try PDFSurface(pageSize: pageSize)
        draw(pages, on: surface)
        return try surface.finishBytes()
    }

    /// The same pages in a PDF whose text Cairo writes.
    private static func cairoPDF(_ pages: [(DrawingContext, TextEngine) -> Void]) throws -> Data {
        let surface = try PDFSurface(sink: OutputSink(), pageSize: pageSize, contentWriter: nil)
        draw(pages, on: surface)
        return try surface.finishBytes()
    }

    private static func draw(_ text: String, size: Double = 11, weight: FontWeight = .regular,
                             color: Color = .black, at point: Point, width: Double? = 260,
                             in context: DrawingContext, engine: TextEngine) {
        engine.layout(text, format: TextFormat(font: FontDescription(size: size, weight: weight)), width: width)
            .draw(in: context, at: point, color: color)
    }

    /// How many pixels of the two pages' renderings differ by more than a quarter in a channel.
    private static func differingPixels(_ first: Data, _ second: Data, page: Int = 0, scale: Double = 2) throws -> Int {
        let a = try PDFDocument(data: first).page(at: page).renderImage(scale: scale)
        let b = try PDFDocument(data: second).page(at: page).renderImage(scale: scale)
        #expect(a.pixelWidth == b.pixelWidth && a.pixelHeight == b.pixelHeight)
        var count = 0
        for y in 0..<a.pixelHeight {
            for x in 0..<a.pixelWidth {
                guard let p = a.color(atX: x, y: y), let q = b.color(atX: x, y: y) else { continue }
                if abs(p.red - q.red) > 0.25 || abs(p.green - q.green) > 0.25 || abs(p.blue - q.blue) > 0.25 { count += 1 }
            }
        }
        return count
    }

    private static func invoicePage(_ context: DrawingContext, _ engine: TextEngine) {
        context.fill(Rect(x: 20, y: 20, width: 260, height: 30), color: Color(hex: 0xE8F0FE))
        draw("Invoice INV-2024-0042", size: 18, weight: .semibold, at: Point(x: 24, y: 24), in: context, engine: engine)
        draw("Website redesign, including review rounds, a written summary of the findings and two follow-up calls",
             size: 9, color: Color(hex: 0x59636E), at: Point(x: 24, y: 64), in: context, engine: engine)
        draw("1,234.50 €", size: 9, at: Point(x: 200, y: 120), width: nil, in: context, engine: engine)
        draw("Größe · fi fl — ½", size: 12, at: Point(x: 24, y: 150), in: context, engine: engine)
    }

    @Test func theTextIsWrittenWithEmbeddedSubsetsAndLooksAsCairosDid() throws {
        let pdf = try Self.writerPDF([Self.invoicePage])
        let cairo = try Self.cairoPDF([Self.invoicePage])
        let written = String(decoding: pdf, as: Unicode.ASCII.self)
        #expect(written.contains("/Subtype /Type0"))
        #expect(written.contains("/Encoding /Identity-H"))
        #expect(written.contains("/CIDToGIDMap /Identity"))
        #expect(written.contains("/FontFile2"))
        #expect(written.contains("/ToUnicode"))
        // Each font is named by a subset tag and its PostScript name, whatever the locale.
        let names = try written.matches(of: Regex("/BaseFont /[A-Z]{6}\\+([A-Za-z0-9_-]+)")).compactMap { $0.output[1].substring }
        #expect(!names.isEmpty && !names.contains("Font"), "\(names)")
        // Cairo wrote the fills and nothing of the text.
        #expect(!written.contains("/Subtype /TrueType"))

        let differing = try Self.differingPixels(pdf, cairo)
        #expect(differing < 40, "\(differing) pixels differ from Cairo's rendering")
        // The fill under the title is still drawn, and under the text.
        let page = try PDFDocument(data: pdf).page(at: 0).renderImage(scale: 2)
        let fill = try #require(page.color(atX: 42, y: 42))
        #expect(fill.blue > 0.95 && fill.red < 0.95)
    }

    @Test func aPDFStreamedToAFileGetsTheSameContent() throws {
        let pages: [(DrawingContext, TextEngine) -> Void] = ["first", "second"].map { word in
            { context, engine in
                Self.invoicePage(context, engine)
                Self.draw("The \(word) page", at: Point(x: 24, y: 175), in: context, engine: engine)
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).pdf").path
        defer { unlink(path) }
        let surface = try PDFSurface(writingTo: path, pageSize: Self.pageSize)
        Self.draw(pages, on: surface)
        try surface.finishFile()
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(String(decoding: file, as: Unicode.ASCII.self).contains("/Subtype /Type0"))
        let document = try PDFDocument(data: file)
        #expect(document.pageCount == 2)
        #expect(try document.page(at: 1).text().contains("The second page"))
        let inMemory = try Self.writerPDF(pages)
        #expect(try Self.differingPixels(file, inMemory, page: 1) == 0)
        #expect(try Self.differingPixels(file, Self.cairoPDF(pages), page: 1) < 40)
    }

    @Test func copiedAndSearchedTextIsWhatWasDrawn() throws {
        let document = try PDFDocument(data: Self.writerPDF([Self.invoicePage]))
        let text = try document.page(at: 0).text()
        for expected in ["Invoice INV-2024-0042", "Website redesign, including review rounds", "1,234.50 €", "Größe · fi fl — ½"] {
            #expect(text.contains(expected), "\(expected) is missing from \(text)")
        }
        let hits = try document.page(at: 0).find("1,234.50")
        #expect(hits.count == 1)
        let hit = try #require(hits.first)
        #expect(abs(hit.minX - 200) < 1.5)
        #expect(hit.minY > 118 && hit.maxY < 134)
    }

    @Test func eachPagesTextLandsOnItsPage() throws {
        let pages: [(DrawingContext, TextEngine) -> Void] = ["first", "second", "third"].map { word in
            { context, engine in Self.draw("The \(word) page", at: Point(x: 20, y: 20), in: context, engine: engine) }
        }
        let document = try PDFDocument(data: Self.writerPDF(pages + [{ _, _ in }]))
        #expect(document.pageCount == 4)
        #expect(try document.page(at: 0).text().contains("The first page"))
        #expect(try document.page(at: 1).text().contains("The second page"))
        #expect(try !document.page(at: 1).text().contains("first"))
        #expect(try document.page(at: 2).text().contains("The third page"))
        #expect(try document.page(at: 3).text().isEmpty)
    }

    @Test func textTheWriterCannotWriteIsLeftToCairo() throws {
        let transformed: (DrawingContext, TextEngine) -> Void = { context, engine in
            context.save()
            context.scale(x: 2, y: 2)
            Self.draw("Scaled", at: Point(x: 10, y: 10), width: nil, in: context, engine: engine)
            context.restore()
            context.save()
            context.addRect(Rect(x: 0, y: 60, width: 300, height: 40))
            context.clip()
            Self.draw("Clipped", at: Point(x: 20, y: 70), width: nil, in: context, engine: engine)
            context.restore()
            Self.draw("Translucent", color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), at: Point(x: 20, y: 120), width: nil,
                      in: context, engine: engine)
        }
        let pdf = try Self.writerPDF([transformed])
        #expect(!String(decoding: pdf, as: Unicode.ASCII.self).contains("/Type0"))
        let text = try PDFDocument(data: pdf).page(at: 0).text()
        #expect(text.contains("Scaled") && text.contains("Clipped") && text.contains("Translucent"))
        #expect(try Self.differingPixels(pdf, Self.cairoPDF([transformed])) == 0)
    }

    @Test func anArchivalPDFKeepsTheWritersText() throws {
        let surface = try PDFSurface(pageSize: Self.pageSize, archival: true)
        let context = DrawingContext(surface: surface)
        context.batching { Self.invoicePage(context, TextEngine()) }
        context.showPage()
        let info = PDFArchiveInfo(title: "Invoice", creator: "Billfold",
                                  creationDate: Date(timeIntervalSince1970: 1_714_548_600),
                                  modificationDate: Date(timeIntervalSince1970: 1_714_548_600))
        let archived = try PDFArchive.makePDFA3(surface.finishBytes(), info: info)
        let text = try PDFDocument(data: archived).page(at: 0).text()
        #expect(text.contains("Invoice INV-2024-0042"))
    }

    @Test func glyphIdsThatAreStringDelimitersAreEscaped() {
        var stream = ContentStream()
        stream.setFont(0, size: 10)
        stream.setColor(.black)
        stream.show(0x285C, width: 500, x: 10, y: 20)
        stream.show(0x290D, width: 500, x: 15, y: 20)
        // One point further than the advance: an adjustment of -100 thousandths of an em.
        stream.show(0x0A41, width: 500, x: 21, y: 20)
        // A new line.
        stream.show(0x0041, width: 500, x: 10, y: 8.5)
        let written = String(decoding: stream.finish(), as: Unicode.ASCII.self)
        #expect(written == "Q\nBT\n/BF0 10 Tf\n0 0 0 rg\n1 0 0 1 10 20 Tm\n[(\\(\\\\\\)\\r)-100(\\nA)]TJ\n"
            + "1 0 0 1 10 8.5 Tm\n[(\u{0}A)]TJ\nET\n")
    }

    @Test func numbersAreWrittenWithUpToThreeDecimals() {
        #expect(PDFNumber.text(0) == "0")
        #expect(PDFNumber.text(12) == "12")
        #expect(PDFNumber.text(-0.5) == "-0.5")
        #expect(PDFNumber.text(841.889764) == "841.89")
        #expect(PDFNumber.text(0.0004) == "0")
        #expect(PDFNumber.text(-12.0625) == "-12.063")
    }
}

/// Rules and rectangles drawn before Cairo has drawn anything on the page go under Cairo's content.
@Suite struct PDFContentWriterShapeTests {
    private static func pdf(writer: Bool, _ draw: (DrawingContext) -> Void) throws -> Data {
        let size = Size(width: 200, height: 120)
        let surface = writer ? try PDFSurface(pageSize: size) : try PDFSurface(sink: OutputSink(), pageSize: size, contentWriter: nil)
        let context = DrawingContext(surface: surface)
        context.batching { draw(context) }
        context.showPage()
        return try surface.finishBytes()
    }

    private static func pixels(_ pdf: Data) throws -> ImageSurface {
        try PDFDocument(data: pdf).page(at: 0).renderImage(scale: 2)
    }

    private static func samePixels(_ first: Data, _ second: Data) throws -> Bool {
        let a = try pixels(first), b = try pixels(second)
        for y in stride(from: 0, to: a.pixelHeight, by: 1) {
            for x in stride(from: 0, to: a.pixelWidth, by: 1) {
                guard let p = a.color(atX: x, y: y), let q = b.color(atX: x, y: y) else { return false }
                if abs(p.red - q.red) > 0.02 || abs(p.green - q.green) > 0.02 || abs(p.blue - q.blue) > 0.02 { return false }
            }
        }
        return true
    }

    /// Whether the writer added streams to a page (Cairo gives each page one).
    private static func writerAddedContent(to pdf: Data) -> Bool {
        String(decoding: pdf, as: Unicode.ASCII.self).contains("/Contents [")
    }

    @Test func rulesAndRectanglesLookAsCairoDrewThem() throws {
        let draw: (DrawingContext) -> Void = { context in
            context.fill(Rect(x: 10, y: 10, width: 180, height: 20), color: Color(hex: 0xE8F0FE))
            for row in 0..<5 {
                let y = 40 + Double(row) * 15
                context.strokeLine(from: Point(x: 10, y: y), to: Point(x: 190, y: y), width: 0.5, color: Color(hex: 0xD2D6DB))
            }
            context.strokeLine(from: Point(x: 100, y: 35), to: Point(x: 100, y: 110), width: 2, color: Color(hex: 0x1C71D8))
        }
        let written = try Self.pdf(writer: true, draw)
        #expect(Self.writerAddedContent(to: written))
        #expect(try Self.samePixels(written, Self.pdf(writer: false, draw)))
        let fill = try #require(Self.pixels(written).color(atX: 40, y: 40))
        #expect(fill.blue > 0.95 && fill.red < 0.95)
    }

    @Test func aRectangleDrawnAfterCairoHasDrawnStaysInOrder() throws {
        // A red square stroked by Cairo, then a white rectangle over half of it: the rectangle
        // must not go under the square.
        let draw: (DrawingContext) -> Void = { context in
            context.addRect(Rect(x: 20, y: 20, width: 60, height: 60))
            context.setColor(Color(hex: 0xFF0000))
            context.fill()
            context.fill(Rect(x: 50, y: 10, width: 60, height: 80), color: .white)
            context.strokeLine(from: Point(x: 0, y: 50), to: Point(x: 200, y: 50), width: 4, color: Color(hex: 0x0000FF))
        }
        let written = try Self.pdf(writer: true, draw)
        #expect(!Self.writerAddedContent(to: written))
        #expect(try Self.samePixels(written, Self.pdf(writer: false, draw)))
        let covered = try #require(Self.pixels(written).color(atX: 140, y: 70))
        #expect(covered.red > 0.95 && covered.green > 0.95, "the white rectangle is on top")
    }

    @Test func dashedOrTranslucentLinesAreLeftToCairo() throws {
        let draw: (DrawingContext) -> Void = { context in
            context.setDash([4, 2])
            context.strokeLine(from: Point(x: 10, y: 40), to: Point(x: 190, y: 40), width: 2, color: .black)
            context.strokeLine(from: Point(x: 10, y: 20), to: Point(x: 190, y: 20), width: 2,
                               color: Color(red: 0, green: 0, blue: 1, alpha: 0.5))
        }
        let written = try Self.pdf(writer: true, draw)
        #expect(!Self.writerAddedContent(to: written))
        #expect(try Self.samePixels(written, Self.pdf(writer: false, draw)))
    }
}
