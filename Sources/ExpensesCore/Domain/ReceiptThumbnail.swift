import CGdkPixbuf
import Foundation

/// A receipt picture scaled down for the screen: 8-bit RGB or RGBA (not premultiplied) rows,
/// upright per the photo's EXIF orientation. A `Sendable` value, so it is made on a background
/// task and handed to the UI (e.g. as a `GdkMemoryTexture`, `R8G8B8` or `R8G8B8A8`).
public struct ReceiptThumbnail: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the next (rows may be padded).
    public let rowStride: Int
    public let hasAlpha: Bool
    public let pixels: Data

    public var bytesPerPixel: Int { hasAlpha ? 4 : 3 }
}

extension ReceiptStore {
    /// The receipt's picture scaled to fit `maxPixelSize` on its longer side (never enlarged).
    ///
    /// Memory stays bounded whatever the photo's size: gdk-pixbuf's JPEG loader decodes straight
    /// to a reduced scale (libjpeg's DCT scaling, 1/2 to 1/8), so a 50-megapixel photo never
    /// exists in memory at full size. PNG and WebP loaders decode fully, then scale.
    /// A PDF receipt throws `.notAnImage`: its pages are drawn with Poppler.
    public func thumbnail(for reference: ReceiptReference, maxPixelSize: Int) throws(ReceiptError) -> ReceiptThumbnail {
        guard reference.kind.isImage else { throw .notAnImage }
        let path = url(for: reference).path
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(reference) }

        var storedWidth: Int32 = 0
        var storedHeight: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &storedWidth, &storedHeight) != nil else {
            // No loader recognised it: for WebP that means none is installed, otherwise damage.
            if reference.kind == .webp { throw .noDecoder(.webp) }
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        guard storedWidth > 0, storedHeight > 0 else {
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        // Measured before decoding: a file stored before the limit existed is not decoded.
        guard Int(storedWidth) * Int(storedHeight) <= Self.maximumPixelCount else {
            throw .tooManyPixels(fileName: reference.fileName, width: Int(storedWidth), height: Int(storedHeight))
        }
        let box = Int32(clamping: min(max(1, maxPixelSize), Int(max(storedWidth, storedHeight))))

        var error: UnsafeMutablePointer<GError>?
        guard let scaled = ReceiptDecoding.limited({ gdk_pixbuf_new_from_file_at_scale(path, box, box, 1, &error) }) else {
            let isUnknownType = error.map {
                $0.pointee.domain == gdk_pixbuf_error_quark() && $0.pointee.code == Int32(GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue)
            } ?? false
            if let error { g_error_free(error) }
            if isUnknownType { throw .noDecoder(reference.kind) }
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        if let error { g_error_free(error) }
        defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }

        // The rotated copy is a new reference (or the same one, referenced again).
        guard let upright = gdk_pixbuf_apply_embedded_orientation(scaled) else {
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(upright)) }

        guard gdk_pixbuf_get_bits_per_sample(upright) == 8, gdk_pixbuf_get_colorspace(upright) == GDK_COLORSPACE_RGB else {
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        let width = Int(gdk_pixbuf_get_width(upright))
        let height = Int(gdk_pixbuf_get_height(upright))
        let stride = Int(gdk_pixbuf_get_rowstride(upright))
        let hasAlpha = gdk_pixbuf_get_has_alpha(upright) != 0
        let length = Int(gdk_pixbuf_get_byte_length(upright))
        guard let bytes = gdk_pixbuf_read_pixels(upright), length > 0 else {
            throw .damaged(fileName: reference.fileName, kind: reference.kind)
        }
        return ReceiptThumbnail(width: width, height: height, rowStride: stride, hasAlpha: hasAlpha,
                                pixels: Data(bytes: bytes, count: length))
    }
}
