import BillfoldCore
import CGdkPixbuf
import Foundation
import Graphics

/// Receipt files, content-addressed: `<directory>/<sha256>.<ext>`. The same content is stored
/// once however often it is attached. Files are written to a temporary name and renamed into
/// place, so a crash never leaves half a receipt under a real name. Which files are still
/// needed is the database's business (`ExpenseRepository`); the store only reads and writes.
public struct ReceiptStore: Sendable {
    /// The app passes `AppPaths.receiptsDirectory`; tests pass a temporary directory.
    public let directory: URL
    /// Where scaled copies for printing are kept; they can be deleted at any time and are made again.
    public let cacheDirectory: URL

    /// Larger files are refused: no receipt needs more, and the report would not want it.
    public static let maximumByteCount: Int64 = 100 * 1024 * 1024

    /// Pictures with more pixels are refused before anything is stored: a 1 MB PNG can say
    /// 20 000 × 20 000 pixels and take 1.6 GB to decode. 100 MP is more than any phone camera.
    public static let maximumPixelCount = 100_000_000

    private static let chunkSize = 1 << 20
    private static let temporaryPrefix = ".incoming-"

    /// `cacheDirectory` defaults to a hidden folder inside `directory`; the app passes
    /// `AppPaths.cacheDirectory/receipts`.
    public init(directory: URL, cacheDirectory: URL? = nil) {
        self.directory = directory
        self.cacheDirectory = cacheDirectory ?? directory.appendingPathComponent(".cache", isDirectory: true)
    }

    /// Where the file for `reference` lives (whether or not it is there).
    public func url(for reference: ReceiptReference) -> URL {
        directory.appendingPathComponent(reference.fileName, isDirectory: false)
    }

    /// `.available(url)`, or `.missing` when the file is gone.
    public func status(of reference: ReceiptReference) -> ReceiptStatus {
        let url = url(for: reference)
        return FileManager.default.fileExists(atPath: url.path) ? .available(url) : .missing
    }

