import Foundation
import Testing
import CZlib
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
        context.batching {
            context.setColor(Color(hex: 0x00FF00))
            engine.layout("Hi", format: TextFormat(font: FontDescription(size: 10))).draw(in: context, at: Point(x: 2, y: 2), color: .black)
            context.addRect(Rect(x: 60, y: 10, width: 20, height: 20))
            context.fill()
        }
        let green = try #require(image.color(atX: 70, y: 20))
        #expect(green.green > 0.9 && green.red < 0.1)
    }

    @Test func batchedLinesKeepTheirColoursAndTheCallersPath() throws {
        let image = try ImageSurface(pixelWidth: 100, pixelHeight: 40, hasAlpha: false)
        let context = DrawingContext(surface: image)
        context.fill(Rect(x: 0, y: 0, width: 100, height: 40), color: .white)
        let red = Color(hex: 0xFF0000), blue = Color(hex: 0x0000FF)
        context.batching {
            context.addRect(Rect(x: 60, y: 10, width: 20, height: 20))
            context.strokeLine(from: Point(x: 0, y: 5), to: Point(x: 50, y: 5), width: 4, color: red)
            context.strokeLine(from: Point(x: 0, y: 15), to: Point(x: 50, y: 15), width: 4, color: red)
            context.strokeLine(from: Point(x: 0, y: 25), to: Point(x: 50, y: 25), width: 4, color: blue)
            context.setColor(Color(hex: 0x00FF00))
            context.fill()
        }
        let first = try #require(image.color(atX: 25, y: 5)), second = try #require(image.color(atX: 25, y: 15))
        let third = try #require(image.color(atX: 25, y: 25)), between = try #require(image.color(atX: 25, y: 10))
        let square = try #require(image.color(atX: 70, y: 20))
        #expect(first.red > 0.9 && first.blue < 0.1 && second.red > 0.9 && second.blue < 0.1)
        #expect(third.blue > 0.9 && third.red < 0.1)
        #expect(between.red > 0.9 && between.green > 0.9)
        #expect(square.green > 0.9 && square.red < 0.1)
    }

    @Test func aPagesRulesReachThePDFAsOneStroke() throws {
        let surface = try PDFSurface(pageSize: Size(width: 200, height: 200))
        let context = DrawingContext(surface: surface)
        context.batching {
            for row in 0..<10 {
                let y = 20 + Double(row) * 15
                context.strokeLine(from: Point(x: 10, y: y), to: Point(x: 190, y: y), width: 0.5, color: .black)
            }
        }
        context.showPage()
        let pdf = try surface.finishBytes()
        let document = try PDFDocument(data: pdf)
        #expect(document.pageCount == 1)
        let operators = try Self.inflatedStreams(of: pdf).flatMap { $0.split(whereSeparator: \.isWhitespace) }
        #expect(operators.filter { $0 == "l" }.count == 10)
        #expect(operators.filter { $0 == "S" }.count == 1)
    }

    /// Every stream of `pdf` that inflates, as Latin-1 text.
    private static func inflatedStreams(of pdf: Data) throws -> [String] {
        let bytes = [UInt8](pdf)
        let start = Array("stream\n".utf8), end = Array("endstream".utf8)
        var streams: [String] = []
        var index = 0
        while let open = bytes[index...].firstRange(of: start) {
            guard let close = bytes[open.upperBound...].firstRange(of: end) else { break }
            let compressed = Array(bytes[open.upperBound..<close.lowerBound])
            var output = [UInt8](repeating: 0, count: 1 << 20)
            var length = uLong(output.count)
            if uncompress(&output, &length, compressed, uLong(compressed.count)) == Z_OK {
                streams.append(String(decoding: output[..<Int(length)], as: Unicode.ASCII.self))
            }
            index = close.upperBound
        }
        return streams
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
