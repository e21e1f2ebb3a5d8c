import CCairo
import CPoppler
import Foundation

/// Why a PDF could not be opened or a page read.
public enum PDFError: Error, LocalizedError, Equatable, Sendable {
    /// The bytes are not a PDF, or it is damaged; `reason` is Poppler's.
    case unreadable(reason: String)
    /// The PDF is encrypted and the password is missing or wrong.
    case needsPassword
    case pageOutOfRange(index: Int, pageCount: Int)
    /// Poppler's library is missing or unusable, so no PDF can be read; `reason` is the loader's.
    case popplerUnavailable(reason: String)

    public var errorDescription: String? {
        switch self {
        case .unreadable(let reason):
            "The PDF cannot be read (\(reason)). It may be damaged or not a PDF."
        case .needsPassword:
            "The PDF is protected by a password; save an unprotected copy and try again."
        case .pageOutOfRange(let index, let pageCount):
            "The PDF has \(pageCount) pages; page \(index + 1) does not exist."
        case .popplerUnavailable(let reason):
            // Translators: %@ is the system's reason, such as "libpoppler-glib.so.8: cannot open shared object file".
            String(format: tr("PDFs cannot be opened because the Poppler library is missing or damaged (%@). Reinstall Billfold, or install Poppler's GLib library (libpoppler-glib) from your distribution."), reason)
        }
    }
}

/// A PDF opened with Poppler from bytes. Display-free; confined to one thread at a time
/// (Poppler documents are not safe to share between threads). Poppler itself is loaded when
/// the first document is opened.
public final class PDFDocument {
    let raw: OpaquePointer
    /// Poppler's functions, for the document and its pages.
    let poppler: PopplerLibrary

    public convenience init(data: Data, password: String? = nil) throws(PDFError) {
        try self.init(data: data, password: password, poppler: PopplerLibrary.shared)
    }

    /// Opens the PDF with `library`, or throws why that library could not be loaded.
    init(data: Data, password: String?, poppler library: Result<PopplerLibrary, PDFError>) throws(PDFError) {
        guard !data.isEmpty else { throw PDFError.unreadable(reason: "the file is empty") }
        let poppler = try library.get()
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler.functions.document_new_from_bytes(bytes, password, &error) else {
            let encrypted = error.map {
                $0.pointee.domain == poppler.functions.error_quark() && $0.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
            } ?? false
            let message = RasterImage.takeMessage(error) ?? "unknown error"
            throw encrypted ? PDFError.needsPassword : PDFError.unreadable(reason: message)
        }
        raw = document
        self.poppler = poppler
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(raw))
    }

    public var pageCount: Int { Int(poppler.functions.document_get_n_pages(raw)) }

    public func page(at index: Int) throws(PDFError) -> PDFPage {
        guard index >= 0, index < pageCount, let page = poppler.functions.document_get_page(raw, Int32(index)) else {
            throw PDFError.pageOutOfRange(index: index, pageCount: pageCount)
        }
        return PDFPage(adopting: page, document: self, index: index)
    }

    public var title: String? { Self.take(poppler.functions.document_get_title(raw)) }
    public var author: String? { Self.take(poppler.functions.document_get_author(raw)) }
    public var subject: String? { Self.take(poppler.functions.document_get_subject(raw)) }
    public var keywords: String? { Self.take(poppler.functions.document_get_keywords(raw)) }
    public var creator: String? { Self.take(poppler.functions.document_get_creator(raw)) }
    public var producer: String? { Self.take(poppler.functions.document_get_producer(raw)) }

    public var creationDate: Date? {
        guard let dateTime = poppler.functions.document_get_creation_date_time(raw) else { return nil }
        defer { g_date_time_unref(dateTime) }
        return Date(timeIntervalSince1970: TimeInterval(g_date_time_to_unix(dateTime)))
    }

    private static func take(_ string: UnsafeMutablePointer<gchar>?) -> String? {
        guard let string else { return nil }
        defer { g_free(string) }
        return String(cString: string)
    }
}

/// A word read back from a page and the box it occupies (points, top-left origin).
public struct PDFTextRun: Sendable, Hashable {
    public let text: String
    public let rect: Rect
}

/// One page of a `PDFDocument`.
public final class PDFPage {
    let raw: OpaquePointer
    /// Keeps the document open while the page is in use.
    public let document: PDFDocument
    public let index: Int
    private var poppler: BFPoppler { document.poppler.functions }

