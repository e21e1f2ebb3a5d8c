import BillfoldCore
@testable import ExpensesCore
@testable import ExpensesPlugin
import Foundation
import Graphics
import Testing

@Suite struct ReceiptStoreTests {
    @Test func theKindComesFromTheBytesNotTheName() throws {
        let workspace = try Workspace()
        let store = workspace.store
        let jpeg = try store.importFile(at: try workspace.pick(Samples.jpeg, named: "scan.pdf"))
        #expect(jpeg.reference.kind == .jpeg)
        #expect(jpeg.reference.fileName.hasSuffix(".jpg"))
        #expect(jpeg.info.pixelWidth == 64 && jpeg.info.pixelHeight == 48)
        #expect(jpeg.info.originalName == "scan.pdf")
        let png = try store.importFile(at: try workspace.pick(Samples.png, named: "receipt"))
        #expect(png.reference.kind == .png)
        #expect(png.info.pixelWidth == 40 && png.info.pixelHeight == 30)
        let pdf = try store.importFile(at: try workspace.pick(Samples.pdf, named: "invoice.jpg"))
        #expect(pdf.reference.kind == .pdf)
        #expect(pdf.info.pixelWidth == nil)
    }

    @Test func filesAreNamedByTheirSHA256() throws {
        let workspace = try Workspace()
        let imported = try workspace.store.importData(Data("%PDF-1.7\nabc\n%%EOF\n".utf8), suggestedName: "a.pdf")
        // sha256 of the bytes above, computed independently with sha256sum.
        #expect(imported.reference.digest == "8a7fbd8f2e87d7491e85a4b6afe76aed1133cb92e0b6108f86a5257403cc2f73")
        let stored = try Data(contentsOf: workspace.store.url(for: imported.reference))
        #expect(stored == Data("%PDF-1.7\nabc\n%%EOF\n".utf8))
        #expect(workspace.store.url(for: imported.reference).lastPathComponent == imported.reference.digest + ".pdf")
    }

    @Test func theSameFileTwiceIsStoredOnce() throws {
        let workspace = try Workspace()
        let first = try workspace.store.importFile(at: try workspace.pick(Samples.jpeg, named: "IMG_0001.jpg"))
        let second = try workspace.store.importFile(at: try workspace.pick(Samples.jpeg, named: "copy of receipt.jpeg"))
        #expect(!first.wasAlreadyStored)
        #expect(second.wasAlreadyStored)
        #expect(first.reference == second.reference)
        #expect(workspace.store.storedReferences() == [first.reference])
        let other = try workspace.store.importData(Samples.jpeg(comment: "another"), suggestedName: "b.jpg")
        #expect(other.reference != first.reference)
        #expect(workspace.store.storedReferences().count == 2)
        // No temporary files are left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.store.directory.path)
        #expect(names.sorted() == [first.reference.fileName, other.reference.fileName].sorted())
    }