    /// The stored file's bytes (a PDF receipt for the report, say).
    public func data(for reference: ReceiptReference) throws(ReceiptError) -> Data {
        let url = url(for: reference)
        guard FileManager.default.fileExists(atPath: url.path) else { throw .missing(reference) }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(fileName: reference.fileName, reason: error.localizedDescription)
        }
    }

    /// Copies the file at `source` into the store. The kind comes from the file's first bytes;
    /// anything but a well-formed JPEG, PNG, WebP or PDF header is refused. Reads the file once,
    /// in chunks, hashing as it copies, so memory stays small for any size.
    public func importFile(at source: URL) throws(ReceiptError) -> ReceiptImport {
        let name = source.lastPathComponent
        let handle: FileHandle
        let byteCount: Int64
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: source.path)
            if let type = attributes[.type] as? FileAttributeType, type == .typeDirectory {
                throw ReceiptError.unsupportedType(fileName: name)
            }
            byteCount = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            handle = try FileHandle(forReadingFrom: source)
        } catch let error as ReceiptError {
            throw error
        } catch {
            throw .unreadable(fileName: name, reason: Self.reason(error))
        }
        defer { try? handle.close() }
        return try store(name: name, byteCount: byteCount) { () throws(ReceiptError) -> Data? in
            do {
                return try handle.read(upToCount: Self.chunkSize)
            } catch {
                throw .unreadable(fileName: name, reason: Self.reason(error))
            }
        }
    }

    /// Stores bytes that arrived without a file (pasted or dropped from another app).
    public func importData(_ data: Data, suggestedName: String) throws(ReceiptError) -> ReceiptImport {
        var offset = 0
        return try store(name: suggestedName, byteCount: Int64(data.count)) { () throws(ReceiptError) -> Data? in
            guard offset < data.count else { return nil }
            let end = min(data.count, offset + Self.chunkSize)
            defer { offset = end }
            return data.subdata(in: offset..<end)
        }
    }

    /// What the stored file's header says: kind, pixel size, EXIF orientation. Reads at most
    /// `ReceiptInspector.headerLimit` bytes, never the pixels.
    public func inspect(_ reference: ReceiptReference) throws(ReceiptError) -> ReceiptInspection {
        let url = url(for: reference)
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw .missing(reference) }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: ReceiptInspector.headerLimit)) ?? Data()
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
        do {
            let inspection = try ReceiptInspector.inspect(head, isWholeFile: Int64(head.count) >= size)
            guard inspection.kind == reference.kind else { throw ReceiptInspector.Failure.damaged(reference.kind) }
            return inspection
        } catch {
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
    }

    /// Deletes the stored file and its scaled copies; a file that is already gone is not an error.
    public func removeFile(for reference: ReceiptReference) throws(ReceiptError) {
        removeScaledCopies(of: reference)
        let path = url(for: reference).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw .cannotStore(reason: Self.reason(error))
        }
    }

    /// Every receipt file in the directory, for maintenance and tests.
    public func storedReferences() -> Set<ReceiptReference> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Set(names.compactMap(ReceiptReference.init(fileName:)))
    }

    // MARK: - Writing

    private func store(name: String, byteCount: Int64,
                       nextChunk: () throws(ReceiptError) -> Data?) throws(ReceiptError) -> ReceiptImport {
        guard byteCount <= Self.maximumByteCount else { throw .tooLarge(fileName: name, byteCount: byteCount) }
        guard let first = try nextChunk(), !first.isEmpty else { throw .empty(fileName: name) }

        // The header decides the kind before anything is written.
        var head = first
        while head.count < ReceiptInspector.headerLimit, let more = try nextChunk(), !more.isEmpty {
            head.append(more)
        }
        let isWholeFile = Int64(head.count) >= byteCount
        let inspection: ReceiptInspection
        do {
            inspection = try ReceiptInspector.inspect(head, isWholeFile: isWholeFile)
        } catch {
            switch error {
            case .unknownType: throw .unsupportedType(fileName: name)
            case .damaged(let kind): throw .damaged(fileName: name, kind: kind)
            }
        }

        if let width = inspection.pixelWidth, let height = inspection.pixelHeight, width * height > Self.maximumPixelCount {
            throw .tooManyPixels(fileName: name, width: width, height: height)
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotStore(reason: Self.reason(error))
        }
        // The process id in the name lets start-up remove what a killed import left.
        let temporary = directory.appendingPathComponent(
            Self.temporaryPrefix + AtomicWrite.temporaryMarker + "\(getpid())-" + UUID().uuidString, isDirectory: false)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil,
                                             attributes: [.posixPermissions: 0o600]),
              let output = FileHandle(forWritingAtPath: temporary.path) else {
            throw .cannotStore(reason: String(format: tr("cannot create a file in %@"), directory.path))
        }
        var keepTemporary = false
        defer { if !keepTemporary { try? FileManager.default.removeItem(at: temporary) } }

        let hasher = SHA256Hasher()
        var written: Int64 = 0
        do {
            var chunk: Data? = head
            while let bytes = chunk, !bytes.isEmpty {
                written += Int64(bytes.count)
                guard written <= Self.maximumByteCount else { throw ReceiptError.tooLarge(fileName: name, byteCount: written) }
                hasher.update(bytes)
                try output.write(contentsOf: bytes)
                chunk = try nextChunk()
            }
            // On disk before it gets its real name, so a crash cannot leave an empty receipt.
            try output.synchronize()
            try output.close()
        } catch let error as ReceiptError {
            try? output.close()
            throw error
        } catch {
            try? output.close()
            throw .cannotStore(reason: Self.reason(error))
        }

        guard let reference = ReceiptReference(digest: hasher.finish(), kind: inspection.kind) else {
            throw .cannotStore(reason: tr("the file could not be fingerprinted"))
        }
        try requireDecodable(temporary, as: reference, inspection: inspection, name: name)
        let info = ReceiptInfo(reference: reference, byteCount: written, pixelWidth: inspection.pixelWidth,
                               pixelHeight: inspection.pixelHeight, originalName: name)
        let target = url(for: reference)
        // Same name means same content; a stored file of another size was damaged and is replaced.
        if let existing = try? FileManager.default.attributesOfItem(atPath: target.path),
           (existing[.size] as? NSNumber)?.int64Value == written {
            return ReceiptImport(info: info, wasAlreadyStored: true)
        }
        guard rename(temporary.path, target.path) == 0 else {
            throw .cannotStore(reason: FileProblem.reason(errno: errno))
        }
        keepTemporary = true
        return ReceiptImport(info: info, wasAlreadyStored: false)
    }

    /// Decodes a picture before it is stored, so a damaged or cut-off photo is refused now
    /// rather than found by the report. A picture the report prints smaller is decoded as its
    /// copy for the usual receipt page, and the copy is kept: decoding a photo costs nearly as
    /// much at any scale (libjpeg must read every coefficient), so the first report would
    /// otherwise decode every photo of the trip again, all at once. Other pictures decode small.
    private func requireDecodable(_ file: URL, as reference: ReceiptReference, inspection: ReceiptInspection,
                                  name: String) throws(ReceiptError) {
        let kind = reference.kind
        guard kind.isImage else { return }
        let box = Self.usualPrintBox
        do {
            let copy = try printImage(of: file, as: reference, inspection: inspection,
                                      boxWidth: box.width, boxHeight: box.height)
            if copy != file { return }
        } catch .damaged {
            throw .damaged(fileName: name, kind: kind)
        } catch .noDecoder(let kind) {
            throw .noDecoder(kind)
        } catch .tooManyPixels(_, let width, let height) {
            throw .tooManyPixels(fileName: name, width: width, height: height)
        } catch {
            // Decoded, but the copy could not be kept (a full cache disk): the report makes it.
            return
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadable(fileName: name, reason: Self.reason(error))
        }
        do {
            _ = try ReceiptDecoding.limited { () throws(ImageError) in
                try RasterImage(data: data, limits: ImageDecodeLimits(maxWidth: 256, maxHeight: 256))
            }
        } catch .tooLarge(let width, let height) {
            throw .tooManyPixels(fileName: name, width: width, height: height)
        } catch .unsupportedFormat where kind == .webp {
            throw .noDecoder(.webp)
        } catch {
            throw .damaged(fileName: name, kind: kind)
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}

/// SHA-256 through GLib's GChecksum, which streams.
final class SHA256Hasher {
    private let checksum: OpaquePointer

    init() {
        checksum = g_checksum_new(G_CHECKSUM_SHA256)
    }

    deinit {
        g_checksum_free(checksum)
    }

    func update(_ data: Data) {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.bindMemory(to: UInt8.self).baseAddress else { return }
            g_checksum_update(checksum, base, buffer.count)
        }
    }

    /// Lowercase hexadecimal.
    func finish() -> String {
        String(cString: g_checksum_get_string(checksum))
    }
}
