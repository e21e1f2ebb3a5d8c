import CCairo
import Foundation

/// A Cairo surface: a PDF being written, or pixels in memory.
/// Not thread-safe: use one surface on one thread at a time.
public class Surface {
    let raw: OpaquePointer

    init(adopting raw: OpaquePointer) {
        self.raw = raw
    }

    deinit {
        cairo_surface_destroy(raw)
    }

    /// Cairo's error state, which sticks once set.
    public func checkStatus() throws(GraphicsError) {
        try GraphicsError.check(cairo_surface_status(raw))
    }

    /// Writes out everything pending (for a PDF: fonts, the trailer) and closes the surface.
    public func finish() throws(GraphicsError) {
        cairo_surface_finish(raw)
        try checkStatus()
    }
}

/// Where a PDF surface sends its bytes.
final class OutputSink {
    private(set) var bytes = Data()
    private let file: UnsafeMutablePointer<FILE>?
    let path: String?
    private(set) var failure: String?
    /// The errno of the failure, so the layers above can name a full disk in the user's language.
    private(set) var failureCode: Int32 = 0

    init() {
        file = nil
        path = nil
    }

    init(path: String) throws(GraphicsError) {
        // Readable too: a `PDFContentWriter` reads back what Cairo wrote.
        guard let file = fopen(path, "w+b") else {
            throw GraphicsError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
        self.path = path
    }

    deinit {
        if let file { fclose(file) }
    }

    func write(_ data: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard failure == nil else { return false }
        if let file {
            if fwrite(data, 1, count, file) != count {
                failureCode = errno
                failure = String(cString: strerror(errno))
                return false
            }
        } else {
            bytes.append(data, count: count)
        }
        return true
    }

    /// Flushes and syncs a file so a following rename publishes complete contents.
    func close() throws(GraphicsError) {
        guard let file else { return }
        var reason = failure
        var code = failureCode
        if reason == nil, fflush(file) != 0 || fsync(fileno(file)) != 0 {
            code = errno
            reason = String(cString: strerror(errno))
        }
        if let reason {
            throw GraphicsError.writeFailed(path: path ?? "", reason: reason, code: code)
        }
    }

    /// The file's descriptor, once everything written has reached it; nil in memory.
    func flushedDescriptor() throws(GraphicsError) -> Int32? {
        guard let file else { return nil }
        guard fflush(file) == 0 else {
            let code = errno
            throw GraphicsError.writeFailed(path: path ?? "", reason: String(cString: strerror(code)), code: code)
        }
        return fileno(file)
    }

    func takeBytes() -> Data {
        defer { bytes = Data() }
        return bytes
    }
}

/// Document information stored in a PDF.
public enum PDFMetadataField: Sendable {
    case title, author, subject, keywords, creator
    /// An ISO 8601 date and time, `2024-05-01T09:30:00+02:00`.
    case creationDate

    var cairoValue: cairo_pdf_metadata_t {
        switch self {
        case .title: CAIRO_PDF_METADATA_TITLE
        case .author: CAIRO_PDF_METADATA_AUTHOR
        case .subject: CAIRO_PDF_METADATA_SUBJECT
        case .keywords: CAIRO_PDF_METADATA_KEYWORDS
        case .creator: CAIRO_PDF_METADATA_CREATOR
        case .creationDate: CAIRO_PDF_METADATA_CREATE_DATE
        }
    }
}

/// A PDF written page by page: each `showPage()` hands the page to Cairo, which streams it
/// out, so memory does not grow with pages already written. Fonts are subset and embedded.
/// Where it can, a `PDFContentWriter` writes the text, rules and rectangles instead of Cairo.
public final class PDFSurface: Surface {
    private let sink: OutputSink
    private let sinkBox: Unmanaged<OutputSink>
    /// Writes the text, rules and rectangles of the PDF; nil where Cairo writes all.
    let contentWriter: PDFContentWriter?

    /// A PDF collected in memory; take it with `finishBytes()`. `archival` writes the classic
    /// cross-reference table (PDF 1.4) that `PDFArchive` reads: Cairo 1.17.6 and later would
    /// otherwise write object and cross-reference streams.
    public convenience init(pageSize: Size, archival: Bool = false) throws(GraphicsError) {
        try self.init(sink: OutputSink(), pageSize: pageSize, contentWriter: Self.contentWriter(pageSize, archival: archival))
        if archival {
            cairo_pdf_surface_restrict_to_version(raw, CAIRO_PDF_VERSION_1_4)
            cairo_surface_set_user_data(raw, &Self.archivalKey, UnsafeMutableRawPointer(bitPattern: 1), nil)
        }
    }

    /// A `PDFContentWriter` where Cairo writes the classic cross-reference table it reads to add
    /// its streams: Cairo before 1.17.6, or an archival PDF.
    private static func contentWriter(_ pageSize: Size, archival: Bool) -> PDFContentWriter? {
        archival || bf_cairo_at_least(1, 17) == 0 ? PDFContentWriter(pageSize: pageSize) : nil
    }