    @Test func bytesThatClaimToBeAJPEGButAreNotAreRefused() throws {
        let workspace = try Workspace()
        var fake = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        fake.append(Data("JFIF\0 this is not a photograph of a receipt at all".utf8))
        #expect(throws: ReceiptError.damaged(fileName: "receipt.jpg", kind: .jpeg)) {
            try workspace.store.importFile(at: try workspace.pick(fake, named: "receipt.jpg"))
        }
        // Cut off inside the header.
        #expect(throws: ReceiptError.damaged(fileName: "cut.jpg", kind: .jpeg)) {
            try workspace.store.importData(Samples.jpeg.prefix(100), suggestedName: "cut.jpg")
        }
        // A frame header with no width.
        var zeroWidth = Samples.jpeg
        let sof = try #require(zeroWidth.firstRange(of: Data([0xFF, 0xC0])))
        zeroWidth[sof.lowerBound + 7] = 0
        zeroWidth[sof.lowerBound + 8] = 0
        #expect(throws: ReceiptError.damaged(fileName: "zero.jpg", kind: .jpeg)) {
            try workspace.store.importData(zeroWidth, suggestedName: "zero.jpg")
        }
        #expect(workspace.store.storedReferences().isEmpty)
    }

    @Test func damagedPNGAndWebPHeadersAreRefused() throws {
        let workspace = try Workspace()
        var badCRC = Samples.png
        badCRC[20] ^= 0x01   // width changed, CRC not
        #expect(throws: ReceiptError.damaged(fileName: "a.png", kind: .png)) {
            try workspace.store.importData(badCRC, suggestedName: "a.png")
        }
        // A lossless WebP header promising more bytes than the file has.
        var webp = Data("RIFF".utf8) + Data([0x00, 0x10, 0x00, 0x00]) + Data("WEBPVP8L".utf8)
        webp += Data([0x0A, 0x00, 0x00, 0x00, 0x2F, 0x3F, 0xC0, 0x3B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(throws: ReceiptError.damaged(fileName: "a.webp", kind: .webp)) {
            try workspace.store.importData(webp, suggestedName: "a.webp")
        }
        // The same header with the size it promises, but no picture after it: it does not
        // decode, so it is refused before anything is stored.
        var whole = webp
        whole.replaceSubrange(4..<8, with: [UInt8(whole.count - 8), 0, 0, 0])
        #expect(throws: ReceiptError.damaged(fileName: "b.webp", kind: .webp)) {
            try workspace.store.importData(whole, suggestedName: "b.webp")
        }
        #expect(workspace.store.storedReferences().isEmpty)
    }

    @Test func otherFilesAreRefusedWithAClearMessage() throws {
        let workspace = try Workspace()
        let gif = Data("GIF89a".utf8) + Data(repeating: 0, count: 20)
        let heic = Data([0, 0, 0, 0x18]) + Data("ftypheic".utf8) + Data(repeating: 0, count: 16)
        for (data, name) in [(gif, "receipt.jpg"), (heic, "IMG_1234.HEIC"), (Data("total 12.50".utf8), "notes.pdf")] {
            #expect(throws: ReceiptError.unsupportedType(fileName: name)) {
                try workspace.store.importData(data, suggestedName: name)
            }
        }
        let message = ReceiptError.unsupportedType(fileName: "IMG_1234.HEIC").errorDescription ?? ""
        #expect(message.contains("IMG_1234.HEIC") && message.contains("JPEG") && message.contains("PDF"))
        #expect(throws: ReceiptError.empty(fileName: "empty.jpg")) {
            try workspace.store.importFile(at: try workspace.pick(Data(), named: "empty.jpg"))
        }
        #expect(throws: ReceiptError.self) {
            try workspace.store.importFile(at: workspace.directory.file("no such file.jpg"))
        }
        #expect(throws: ReceiptError.unsupportedType(fileName: workspace.directory.url.lastPathComponent)) {
            try workspace.store.importFile(at: workspace.directory.url)
        }
    }

    @Test func aMissingFileIsReportedNotACrash() throws {
        let workspace = try Workspace()
        let imported = try workspace.store.importData(Samples.jpeg, suggestedName: "a.jpg")
        #expect(workspace.store.status(of: imported.reference) == .available(workspace.store.url(for: imported.reference)))
        try FileManager.default.removeItem(at: workspace.store.url(for: imported.reference))
        #expect(workspace.store.status(of: imported.reference) == .missing)
        #expect(throws: ReceiptError.missing(imported.reference)) {
            try workspace.store.thumbnail(for: imported.reference, maxPixelSize: 32)
        }
        #expect(throws: ReceiptError.missing(imported.reference)) { try workspace.store.data(for: imported.reference) }
        #expect(ReceiptError.missing(imported.reference).errorDescription?.isEmpty == false)
        try workspace.store.removeFile(for: imported.reference)   // already gone: fine
        // Importing it again brings the file back under the same name.
        #expect(try workspace.store.importData(Samples.jpeg, suggestedName: "a.jpg").reference == imported.reference)
        #expect(workspace.store.status(of: imported.reference) != .missing)
    }

    @Test func thumbnailsAreScaledUprightAndNeverEnlarged() throws {
        let workspace = try Workspace()
        let plain = try workspace.store.importData(Samples.jpeg, suggestedName: "a.jpg").reference
        let small = try workspace.store.thumbnail(for: plain, maxPixelSize: 32)
        #expect(small.width == 32 && small.height == 24)
        #expect(small.pixels.count >= small.rowStride * (small.height - 1) + small.width * small.bytesPerPixel)
        let full = try workspace.store.thumbnail(for: plain, maxPixelSize: 1000)
        #expect(full.width == 64 && full.height == 48)

        let turned = try workspace.store.importData(Samples.jpegTurnedRight, suggestedName: "b.jpg").reference
        let upright = try workspace.store.thumbnail(for: turned, maxPixelSize: 32)
        #expect(upright.width == 24 && upright.height == 32)

        let png = try workspace.store.importData(Samples.png, suggestedName: "c.png").reference
        let pngThumb = try workspace.store.thumbnail(for: png, maxPixelSize: 20)
        #expect(pngThumb.width == 20 && pngThumb.height == 15)

        let pdf = try workspace.store.importData(Samples.pdf, suggestedName: "d.pdf").reference
        #expect(throws: ReceiptError.notAnImage) { try workspace.store.thumbnail(for: pdf, maxPixelSize: 20) }
    }

    @Test func aFileDamagedAfterImportGivesAnErrorNotACrash() throws {
        let workspace = try Workspace()
        let reference = try workspace.store.importData(Samples.jpeg, suggestedName: "a.jpg").reference
        try Data("scribbled over".utf8).write(to: workspace.store.url(for: reference))
        #expect(throws: ReceiptError.damaged(fileName: reference.fileName, kind: .jpeg)) {
            try workspace.store.thumbnail(for: reference, maxPixelSize: 32)
        }
    }

    @Test func referencesOnlyNameRealDigests() {
        #expect(ReceiptReference(digest: String(repeating: "A", count: 64), kind: .png)?.digest == String(repeating: "a", count: 64))
        #expect(ReceiptReference(digest: String(repeating: "g", count: 64), kind: .png) == nil)
        #expect(ReceiptReference(digest: "abc", kind: .png) == nil)
        #expect(ReceiptReference(fileName: String(repeating: "0", count: 64) + ".webp")?.kind == .webp)
        #expect(ReceiptReference(fileName: "../" + String(repeating: "0", count: 64) + ".jpg") == nil)
        #expect(ReceiptReference(fileName: String(repeating: "0", count: 64) + ".gif") == nil)
    }
}

