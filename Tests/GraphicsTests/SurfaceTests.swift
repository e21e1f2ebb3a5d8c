import Foundation
import Testing
@testable import Graphics

@Suite struct SurfaceTests {
    @Test func pdfMetadataIsWrittenAndReadBack() throws {
        let surface = try PDFSurface(pageSize: Size(width: 200, height: 100))
        surface.setMetadata(.title, "Invoice 7")
        surface.setMetadata(.author, "Zoë Müller")
        surface.setMetadata(.subject, "Services")
        surface.setMetadata(.creator, "Billfold")
        surface.setMetadata(.creationDate, "2024-05-01T09:30:00+02:00")
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 10, y: 10, width: 20, height: 20), color: .black)
        context.showPage()
        let document = try PDFDocument(data: surface.finishBytes())
        #expect(document.pageCount == 1)
        #expect(document.title == "Invoice 7")
        #expect(document.author == "Zoë Müller")
        #expect(document.subject == "Services")
        #expect(document.creator == "Billfold")
        #expect(document.creationDate == Date(timeIntervalSince1970: 1_714_548_600))
        #expect(try document.page(at: 0).size == Size(width: 200, height: 100))
    }

    @Test func aPDFWrittenToAFileReachesTheDisk() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("graphics-\(UUID().uuidString).pdf").path
        defer { unlink(path) }
        let surface = try PDFSurface(writingTo: path, pageSize: Size(width: 100, height: 100))
        DrawingContext(surface: surface).showPage()
        try surface.finishFile()
        let document = try PDFDocument(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(document.pageCount == 1)
    }

    @Test func writingIntoAMissingFolderFailsWithTheReason() {
        #expect(throws: GraphicsError.self) {
            _ = try PDFSurface(writingTo: "/nonexistent-folder/out.pdf", pageSize: Size(width: 100, height: 100))
        }
    }

    @Test func notAPDFIsATypedError() {
        #expect(throws: PDFError.self) { try PDFDocument(data: Data("hello".utf8)) }
        #expect(throws: PDFError.self) { try PDFDocument(data: Data()) }
    }

    @Test func pageOutOfRangeIsATypedError() throws {
        let surface = try PDFSurface(pageSize: Size(width: 100, height: 100))
        DrawingContext(surface: surface).showPage()
        let document = try PDFDocument(data: surface.finishBytes())
        #expect(throws: PDFError.pageOutOfRange(index: 3, pageCount: 1)) { try document.page(at: 3) }
    }

    @Test func batchedTextDoesNotChangeTheCallersColour() throws {
        let image = try ImageSurface(pixelWidth: 100, pixelHeight: 40, hasAlpha: false)
        let context = DrawingContext(surface: image)
        let engine = TextEngine()
        context.fill(Rect(x: 0, y: 0, width: 100, height: 40), color: .white)
        context.batchingText {
            context.setColor(Color(hex: 0x00FF00))
            engine.layout("Hi", format: TextFormat(font: FontDescription(size: 10))).draw(in: context, at: Point(x: 2, y: 2), color: .black)
            context.addRect(Rect(x: 60, y: 10, width: 20, height: 20))
            context.fill()
        }
        let green = try #require(image.color(atX: 70, y: 20))
        #expect(green.green > 0.9 && green.red < 0.1)
    }

    @Test func aBorrowedCairoContextDrawsIntoItsSurface() throws {
        let image = try ImageSurface(pixelWidth: 10, pixelHeight: 10, hasAlpha: false)
        let owner = DrawingContext(surface: image)
        let borrowed = DrawingContext(borrowing: owner.cr)
        borrowed.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: Color(hex: 0xFF0000))
        let red = try #require(image.color(atX: 5, y: 5))
        #expect(red.red > 0.99 && red.green < 0.01)
    }

    @Test func imagesEncodeAsPNG() throws {
        let image = try ImageSurface(pixelWidth: 8, pixelHeight: 4)
        let png = try image.pngData()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let decoded = try RasterImage(data: png)
        #expect(decoded.pixelWidth == 8 && decoded.pixelHeight == 4)
    }
}
