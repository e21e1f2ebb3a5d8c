import CCairo

/// Shaping results shared by every word set in one font with one set of OpenType features.
///
/// Words are shaped by Pango's shaper (HarfBuzz) on the font Pango's layout would pick for
/// them, without a `PangoLayout`: a layout itemizes, breaks and measures each word, and the
/// first layout in a font asks for its metrics, which lays out a sample sentence in a new
/// context: one more fontconfig match and sort of every installed font.
final class ShapingFace {
    let key: TextEngine.ShapingKey
    /// The font Pango's layout sets text of the context's language in (and digits and
    /// punctuation); words shaped entirely in it take the fast path.
    let primaryFont: UnsafeMutablePointer<PangoFont>?
    let scaledFont: OpaquePointer?
    /// The same font for a `PDFContentWriter`, unless the PDF must get it from Cairo.
    let embeddable: EmbeddableFace?
    let lineHeight: Double
    let ascent: Double
    private(set) var space: ShapedWord?
    private let language: OpaquePointer?
    /// The OpenType features as Pango's shaper reads them from an item (`extra_attrs`).
    private let attributes: UnsafeMutablePointer<GSList>?
    private var words: [String: ShapedWord] = [:]
    private static let cacheLimit = 20_000

    /// Words are shaped at this size and scaled to the face's: unhinted outlines and unrounded
    /// positions scale linearly, and each size Pango is asked for costs a fontconfig match and
    /// sort of every installed font, a third of a short invoice's time.
    static let shapingSize = 12.0
    /// The face's size over `shapingSize`.
    private let scale: Double

