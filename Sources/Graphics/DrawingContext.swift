import CCairo

/// Where drawing goes: a Cairo context on a PDF page, an image, a print page or a widget.
/// One reference per wrapper; confined to one thread at a time, like Cairo itself.
public final class DrawingContext {
    private let raw: OpaquePointer
    // Keeps the Swift surface (and its output sink) alive as long as Cairo draws into it.
    private let surface: Surface?

    // Glyphs of consecutive text draws in one font and colour, sent to Cairo in one call;
    // likewise lines of one width and colour, stroked as one path.
    private var batchDepth = 0
    private var pendingFont: OpaquePointer?
    /// The pending font as `contentWriter` can embed it: HarfBuzz's face and the size in points.
    private var pendingEmbeddable: EmbeddableFace?
    /// Writes the text, rules and rectangles of a PDF made in memory in place of Cairo.
    private let contentWriter: PDFContentWriter?
    /// Whether Cairo may have drawn on the current page (any use of `cr` counts): from then on
    /// rules and rectangles go to Cairo too, or the writer would put them under what Cairo drew.
    private var cairoMayHaveDrawn = false
    private var pendingColor = Color.black
    private var pending = TextBuffer()
    private var pendingLines: [(start: Point, end: Point)] = []
    private var pendingLineWidth = 0.0
    private var pendingLineColor = Color.black

    /// Glyphs with the text they show, ready for `cairo_show_text_glyphs`.
    struct TextBuffer {
        var glyphs: [cairo_glyph_t] = []
        var clusters: [cairo_text_cluster_t] = []
        var utf8: [CChar] = []
    }

    /// The Cairo context, with any batched text and lines drawn first so drawing order is kept.
    var cr: OpaquePointer {
        let context = state
        cairoMayHaveDrawn = true
        return context
    }

    /// The Cairo context for a change of state (a transformation, a colour, a path) that draws
    /// nothing: batched drawing is flushed first, as the change may affect it.
    private var state: OpaquePointer {
        if !pending.glyphs.isEmpty { flushText() }
        if !pendingLines.isEmpty { flushLines() }
        return raw
    }

    /// Appends to the text buffer in one exclusive access (not one per glyph).
    func appendText(_ body: (inout TextBuffer) -> Void) {
        body(&pending)
    }

    public init(surface: Surface) {
        raw = cairo_create(surface.raw)
        self.surface = surface
        contentWriter = (surface as? PDFSurface)?.contentWriter
    }

    /// Wraps a Cairo context owned by someone else — the `cairo_t *` a `GtkDrawingArea` draw
    /// function or a `GtkPrintContext` hands out — so the same drawing code runs on screen,
    /// in print and in the PDF. Takes its own reference; the caller keeps its own.
    /// This is the only entry that accepts a raw pointer, meant for BillfoldUI.
    public init(borrowing cairoContext: OpaquePointer) {
        raw = cairo_reference(cairoContext)
        surface = nil
        contentWriter = nil
    }

    deinit {
        flushText()
        flushLines()
        cairo_destroy(raw)
    }