    init(adopting raw: OpaquePointer, document: PDFDocument, index: Int) {
        self.raw = raw
        self.document = document
        self.index = index
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(raw))
    }

    /// Page size in points, rotation applied.
    public var size: Size {
        var width = 0.0
        var height = 0.0
        poppler.page_get_size(raw, &width, &height)
        return Size(width: width, height: height)
    }

    /// Draws the page with its top-left corner at the origin of the context's user space, one
    /// unit per point; scale the context first to zoom. Vectors stay vectors on a PDF surface.
    /// `forPrinting` also draws annotations meant for print and hides screen-only ones.
    public func render(in context: DrawingContext, forPrinting: Bool = false) {
        let cr = context.cr
        if forPrinting {
            poppler.page_render_for_printing(raw, cr)
        } else {
            poppler.page_render(raw, cr)
        }
    }

    /// Draws the page `scale` units per point (zoom times the display's scale factor on
    /// screen) with its top-left corner at `origin`, leaving the context's state as it was.
    public func render(in context: DrawingContext, at origin: Point = .zero, scale: Double, forPrinting: Bool = false) {
        context.withSavedState {
            context.translate(x: origin.x, y: origin.y)
            context.scale(x: scale, y: scale)
            render(in: context, forPrinting: forPrinting)
        }
    }

    /// The page as pixels on white, `scale` pixels per point (1 = 72 dpi).
    public func renderImage(scale: Double) throws(GraphicsError) -> ImageSurface {
        let size = self.size
        let image = try ImageSurface(pixelWidth: Int((size.width * scale).rounded(.up)),
                                     pixelHeight: Int((size.height * scale).rounded(.up)), hasAlpha: false)
        let context = DrawingContext(surface: image)
        context.fill(Rect(x: 0, y: 0, width: Double(image.pixelWidth), height: Double(image.pixelHeight)), color: .white)
        context.scale(x: scale, y: scale)
        render(in: context)
        try context.checkStatus()
        return image
    }

    /// All text on the page in reading order.
    public func text() -> String {
        guard let text = poppler.page_get_text(raw) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Where `text` occurs on the page (case-insensitive), as a viewer's search finds it;
    /// rectangles in points with a top-left origin.
    public func find(_ text: String) -> [Rect] {
        let poppler = self.poppler
        guard let list = poppler.page_find_text(raw, text) else { return [] }
        defer { g_list_free(list) }
        let height = size.height
        var result: [Rect] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let rectangle = current.pointee.data?.assumingMemoryBound(to: PopplerRectangle.self) {
                let r = rectangle.pointee
                // Poppler reports search hits with the PDF's bottom-left origin.
                result.append(Rect(x: min(r.x1, r.x2), y: height - max(r.y1, r.y2),
                                   width: abs(r.x2 - r.x1), height: abs(r.y2 - r.y1)))
                poppler.rectangle_free(rectangle)
            }
            node = current.pointee.next
        }
        return result
    }

    /// The page's words with their bounding boxes. Words end at whitespace and also at a gap
    /// or a change of line between two characters, since Poppler's page text runs table cells
    /// set side by side together.
    public func textRuns() -> [PDFTextRun] {
        let page = raw
        let poppler = self.poppler
        guard let text = poppler.page_get_text(page) else { return [] }
        defer { g_free(text) }
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        guard poppler.page_get_text_layout(page, &rectangles, &count) != 0, let rectangles else { return [] }
        defer { g_free(rectangles) }
        var runs: [PDFTextRun] = []
        var word = ""
        var box: Rect?
        func flush() {
            if let box, !word.isEmpty { runs.append(PDFTextRun(text: word, rect: box)) }
            word = ""
            box = nil
        }
        for (index, scalar) in String(cString: text).unicodeScalars.enumerated() {
            guard index < Int(count) else { break }
            if scalar.properties.isWhitespace {
                flush()
                continue
            }
            let r = rectangles[index]
            let rect = Rect(x: min(r.x1, r.x2), y: min(r.y1, r.y2), width: abs(r.x2 - r.x1), height: abs(r.y2 - r.y1))
            if let current = box {
                let tolerance = max(1, rect.height * 0.3)
                let sameLine = abs(rect.midY - current.midY) < max(current.height, rect.height) / 2
                let gap = rect.minX - current.maxX
                if !sameLine || gap > tolerance || gap < -(current.width + tolerance) { flush() }
            }
            word.unicodeScalars.append(scalar)
            if let current = box {
                let minX = min(current.minX, rect.minX)
                let minY = min(current.minY, rect.minY)
                box = Rect(x: minX, y: minY, width: max(current.maxX, rect.maxX) - minX, height: max(current.maxY, rect.maxY) - minY)
            } else {
                box = rect
            }
        }
        flush()
        return runs
    }
}
