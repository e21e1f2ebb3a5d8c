import CCairo
import CGdkPixbuf
import Foundation

/// Why a picture could not be used.
public enum ImageError: Error, LocalizedError, Equatable, Sendable {
    /// No bytes at all.
    case empty
    /// The bytes are not in a format any installed loader reads (`mimeType` when it was recognised).
    case unsupportedFormat(mimeType: String?)
    /// The format was recognised but the data is damaged or cut short; `reason` is the decoder's.
    case corrupt(reason: String)
    /// The file could not be read.
    case unreadableFile(path: String, reason: String)
    /// Decoding would take more memory than is sensible (a picture of `width` × `height` pixels).
    case tooLarge(width: Int, height: Int)

    public var errorDescription: String? {
        switch self {
        case .empty:
            "The image is empty."
        case .unsupportedFormat(let mimeType):
            if let mimeType {
                "Images of type \(mimeType) cannot be read; use a JPEG or PNG image."
            } else {
                "This is not an image format that can be read; use a JPEG or PNG image."
            }
        case .corrupt(let reason):
            "The image is damaged and cannot be read (\(reason)). Try exporting it again."
        case .unreadableFile(let path, let reason):
            "Could not read the image “\(path)”: \(reason)."
        case .tooLarge(let width, let height):
            "The image is too large to use (\(width) × \(height) pixels); save a smaller copy and try again."
        }
    }
}

/// EXIF orientation: how the stored pixels must be turned to look upright.
public enum ImageOrientation: Int, Sendable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Whether width and height swap when displayed.
    public var swapsDimensions: Bool { rawValue >= 5 }
}

/// How large a decoded picture may get. The box is in displayed orientation, in pixels;
/// decoding scales down (in the JPEG decoder itself) so memory stays bounded.
public struct ImageDecodeLimits: Sendable, Hashable {
    public var maxWidth: Int?
    public var maxHeight: Int?
    public var maxPixels: Int

    public init(maxWidth: Int? = nil, maxHeight: Int? = nil, maxPixels: Int = 40_000_000) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixels = maxPixels
    }

    public static let unbounded = ImageDecodeLimits()

    /// How much a picture of `width` × `height` stored pixels is scaled while decoding (1: not
    /// at all); the same rule as `bf_pixbuf_size_prepared` in the C shim.
    func scale(width: Int, height: Int) -> Double {
        guard width > 0, height > 0 else { return 1 }
        let w = Double(width), h = Double(height)
        var scale = 1.0
        if let boxWidth = maxWidth, let boxHeight = maxHeight, boxWidth > 0, boxHeight > 0 {
            let upright = min(Double(boxWidth) / w, Double(boxHeight) / h)
            let turned = min(Double(boxWidth) / h, Double(boxHeight) / w)
            scale = min(1, max(upright, turned))
        }
        if maxPixels > 0 { scale = min(scale, (Double(maxPixels) / (w * h)).squareRoot()) }
        return scale
    }
}

/// What a picture is, learned from its header without decoding its pixels.
public struct ImageInfo: Sendable, Hashable {
    public let pixelWidth: Int
    public let pixelHeight: Int
    public let orientation: ImageOrientation
    public let format: String

    /// Size once turned upright.
    public var displayWidth: Int { orientation.swapsDimensions ? pixelHeight : pixelWidth }
    public var displayHeight: Int { orientation.swapsDimensions ? pixelWidth : pixelHeight }
}

/// A decoded picture (JPEG, PNG, or what gdk-pixbuf's installed loaders read) with its EXIF
/// orientation, ready to be drawn. Decoding needs no display and may run on any thread;
/// an instance is confined to one thread at a time.
public final class RasterImage {
    /// Stored pixels, before orientation is applied.
    public let pixelWidth: Int
    public let pixelHeight: Int
    public let orientation: ImageOrientation
    public let format: String
    /// Size of the picture in the file, before any scaling down.
    public let sourcePixelWidth: Int
    public let sourcePixelHeight: Int
    let surface: ImageSurface

    public var displayWidth: Int { orientation.swapsDimensions ? pixelHeight : pixelWidth }
    public var displayHeight: Int { orientation.swapsDimensions ? pixelWidth : pixelHeight }

