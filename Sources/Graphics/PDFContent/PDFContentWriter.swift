import CCairo
import Foundation

/// A font as `PDFContentWriter` can embed it: HarfBuzz's face of its file, and a size in points.
struct EmbeddableFace {
    let face: OpaquePointer
    let size: Double
}

/// The text, rules and rectangles of a PDF that `PDFSurface` writes, written by Billfold
/// instead of Cairo.
///
/// Cairo 1.16 writes each glyph through its own `printf`, looks it up in its subset and
/// positions it with `snprintf("%f")`: 44 % of a 1 000-line invoice's export, and its table's
/// rules another 10 %. Here each page's text goes into a content stream of its own, after
/// Cairo's, and the rules and rectangles drawn before Cairo has drawn anything on the page
/// into one before Cairo's; once Cairo has written the file, `merge` adds those streams, and
/// the fonts they use, to its pages. So the order of drawing holds as long as text is drawn
/// after everything else on its page, which is how `PageRenderer` draws.
/// What this cannot write (a font PDF cannot embed as it is, a transformed or clipped context,
/// translucency, a dash) `DrawingContext` leaves to Cairo.
final class PDFContentWriter {
    private var fonts: [EmbeddedFont] = []
    private var fontIndex: [OpaquePointer: Int] = [:]
    /// Each finished page's streams, deflated while the next page is drawn.
    private let pages = PageCompressor()
    private var stream = ContentStream()
    private var shapes = ShapeStream()
    /// The size of the page being drawn.
    var pageSize: Size

    init(pageSize: Size) {
        self.pageSize = pageSize
    }

    private var hasContent = false

    /// Whether text has been written on the page being drawn: rules and rectangles drawn after
    /// it go to Cairo, as they may be meant to cover it.
    var pageHasText: Bool { !stream.isEmpty }

    /// Where a context with transformation `matrix` and clip `clipExtents` (both Cairo's) may
    /// have its text written here: moved by the returned offset, neither scaled nor clipped.
    func offset(matrix: cairo_matrix_t, clipExtents: Rect) -> Point? {
        guard matrix.xx == 1, matrix.yy == 1, matrix.xy == 0, matrix.yx == 0 else { return nil }
        let page = Rect(x: -matrix.x0, y: -matrix.y0, width: pageSize.width, height: pageSize.height)
        let slack = 0.5
        guard clipExtents.minX <= page.minX + slack, clipExtents.minY <= page.minY + slack,
              clipExtents.maxX >= page.maxX - slack, clipExtents.maxY >= page.maxY - slack else { return nil }
        return Point(x: matrix.x0, y: matrix.y0)
    }

    /// Adds glyphs drawn in the font of HarfBuzz face `face` at `size` points, in page space
    /// moved by `offset` (Cairo's: the origin at the top-left corner, y down).
    func show(glyphs: [cairo_glyph_t], clusters: [cairo_text_cluster_t], utf8: [CChar], face: OpaquePointer, size: Double,
              color: Color, offset: Point) {
        let index: Int
        if let known = fontIndex[face] {
            index = known
        } else {
            index = fonts.count
            fonts.append(EmbeddedFont(face: face))
            fontIndex[face] = index
        }
        hasContent = true
        let font = fonts[index]
        mapText(glyphs: glyphs, clusters: clusters, utf8: utf8, font: font)
        // The stream is taken out of the writer while it grows, so appending to it costs no
        // exclusivity check per glyph.
        var page = ContentStream()
        swap(&page, &stream)
        page.setFont(index, size: size)
        page.setColor(color)
        font.show(glyphs, origin: Point(x: offset.x, y: pageSize.height - offset.y), in: &page)
        swap(&page, &stream)
    }

    /// Adds a filled rectangle under Cairo's content; `rect` as `show`'s glyphs.
    func fill(_ rect: Rect, color: Color, offset: Point) {
        hasContent = true
        shapes.fill(Rect(x: rect.x + offset.x, y: pageSize.height - (rect.maxY + offset.y), width: rect.width, height: rect.height),
                    color: color)
    }

    /// Adds straight lines with butt ends under Cairo's content; points as `show`'s glyphs.
    func stroke(_ lines: [(start: Point, end: Point)], width: Double, color: Color, offset: Point) {
        hasContent = true
        let height = pageSize.height
        func flipped(_ point: Point) -> Point { Point(x: point.x + offset.x, y: height - (point.y + offset.y)) }
        shapes.stroke(lines.map { (flipped($0.start), flipped($0.end)) }, width: width, color: color)
    }

