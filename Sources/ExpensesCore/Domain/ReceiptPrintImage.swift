import BillfoldCore
import CGdkPixbuf
import CJPEG
import Documents
import Foundation

extension ReceiptStore {
    /// An upright copy of an image receipt for a report, printed in a box of `boxWidth` ×
    /// `boxHeight` pixels at the report's resolution: the original file when it needs no
    /// turning and no smaller copy would be as sharp, otherwise a JPEG (PNG when the picture has
    /// transparency) kept in `cacheDirectory` and reused for the same box.
    ///
    /// A JPEG is decoded at the smallest n/8 of its size that still covers the box in the
    /// dimension that limits it (libjpeg's DCT scaling), and kept at that size: the PDF scales
    /// it to the box, so nothing is resampled. Other formats are decoded and scaled to fit the
    /// box by gdk-pixbuf. Memory stays bounded for any photo; making the copies of many receipts
    /// at once on several threads is safe.
    public func printImage(for reference: ReceiptReference, boxWidth: Int, boxHeight: Int) throws(ReceiptError) -> URL {
        guard reference.kind.isImage else { throw .notAnImage }
        return try printImage(of: url(for: reference), as: reference, inspection: try inspect(reference),
                              boxWidth: boxWidth, boxHeight: boxHeight)
    }

    /// The box of a photo on a page of its own with a one-line caption (one expense, the usual
    /// case) on the default paper: import makes this copy, so a first report need not decode.
    static var usualPrintBox: (width: Int, height: Int) {
        ExpenseReportTemplate.receiptBox(on: PageSetup(), captionLines: 1)
    }

    /// `printImage(for:boxWidth:boxHeight:)` for the picture at `source`, stored or about to be
    /// stored as `reference`. Throws `.damaged` or `.noDecoder` when the picture cannot be decoded,
    /// `.cannotStore` when it was decoded but its copy could not be kept.
    func printImage(of source: URL, as reference: ReceiptReference, inspection: ReceiptInspection,
                    boxWidth: Int, boxHeight: Int) throws(ReceiptError) -> URL {
        if let width = inspection.pixelWidth, let height = inspection.pixelHeight, width * height > Self.maximumPixelCount {
            throw .tooManyPixels(fileName: reference.fileName, width: width, height: height)
        }
        let boxWidth = max(1, boxWidth)
        let boxHeight = max(1, boxHeight)
        // libjpeg makes ceil(size × n / 8) pixels.
        var eighths: Int?
        if reference.kind == .jpeg, let width = inspection.uprightWidth, let height = inspection.uprightHeight {
            eighths = (1...8).first { n in (width * n + 7) / 8 >= boxWidth || (height * n + 7) / 8 >= boxHeight } ?? 8
        }
        // Cairo 1.16 puts a CMYK JPEG into the PDF without the inversion Adobe's CMYK needs, so
        // it would print as a negative: such a photo always gets an RGB copy.
        if inspection.orientation == 1, inspection.colorComponents != 4 {
            if eighths == 8 { return source }
            if let width = inspection.uprightWidth, let height = inspection.uprightHeight,
               width <= boxWidth, height <= boxHeight {
                return source
            }
        }
        let folder = cacheDirectory.appendingPathComponent("print", isDirectory: true)
        let stem = "\(reference.digest)-\(boxWidth)x\(boxHeight)"
        for ext in ["jpg", "png"] {
            let cached = folder.appendingPathComponent("\(stem).\(ext)")
            if Self.isWholeCopy(cached) { return cached }
        }

        let scaled: OpaquePointer
        if let eighths {
            guard let decoded = ReceiptDecoding.limited({ Self.decodeJPEG(at: source.path, eighths: eighths,
                                                                          orientation: inspection.orientation) }) else {
                throw .damaged(fileName: reference.fileName, kind: reference.kind)
            }
            scaled = decoded
        } else {
            // The box is upright; the decoder sees the stored orientation.
            let turned = inspection.orientation >= 5
            var error: UnsafeMutablePointer<GError>?
            guard let decoded = ReceiptDecoding.limited({ gdk_pixbuf_new_from_file_at_scale(source.path, Int32(clamping: turned ? boxHeight : boxWidth),
                                                                  Int32(clamping: turned ? boxWidth : boxHeight), 1, &error) }) else {
                let isUnknownType = error.map {
                    $0.pointee.domain == gdk_pixbuf_error_quark() && $0.pointee.code == Int32(GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue)
                } ?? false
                if let error { g_error_free(error) }
                throw isUnknownType ? .noDecoder(reference.kind) : .damaged(fileName: reference.fileName, kind: reference.kind)
            }
            if let error { g_error_free(error) }
            scaled = decoded
        }
        defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
        guard let upright = gdk_pixbuf_apply_embedded_orientation(scaled) else {
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(upright)) }