    // Its address is the key; Cairo never reads it.
    nonisolated(unsafe) private static var archivalKey = cairo_user_data_key_t()

    /// Whether `surface` is an archival PDF being written (drawing code adapts to PDF/A rules).
    static func isArchival(_ surface: OpaquePointer?) -> Bool {
        guard let surface else { return false }
        return cairo_surface_get_user_data(surface, &archivalKey) != nil
    }

    /// A PDF streamed to the file at `path` (created or truncated).
    public convenience init(writingTo path: String, pageSize: Size) throws(GraphicsError) {
        try self.init(sink: OutputSink(path: path), pageSize: pageSize, contentWriter: Self.contentWriter(pageSize, archival: false))
    }

    /// `contentWriter` nil leaves everything to Cairo, as the writer's tests compare with.
    init(sink: OutputSink, pageSize: Size, contentWriter: PDFContentWriter?) throws(GraphicsError) {
        self.sink = sink
        self.contentWriter = contentWriter
        sinkBox = Unmanaged.passRetained(sink)
        let surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<OutputSink>.fromOpaque(closure).takeUnretainedValue()
            return sink.write(data, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, sinkBox.toOpaque(), pageSize.width, pageSize.height)!
        super.init(adopting: surface)
        try checkStatus()
    }

    deinit {
        // The surface may still write (its finish runs on destroy), so release the sink after it.
        cairo_surface_finish(raw)
        sinkBox.release()
    }

    public func setMetadata(_ field: PDFMetadataField, _ value: String) {
        cairo_pdf_surface_set_metadata(raw, field.cairoValue, value)
    }

    /// Size of the pages drawn from now on; call before drawing on a page.
    public func setPageSize(_ size: Size) {
        cairo_pdf_surface_set_size(raw, size.width, size.height)
        contentWriter?.pageSize = size
    }

    /// Finishes the PDF and returns its bytes (a PDF created with `init(pageSize:)`).
    public func finishBytes() throws(GraphicsError) -> Data {
        try finish()
        if let failure = sink.failure {
            throw GraphicsError.writeFailed(path: sink.path ?? "", reason: failure, code: sink.failureCode)
        }
        let bytes = sink.takeBytes()
        guard let contentWriter else { return bytes }
        return Data(try contentWriter.merge(into: [UInt8](bytes)))
    }

    /// Finishes the PDF and makes sure every byte reached the file.
    public func finishFile() throws(GraphicsError) {
        cairo_surface_finish(raw)
        if let failure = sink.failure {
            throw GraphicsError.writeFailed(path: sink.path ?? "", reason: failure, code: sink.failureCode)
        }
        try checkStatus()
        if let contentWriter, let descriptor = try sink.flushedDescriptor() {
            try contentWriter.merge(into: PDFFileBytes(descriptor: descriptor, path: sink.path ?? ""))
        }
        try sink.close()
    }
}

/// Pixels in memory (premultiplied ARGB32), for thumbnails and for checking output in tests.
public final class ImageSurface: Surface {
    public let pixelWidth: Int
    public let pixelHeight: Int

    /// A transparent image; `hasAlpha: false` gives an opaque RGB image that starts black.
    public init(pixelWidth: Int, pixelHeight: Int, hasAlpha: Bool = true) throws(GraphicsError) {
        self.pixelWidth = max(1, pixelWidth)
        self.pixelHeight = max(1, pixelHeight)
        let format = hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24
        super.init(adopting: cairo_image_surface_create(format, Int32(self.pixelWidth), Int32(self.pixelHeight)))
        try checkStatus()
    }

    init(adoptingImage raw: OpaquePointer) {
        pixelWidth = Int(cairo_image_surface_get_width(raw))
        pixelHeight = Int(cairo_image_surface_get_height(raw))
        super.init(adopting: raw)
    }

    /// The colour of one pixel (un-premultiplied), or nil outside the image.
    public func color(atX x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < pixelWidth, y < pixelHeight else { return nil }
        cairo_surface_flush(raw)
        guard let data = cairo_image_surface_get_data(raw) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(raw))
        let pixel = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        let hasAlpha = cairo_image_surface_get_format(raw) == CAIRO_FORMAT_ARGB32
        let a = hasAlpha ? Double((pixel >> 24) & 0xFF) / 255 : 1
        guard a > 0 else { return .clear }
        let unpremultiply = hasAlpha ? a : 1
        return Color(red: Double((pixel >> 16) & 0xFF) / 255 / unpremultiply,
                     green: Double((pixel >> 8) & 0xFF) / 255 / unpremultiply,
                     blue: Double(pixel & 0xFF) / 255 / unpremultiply,
                     alpha: a)
    }

    /// The image encoded as PNG.
    public func pngData() throws(GraphicsError) -> Data {
        let sink = OutputSink()
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        let status = cairo_surface_write_to_png_stream(raw, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<OutputSink>.fromOpaque(closure).takeUnretainedValue()
            return sink.write(data, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, box.toOpaque())
        try GraphicsError.check(status)
        return sink.takeBytes()
    }
}