    /// Records what text each glyph not seen before stands for.
    private func mapText(glyphs: [cairo_glyph_t], clusters: [cairo_text_cluster_t], utf8: [CChar], font: EmbeddedFont) {
        var glyphIndex = 0
        var byteIndex = 0
        let glyphCount = font.glyphCount
        for cluster in clusters {
            defer {
                glyphIndex += Int(cluster.num_glyphs)
                byteIndex += Int(cluster.num_bytes)
            }
            guard cluster.num_glyphs > 0, glyphIndex < glyphs.count, cluster.num_bytes > 0 else { continue }
            let first = Int(glyphs[glyphIndex].index)
            guard first < glyphCount, !font.hasText(first), byteIndex + Int(cluster.num_bytes) <= utf8.count else { continue }
            let bytes = utf8[byteIndex..<(byteIndex + Int(cluster.num_bytes))].map { UInt8(bitPattern: $0) }
            // The cluster's text goes with its first glyph; marks drawn as glyphs of their own add none.
            font.setText(Array(String(decoding: bytes, as: UTF8.self).utf16), for: first)
        }
    }

    /// Ends the page being drawn.
    func finishPage() {
        pages.add(under: shapes.finish(), over: stream.finish())
        stream = ContentStream()
        shapes = ShapeStream()
    }

    /// `pdf` (as Cairo wrote it, with a classic cross-reference table) with the pages' streams
    /// and their fonts added.
    func merge(into pdf: [UInt8]) throws(GraphicsError) -> [UInt8] {
        guard let additions = try additions(to: pdf) else { return pdf }
        return Array(pdf[..<additions.offset]) + additions.bytes
    }

    /// The same for the PDF Cairo wrote into `file`: the additions replace its cross-reference
    /// table and trailer, and the rest of the file is not read, so memory stays flat.
    func merge(into file: PDFFileBytes) throws(GraphicsError) {
        guard let additions = try additions(to: file) else { return }
        try file.write(additions.bytes, at: additions.offset)
    }

    /// The objects to write in place of the cross-reference table at `offset`, and a new table.
    private func additions(to pdf: some PDFBytes) throws(GraphicsError) -> (offset: Int, bytes: [UInt8])? {
        if !stream.isEmpty || !shapes.isEmpty { finishPage() }
        let pages = try self.pages.finish()
        guard hasContent else { return nil }
        let structure = try PDFFileStructure(pdf)
        guard let rootNumber = structure.trailer.reference("Root") else { throw .unsupportedPDF(reason: "no catalog") }
        guard let pagesRoot = try structure.dictionary(ofObject: rootNumber, in: pdf).reference("Pages") else {
            throw .unsupportedPDF(reason: "no page tree")
        }
        var pageObjects: [(number: Int, dictionary: PDFDictionary)] = []
        try collectPages(pagesRoot, structure: structure, pdf: pdf, into: &pageObjects)
        guard pageObjects.count == pages.count else { throw .unsupportedPDF(reason: "the text is for another number of pages") }

        var writer = ObjectWriter(appendingAt: structure.crossReferenceOffset, offsets: structure.offsets)
        var fontEntries = ""
        for (index, (font, program)) in zip(fonts, try Self.prepare(fonts)).enumerated() {
            fontEntries += " /\(ContentStream.fontName(index)) \(font.write(program, into: &writer, index: index)) 0 R"
        }
        // Cairo's content leaves its own state behind (a flipped y axis, its colours): the text
        // starts from the page's initial state, saved before Cairo's streams and restored after.
        let save = pages.contains { $0.over != nil }
            ? try writer.addStream(dictionary: [:], contents: Array("q\n".utf8), compressed: false) : 0
        var mergedResources = Set<Int>()
        for ((pageNumber, pageDictionary), streams) in zip(pageObjects, pages) {
            guard streams.under != nil || streams.over != nil else { continue }
            var page = pageDictionary
            var contents = page["Contents"] ?? ""
            if contents.hasPrefix("[") { contents = String(contents.dropFirst().dropLast()) }
            if let over = streams.over {
                contents = "\(save) 0 R \(contents) \(writer.addStream(dictionary: [:], deflated: over)) 0 R"
            }
            if let under = streams.under {
                contents = "\(writer.addStream(dictionary: [:], deflated: under)) 0 R \(contents)"
            }
            page["Contents"] = "[\(contents)]"
            guard streams.over != nil else {
                writer.replace(pageNumber, with: page.text)
                continue
            }
            if let resourcesNumber = page.reference("Resources") {
                if mergedResources.insert(resourcesNumber).inserted {
                    var resources = try structure.dictionary(ofObject: resourcesNumber, in: pdf)
                    resources["Font"] = try fontDictionary(resources["Font"], adding: fontEntries, structure: structure, pdf: pdf)
                    writer.replace(resourcesNumber, with: resources.text)
                }
            } else {
                var resources = try page["Resources"].map { value throws(GraphicsError) in try PDFDictionary(text: value) } ?? PDFDictionary()
                resources["Font"] = try fontDictionary(resources["Font"], adding: fontEntries, structure: structure, pdf: pdf)
                page["Resources"] = resources.text
            }
            writer.replace(pageNumber, with: page.text)
        }
        var trailer = PDFDictionary()
        trailer["Size"] = "\(writer.offsets.count)"
        trailer["Root"] = "\(rootNumber) 0 R"
        if let info = structure.trailer["Info"] { trailer["Info"] = info }
        return (structure.crossReferenceOffset, writer.finish(trailer: trailer))
    }