    /// Runs `body` with drawing batched: glyphs from consecutive `TextBlock` draws that share a
    /// font and colour reach Cairo in one call, and consecutive `strokeLine`s of one width and
    /// colour in one stroke (far fewer PDF operators, and each costs Cairo the same however
    /// much it draws). Drawn at the latest when something else is drawn or `body` returns.
    public func batching<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 {
                flushText()
                flushLines()
            }
        }
        return try body()
    }

    /// Prepares the text buffer for glyphs in `font` and `color`; call `finishTextRun()` after
    /// appending them. `embeddable` is the same font for a `PDFContentWriter`, where it can take it.
    func beginTextRun(font: OpaquePointer, embeddable: EmbeddableFace?, color: Color) {
        flushLines()
        if !pending.glyphs.isEmpty, pendingFont != font || pendingColor != color { flushText() }
        if pendingFont != font {
            if let pendingFont { cairo_scaled_font_destroy(pendingFont) }
            pendingFont = cairo_scaled_font_reference(font)
            pendingEmbeddable = embeddable
        }
        pendingColor = color
    }

    func finishTextRun() {
        if batchDepth == 0 { flushText() }
    }

    private func flushText() {
        guard !pending.glyphs.isEmpty, let font = pendingFont else { return }
        defer {
            pending.glyphs.removeAll(keepingCapacity: true)
            pending.clusters.removeAll(keepingCapacity: true)
            pending.utf8.removeAll(keepingCapacity: true)
        }
        if let contentWriter, let embeddable = pendingEmbeddable, pendingColor.alpha >= 1, let offset = writerOffset(contentWriter) {
            contentWriter.show(glyphs: pending.glyphs, clusters: pending.clusters, utf8: pending.utf8, face: embeddable.face,
                           size: embeddable.size, color: pendingColor, offset: offset)
            return
        }
        cairoMayHaveDrawn = true
        // The text's colour and font must not leak into what the caller draws next.
        cairo_save(raw)
        cairo_set_source_rgba(raw, pendingColor.red, pendingColor.green, pendingColor.blue, pendingColor.alpha)
        cairo_set_scaled_font(raw, font)
        let cr = raw
        pending.glyphs.withUnsafeBufferPointer { g in
            pending.clusters.withUnsafeBufferPointer { c in
                pending.utf8.withUnsafeBufferPointer { u in
                    cairo_show_text_glyphs(cr, u.baseAddress, Int32(u.count), g.baseAddress, Int32(g.count),
                                           c.baseAddress, Int32(c.count), cairo_text_cluster_flags_t(rawValue: 0))
                }
            }
        }
        cairo_restore(raw)
    }

    private func writerOffset(_ writer: PDFContentWriter) -> Point? {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(raw, &matrix)
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(raw, &x1, &y1, &x2, &y2)
        return writer.offset(matrix: matrix, clipExtents: Rect(x: x1, y: y1, width: x2 - x1, height: y2 - y1))
    }

    /// Where the content writer may draw a shape of `color` under Cairo's content; nil when Cairo must.
    private func shapeOffset(color: Color) -> Point? {
        guard let contentWriter, !cairoMayHaveDrawn, !contentWriter.pageHasText, color.alpha >= 1 else { return nil }
        return writerOffset(contentWriter)
    }

    private func flushLines() {
        guard !pendingLines.isEmpty else { return }
        if let offset = shapeOffset(color: pendingLineColor), cairo_get_dash_count(raw) == 0,
           cairo_get_line_cap(raw) == CAIRO_LINE_CAP_BUTT, let contentWriter {
            contentWriter.stroke(pendingLines, width: pendingLineWidth, color: pendingLineColor, offset: offset)
            pendingLines.removeAll(keepingCapacity: true)
            return
        }
        cairoMayHaveDrawn = true
        // A path the caller is building stays theirs: set aside while the lines are stroked.
        let callersPath = cairo_has_current_point(raw) != 0 ? cairo_copy_path(raw) : nil
        cairo_new_path(raw)
        cairo_save(raw)
        cairo_set_source_rgba(raw, pendingLineColor.red, pendingLineColor.green, pendingLineColor.blue, pendingLineColor.alpha)
        cairo_set_line_width(raw, pendingLineWidth)
        for line in pendingLines {
            cairo_move_to(raw, line.start.x, line.start.y)
            cairo_line_to(raw, line.end.x, line.end.y)
        }
        cairo_stroke(raw)
        cairo_restore(raw)
        if let callersPath {
            cairo_append_path(raw, callersPath)
            cairo_path_destroy(callersPath)
        }
        pendingLines.removeAll(keepingCapacity: true)
    }

    public func checkStatus() throws(GraphicsError) {
        try GraphicsError.check(cairo_status(state))
    }

    // MARK: State

    public func save() { cairo_save(state) }
    public func restore() { cairo_restore(state) }

    /// Runs `body` with the graphics state saved before and restored after.
    public func withSavedState<Result>(_ body: () throws -> Result) rethrows -> Result {
        cairo_save(state)
        defer { cairo_restore(state) }
        return try body()
    }

    public func translate(x: Double, y: Double) { cairo_translate(state, x, y) }
    public func scale(x: Double, y: Double) { cairo_scale(state, x, y) }
    public func rotate(radians: Double) { cairo_rotate(state, radians) }

    public func setColor(_ color: Color) {
        cairo_set_source_rgba(state, color.red, color.green, color.blue, color.alpha)
    }

    public func setLineWidth(_ width: Double) { cairo_set_line_width(state, width) }

    /// Dash lengths alternating on/off; an empty array draws solid lines.
    public func setDash(_ lengths: [Double], phase: Double = 0) {
        lengths.withUnsafeBufferPointer { cairo_set_dash(state, $0.baseAddress, Int32($0.count), phase) }
    }

    public enum LineCap: Sendable { case butt, round, square }
    public func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(state, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(state, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(state, CAIRO_LINE_CAP_SQUARE)
        }
    }

    public enum LineJoin: Sendable { case miter, round, bevel }
    public func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(state, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(state, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(state, CAIRO_LINE_JOIN_BEVEL)
        }
    }

    // MARK: Paths

    public func newPath() { cairo_new_path(state) }
    public func move(to point: Point) { cairo_move_to(state, point.x, point.y) }
    public func line(to point: Point) { cairo_line_to(state, point.x, point.y) }
    public func curve(to point: Point, control1: Point, control2: Point) {
        cairo_curve_to(state, control1.x, control1.y, control2.x, control2.y, point.x, point.y)
    }
    public func closePath() { cairo_close_path(state) }
    public func addRect(_ rect: Rect) { cairo_rectangle(state, rect.x, rect.y, rect.width, rect.height) }

    public func addArc(center: Point, radius: Double, from start: Double, to end: Double) {
        cairo_arc(state, center.x, center.y, radius, start, end)
    }

    /// A rectangle with each corner rounded by `radius` (clamped to half the shorter side).
    public func addRoundedRect(_ rect: Rect, radius: Double) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        guard r > 0 else { return addRect(rect) }
        cairo_new_sub_path(state)
        cairo_arc(state, rect.maxX - r, rect.minY + r, r, -.pi / 2, 0)
        cairo_arc(state, rect.maxX - r, rect.maxY - r, r, 0, .pi / 2)
        cairo_arc(state, rect.minX + r, rect.maxY - r, r, .pi / 2, .pi)
        cairo_arc(state, rect.minX + r, rect.minY + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(state)
    }

    /// A rectangle whose top corners are rounded (bar tops in charts).
    public func addTopRoundedRect(_ rect: Rect, radius: Double) {
        let r = max(0, min(radius, rect.width / 2, rect.height))
        guard r > 0 else { return addRect(rect) }
        cairo_new_sub_path(state)
        cairo_move_to(state, rect.minX, rect.maxY)
        cairo_line_to(state, rect.minX, rect.minY + r)
        cairo_arc(state, rect.minX + r, rect.minY + r, r, .pi, 3 * .pi / 2)
        cairo_arc(state, rect.maxX - r, rect.minY + r, r, 3 * .pi / 2, 2 * .pi)
        cairo_line_to(state, rect.maxX, rect.maxY)
        cairo_close_path(state)
    }

    public func fill(preservingPath: Bool = false) {
        preservingPath ? cairo_fill_preserve(cr) : cairo_fill(cr)
    }

    public func stroke(preservingPath: Bool = false) {
        preservingPath ? cairo_stroke_preserve(cr) : cairo_stroke(cr)
    }

    /// Restricts drawing to the current path (intersected with any clip already set).
    public func clip() { cairo_clip(state) }

    /// Fills the whole clip region with the current colour.
    public func paint() { cairo_paint(cr) }

    // MARK: Conveniences

    public func fill(_ rect: Rect, color: Color) {
        if !pendingLines.isEmpty { flushLines() }
        if pending.glyphs.isEmpty, let offset = shapeOffset(color: color), let contentWriter {
            contentWriter.fill(rect, color: color, offset: offset)
            // The colour stays set, as after Cairo's fill.
            cairo_set_source_rgba(raw, color.red, color.green, color.blue, color.alpha)
            return
        }
        setColor(color)
        addRect(rect)
        cairo_fill(cr)
    }

    /// A straight line of `width`. Inside `batching`, it joins the lines before it that share
    /// its width and colour, and leaves the context's colour and line width alone.
    public func strokeLine(from start: Point, to end: Point, width: Double, color: Color) {
        if batchDepth > 0 {
            flushText()
            if !pendingLines.isEmpty, pendingLineWidth != width || pendingLineColor != color { flushLines() }
            pendingLineWidth = width
            pendingLineColor = color
            pendingLines.append((start, end))
            return
        }
        setColor(color)
        cairo_set_line_width(cr, width)
        cairo_move_to(cr, start.x, start.y)
        cairo_line_to(cr, end.x, end.y)
        cairo_stroke(cr)
    }

    // MARK: Pages

    /// Ends the page (PDF and print surfaces) and starts a fresh one.
    public func showPage() {
        let cr = cr
        contentWriter?.finishPage()
        cairo_show_page(cr)
        cairoMayHaveDrawn = false
    }
}
