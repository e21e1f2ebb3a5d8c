import BillfoldCore
import CGdkPixbuf
import ExpensesCore
import Foundation
import Licensing
import Storage
import Testing

/// Exports into special files, killed exports, hostile pictures and a licence that is not a file.
@Suite(.serialized) struct ExportAndFileFaultTests {
    private func library(invoices: Int = 20) throws -> (Library, String) {
        let library = try Library()
        try library.fill(invoices: invoices)
        let database = try Database.open(path: library.databasePath)
        let number = try #require(try database.queryValue(
            "SELECT number FROM invoices_invoice WHERE number IS NOT NULL AND number != '' ORDER BY id LIMIT 1", as: String.self))
        database.close()
        try library.handOver()
        return (library, number)
    }

    private static func isPDF(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.starts(with: Data("%PDF-".utf8)) && String(decoding: data.suffix(16), as: UTF8.self).contains("%%EOF")
    }

    @Test func withoutALicenceTheCommandLineKeepsToTheFreePlanAndSaysHowToUnlock() throws {
        let (library, number) = try library()
        try FileManager.default.removeItem(at: library.configFolder.appendingPathComponent("license." + LicenseVerifier.fileExtension))
        let output = library.root.appendingPathComponent("free.pdf").path
        let outcome = try library.run(["invoice", "export", number, "--output", output])
        #expect(outcome.status == 1)
        #expect(outcome.errors == "Saving invoices as PDF is part of Billfold Pro. Open Billfold, choose Billfold Pro in the sidebar and enter your licence; the preview in the window stays free.\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        // The same licence file, trusted, unlocks it.
        try library.installProLicence()
        try library.handOver()
        #expect(try library.run(["invoice", "export", number, "--output", output]).status == 0)
        #expect(Self.isPDF(output))
    }

    @Test func aFIFOOrADeviceAsOutputIsRefusedAndLeftAsItIs() throws {
        let (library, number) = try library()
        let fifo = library.root.appendingPathComponent("pipe.pdf").path
        #expect(mkfifo(fifo, 0o666) == 0)
        try library.handOver()
        let intoFIFO = try library.run(["invoice", "export", number, "--output", fifo])
        #expect(intoFIFO.status == 1)
        #expect(intoFIFO.errors == "“\(fifo)” is a named pipe (FIFO), not a regular file, so it was left as it is. Choose a file name, or use --output - to write to standard output.\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)

        let intoDevice = try library.run(["invoice", "export", number, "--output", "/dev/null"])
        #expect(intoDevice.status == 1)
        #expect(intoDevice.errors == "“/dev/null” is a character device, not a regular file, so it was left as it is. Choose a file name, or use --output - to write to standard output.\n")
        #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)

        // The CSV export goes through the same writer.
        #expect(throws: ExportError.notARegularFile(.notARegularFile(path: fifo, kind: "a named pipe (FIFO)"))) {
            try AtomicFile.write(Data("a,b\r\n".utf8), to: URL(fileURLWithPath: fifo))
        }
    }

    @Test func aSymlinkOutputIsFollowedNotReplaced() throws {
        let (library, number) = try library()
        let real = library.root.appendingPathComponent("real.pdf")
        try Data("old".utf8).write(to: real)
        let link = library.root.appendingPathComponent("link.pdf").path
        #expect(symlink(real.path, link) == 0)
        try library.handOver()
        let outcome = try library.run(["invoice", "export", number, "--output", link])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "Saved \(link).\n")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(Self.isPDF(real.path))
        #expect(Library.names(in: library.root).filter { $0.contains(AtomicWrite.temporaryMarker) }.isEmpty)
    }

    @Test func outputDashWritesTheWholePDFToStandardOutput() throws {
        let (library, number) = try library()
        let outcome = try library.run(["invoice", "export", number, "--output", "-"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.hasPrefix("%PDF-"))
        #expect(outcome.output.contains("%%EOF"))
        #expect(outcome.errors == "Saved standard output.\n")
        #expect(!FileManager.default.fileExists(atPath: library.root.appendingPathComponent("-").path))
    }

    @Test func aKilledExportLeavesTheOldFileOrTheNewOneAndNothingElse() throws {
        let (library, number) = try library()
        let output = library.root.appendingPathComponent("invoice.pdf").path
        for step in 0..<12 {
            _ = try library.run(["invoice", "export", number, "--output", output], killAfter: 0.005 + Double(step) * 0.02)
            let names = Library.names(in: library.root).filter { !["data", "config", "cache"].contains($0) }
            #expect(names == [] || names == ["invoice.pdf"], "\(names)")
            if FileManager.default.fileExists(atPath: output) { #expect(Self.isPDF(output)) }
        }
        #expect(try library.run(["invoice", "export", number, "--output", output]).status == 0)
        #expect(Self.isPDF(output))
    }

    // MARK: Pictures

    private static func jpeg(width: Int32 = 640, height: Int32 = 480) throws -> Data {
        let pixbuf = try #require(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x3366_99FF)
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        #expect(bf_pixbuf_save_jpeg(pixbuf, &buffer, &size, "90", nil) != 0)
        defer { g_free(buffer) }
        return Data(bytes: try #require(buffer), count: Int(size))
    }

    private func store() throws -> (ReceiptStore, URL) {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("billfold-receipts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (ReceiptStore(directory: folder.appendingPathComponent("receipts")), folder)
    }

    private static func peakMemoryMB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }

    @Test func aDecompressionBombPNGIsMeasuredAndRefusedBeforeItIsDecoded() throws {
        let (store, folder) = try store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appendingPathComponent("bomb.png")
        // 20 000 × 20 000 one-bit grey pixels: a small file that decodes to 1.2 GB of RGB.
        let made = try Library.shell("""
            /usr/bin/python3 -c '
            import struct, zlib, sys
            w = h = 20000
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            row = b"\\x00" + b"\\x00" * (w // 8)
            z = zlib.compressobj(9)
            body = b"".join(z.compress(row) for _ in range(h)) + z.flush()
            sys.stdout.buffer.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0)) + chunk(b"IDAT", body) + chunk(b"IEND", b""))
            ' > '\(bomb.path)'
            """)
        #expect(made.isEmpty, "\(made)")
        let byteCount = try #require(FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? NSNumber).intValue
        #expect(byteCount < 1_000_000)
        let before = Self.peakMemoryMB()
        #expect(throws: ReceiptError.tooManyPixels(fileName: "bomb.png", width: 20_000, height: 20_000)) {
            try store.importFile(at: bomb)
        }
        #expect(ReceiptError.tooManyPixels(fileName: "bomb.png", width: 20_000, height: 20_000).localizedDescription
                == "“bomb.png” is 20000 × 20000 pixels; receipts can have up to 100 megapixels. Save a smaller copy and attach it again.")
        #expect(Library.names(in: store.directory).isEmpty, "nothing is stored")

        // One stored before the limit existed is measured, not decoded, for a thumbnail.
        let digest = try Library.shell("sha256sum '\(bomb.path)' | cut -c1-64").trimmingCharacters(in: .whitespacesAndNewlines)
        let reference = try #require(ReceiptReference(digest: digest, kind: .png))
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: bomb, to: store.url(for: reference))
        #expect(throws: ReceiptError.tooManyPixels(fileName: reference.fileName, width: 20_000, height: 20_000)) {
            try store.thumbnail(for: reference, maxPixelSize: 96)
        }
        #expect(Self.peakMemoryMB() - before < 300, "decoding it would take 1.2 GB")
    }

    @Test func aCorruptOrTruncatedJPEGIsRefusedBeforeAnythingIsStored() throws {
        let (store, folder) = try store()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try Self.jpeg()
        // Damaged Huffman tables: the header (and the size in it) reads, the pixels do not.
        var corrupt = [UInt8](good)
        var index = 2
        while index + 4 < corrupt.count {
            guard corrupt[index] == 0xFF else { break }
            let marker = corrupt[index + 1]
            let length = Int(corrupt[index + 2]) << 8 | Int(corrupt[index + 3])
            if marker == 0xC4 {
                for offset in (index + 5)..<(index + 2 + length) { corrupt[offset] = 0xFF }
            }
            if marker == 0xDA { break }
            index += 2 + length
        }
        let cases: [(String, Data)] = [("corrupt.jpg", Data(corrupt)), ("truncated.jpg", good.prefix(good.count / 2))]
        for (name, bytes) in cases {
            let file = folder.appendingPathComponent(name)
            try bytes.write(to: file)
            #expect(throws: ReceiptError.damaged(fileName: name, kind: .jpeg)) { try store.importFile(at: file) }
            #expect(ReceiptError.damaged(fileName: name, kind: .jpeg).localizedDescription
                    == "“\(name)” looks like a JPEG file but is damaged. Take the photo or export the file again.")
        }
        #expect(Library.names(in: store.directory).isEmpty, "nothing is stored, not even a temporary file")
        // The sound picture is taken.
        let file = folder.appendingPathComponent("good.jpg")
        try good.write(to: file)
        let stored = try store.importFile(at: file)
        #expect(Library.names(in: store.directory) == [stored.info.reference.fileName])
        #expect(Library.mode(store.url(for: stored.info.reference).path) == 0o600)
    }

    // MARK: Licence

    @MainActor @Test func aFIFOOrADeviceAsTheLicenceNeitherBlocksNorCounts() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("billfold-licence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(LicenseStore.fileName)
        #expect(mkfifo(file.path, 0o600) == 0)
        // Opening a FIFO for reading waits for a writer: this returns only if it is never opened so.
        let store = LicenseStore(directory: folder)
        #expect(store.installed == .unusable(.unreadableFile(path: file.path, reason: "it is a named pipe (FIFO), not a regular file")))
        #expect(store.status.tier == .free)
        try FileManager.default.removeItem(at: file)
        #expect(symlink("/dev/zero", file.path) == 0)
        store.reload()
        #expect(store.installed == .unusable(.unreadableFile(path: file.path, reason: "it is a character device, not a regular file")))
    }
}
