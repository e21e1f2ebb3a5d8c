import CCairo

/// Text laid out in lines, ready to draw whole or a few lines at a time (a paragraph or a
/// table cell split across pages). Holds shaping results; not thread-safe. A class, so the
/// layout passes it around with one reference count instead of one per array it holds.
public final class TextBlock {
    enum Content {
        case shaped([ShapedLine], ShapingFace)
        case pango(PangoLayoutBox)
    }

    public let lines: [TextLine]
    /// The width the lines were aligned in: the wrapping width, or the widest line.
    public let width: Double
    let content: Content

    init(lines: [TextLine], width: Double, content: Content) {
        self.lines = lines
        self.width = width
        self.content = content
    }

    public var height: Double { lines.last?.bottom ?? 0 }

    /// Height of `lines[range]` set together.
    public func height(of range: Range<Int>) -> Double {
        guard let first = range.first, let last = range.last else { return 0 }
        return lines[last].bottom - lines[first].top
    }

    /// Draws `lines[range]` (all lines by default) with the first of them at `origin`
    /// (its top-left corner of the block's box).
    public func draw(in context: DrawingContext, at origin: Point, color: Color, lines range: Range<Int>? = nil) {
        let range = range ?? lines.indices
        guard let first = range.first else { return }
        let dy = origin.y - lines[first].top
        switch content {
        case .shaped(let shapedLines, let face):
            drawShaped(shapedLines, face: face, range: range, origin: Point(x: origin.x, y: dy), color: color, context: context)
        case .pango(let box):
            context.setColor(color)
            drawPango(box.layout, range: range, origin: Point(x: origin.x, y: dy), context: context)
        }
    }

    private func drawShaped(_ shapedLines: [ShapedLine], face: ShapingFace, range: Range<Int>, origin: Point, color: Color,
                            context: DrawingContext) {
        guard let scaledFont = face.scaledFont, let space = face.space else { return }
        context.beginTextRun(font: scaledFont, embeddable: face.embeddable, color: color)
        context.appendText { buffer in
            for index in range {
                let line = lines[index]
                let baseline = origin.y + line.baseline
                let lineX = origin.x + line.x
                var previousEnd = 0.0
                for item in shapedLines[index].items {
                    // The spaces are drawn too: they carry the word gaps into copied text.
                    if item.spacesBefore > 0 {
                        let gap = (item.x - previousEnd) / Double(item.spacesBefore)
                        for s in 0..<item.spacesBefore {
                            let sx = lineX + previousEnd + Double(s) * gap
                            for g in space.glyphs.indices {
                                buffer.glyphs.append(cairo_glyph_t(index: UInt(space.glyphs[g]), x: sx + space.xs[g], y: baseline + space.ys[g]))
                            }
                            buffer.clusters.append(cairo_text_cluster_t(num_bytes: 1, num_glyphs: Int32(space.glyphs.count)))
                            buffer.utf8.append(0x20)
                        }
                    }
                    let word = item.word
                    let wx = lineX + item.x
                    for g in word.glyphs.indices {
                        buffer.glyphs.append(cairo_glyph_t(index: UInt(word.glyphs[g]), x: wx + word.xs[g], y: baseline + word.ys[g]))
                    }
                    for cluster in word.clusters {
                        buffer.clusters.append(cairo_text_cluster_t(num_bytes: cluster.bytes, num_glyphs: cluster.glyphs))
                    }
                    word.utf8.withUnsafeBufferPointer { bytes in
                        bytes.withMemoryRebound(to: CChar.self) { buffer.utf8.append(contentsOf: $0) }
                    }
                    previousEnd = item.x + word.width
                }
            }
        }
        context.finishTextRun()
    }