    /// Decodes `data`, scaling down while decoding to respect `limits`.
    public init(data: Data, limits: ImageDecodeLimits = .unbounded) throws(ImageError) {
        let decoded = try Self.decode(data, limits: limits, probeOnly: false)
        guard let pixbuf = decoded.pixbuf else { throw ImageError.corrupt(reason: "no pixels were decoded") }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let info = decoded.info
        format = info.format
        orientation = info.orientation
        sourcePixelWidth = info.pixelWidth
        sourcePixelHeight = info.pixelHeight
        pixelWidth = Int(gdk_pixbuf_get_width(pixbuf))
        pixelHeight = Int(gdk_pixbuf_get_height(pixbuf))
        do {
            surface = try Self.makeSurface(from: pixbuf, width: pixelWidth, height: pixelHeight)
        } catch {
            throw ImageError.corrupt(reason: error.localizedDescription)
        }
        // A photo goes into a PDF as JPEG, not as raw pixels: the original stream when it was
        // not scaled down, otherwise the scaled pixels compressed again.
        if format == "jpeg" {
            if pixelWidth == sourcePixelWidth, pixelHeight == sourcePixelHeight {
                attachMimeData(data, type: "image/jpeg")
            } else if let jpeg = Self.encodeJPEG(pixbuf, quality: 88) {
                attachMimeData(jpeg, type: "image/jpeg")
            }
        }
    }

    private static func encodeJPEG(_ pixbuf: OpaquePointer, quality: Int) -> Data? {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        defer { g_free(buffer) }
        guard bf_pixbuf_save_jpeg(pixbuf, &buffer, &size, String(quality), &error) != 0, let buffer else {
            _ = takeMessage(error)
            return nil
        }
        return Data(bytes: buffer, count: Int(size))
    }

    /// A JPEG that goes into a PDF at its own size, not decoded. Cairo's PDF output writes a
    /// surface's JPEG mime data in place of its pixels, over the surface's extent, so a 1 × 1
    /// surface stands for the whole picture (`draw` scales it to the rectangle) and nothing is
    /// decoded or allocated for the pixels.
    private init(undecodedJPEG data: Data, info: ImageInfo) throws(ImageError) {
        format = info.format
        orientation = info.orientation
        pixelWidth = info.pixelWidth
        pixelHeight = info.pixelHeight
        sourcePixelWidth = info.pixelWidth
        sourcePixelHeight = info.pixelHeight
        do {
            surface = try ImageSurface(pixelWidth: 1, pixelHeight: 1, hasAlpha: false)
        } catch {
            throw ImageError.corrupt(reason: error.localizedDescription)
        }
        attachMimeData(data, type: "image/jpeg")
    }

    /// Draws the picture in `data` upright in `rect`, as `RasterImage(data:limits:)` and
    /// `draw(in:rect:)` do. A JPEG that needs no scaling down and goes into a PDF is not
    /// decoded, since the PDF holds its original bytes: only its header is read and its end
    /// checked (`info`, when a probe of the same bytes gave it already), which saves most of a
    /// photo report's time.
    public static func draw(_ data: Data, info: ImageInfo? = nil, limits: ImageDecodeLimits, in context: DrawingContext,
                            rect: Rect) throws(ImageError) {
        if cairo_surface_get_type(cairo_get_target(context.cr)) == CAIRO_SURFACE_TYPE_PDF {
            let info = if let info { info } else { try probe(data) }
            if info.format == "jpeg", limits.scale(width: info.pixelWidth, height: info.pixelHeight) >= 1 {
                try RasterImage(undecodedJPEG: data, info: info).draw(in: context, rect: rect)
                return
            }
        }
        try RasterImage(data: data, limits: limits).draw(in: context, rect: rect)
    }

    /// Reads and decodes the image file at `path`.
    public convenience init(contentsOfFile path: String, limits: ImageDecodeLimits = .unbounded) throws(ImageError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImageError.unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
        try self.init(data: data, limits: limits)
    }

    /// Wraps pixels drawn in memory (an upright picture).
    public init(surface: ImageSurface) {
        self.surface = surface
        pixelWidth = surface.pixelWidth
        pixelHeight = surface.pixelHeight
        sourcePixelWidth = surface.pixelWidth
        sourcePixelHeight = surface.pixelHeight
        orientation = .up
        format = "png"
    }