@Suite struct ReceiptPrintImageTests {
    @Test func theEXIFTurnIsReadFromTheHeader() throws {
        let workspace = try Workspace()
        let turned = try workspace.store.importData(Samples.jpegTurnedRight, suggestedName: "t.jpg").reference
        let inspection = try workspace.store.inspect(turned)
        #expect(inspection.orientation == 6)
        #expect(inspection.pixelWidth == 64 && inspection.uprightWidth == 48 && inspection.uprightHeight == 64)
        let plain = try workspace.store.importData(Samples.jpeg, suggestedName: "p.jpg").reference
        #expect(try workspace.store.inspect(plain).orientation == 1)
    }

    /// A photo larger than the report prints is checked by decoding its print copy: cut short,
    /// it is refused all the same, and neither it nor a copy is kept.
    @Test func aLargePhotoCutShortIsRefusedAndNothingIsKept() throws {
        let workspace = try Workspace()
        let photo = try Samples.quarteredJPEG(width: 2400, height: 1800, orientation: 1)
        #expect(throws: ReceiptError.damaged(fileName: "cut.jpg", kind: .jpeg)) {
            try workspace.store.importData(photo.prefix(photo.count * 2 / 3), suggestedName: "cut.jpg")
        }
        #expect(workspace.store.storedReferences().isEmpty)
        let folder = workspace.store.cacheDirectory.appendingPathComponent("print")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty)
        // Whole, it is stored with its copy.
        _ = try workspace.store.importData(photo, suggestedName: "whole.jpg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
    }

    @Test func aPictureThatFitsIsUsedAsItIs() throws {
        let workspace = try Workspace()
        let png = try workspace.store.importData(Samples.png, suggestedName: "p.png").reference
        #expect(try workspace.store.printImage(for: png, boxWidth: 100, boxHeight: 100) == workspace.store.url(for: png))
        let jpeg = try workspace.store.importData(Samples.jpeg, suggestedName: "p.jpg").reference
        #expect(try workspace.store.printImage(for: jpeg, boxWidth: 100, boxHeight: 100) == workspace.store.url(for: jpeg))
    }

    /// libjpeg decodes at n/8 of the size: the copy is the smallest of those that still has as
    /// many pixels as the box in the dimension that limits the picture, not resampled to the box.
    @Test func aJPEGKeepsTheFewestEighthsThatCoverTheBox() throws {
        let workspace = try Workspace()
        let photo = try workspace.store.importData(Samples.jpeg, suggestedName: "p.jpg").reference  // 64 × 48
        func size(_ width: Int, _ height: Int) throws -> (Int?, Int?) {
            let copy = try workspace.store.printImage(for: photo, boxWidth: width, boxHeight: height)
            #expect(copy != workspace.store.url(for: photo))
            let inspection = try ReceiptInspector.inspect(try Data(contentsOf: copy), isWholeFile: true)
            return (inspection.pixelWidth, inspection.pixelHeight)
        }
        #expect(try size(20, 20) == (24, 18))  // 2/8 would be 16 wide
        #expect(try size(16, 100) == (16, 12))
        #expect(try size(60, 40) == (56, 42))  // the height limits it: 42 ≥ 40
        // Nothing smaller than the whole picture covers a box just under it: used as it is.
        #expect(try workspace.store.printImage(for: photo, boxWidth: 60, boxHeight: 47) == workspace.store.url(for: photo))
    }

    /// libjpeg gives CMYK as it is stored; an Adobe (inverted) CMYK photo must still come out red.
    @Test func aCMYKPhotoKeepsItsColours() throws {
        let workspace = try Workspace()
        let photo = try workspace.store.importData(Samples.redCMYKJPEG, suggestedName: "scan.jpg").reference
        let copy = try workspace.store.printImage(for: photo, boxWidth: 20, boxHeight: 20)
        let image = try RasterImage(contentsOfFile: copy.path)
        #expect(image.pixelWidth == 24 && image.pixelHeight == 18)
        let surface = try ImageSurface(pixelWidth: 24, pixelHeight: 18, hasAlpha: false)
        image.draw(in: DrawingContext(surface: surface), rect: Rect(x: 0, y: 0, width: 24, height: 18))
        let centre = try #require(surface.color(atX: 12, y: 9))
        // rgb(200, 40, 40), within JPEG's error.
        #expect(abs(centre.red - 200.0 / 255) < 0.05 && abs(centre.green - 40.0 / 255) < 0.05 && abs(centre.blue - 40.0 / 255) < 0.05)
    }

    @Test func aPhotoCutShortIsDamagedRatherThanPrintedGrey() throws {
        let workspace = try Workspace()
        // Import refuses such a file; this one was damaged on disk afterwards.
        let photo = try workspace.store.importData(Samples.jpeg, suggestedName: "cut.jpg").reference
        try Samples.jpeg.dropLast(40).write(to: workspace.store.url(for: photo))
        #expect(throws: ReceiptError.damaged(fileName: photo.fileName, kind: .jpeg)) {
            try workspace.store.printImage(for: photo, boxWidth: 20, boxHeight: 20)
        }
    }

    @Test func aLargerPictureIsScaledUprightOnceAndCached() throws {
        let workspace = try Workspace()
        let turned = try workspace.store.importData(Samples.jpegTurnedRight, suggestedName: "t.jpg").reference
        let copy = try workspace.store.printImage(for: turned, boxWidth: 32, boxHeight: 32)
        #expect(copy != workspace.store.url(for: turned))
        #expect(copy.path.hasPrefix(workspace.store.cacheDirectory.path))
        let inspection = try ReceiptInspector.inspect(try Data(contentsOf: copy), isWholeFile: true)
        #expect(inspection.kind == .jpeg)
        #expect(inspection.orientation == 1)
        #expect(inspection.pixelWidth == 24 && inspection.pixelHeight == 32)
        let made = try FileManager.default.attributesOfItem(atPath: copy.path)[.modificationDate] as? Date
        #expect(try workspace.store.printImage(for: turned, boxWidth: 32, boxHeight: 32) == copy)
        #expect(try FileManager.default.attributesOfItem(atPath: copy.path)[.modificationDate] as? Date == made)
        try workspace.store.removeFile(for: turned)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }

    /// A turned photo decoded by eighths comes out upright, its red corner top right.
    @Test func aTurnedPhotoScaledByEighthsIsUpright() throws {
        let workspace = try Workspace()
        let data = try Samples.quarteredJPEG(width: 160, height: 120, orientation: 6)
        let photo = try workspace.store.importData(data, suggestedName: "turned.jpg").reference
        let copy = try workspace.store.printImage(for: photo, boxWidth: 40, boxHeight: 40)
        let image = try RasterImage(contentsOfFile: copy.path)
        // Upright 120 × 160: 2/8 is 40 high.
        #expect(image.orientation == .up && image.pixelWidth == 30 && image.pixelHeight == 40)
        let surface = try ImageSurface(pixelWidth: 30, pixelHeight: 40, hasAlpha: false)
        image.draw(in: DrawingContext(surface: surface), rect: Rect(x: 0, y: 0, width: 30, height: 40))
        let red = try #require(Samples.box(of: Samples.red, in: surface))
        let blue = try #require(Samples.box(of: Samples.blue, in: surface))
        #expect(red.minX >= 13 && red.maxX == 29 && red.minY == 0 && red.maxY <= 21)
        #expect(blue.minX == 0 && blue.maxY == 39)
    }

    /// Copies are written without waiting for the disk, so a crash can leave one empty or cut
    /// short: such a copy is made again, never printed or left to fail the report.
    @Test func aCachedCopyCutShortIsMadeAgain() throws {
        let workspace = try Workspace()
        let surface = try ImageSurface(pixelWidth: 64, pixelHeight: 48, hasAlpha: true)
        let photo = try workspace.store.importData(Samples.jpegTurnedRight, suggestedName: "t.jpg").reference
        let sticker = try workspace.store.importData(try surface.pngData(), suggestedName: "s.png").reference
        for reference in [photo, sticker] {
            let copy = try workspace.store.printImage(for: reference, boxWidth: 20, boxHeight: 20)
            #expect(copy.pathExtension == (reference == photo ? "jpg" : "png"))
            let whole = try Data(contentsOf: copy)
            for damaged in [Data(), whole.dropLast(1), whole.prefix(whole.count / 2)] {
                try damaged.write(to: copy)
                #expect(try workspace.store.printImage(for: reference, boxWidth: 20, boxHeight: 20) == copy)
                #expect(try Data(contentsOf: copy) == whole)
            }
        }
    }

    @Test func copiesOfManyReceiptsCanBeMadeAtOnce() throws {
        let workspace = try Workspace()
        let references = try (0..<12).map {
            try workspace.store.importData(Samples.jpeg(comment: "receipt \($0)"), suggestedName: "\($0).jpg").reference
        }
        let store = workspace.store
        let results = ResultBox(count: references.count)
        DispatchQueue.concurrentPerform(iterations: references.count) { index in
            results.set(index, Result { try store.printImage(for: references[index], boxWidth: 20, boxHeight: 20) })
        }
        for result in results.all {
            let url = try result.get()
            // 3/8 of 64 × 48: the fewest eighths that cover 20 × 20.
            #expect(try ReceiptInspector.inspect(try Data(contentsOf: url), isWholeFile: true).pixelWidth == 24)
        }
    }
}

/// Results written from several threads, one slot each.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<URL, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<URL, any Error>) { lock.withLock { results[index] = result } }

    var all: [Result<URL, any Error>] {
        lock.withLock { results.map { $0 ?? .failure(CocoaError(.fileNoSuchFile)) } }
    }
}