    /// Draws Pango's lines run by run. Right-to-left runs go out in logical order (Pango's
    /// own renderer writes them in visual order), which lets PDF readers extract and search
    /// Hebrew and Arabic words instead of reversed letters.
    private func drawPango(_ layout: OpaquePointer, range: Range<Int>, origin: Point, context: DrawingContext) {
        let cr = context.cr
        guard let text = pango_layout_get_text(layout) else { return }
        let unit = Double(bf_pango_scale())
        let empty = bf_pango_glyph_empty()
        let unknown = bf_pango_glyph_unknown_flag()
        for index in range {
            guard let line = pango_layout_get_line_readonly(layout, Int32(index)) else { continue }
            let metrics = lines[index]
            let baseline = origin.y + metrics.baseline
            var x = origin.x + metrics.x
            var node = line.pointee.runs
            while let current = node {
                node = current.pointee.next
                guard let run = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) else { continue }
                let item = run.pointee.item.pointee
                let glyphString = run.pointee.glyphs.pointee
                let count = Int(glyphString.num_glyphs)
                let runStart = x
                var runWidth = 0.0
                for g in 0..<count { runWidth += Double(glyphString.glyphs[g].geometry.width) / unit }
                x += runWidth
                guard count > 0, let font = item.analysis.font else { continue }
                let rise = Double(run.pointee.y_offset) / unit
                var hasUnknown = false
                var positioned: [cairo_glyph_t] = []
                positioned.reserveCapacity(count)
                var glyphIndexOf: [Int] = []
                glyphIndexOf.reserveCapacity(count)
                var pen = runStart
                for g in 0..<count {
                    let info = glyphString.glyphs[g]
                    if info.glyph & unknown != 0 { hasUnknown = true }
                    positioned.append(cairo_glyph_t(index: UInt(info.glyph),
                                                    x: pen + Double(info.geometry.x_offset) / unit,
                                                    y: baseline - rise + Double(info.geometry.y_offset) / unit))
                    pen += Double(info.geometry.width) / unit
                }
                if hasUnknown {
                    // Pango draws a box with the code point for a character no font has.
                    cairo_move_to(cr, runStart, baseline - rise)
                    pango_cairo_show_glyph_item(cr, text, run)
                    continue
                }
                // Logical order: clusters by increasing byte offset.
                let rightToLeft = item.analysis.level % 2 == 1
                let order: [Int] = rightToLeft ? Array((0..<count).reversed()) : Array(0..<count)
                var glyphs: [cairo_glyph_t] = []
                var clusters: [cairo_text_cluster_t] = []
                glyphs.reserveCapacity(count)
                var k = 0
                var valid = true
                while k < order.count {
                    let start = Int(glyphString.log_clusters[order[k]])
                    var end = k
                    var emitted: Int32 = 0
                    while end < order.count, Int(glyphString.log_clusters[order[end]]) == start {
                        let g = order[end]
                        if glyphString.glyphs[g].glyph != empty {
                            glyphs.append(positioned[g])
                            emitted += 1
                        }
                        end += 1
                    }
                    let next = end < order.count ? Int(glyphString.log_clusters[order[end]]) : Int(item.length)
                    if next <= start { valid = false }
                    clusters.append(cairo_text_cluster_t(num_bytes: Int32(next - start), num_glyphs: emitted))
                    k = end
                }
                if let first = order.first, Int(glyphString.log_clusters[first]) != 0 { valid = false }
                let scaledFont = bf_pango_font_scaled_font(font)
                cairo_set_scaled_font(cr, scaledFont)
                if valid {
                    glyphs.withUnsafeBufferPointer { g in
                        clusters.withUnsafeBufferPointer { c in
                            cairo_show_text_glyphs(cr, text + Int(item.offset), item.length, g.baseAddress, Int32(g.count),
                                                   c.baseAddress, Int32(c.count), cairo_text_cluster_flags_t(rawValue: 0))
                        }
                    }
                    if let scaledFont, bf_scaled_font_has_color_glyphs(scaledFont) != 0 {
                        Self.showTextUnder(colorGlyphs: glyphs, clusters: clusters, text: text + Int(item.offset),
                                           length: item.length, font: scaledFont, cr: cr)
                    }
                } else {
                    glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
                }
            }
        }
        cairo_new_path(cr)
    }

    /// Cairo 1.16 writes colour emoji into a PDF as pictures, so they could not be copied or
    /// searched. Under them goes the same text set in blank glyphs (a text font's space, one
    /// per cluster): it draws nothing, and the PDF maps it to the emoji's characters.
    private static func showTextUnder(colorGlyphs: [cairo_glyph_t], clusters: [cairo_text_cluster_t],
                                      text: UnsafePointer<CChar>, length: Int32, font: OpaquePointer, cr: OpaquePointer) {
        var matrix = cairo_matrix_t()
        cairo_scaled_font_get_font_matrix(font, &matrix)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_matrix(cr, &matrix)
        guard let space = blankGlyph(cairo_get_scaled_font(cr)) else { return }
        var blanks: [cairo_glyph_t] = []
        var blankClusters: [cairo_text_cluster_t] = []
        var next = 0
        for cluster in clusters {
            let glyphCount = Int(cluster.num_glyphs)
            if glyphCount > 0 {
                let first = colorGlyphs[next]
                blanks.append(cairo_glyph_t(index: space, x: first.x, y: first.y))
            }
            blankClusters.append(cairo_text_cluster_t(num_bytes: cluster.num_bytes, num_glyphs: glyphCount > 0 ? 1 : 0))
            next += glyphCount
        }
        blanks.withUnsafeBufferPointer { g in
            blankClusters.withUnsafeBufferPointer { c in
                cairo_show_text_glyphs(cr, text, length, g.baseAddress, Int32(g.count), c.baseAddress, Int32(c.count),
                                       cairo_text_cluster_flags_t(rawValue: 0))
            }
        }
    }

    /// The glyph a font draws a space with.
    private static func blankGlyph(_ font: OpaquePointer?) -> UInt? {
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        guard cairo_scaled_font_text_to_glyphs(font, 0, 0, " ", 1, &glyphs, &count, nil, nil, nil) == CAIRO_STATUS_SUCCESS,
              let glyphs, count == 1 else { return nil }
        defer { cairo_glyph_free(glyphs) }
        return glyphs[0].index
    }
}