        // Quality 85: a copy decoded by eighths keeps all its detail and up to twice the pixels
        // the box needs, so 88 made report PDFs a third larger; receipt type looks the same.
        let hasAlpha = gdk_pixbuf_get_has_alpha(upright) != 0
        guard let encoded = hasAlpha ? Self.encodePNG(upright) : Self.encodeJPEG(upright, quality: 85) else {
            throw .cannotStore(reason: tr("the picture could not be scaled"))
        }
        let target = folder.appendingPathComponent("\(stem).\(hasAlpha ? "png" : "jpg")")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            // Not flushed to the disk: a cached copy can be made again (`isWholeCopy`), and
            // waiting for the disk held up a thread that could decode.
            try AtomicWrite.write(encoded, to: target, durable: false)
        } catch {
            throw .cannotStore(reason: error.localizedDescription)
        }
        return target
    }

    /// An opaque pixbuf's pixels as a JPEG, by libjpeg itself (gdk-pixbuf's saver makes the same
    /// bytes a fifth slower).
    private static func encodeJPEG(_ pixbuf: OpaquePointer, quality: Int32) -> Data? {
        var size: UInt = 0
        guard gdk_pixbuf_get_n_channels(pixbuf) == 3, let pixels = gdk_pixbuf_read_pixels(pixbuf),
              let bytes = bf_jpeg_encode(pixels, gdk_pixbuf_get_width(pixbuf), gdk_pixbuf_get_height(pixbuf),
                                         gdk_pixbuf_get_rowstride(pixbuf), quality, &size) else { return nil }
        return Data(bytesNoCopy: bytes, count: Int(size), deallocator: .free)
    }

    private static func encodePNG(_ pixbuf: OpaquePointer) -> Data? {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let saved = bf_pixbuf_save_png(pixbuf, &buffer, &size, &error)
        if let error { g_error_free(error) }
        guard saved != 0, let buffer else { return nil }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }

    /// The JPEG at `path` decoded at `eighths`/8 of its size, in a pixbuf that owns the pixels
    /// and carries the EXIF `orientation` for `gdk_pixbuf_apply_embedded_orientation`.
    private static func decodeJPEG(at path: String, eighths: Int, orientation: Int) -> OpaquePointer? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard let pixels = bf_jpeg_decode_scaled(path, Int32(eighths), &width, &height) else { return nil }
        guard let pixbuf = gdk_pixbuf_new_from_data(pixels, GDK_COLORSPACE_RGB, 0, 8, width, height, width * 3,
                                                    { pixels, _ in free(pixels) }, nil) else {
            free(pixels)
            return nil
        }
        if orientation != 1 { gdk_pixbuf_set_option(pixbuf, "orientation", String(orientation)) }
        return pixbuf
    }

    /// Whether `url` holds a copy that ends as a whole JPEG or PNG does. Copies are written
    /// without waiting for the disk, so after a crash one may be empty or cut short: such a
    /// copy is made again rather than put in a report. One that cannot be read is made again too.
    static func isWholeCopy(_ url: URL) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        // A JPEG ends with the EOI marker; a PNG with its IEND chunk, whose CRC is fixed.
        let ending: [UInt8] = url.pathExtension == "png"
            ? [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            : [0xFF, 0xD9]
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= ending.count else { return false }
        var tail = [UInt8](repeating: 0, count: ending.count)
        let count = pread(descriptor, &tail, ending.count, off_t(info.st_size) - off_t(ending.count))
        return count == ending.count && tail == ending
    }

    /// Removes the scaled copies made for `reference`.
    func removeScaledCopies(of reference: ReceiptReference) {
        let folder = cacheDirectory.appendingPathComponent("print", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(reference.digest + "-") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
