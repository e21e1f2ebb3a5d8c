import BillfoldCore
import Foundation
import Graphics

/// Where each page of a document starts, worked out once (on any thread) and reused to draw
/// the pages: for printing, for a preview, or for a second rendering of the same document.
public struct Pagination: Sendable {
    public let pageCount: Int
    let pageStarts: [Cursor]
    let memo: LayoutMemo
}

/// A finished PDF.
public struct RenderedPDF: Sendable {
    public let data: Data
    public let pageCount: Int
}

extension Document {
    /// Lays the document out to count its pages, without drawing.
    public func paginate() throws(DocumentError) -> Pagination {
        let engine = try LayoutEngine(document: self)
        let starts = engine.paginate()
        return Pagination(pageCount: starts.count, pageStarts: starts, memo: engine.memo)
    }

    /// The document as PDF bytes. Synchronous and self-contained: call it from a background
    /// task (`Task.detached { try document.renderPDF() }`) to keep a window responsive.
    public func renderPDF() throws(DocumentError) -> RenderedPDF {
        let surface: PDFSurface
        do {
            surface = try PDFSurface(pageSize: pageSetup.pageSize)
        } catch {
            throw DocumentError.output(error)
        }
        let pageCount = try drawPDF(on: surface)
        do {
            return RenderedPDF(data: try surface.finishBytes(), pageCount: pageCount)
        } catch {
            throw DocumentError.output(error)
        }
    }

    /// The document as PDF bytes, rendered off the calling actor.
    public func renderPDFInBackground() async throws(DocumentError) -> RenderedPDF {
        let document = self
        let result = await Task.detached(priority: .userInitiated) {
            Result { () throws(DocumentError) -> RenderedPDF in try document.renderPDF() }
        }.value
        return try result.get()
    }

    /// Writes the PDF to `url` with `AtomicWrite`: into an anonymous file beside it, put in
    /// place once complete, so a failure or a kill never leaves a half-written or stray file.
    /// A symlink is followed; a FIFO, device or folder in the way is refused. Returns the page count.
    @discardableResult
    public func writePDF(to url: URL) throws(DocumentError) -> Int {
        var pageCount = 0
        do {
            try AtomicWrite.write(to: url) { descriptor in
                // Cairo writes through its own FILE, opened on the same anonymous file.
                let surface = try PDFSurface(writingTo: "/proc/self/fd/\(descriptor)", pageSize: pageSetup.pageSize)
                pageCount = try drawPDF(on: surface)
                try surface.finishFile()
            }
            return pageCount
        } catch let error as DocumentError {
            throw error
        } catch GraphicsError.writeFailed(_, let reason, let code) {
            // Name the file the person chose, and the cause in their language.
            if code != 0 { throw DocumentError.fileWrite(.failed(path: url.path, code: code)) }
            throw DocumentError.output(.writeFailed(path: url.path, reason: reason))
        } catch let error as GraphicsError {
            throw DocumentError.output(error)
        } catch let error as FileWriteError {
            throw DocumentError.fileWrite(error)
        } catch {
            throw DocumentError.output(.writeFailed(path: url.path, reason: error.localizedDescription))
        }
    }

    /// Writes the PDF to a file (`writePDF(to: URL)`) or, whole, to standard output.
    @discardableResult
    public func writePDF(to target: OutputTarget) throws(DocumentError) -> Int {
        switch target {
        case .file(let url):
            return try writePDF(to: url)
        case .standardOutput:
            let rendered = try renderPDF()
            do {
                try target.write(rendered.data)
            } catch {
                throw .fileWrite(error)
            }
            return rendered.pageCount
        }
    }