    init(key: TextEngine.ShapingKey, context: OpaquePointer) {
        self.key = key
        var shapingFont = key.font
        shapingFont.size = Self.shapingSize
        let scale = key.font.size / Self.shapingSize
        self.scale = scale
        language = pango_context_get_language(context)
        attributes = key.tabularFigures ? g_slist_prepend(nil, pango_attr_font_features_new(TextEngine.tabularFigureFeatures)) : nil
        let description = TextEngine.makePangoDescription(shapingFont)
        // The first font of the fontset a layout itemizes with in this context.
        let font = pango_context_load_font(context, description).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: PangoFont.self) }
        pango_font_description_free(description)
        primaryFont = font
        scaledFont = font.map { Self.scaledFont(bf_pango_font_scaled_font($0), by: scale) }
        embeddable = Self.embeddable(font, scaledFont: scaledFont)
        // A line's height and baseline as Pango's layout has them: its run's logical extents,
        // the font's ascent and descent whatever the glyph.
        var logical = PangoRectangle()
        if let font, let glyphs = Self.shapeGlyphs(" ", font: font, language: language, attributes: attributes) {
            pango_glyph_string_extents(glyphs, font, nil, &logical)
            pango_glyph_string_free(glyphs)
        }
        let unit = Double(bf_pango_scale()) / scale
        lineHeight = Double(logical.height) / unit
        ascent = Double(-logical.y) / unit
        space = shape(" ")
    }

    /// `font` (Pango's, at the shaping size) at the face's size: the same face, options and
    /// transformation (a synthetic slant included), its matrix scaled.
    private static func scaledFont(_ font: OpaquePointer, by factor: Double) -> OpaquePointer {
        var matrix = cairo_matrix_t()
        var ctm = cairo_matrix_t()
        cairo_scaled_font_get_font_matrix(font, &matrix)
        cairo_scaled_font_get_ctm(font, &ctm)
        cairo_matrix_scale(&matrix, factor, factor)
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_scaled_font_get_font_options(font, options)
        return cairo_scaled_font_create(cairo_scaled_font_get_font_face(font), &matrix, &ctm, options)
    }

    /// Embeddable when its file is (`bf_embeddable_face`) and it is drawn at a plain size.
    private static func embeddable(_ font: UnsafeMutablePointer<PangoFont>?, scaledFont: OpaquePointer?) -> EmbeddableFace? {
        guard let font, let scaledFont, let face = bf_embeddable_face(font) else { return nil }
        var matrix = cairo_matrix_t()
        cairo_scaled_font_get_font_matrix(scaledFont, &matrix)
        guard matrix.xy == 0, matrix.yx == 0, matrix.xx == matrix.yy, matrix.xx > 0 else { return nil }
        return EmbeddableFace(face: face, size: matrix.xx)
    }

    deinit {
        if let scaledFont { cairo_scaled_font_destroy(scaledFont) }
        if let primaryFont { g_object_unref(primaryFont) }
        if let attributes {
            pango_attribute_destroy(attributes.pointee.data.assumingMemoryBound(to: PangoAttribute.self))
            g_slist_free(attributes)
        }
    }

    /// The shaped word, or nil when it needs Pango's full layout (another font, another
    /// language's script, a missing glyph). Results are cached; the cache is bounded.
    func word(_ utf8: UnsafeBufferPointer<UInt8>) -> ShapedWord? {
        let key = String(decoding: utf8, as: UTF8.self)
        if let cached = words[key] { return cached.isSimple ? cached : nil }
        if words.count >= Self.cacheLimit { words.removeAll(keepingCapacity: true) }
        let shaped = shape(key) ?? ShapedWord.complex
        words[key] = shaped
        return shaped.isSimple ? shaped : nil
    }

    /// Digits and the punctuation of amounts, dates and times.
    static func isFigure(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x2C, 0x2E, 0x3A, 0x2D, 0x2B, 0x2F, 0x25, 0x27: true
        default: false
        }
    }

    private var figures: [ShapedWord?] = Array(repeating: nil, count: 128)

    /// One figure character shaped alone. Amounts and dates are nearly all different, so
    /// caching them whole would defeat the cache; their characters do not interact (figures
    /// are often tabular), so they are set from these, with nothing allocated per amount.
    func figure(_ byte: UInt8) -> ShapedWord? {
        if let cached = figures[Int(byte)] { return cached.isSimple ? cached : nil }
        let single = shape(String(UnicodeScalar(byte))).flatMap { $0.clusters.count == 1 ? $0 : nil } ?? ShapedWord.complex
        figures[Int(byte)] = single
        return single.isSimple ? single : nil
    }

    /// The word shaped as the one item Pango's layout would make of it, or nil when a layout
    /// would split it or set it in another font: letters of two scripts, or of a script the
    /// context's language is not written in (Pango then looks fonts up for another language).
    private static func shapeGlyphs(_ text: String, font: UnsafeMutablePointer<PangoFont>, language: OpaquePointer?,
                                    attributes: UnsafeMutablePointer<GSList>?) -> UnsafeMutablePointer<PangoGlyphString>? {
        var script = G_UNICODE_SCRIPT_COMMON
        for scalar in text.unicodeScalars {
            let own = g_unichar_get_script(scalar.value)
            if own == G_UNICODE_SCRIPT_COMMON || own == G_UNICODE_SCRIPT_INHERITED { continue }
            if script == G_UNICODE_SCRIPT_COMMON {
                guard pango_language_includes_script(language, PangoScript(rawValue: own.rawValue)) != 0 else { return nil }
                script = own
            } else if own != script {
                return nil
            }
        }
        var analysis = PangoAnalysis()
        analysis.font = font
        analysis.level = 0
        analysis.script = UInt8(script.rawValue)
        analysis.language = language
        analysis.extra_attrs = attributes
        let glyphs = pango_glyph_string_new()
        var text = text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                pango_shape_with_flags($0.baseAddress, Int32($0.count), $0.baseAddress, Int32($0.count), &analysis, glyphs, PANGO_SHAPE_NONE)
            }
        }
        return glyphs
    }

    private func shape(_ text: String) -> ShapedWord? {
        guard let primaryFont,
              let shaped = Self.shapeGlyphs(text, font: primaryFont, language: language, attributes: attributes) else { return nil }
        defer { pango_glyph_string_free(shaped) }
        let utf8 = Array(text.utf8)
        let glyphString = shaped.pointee
        let count = Int(glyphString.num_glyphs)
        let unit = Double(bf_pango_scale()) / scale
        let empty = bf_pango_glyph_empty()
        let unknown = bf_pango_glyph_unknown_flag()

        var glyphs: [UInt32] = []
        var xs: [Double] = []
        var ys: [Double] = []
        var clusters: [ShapedWord.Cluster] = []
        glyphs.reserveCapacity(count)
        xs.reserveCapacity(count)
        ys.reserveCapacity(count)
        var pen = 0.0
        var index = 0
        while index < count {
            let start = Int(glyphString.log_clusters[index])
            var end = index
            while end < count, Int(glyphString.log_clusters[end]) == start { end += 1 }
            let nextStart = end < count ? Int(glyphString.log_clusters[end]) : utf8.count
            guard nextStart > start else { return nil }
            var emitted: Int32 = 0
            for g in index..<end {
                let info = glyphString.glyphs[g]
                if info.glyph & unknown != 0 { return nil }
                if info.glyph != empty {
                    glyphs.append(info.glyph)
                    xs.append(pen + Double(info.geometry.x_offset) / unit)
                    ys.append(Double(info.geometry.y_offset) / unit)
                    emitted += 1
                }
                pen += Double(info.geometry.width) / unit
            }
            clusters.append(ShapedWord.Cluster(bytes: Int32(nextStart - start), glyphs: emitted, endX: pen))
            index = end
        }
        let word = ShapedWord(utf8: utf8, glyphs: glyphs, xs: xs, ys: ys, clusters: clusters, width: pen)
        return space.map { word.drawingNoBreakSpaces(as: $0) } ?? word
    }
}

