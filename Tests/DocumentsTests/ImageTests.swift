import Foundation
import Testing
import Graphics
@testable import Documents

@Suite struct ImageTests {
    static let red = Color(hex: 0xE01B24)
    static let blue = Color(hex: 0x1C4FD8)

    static func isClose(_ a: Color?, _ b: Color, tolerance: Double = 0.2) -> Bool {
        guard let a else { return false }
        return abs(a.red - b.red) < tolerance && abs(a.green - b.green) < tolerance && abs(a.blue - b.blue) < tolerance
    }

    @Test func exifOrientationIsReadAndSwapsTheDisplayedSize() throws {
        let image = try RasterImage(data: Fixtures.jpeg(width: 64, height: 32, orientation: 6))
        #expect(image.orientation == .right)
        #expect(image.pixelWidth == 64 && image.pixelHeight == 32)
        #expect(image.displayWidth == 32 && image.displayHeight == 64)
        let probe = try RasterImage.probe(Fixtures.jpeg(width: 64, height: 32, orientation: 6))
        #expect(probe.orientation == .right && probe.displayWidth == 32 && probe.format == "jpeg")
    }

    @Test func aRotatedPhotoIsDrawnUprightInThePDF() throws {
        // Stored 64×32 with red top-left; orientation 6 turns it clockwise: 32×64, red top-right.
        let jpeg = try Fixtures.jpeg(width: 64, height: 32, orientation: 6)
        var document = Document()
        document.footer = nil
        document.blocks = [.image(ImageBlock(.data(jpeg), maxWidth: 100, maxHeight: 200))]
        let page = try ReadBack(document.renderPDF()).pages[0]
        let printable = document.pageSetup.printableArea
        let pixels = try page.renderImage(scale: 1)
        // The picture is 100 × 200 points at the body's top-left corner.
        func color(_ x: Double, _ y: Double) -> Color? {
            pixels.color(atX: Int(printable.minX + x), y: Int(printable.minY + y))
        }
        #expect(Self.isClose(color(75, 50), Self.red))
        #expect(Self.isClose(color(25, 50), Self.blue))
        #expect(Self.isClose(color(75, 150), Self.blue))
        #expect(Self.isClose(color(25, 150), Self.blue))
        // Nothing outside the 100 × 200 box.
        #expect(Self.isClose(color(110, 50), .white, tolerance: 0.02))
        #expect(Self.isClose(color(50, 205), .white, tolerance: 0.02))
    }

    @Test func everyOrientationPutsTheRedCornerWhereAViewerWould() throws {
        // Where the stored top-left quadrant ends up once shown upright.
        let expected: [Int: (Bool, Bool)] = [1: (false, false), 2: (true, false), 3: (true, true), 4: (false, true),
                                             5: (false, false), 6: (true, false), 7: (true, true), 8: (false, true)]
        for (orientation, (right, bottom)) in expected.sorted(by: { $0.key < $1.key }) {
            let image = try RasterImage(data: Fixtures.jpeg(width: 40, height: 20, orientation: orientation))
            let surface = try ImageSurface(pixelWidth: image.displayWidth, pixelHeight: image.displayHeight, hasAlpha: false)
            image.draw(in: DrawingContext(surface: surface),
                       rect: Rect(x: 0, y: 0, width: Double(image.displayWidth), height: Double(image.displayHeight)))
            let x = right ? image.displayWidth * 3 / 4 : image.displayWidth / 4
            let y = bottom ? image.displayHeight * 3 / 4 : image.displayHeight / 4
            #expect(Self.isClose(surface.color(atX: x, y: y), Self.red), "orientation \(orientation)")
        }
    }