    /// Page 1 as a PNG `width` pixels wide, on white.
    public func thumbnailPNG(width: Int) throws(DocumentError) -> Data {
        let pages = try PrintableDocument(self)
        let size = pageSetup.pageSize
        let scale = Double(max(1, width)) / size.width
        do {
            let image = try ImageSurface(pixelWidth: max(1, width), pixelHeight: Int((size.height * scale).rounded()), hasAlpha: false)
            let context = DrawingContext(surface: image)
            context.fill(Rect(x: 0, y: 0, width: Double(image.pixelWidth), height: Double(image.pixelHeight)), color: .white)
            context.scale(x: scale, y: scale)
            try pages.drawPage(0, in: context)
            try context.checkStatus()
            return try image.pngData()
        } catch let error as DocumentError {
            throw error
        } catch let error as GraphicsError {
            throw DocumentError.output(error)
        } catch {
            throw DocumentError.output(.cairo(message: error.localizedDescription))
        }
    }

    func drawPDF(on surface: PDFSurface) throws(DocumentError) -> Int {
        let renderer = PageRenderer(engine: try LayoutEngine(document: self))
        let info = metadata
        if !info.title.isEmpty { surface.setMetadata(.title, info.title) }
        if !info.author.isEmpty { surface.setMetadata(.author, info.author) }
        if !info.subject.isEmpty { surface.setMetadata(.subject, info.subject) }
        if !info.keywords.isEmpty { surface.setMetadata(.keywords, info.keywords) }
        if !info.creator.isEmpty { surface.setMetadata(.creator, info.creator) }
        surface.setMetadata(.creationDate, Self.pdfDate(info.creationDate))
        let context = DrawingContext(surface: surface)
        for page in 0..<renderer.pageCount {
            try renderer.drawPage(page, in: context)
            context.showPage()
            do {
                try context.checkStatus()
            } catch {
                throw DocumentError.output(error)
            }
        }
        return renderer.pageCount
    }

    /// ISO 8601 with the local offset (or `utcOffset` seconds), the form Cairo writes into the
    /// PDF. From the C library: Foundation's ISO 8601 formatter sets up an ICU calendar, 1.4
    /// million instructions for one date.
    static func pdfDate(_ date: Date, utcOffset: Int? = nil) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        let offset = utcOffset ?? parts.tm_gmtoff
        var shifted = seconds + time_t(offset)
        gmtime_r(&shifted, &parts)
        func padded(_ value: Int, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let day = "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1))-\(padded(Int(parts.tm_mday)))"
        let time = "\(padded(Int(parts.tm_hour))):\(padded(Int(parts.tm_min))):\(padded(Int(parts.tm_sec)))"
        let minutes = offset / 60
        let zone = minutes == 0 ? "Z" : (minutes < 0 ? "-" : "+") + "\(padded(abs(minutes) / 60)):\(padded(abs(minutes) % 60))"
        return day + "T" + time + zone
    }
}

/// A document laid out for drawing page by page: what `GtkPrintOperation` needs (the page
/// count in begin-print, then draw-page for any page, in any order). The context's user space
/// must be points with the page's top-left corner at the origin (a print operation with
/// `use-full-page` and points as its unit; scale a widget's context to zoom).
/// Confined to the thread that created it.
public final class PrintableDocument {
    private let renderer: PageRenderer

    public var pageCount: Int { renderer.pageCount }
    public var pageSize: Size { renderer.engine.pageSize }

    /// Lays the document out (the first pass).
    public init(_ document: Document) throws(DocumentError) {
        renderer = PageRenderer(engine: try LayoutEngine(document: document))
    }

    /// Reuses a pagination computed elsewhere, for example on a background task.
    public init(_ document: Document, pagination: Pagination) throws(DocumentError) {
        let engine = try LayoutEngine(document: document, memo: pagination.memo)
        renderer = PageRenderer(engine: engine, pageStarts: pagination.pageStarts)
    }

    /// Draws page `index` (zero-based).
    public func drawPage(_ index: Int, in context: DrawingContext) throws(DocumentError) {
        try renderer.drawPage(index, in: context)
    }
}