/// One word shaped by HarfBuzz (through Pango), ready to be positioned on a line.
final class ShapedWord: Sendable {
    struct Cluster {
        var bytes: Int32
        var glyphs: Int32
        /// Pen position after the cluster, from the word's start.
        var endX: Double
    }

    let utf8: [UInt8]
    let glyphs: [UInt32]
    let xs: [Double]
    let ys: [Double]
    let clusters: [Cluster]
    let width: Double
    let isSimple: Bool

    init(utf8: [UInt8], glyphs: [UInt32], xs: [Double], ys: [Double], clusters: [Cluster], width: Double) {
        self.utf8 = utf8
        self.glyphs = glyphs
        self.xs = xs
        self.ys = ys
        self.clusters = clusters
        self.width = width
        isSimple = true
    }

    private init() {
        utf8 = []
        glyphs = []
        xs = []
        ys = []
        clusters = []
        width = 0
        isSimple = false
    }

    static let complex = ShapedWord()

    /// The word with its no-break spaces (U+00A0, U+202F: amounts in German, French and most
    /// of Europe) drawn with `space`'s glyph and written as a plain space, where they were.
    /// Cairo puts those two characters in a PDF font of their own, switched to and back around
    /// every amount: a tenth more work for a German invoice. The layout keeps their widths and
    /// their no-break; a reader copying the amount gets a plain space.
    func drawingNoBreakSpaces(as space: ShapedWord) -> ShapedWord {
        guard space.glyphs.count == 1, utf8.contains(0xA0) || utf8.contains(0xAF) else { return self }
        var newUTF8: [UInt8] = []
        newUTF8.reserveCapacity(utf8.count)
        var newGlyphs = glyphs
        var newClusters = clusters
        var byte = 0
        var glyph = 0
        for (index, cluster) in clusters.enumerated() {
            let bytes = utf8[byte..<(byte + Int(cluster.bytes))]
            if cluster.glyphs == 1, bytes.elementsEqual([0xC2, 0xA0]) || bytes.elementsEqual([0xE2, 0x80, 0xAF]) {
                newGlyphs[glyph] = space.glyphs[0]
                newUTF8.append(0x20)
                newClusters[index].bytes = 1
            } else {
                newUTF8.append(contentsOf: bytes)
            }
            byte += Int(cluster.bytes)
            glyph += Int(cluster.glyphs)
        }
        return ShapedWord(utf8: newUTF8, glyphs: newGlyphs, xs: xs, ys: ys, clusters: newClusters, width: width)
    }

    /// Splits a word wider than `width` at cluster boundaries, each piece as wide as fits
    /// (at least one cluster, so a very narrow column still makes progress).
    func pieces(fitting width: Double) -> [ShapedWord] {
        var result: [ShapedWord] = []
        var clusterStart = 0
        var glyphStart = 0
        var byteStart = 0
        var startX = 0.0
        while clusterStart < clusters.count {
            var clusterEnd = clusterStart + 1
            while clusterEnd < clusters.count, clusters[clusterEnd].endX - startX <= width { clusterEnd += 1 }
            let pieceClusters = clusters[clusterStart..<clusterEnd]
            let glyphCount = pieceClusters.reduce(0) { $0 + Int($1.glyphs) }
            let byteCount = pieceClusters.reduce(0) { $0 + Int($1.bytes) }
            let glyphRange = glyphStart..<(glyphStart + glyphCount)
            result.append(ShapedWord(
                utf8: Array(utf8[byteStart..<(byteStart + byteCount)]),
                glyphs: Array(glyphs[glyphRange]),
                xs: xs[glyphRange].map { $0 - startX },
                ys: Array(ys[glyphRange]),
                clusters: pieceClusters.map { Cluster(bytes: $0.bytes, glyphs: $0.glyphs, endX: $0.endX - startX) },
                width: clusters[clusterEnd - 1].endX - startX))
            startX = clusters[clusterEnd - 1].endX
            glyphStart += glyphCount
            byteStart += byteCount
            clusterStart = clusterEnd
        }
        return result
    }
}
