import Foundation
import Graphics

/// Draws laid-out pages onto any context, with the running header and footer.
/// Pictures are decoded when their page is drawn and released after it.
final class PageRenderer {
    let engine: LayoutEngine
    let pageStarts: [Cursor]
    /// Pages the first pass laid out in full, each let go once drawn.
    private var keptPages: [[PlacedItem]?]
    /// The embedded PDF last drawn from, kept open while its pages follow one another.
    private var openPDF: (id: Int, document: PDFDocument)?

    /// How many pages the first pass keeps: every page of an ordinary document, while a long
    /// one holds no more than this many pages' layout at a time.
    static let keptPageLimit = 64

    var pageCount: Int { pageStarts.count }

    init(engine: LayoutEngine, pageStarts: [Cursor], keptPages: [[PlacedItem]] = []) {
        self.engine = engine
        self.pageStarts = pageStarts
        self.keptPages = keptPages
    }

    /// Lays `engine`'s document out (the first pass), keeping the first pages.
    convenience init(engine: LayoutEngine) {
        let pagination = engine.paginate(keepingFirst: Self.keptPageLimit)
        self.init(engine: engine, pageStarts: pagination.starts, keptPages: pagination.kept)
    }

    /// Draws page `index` (zero-based) with the page's top-left corner at the context's origin,
    /// one unit per point.
    func drawPage(_ index: Int, in context: DrawingContext) throws(DocumentError) {
        guard pageStarts.indices.contains(index) else {
            throw DocumentError.pageOutOfRange(index: index, pageCount: pageCount)
        }
        var items: [PlacedItem]
        if keptPages.indices.contains(index), let kept = keptPages[index] {
            items = kept
            keptPages[index] = nil
        } else {
            items = engine.layoutPage(from: pageStarts[index]).items
        }
        let printable = engine.printable
        if let header = engine.header {
            items += header.items(number: index + 1, count: pageCount, top: printable.minY, left: printable.minX,
                                  width: printable.width, engine: engine.text, ruleBelow: true)
        }
        if let footer = engine.footer {
            items += footer.items(number: index + 1, count: pageCount, top: printable.maxY - footer.height, left: printable.minX,
                                  width: printable.width, engine: engine.text, ruleBelow: false)
        }
        // Nothing in a layout is drawn over text, so fills, rules and pictures go first and the
        // text after them: runs in one font and colour then reach Cairo as one call per page,
        // as do a table's rules.
        try context.batching { () throws(DocumentError) in
            for item in items {
                if case .text = item { continue }
                try draw(item, in: context)
            }
            for case .text(let block, let lines, let origin, let color) in items {
                block.draw(in: context, at: origin, color: color, lines: lines)
            }
        }
    }

    private func draw(_ item: PlacedItem, in context: DrawingContext) throws(DocumentError) {
        switch item {
        case .text(let block, let lines, let origin, let color):
            block.draw(in: context, at: origin, color: color, lines: lines)
        case .fill(let rect, let color):
            context.fill(rect, color: color)
        case .line(let from, let to, let width, let color):
            context.strokeLine(from: from, to: to, width: width, color: color)
        case .image(let image, let info, let rect):
            let data = try Flattener.imageData(image.source)
            let limits = image.resolution.map { resolution in
                let pixelsPerPoint = max(0.1, resolution / 72)
                return ImageDecodeLimits(maxWidth: Int((rect.width * pixelsPerPoint).rounded(.up)),
                                         maxHeight: Int((rect.height * pixelsPerPoint).rounded(.up)))
            } ?? .unbounded
            do {
                try RasterImage.draw(data, info: info, limits: limits, in: context, rect: rect)
            } catch {
                throw DocumentError.image(error)
            }
        case .pdfPage(let pdf, let sourceID, let pageIndex, let rect):
            do {
                let document: PDFDocument
                if let open = openPDF, open.id == sourceID {
                    document = open.document
                } else {
                    document = try PDFDocument(data: pdf.data)
                    openPDF = (sourceID, document)
                }
                let page = try document.page(at: pageIndex)
                let size = page.size
                context.save()
                context.addRect(rect)
                context.clip()
                context.fill(rect, color: .white)
                context.translate(x: rect.x, y: rect.y)
                context.scale(x: rect.width / max(1, size.width), y: rect.height / max(1, size.height))
                page.render(in: context, forPrinting: true)
                context.restore()
                if pdf.isFramed {
                    context.setColor(Palette.hairline)
                    context.setLineWidth(0.75)
                    context.addRect(rect)
                    context.stroke()
                }
            } catch {
                throw DocumentError.embeddedPDF(error)
            }
        case .chart(let chart, let rect):
            ChartPainter(chart: chart.chart, style: chart.style).draw(in: context, rect: rect, textEngine: engine.text)
        case .qrCode(let code, let rect):
            drawQRCode(code, in: rect, context: context)
        }
    }

    /// One filled path of rectangles, a run of dark modules each, so there are no seams
    /// between modules and the PDF stays small.
    private func drawQRCode(_ block: QRCodeBlock, in rect: Rect, context: DrawingContext) {
        let modules = Double(block.code.size + 2 * block.quietZone)
        let module = rect.width / modules
        let origin = Point(x: rect.x + Double(block.quietZone) * module, y: rect.y + Double(block.quietZone) * module)
        context.newPath()
        for run in block.code.darkRuns {
            context.addRect(Rect(x: origin.x + Double(run.column) * module, y: origin.y + Double(run.row) * module,
                                 width: Double(run.length) * module, height: module))
        }
        context.setColor(block.color)
        context.fill()
    }
}
