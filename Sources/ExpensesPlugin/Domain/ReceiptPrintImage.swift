import BillfoldCore
import CGdkPixbuf
import Foundation

extension ReceiptStore {
    /// An upright copy of an image receipt that fits `maxPixelWidth` × `maxPixelHeight`, for a
    /// report: the original file when it already fits, otherwise a scaled JPEG (PNG when the
    /// picture has transparency) kept in `cacheDirectory` and reused for the same size.
    ///
    /// Scaling decodes with gdk-pixbuf at a reduced scale (libjpeg's DCT scaling), so memory
    /// stays bounded for any photo; making the copies of many receipts at once on several
    /// threads is safe.
    public func printImage(for reference: ReceiptReference, maxPixelWidth: Int,
                           maxPixelHeight: Int) throws(ReceiptError) -> URL {
        guard reference.kind.isImage else { throw .notAnImage }
        let source = url(for: reference)
        let inspection = try inspect(reference)
        if let width = inspection.pixelWidth, let height = inspection.pixelHeight, width * height > Self.maximumPixelCount {
            throw .tooManyPixels(fileName: reference.fileName, width: width, height: height)
        }
        let boxWidth = max(1, maxPixelWidth)
        let boxHeight = max(1, maxPixelHeight)
        if let width = inspection.uprightWidth, let height = inspection.uprightHeight,
           width <= boxWidth, height <= boxHeight, inspection.orientation == 1 {
            return source
        }
        let folder = cacheDirectory.appendingPathComponent("print", isDirectory: true)
        let stem = "\(reference.digest)-\(boxWidth)x\(boxHeight)"
        for ext in ["jpg", "png"] {
            let cached = folder.appendingPathComponent("\(stem).\(ext)")
            if FileManager.default.fileExists(atPath: cached.path) { return cached }
        }

        // The box is upright; the decoder sees the stored orientation.
        let turned = inspection.orientation >= 5
        var error: UnsafeMutablePointer<GError>?
        guard let scaled = ReceiptDecoding.limited({ gdk_pixbuf_new_from_file_at_scale(source.path, Int32(clamping: turned ? boxHeight : boxWidth),
                                                             Int32(clamping: turned ? boxWidth : boxHeight), 1, &error) }) else {
            let isUnknownType = error.map {
                $0.pointee.domain == gdk_pixbuf_error_quark() && $0.pointee.code == Int32(GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue)
            } ?? false
            if let error { g_error_free(error) }
            throw isUnknownType ? .noDecoder(reference.kind) : .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        if let error { g_error_free(error) }
        defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
        guard let upright = gdk_pixbuf_apply_embedded_orientation(scaled) else {
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(upright)) }

        let hasAlpha = gdk_pixbuf_get_has_alpha(upright) != 0
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        let saved = hasAlpha ? bf_pixbuf_save_png(upright, &buffer, &size, &error)
                             : bf_pixbuf_save_jpeg(upright, &buffer, &size, "88", &error)
        if let error { g_error_free(error) }
        guard saved != 0, let buffer else { throw .cannotStore(reason: tr("the picture could not be scaled")) }
        defer { g_free(buffer) }
        let target = folder.appendingPathComponent("\(stem).\(hasAlpha ? "png" : "jpg")")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(Data(bytes: buffer, count: Int(size)), to: target)
        } catch {
            throw .cannotStore(reason: error.localizedDescription)
        }
        return target
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