    /// Every font's program, the fonts side by side: subsetting and deflating them was a sixth
    /// of a short invoice's drawing thread, and the fonts do not depend on each other.
    private static func prepare(_ fonts: [EmbeddedFont]) throws(GraphicsError) -> [EmbeddedFont.Program] {
        // Unsafe, but sound: each iteration reads only its font, which nothing changes any more,
        // and writes only its own slot; all are written when `concurrentPerform` returns.
        nonisolated(unsafe) let fonts = fonts
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Result<EmbeddedFont.Program, GraphicsError>>
            .allocate(capacity: fonts.count)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: fonts.count) { index in
            (results.baseAddress! + index).initialize(to: Result { () throws(GraphicsError) in try fonts[index].prepare() })
        }
        defer { _ = results.baseAddress.map { $0.deinitialize(count: fonts.count) } }
        return try results.map { result throws(GraphicsError) in try result.get() }
    }

    private func collectPages(_ number: Int, structure: PDFFileStructure, pdf: some PDFBytes,
                              into pages: inout [(number: Int, dictionary: PDFDictionary)], depth: Int = 0) throws(GraphicsError) {
        let node = try structure.dictionary(ofObject: number, in: pdf)
        guard node["Type"] == "/Pages" else {
            pages.append((number, node))
            return
        }
        let parts = (node["Kids"] ?? "").trimmingCharacters(in: ["[", "]"]).split(whereSeparator: \.isWhitespace)
        guard depth < 32, parts.count % 3 == 0 else { throw .unsupportedPDF(reason: "a damaged page tree") }
        for index in stride(from: 0, to: parts.count, by: 3) {
            guard parts[index + 2] == "R", let kid = Int(parts[index]) else { throw .unsupportedPDF(reason: "a damaged page tree") }
            try collectPages(kid, structure: structure, pdf: pdf, into: &pages, depth: depth + 1)
        }
    }

    /// A page's font resources (inline or a reference) with the text's fonts added.
    private func fontDictionary(_ value: String?, adding entries: String, structure: PDFFileStructure,
                                pdf: some PDFBytes) throws(GraphicsError) -> String {
        guard var value else { return "<<" + entries + " >>" }
        if value.hasSuffix(" R"), let number = Int(value.split(separator: " ").first ?? "") {
            value = try structure.dictionary(ofObject: number, in: pdf).text
        }
        guard value.hasSuffix(">>") else { throw .unsupportedPDF(reason: "a damaged font resource") }
        return String(value.dropLast(2)) + entries + " >>"
    }
}

/// One page's streams, deflated; nil where the page has none.
private struct CompressedPage: Sendable {
    var under: [UInt8]?
    var over: [UInt8]?
}

/// Deflates each finished page's streams on a thread of its own while the drawing thread goes
/// on with the next page: deflate was 13 % of a 10 000-line invoice's export.
/// Unchecked: `pages`, `failure` and `deflater` are only used on `queue`.
private final class PageCompressor: @unchecked Sendable {
    private let queue = DispatchQueue(label: "billfold.pdf-deflate")
    /// At most this many pages wait to be deflated, so memory stays flat if drawing is faster.
    private let waiting = DispatchSemaphore(value: 4)
    private let deflater = Deflater()
    private var pages: [CompressedPage] = []
    /// A page that could not be compressed (zlib out of memory), reported by `finish`.
    private var failure: GraphicsError?

    func add(under: [UInt8], over: [UInt8]) {
        waiting.wait()
        queue.async { [self] in
            pages.append(CompressedPage(under: deflated(under), over: deflated(over)))
            waiting.signal()
        }
    }

    /// Every page added, once deflated.
    func finish() throws(GraphicsError) -> [CompressedPage] {
        var finished: [CompressedPage] = []
        var error: GraphicsError?
        queue.sync {
            finished = pages
            error = failure
        }
        if let error { throw error }
        return finished
    }

    private func deflated(_ bytes: [UInt8]) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        do {
            return try deflater.compress(bytes)
        } catch {
            failure = failure ?? error
            return nil
        }
    }
}