    /// Size, orientation and format from the header, without decoding the pixels.
    public static func probe(_ data: Data) throws(ImageError) -> ImageInfo {
        try decode(data, limits: ImageDecodeLimits(maxPixels: 4096), probeOnly: true).info
    }

    public enum Encoding: Sendable {
        case png
        /// Quality 0…100.
        case jpeg(quality: Int)
    }

    /// The stored pixels (not turned upright) encoded as PNG or JPEG.
    public func encoded(as encoding: Encoding) throws(ImageError) -> Data {
        cairo_surface_flush(surface.raw)
        guard let pixbuf = Self.makePixbuf(from: surface) else {
            throw ImageError.corrupt(reason: "out of memory")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        switch encoding {
        case .png:
            var buffer: UnsafeMutablePointer<gchar>?
            var size: gsize = 0
            var error: UnsafeMutablePointer<GError>?
            defer { g_free(buffer) }
            guard bf_pixbuf_save_png(pixbuf, &buffer, &size, &error) != 0, let buffer else {
                throw ImageError.corrupt(reason: Self.takeMessage(error) ?? "PNG encoding failed")
            }
            return Data(bytes: buffer, count: Int(size))
        case .jpeg(let quality):
            guard let jpeg = Self.encodeJPEG(pixbuf, quality: min(100, max(0, quality))) else {
                throw ImageError.corrupt(reason: "JPEG encoding failed")
            }
            return jpeg
        }
    }

    /// Draws the picture upright, stretched to fill `rect`.
    public func draw(in context: DrawingContext, rect: Rect) {
        let cr = context.cr
        // The surface's own size: the picture's, or 1 × 1 for a JPEG passed to a PDF undecoded.
        let w = Double(surface.pixelWidth)
        let h = Double(surface.pixelHeight)
        let displayW = orientation.swapsDimensions ? h : w
        let displayH = orientation.swapsDimensions ? w : h
        guard rect.width > 0, rect.height > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / displayW, rect.height / displayH)
        var m = cairo_matrix_t()
        switch orientation {
        case .up: cairo_matrix_init(&m, 1, 0, 0, 1, 0, 0)
        case .upMirrored: cairo_matrix_init(&m, -1, 0, 0, 1, w, 0)
        case .down: cairo_matrix_init(&m, -1, 0, 0, -1, w, h)
        case .downMirrored: cairo_matrix_init(&m, 1, 0, 0, -1, 0, h)
        case .leftMirrored: cairo_matrix_init(&m, 0, 1, 1, 0, 0, 0)
        case .right: cairo_matrix_init(&m, 0, 1, -1, 0, h, 0)
        case .rightMirrored: cairo_matrix_init(&m, 0, -1, -1, 0, h, w)
        case .left: cairo_matrix_init(&m, 0, -1, 1, 0, 0, w)
        }
        cairo_transform(cr, &m)
        cairo_set_source_surface(cr, surface.raw, 0, 0)
        // PDF/A forbids images that ask the viewer to interpolate (ISO 19005-2, 6.2.8), and
        // Cairo asks for it with the GOOD filter; the images are already at print resolution.
        let filter = PDFSurface.isArchival(cairo_get_target(cr)) ? CAIRO_FILTER_FAST : CAIRO_FILTER_GOOD
        cairo_pattern_set_filter(cairo_get_source(cr), filter)
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    // MARK: Decoding

    private struct Decoded {
        var info: ImageInfo
        var pixbuf: OpaquePointer?
    }

    private static func decode(_ data: Data, limits: ImageDecodeLimits, probeOnly: Bool) throws(ImageError) -> Decoded {
        guard !data.isEmpty else { throw ImageError.empty }
        guard let loader = gdk_pixbuf_loader_new() else { throw ImageError.corrupt(reason: "no image loader") }
        defer { g_object_unref(loader) }
        var state = bf_pixbuf_limits()
        state.box_width = Int32(clamping: limits.maxWidth ?? 0)
        state.box_height = Int32(clamping: limits.maxHeight ?? 0)
        state.max_pixels = Double(limits.maxPixels)
        return try withUnsafeMutablePointer(to: &state) { (statePointer) throws(ImageError) -> Decoded in
            bf_pixbuf_loader_apply_limits(loader, statePointer)
            var failure: String?
            var error: UnsafeMutablePointer<GError>?
            // Feeding chunks lets a probe stop once the header has been read, and a decode stop
            // as soon as the picture turns out too large.
            let chunk = probeOnly ? 16 * 1024 : 256 * 1024
            data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                let base = raw.bindMemory(to: UInt8.self)
                var offset = 0
                while offset < base.count {
                    let length = min(chunk, base.count - offset)
                    if gdk_pixbuf_loader_write(loader, base.baseAddress! + offset, gsize(length), &error) == 0 {
                        failure = takeMessage(error) ?? "unreadable data"
                        error = nil
                        break
                    }
                    offset += length
                    if statePointer.pointee.too_large != 0 { break }
                    // The loader has its pixbuf (and the orientation) once the header is read;
                    // area-prepared comes only at close when the picture is scaled.
                    if probeOnly, gdk_pixbuf_loader_get_pixbuf(loader) != nil { break }
                }
            }
            let closed = gdk_pixbuf_loader_close(loader, &error) != 0
            let closeMessage = takeMessage(error)
            if statePointer.pointee.too_large != 0 {
                throw ImageError.tooLarge(width: Int(statePointer.pointee.source_width), height: Int(statePointer.pointee.source_height))
            }
            let prepared = statePointer.pointee.prepared != 0
            let mime = mimeType(of: loader)
            if !probeOnly || !prepared {
                if let failure = failure ?? (closed ? nil : closeMessage) {
                    if mime == nil || !prepared && statePointer.pointee.source_width == 0 && isUnknownFormat(failure) {
                        throw ImageError.unsupportedFormat(mimeType: mime)
                    }
                    throw ImageError.corrupt(reason: failure)
                }
            }
            guard prepared, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
                throw ImageError.corrupt(reason: "the image has no picture data")
            }
            let orientation = gdk_pixbuf_get_option(pixbuf, "orientation")
                .flatMap { Int(String(cString: $0)) }
                .flatMap { ImageOrientation(rawValue: $0) } ?? .up
            let format = formatName(of: loader) ?? "unknown"
            if let reason = truncation(of: data, format: format) { throw ImageError.corrupt(reason: reason) }
            let info = ImageInfo(pixelWidth: Int(statePointer.pointee.source_width),
                                 pixelHeight: Int(statePointer.pointee.source_height),
                                 orientation: orientation,
                                 format: format)
            if probeOnly { return Decoded(info: info, pixbuf: nil) }
            g_object_ref(UnsafeMutableRawPointer(pixbuf))
            return Decoded(info: info, pixbuf: pixbuf)
        }
    }

    /// gdk-pixbuf shows a cut-off JPEG or PNG as a picture that fades to grey; a receipt sent
    /// half-way is better reported than printed like that.
    private static func truncation(of data: Data, format: String) -> String? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch format {
            case "jpeg":
                // End-of-image must follow the last start-of-scan (0xFF bytes in coded data are
                // stuffed, so FF D9 there is a real marker). Looked for from the end, where it
                // is: scanning the whole picture for it cost more than the rest of a probe.
                func isMarker(_ i: Int, _ code: UInt8) -> Bool { bytes[i] == 0xFF && bytes[i + 1] == code }
                guard bytes.count >= 2, (0..<(bytes.count - 1)).contains(where: { isMarker($0, 0xDA) }) else {
                    return "the picture data is missing"
                }
                for i in stride(from: bytes.count - 2, through: 0, by: -1) {
                    if isMarker(i, 0xD9) { return nil }
                    if isMarker(i, 0xDA) { break }
                }
                return "the file ends before the picture does"
            case "png":
                let end: [UInt8] = [0x49, 0x45, 0x4E, 0x44]  // IEND
                guard bytes.count >= 12 else { return "the file is too short" }
                for start in stride(from: bytes.count - 8, through: max(0, bytes.count - 64), by: -1)
                    where bytes[start..<(start + 4)].elementsEqual(end) {
                    return nil
                }
                return "the file ends before the picture does"
            default:
                return nil
            }
        }
    }

    private static func isUnknownFormat(_ message: String) -> Bool {
        message.contains("recognized") || message.contains("recognised") || message.contains("Unrecognized")
    }

    private static func formatName(of loader: UnsafeMutablePointer<GdkPixbufLoader>) -> String? {
        guard let format = gdk_pixbuf_loader_get_format(loader), let name = gdk_pixbuf_format_get_name(format) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }

    private static func mimeType(of loader: UnsafeMutablePointer<GdkPixbufLoader>) -> String? {
        guard let format = gdk_pixbuf_loader_get_format(loader),
              let types = gdk_pixbuf_format_get_mime_types(format) else { return nil }
        defer { g_strfreev(types) }
        return types.pointee.map { String(cString: $0) }
    }

    static func takeMessage(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }

    // MARK: Pixel conversion

    /// gdk-pixbuf stores straight RGB(A) bytes; Cairo wants premultiplied native-endian ARGB.
    private static func makeSurface(from pixbuf: OpaquePointer, width: Int, height: Int) throws(GraphicsError) -> ImageSurface {
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let sourceStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let surface = try ImageSurface(pixelWidth: width, pixelHeight: height, hasAlpha: hasAlpha)
        guard let source = gdk_pixbuf_read_pixels(pixbuf), let target = cairo_image_surface_get_data(surface.raw) else {
            throw GraphicsError.cairo(message: "no pixel memory")
        }
        let targetStride = Int(cairo_image_surface_get_stride(surface.raw))
        for y in 0..<height {
            let row = source + y * sourceStride
            let out = UnsafeMutableRawPointer(target + y * targetStride).assumingMemoryBound(to: UInt32.self)
            if hasAlpha, channels >= 4 {
                for x in 0..<width {
                    let p = row + x * channels
                    let a = UInt32(p[3])
                    let r = (UInt32(p[0]) * a + 127) / 255
                    let g = (UInt32(p[1]) * a + 127) / 255
                    let b = (UInt32(p[2]) * a + 127) / 255
                    out[x] = a << 24 | r << 16 | g << 8 | b
                }
            } else {
                for x in 0..<width {
                    let p = row + x * channels
                    out[x] = 0xFF00_0000 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                }
            }
        }
        cairo_surface_mark_dirty(surface.raw)
        return surface
    }

    private static func makePixbuf(from surface: ImageSurface) -> OpaquePointer? {
        let width = surface.pixelWidth
        let height = surface.pixelHeight
        let hasAlpha = cairo_image_surface_get_format(surface.raw) == CAIRO_FORMAT_ARGB32
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, hasAlpha ? 1 : 0, 8, Int32(width), Int32(height)),
              let source = cairo_image_surface_get_data(surface.raw),
              let target = gdk_pixbuf_get_pixels(pixbuf) else { return nil }
        let sourceStride = Int(cairo_image_surface_get_stride(surface.raw))
        let targetStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let channels = hasAlpha ? 4 : 3
        for y in 0..<height {
            let row = UnsafeRawPointer(source + y * sourceStride).assumingMemoryBound(to: UInt32.self)
            let out = target + y * targetStride
            for x in 0..<width {
                let pixel = row[x]
                let a = hasAlpha ? (pixel >> 24) & 0xFF : 255
                func channel(_ shift: UInt32) -> UInt8 {
                    let value = (pixel >> shift) & 0xFF
                    guard hasAlpha, a > 0, a < 255 else { return UInt8(value) }
                    return UInt8(min(255, (value * 255 + a / 2) / a))
                }
                let p = out + x * channels
                p[0] = channel(16)
                p[1] = channel(8)
                p[2] = channel(0)
                if hasAlpha { p[3] = UInt8(a) }
            }
        }
        return pixbuf
    }

    private func attachMimeData(_ data: Data, type: String) {
        guard let copy = malloc(data.count) else { return }
        data.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: data.count) }
        let status = cairo_surface_set_mime_data(surface.raw, type, copy.assumingMemoryBound(to: UInt8.self),
                                                 UInt(data.count), { free($0) }, copy)
        if status != CAIRO_STATUS_SUCCESS { free(copy) }
    }
}