    @Test func aJPEGAtItsOwnSizeGoesIntoThePDFAsItsBytesTurnedUpright() throws {
        let expected: [Int: (Bool, Bool)] = [1: (false, false), 2: (true, false), 3: (true, true), 4: (false, true),
                                             5: (false, false), 6: (true, false), 7: (true, true), 8: (false, true)]
        for (orientation, (right, bottom)) in expected.sorted(by: { $0.key < $1.key }) {
            let jpeg = try Fixtures.jpeg(width: 40, height: 20, orientation: orientation)
            let box = orientation >= 5 ? Size(width: 50, height: 100) : Size(width: 100, height: 50)
            var document = Document()
            document.footer = nil
            document.blocks = [.image(ImageBlock(.data(jpeg), maxWidth: box.width, maxHeight: box.height))]
            let pdf = try document.renderPDF()
            // The file's own bytes, not pixels decoded and compressed again.
            #expect(pdf.data.range(of: jpeg) != nil, "orientation \(orientation)")
            let pixels = try ReadBack(pdf).pages[0].renderImage(scale: 1)
            let printable = document.pageSetup.printableArea
            let x = printable.minX + (right ? box.width * 3 / 4 : box.width / 4)
            let y = printable.minY + (bottom ? box.height * 3 / 4 : box.height / 4)
            #expect(Self.isClose(pixels.color(atX: Int(x), y: Int(y)), Self.red), "orientation \(orientation)")
            #expect(Self.isClose(pixels.color(atX: Int(printable.minX + box.width + 5), y: Int(printable.minY + 5)), .white,
                                 tolerance: 0.02), "orientation \(orientation)")
        }
    }

    @Test func bigPicturesAreScaledDownWhileDecoding() throws {
        let surface = try ImageSurface(pixelWidth: 2400, pixelHeight: 1600, hasAlpha: false)
        DrawingContext(surface: surface).fill(Rect(x: 0, y: 0, width: 2400, height: 1600), color: Self.blue)
        let jpeg = try RasterImage(surface: surface).encoded(as: .jpeg(quality: 80))
        let image = try RasterImage(data: jpeg, limits: ImageDecodeLimits(maxWidth: 300, maxHeight: 300))
        #expect(image.sourcePixelWidth == 2400)
        #expect(image.pixelWidth <= 300 && image.pixelHeight <= 300)
        #expect(image.pixelWidth >= 299)
        let budget = try RasterImage(data: jpeg, limits: ImageDecodeLimits(maxPixels: 100_000))
        #expect(budget.pixelWidth * budget.pixelHeight <= 100_000)
    }

    @Test func aPictureTooLargeToDecodeIsRefusedFromItsHeader() throws {
        // A small PNG whose header claims 30 000 × 30 000 pixels (3.6 GB once decoded).
        var bytes = [UInt8](try Fixtures.png())
        let big: [UInt8] = [0x00, 0x00, 0x75, 0x30]
        bytes.replaceSubrange(16..<20, with: big)
        bytes.replaceSubrange(20..<24, with: big)
        let crc = Fixtures.crc32(bytes[12..<29])
        bytes.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        #expect(throws: ImageError.tooLarge(width: 30_000, height: 30_000)) { try RasterImage(data: Data(bytes)) }
    }

    @Test func aPNGWithTransparencyKeepsItsAlpha() throws {
        let image = try RasterImage(data: Fixtures.png())
        #expect(image.format == "png")
        let surface = try ImageSurface(pixelWidth: 40, pixelHeight: 40, hasAlpha: false)
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: .white)
        image.draw(in: context, rect: Rect(x: 0, y: 0, width: 40, height: 40))
        #expect(Self.isClose(surface.color(atX: 1, y: 1), .white, tolerance: 0.02))
        #expect(Self.isClose(surface.color(atX: 20, y: 20), Color(hex: 0x26A269)))
    }

    @Test func corruptPicturesGiveATypedErrorNotACrash() throws {
        let jpeg = try Fixtures.jpeg(width: 200, height: 100)
        let truncated = jpeg.prefix(jpeg.count / 2)
        #expect(throws: ImageError.self) { try RasterImage(data: Data(truncated)) }
        #expect(throws: ImageError.empty) { try RasterImage(data: Data()) }

        var garbage = Data("not an image at all, just some words".utf8)
        garbage.append(contentsOf: [UInt8](repeating: 0x42, count: 200))
        #expect(throws: ImageError.unsupportedFormat(mimeType: nil)) { try RasterImage(data: garbage) }

        var damaged = [UInt8](jpeg)
        for i in stride(from: 200, to: damaged.count - 2, by: 7) { damaged[i] = 0xFF }
        // Damage inside the compressed data may still decode; if it does not, the error says why.
        do {
            _ = try RasterImage(data: Data(damaged))
        } catch {
            #expect(error.errorDescription?.isEmpty == false)
        }
    }

    /// The end-of-image marker must come after the last scan, wherever the file ends.
    @Test func aJPEGIsWholeWhenItsLastScanEnds() throws {
        let jpeg = try Fixtures.jpeg(width: 200, height: 100)
        // Bytes after the end, as some cameras append, and a second picture appended whole.
        #expect(try RasterImage.probe(jpeg + Data("camera trailer".utf8)).pixelWidth == 200)
        #expect(try RasterImage.probe(jpeg + jpeg).pixelWidth == 200)
        // A later scan that the file cuts short, and a file that ends inside its only scan.
        let secondScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34]
        #expect(throws: ImageError.corrupt(reason: "the file ends before the picture does")) {
            try RasterImage.probe(jpeg.dropLast(2) + Data(secondScan))
        }
        #expect(throws: ImageError.corrupt(reason: "the file ends before the picture does")) {
            try RasterImage.probe(jpeg.dropLast(2))
        }
    }

    @Test func aDocumentWithACorruptPictureFailsWithTheImageError() throws {
        let jpeg = try Fixtures.jpeg(width: 200, height: 100)
        var document = Document()
        document.blocks = [.paragraph(Paragraph("Receipt")), .image(ImageBlock(.data(Data(jpeg.prefix(jpeg.count / 2)))))]
        do {
            _ = try document.renderPDF()
            Issue.record("a truncated JPEG must not render")
        } catch {
            guard case .image(let imageError) = error else {
                Issue.record("expected an image error, got \(error)")
                return
            }
            if case .corrupt = imageError {} else { Issue.record("expected .corrupt, got \(imageError)") }
            #expect(error.errorDescription?.contains("image") == true)
        }

        document.blocks = [.image(ImageBlock(.file(path: "/nonexistent/receipt.jpg")))]
        #expect(throws: DocumentError.self) { try document.renderPDF() }
    }

    @Test func captionSitsUnderThePicture() throws {
        var document = Document()
        document.blocks = [.image(ImageBlock(.data(try Fixtures.png()), maxWidth: 80, maxHeight: 80, caption: "Hotel receipt"))]
        let page = try ReadBack(document.renderPDF()).pages[0]
        let caption = try #require(page.textRuns().first { $0.text == "Hotel" })
        #expect(caption.rect.minY > document.pageSetup.printableArea.minY + 80)
    }
}
