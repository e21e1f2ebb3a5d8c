import CCairo

/// Lays text out with Pango at 72 dpi (one unit is one point), unhinted and with unrounded
/// glyph positions, so a layout measures the same in a PDF, on paper and on screen.
///
/// Words in plain left-to-right scripts are shaped once and cached, then set on lines by a
/// simple greedy breaker; anything else (right-to-left, CJK, emoji, a glyph from a fallback
/// font, tabs) goes through a full `PangoLayout` with bidi and UAX #14 line breaking.
/// Not thread-safe: create one engine per thread or task that lays out text.
public final class TextEngine {
    struct ShapingKey: Hashable {
        let font: FontDescription
        let tabularFigures: Bool
    }

    /// How emoji are drawn.
    public enum EmojiPresentation: Sendable {
        /// In a monochrome font where one has the glyph: it prints crisply and stays
        /// searchable text in a PDF (Cairo 1.16 writes colour emoji as pictures).
        case text
        /// In the colour emoji font, as on screen.
        case color
    }

    let context: OpaquePointer
    let emojiPresentation: EmojiPresentation
    private var faces: [ShapingKey: ShapingFace] = [:]

    public init(emojiPresentation: EmojiPresentation = .text) {
        self.emojiPresentation = emojiPresentation
        FontConfiguration.waitUntilLoaded()
        // Since Pango 1.32.6 the default font map belongs to the calling thread.
        let fontMap = pango_cairo_font_map_get_default()
        context = pango_font_map_create_context(fontMap)
        pango_cairo_context_set_resolution(context, 72)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
    }

    /// Starts reading the font configuration, on a thread of its own, and returns at once.
    /// The first engine waits for it (some 15 million instructions with Debian's fonts), so a
    /// command about to make a PDF calls this before opening the library and loading the document.
    /// Not for a process where GTK may already use fonts: see `FontConfiguration`.
    public static func startLoadingFonts() {
        FontConfiguration.startLoading()
    }

    deinit {
        recentFaces.removeAll()
        faces.removeAll()
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Lays `text` out in lines no wider than `width` (nil: one line per paragraph).
    /// Newlines start paragraphs; long words break between characters rather than overflow.
    /// `measuringOnly` keeps the lines' metrics but not their glyphs: enough to paginate,
    /// not to draw, and much cheaper.
    public func layout(_ text: String, format: TextFormat, width: Double? = nil, measuringOnly: Bool = false) -> TextBlock {
        let maxWidth = width.map { max(1, $0) }
        if let shaped = layoutShaped(text, format: format, width: maxWidth, measuringOnly: measuringOnly) { return shaped }
        return layoutWithPango(text, format: format, width: maxWidth)
    }

    /// Width of the widest paragraph set on a single line.
    public func naturalWidth(of text: String, format: TextFormat) -> Double {
        if let width = naturalShapedWidth(text, face: face(for: format)) { return width }
        return layoutWithPango(text, format: format, width: nil).lines.reduce(0) { max($0, $1.width) }
    }

    /// Height of one line of text in `format`.
    public func lineHeight(for format: TextFormat) -> Double {
        face(for: format).lineHeight * max(0.1, format.lineSpacing)
    }

    // MARK: Shaped (fast) path

    /// The last faces used; a table alternates between two or three, and comparing with
    /// them is cheaper than hashing the family name for every cell.
    private var recentFaces: [ShapingFace] = []

    func face(for format: TextFormat) -> ShapingFace {
        for face in recentFaces where face.key.tabularFigures == format.tabularFigures && face.key.font == format.font {
            return face
        }
        let key = ShapingKey(font: format.font, tabularFigures: format.tabularFigures)
        let face: ShapingFace
        if let known = faces[key] {
            face = known
        } else {
            face = ShapingFace(key: key, context: context)
            faces[key] = face
        }
        if recentFaces.count >= 4 { recentFaces.removeFirst() }
        recentFaces.append(face)
        return face
    }

    /// Scripts whose words shape independently of their neighbours and run left to right.
    static func isSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                guard b == 0x0A || (b >= 0x20 && b < 0x7F) else { return false }
                i += 1
                continue
            }
            // Decode one multi-byte scalar (the bytes come from a valid Swift string).
            var scalar: UInt32
            var length: Int
            if b >= 0xF0 {
                scalar = UInt32(b & 0x07)
                length = 4
            } else if b >= 0xE0 {
                scalar = UInt32(b & 0x0F)
                length = 3
            } else {
                scalar = UInt32(b & 0x1F)
                length = 2
            }
            guard i + length <= n else { return false }
            for k in 1..<length { scalar = scalar << 6 | UInt32(bytes[i + k] & 0x3F) }
            // U+202F, the narrow no-break space, groups the digits of amounts in French, Czech,
            // Russian and a dozen more locales; the bidi controls before it are not simple.
            switch scalar {
            case 0xA0...0xAC, 0xAE...0x52F, 0x1E00...0x1FFF, 0x2010...0x2027, 0x202F...0x205E, 0x2070...0x22FF:
                i += length
            default:
                return false
            }
        }
        return true
    }

    static func isSimple(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isSimple($0) }
    }

    /// Calls `word` for each word of `bytes` with the number of spaces before it (an empty
    /// range for spaces that end a paragraph), and `newParagraph` at each newline. Words end
    /// at spaces, and after a hyphen that follows a letter. Stops when `word` returns false.
    @inline(__always)
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, word: (Range<Int>, Int) -> Bool, newParagraph: () -> Void) -> Bool {
        var spaces = 0
        var start = -1
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x20 {
                if start >= 0 {
                    if !word(start..<i, spaces) { return false }
                    spaces = 0
                    start = -1
                }
                spaces += 1
            } else if b == 0x0A {
                if start >= 0 {
                    if !word(start..<i, spaces) { return false }
                } else if spaces > 0 {
                    if !word(i..<i, spaces) { return false }
                }
                spaces = 0
                start = -1
                newParagraph()
            } else {
                if start < 0 { start = i }
                if b == 0x2D, i > start, i + 1 < n, bytes[i + 1] != 0x20, bytes[i + 1] != 0x0A {
                    let previous = bytes[i - 1]
                    if previous >= 0x80 || (previous | 0x20 >= 0x61 && previous | 0x20 <= 0x7A) {
                        if !word(start..<(i + 1), spaces) { return false }
                        spaces = 0
                        start = -1
                    }
                }
            }
            i += 1
        }
        if start >= 0 { return word(start..<n, spaces) }
        if spaces > 0 { return word(n..<n, spaces) }
        return true
    }

    @inline(__always)
    private static func isFigures(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count > 1 else { return false }
        for i in range where !ShapingFace.isFigure(bytes[i]) { return false }
        return true
    }

    private func naturalShapedWidth(_ text: String, face: ShapingFace) -> Double? {
        guard let space = face.space else { return nil }
        var text = text
        return text.withUTF8 { bytes -> Double? in
            guard Self.isSimple(bytes) else { return nil }
            var widest = 0.0
            var width = 0.0
            let complete = Self.scan(bytes, word: { range, spaces in
                width += Double(spaces) * space.width
                if range.isEmpty { return true }
                if Self.isFigures(bytes, range) {
                    for byte in bytes[range] {
                        guard let figure = face.figure(byte) else { return false }
                        width += figure.width
                    }
                    return true
                }
                guard let word = face.word(UnsafeBufferPointer(rebasing: bytes[range])) else { return false }
                width += word.width
                return true
            }, newParagraph: {
                widest = max(widest, width)
                width = 0
            })
            return complete ? max(widest, width) : nil
        }
    }

    private func layoutShaped(_ text: String, format: TextFormat, width: Double?, measuringOnly: Bool) -> TextBlock? {
        let face = self.face(for: format)
        guard let space = face.space else { return nil }
        var text = text
        let shapedLines: [ShapedLine]? = text.withUTF8 { bytes in
            guard Self.isSimple(bytes) else { return nil }
            var lines: [ShapedLine] = []
            let newLine = ShapedLine(keepsItems: !measuringOnly)
            var line = newLine
            var pendingSpaces = 0
            let complete = Self.scan(bytes, word: { range, spaces in
                pendingSpaces += spaces
                if range.isEmpty { return true }
                if Self.isFigures(bytes, range) {
                    var figuresWidth = 0.0
                    for byte in bytes[range] {
                        guard let figure = face.figure(byte) else { return false }
                        figuresWidth += figure.width
                    }
                    let gap = Double(pendingSpaces) * space.width
                    if let width, !line.isEmpty, line.width + gap + figuresWidth > width + 0.001 {
                        lines.append(line)
                        line = newLine
                        pendingSpaces = 0
                    }
                    // Set character by character; an amount wider than the column breaks between figures.
                    var first = true
                    for byte in bytes[range] {
                        guard let figure = face.figure(byte) else { return false }
                        if let width, !line.isEmpty, !first || figuresWidth > width + 0.001,
                           line.width + figure.width > width + 0.001 {
                            lines.append(line)
                            line = newLine
                            pendingSpaces = 0
                        }
                        line.append(figure, spaces: first ? pendingSpaces : 0, spaceWidth: space.width)
                        first = false
                    }
                    pendingSpaces = 0
                    return true
                }
                guard let word = face.word(UnsafeBufferPointer(rebasing: bytes[range])) else { return false }
                let gap = Double(pendingSpaces) * space.width
                if let width, !line.isEmpty, line.width + gap + word.width > width + 0.001 {
                    lines.append(line)
                    line = newLine
                    pendingSpaces = 0
                }
                if let width, line.isEmpty, word.width > width + 0.001 {
                    for (index, piece) in word.pieces(fitting: width).enumerated() {
                        if index > 0 {
                            lines.append(line)
                            line = newLine
                        }
                        line.append(piece, spaces: index == 0 ? pendingSpaces : 0, spaceWidth: space.width)
                    }
                } else {
                    line.append(word, spaces: pendingSpaces, spaceWidth: space.width)
                }
                pendingSpaces = 0
                return true
            }, newParagraph: {
                lines.append(line)
                line = newLine
                pendingSpaces = 0
            })
            guard complete else { return nil }
            lines.append(line)
            return lines
        }
        guard let lines = shapedLines else { return nil }

        let boxWidth = width ?? lines.reduce(0) { max($0, $1.width) }
        let spacing = max(0.1, format.lineSpacing)
        let advance = face.lineHeight * spacing
        let baselineOffset = face.ascent + (advance - face.lineHeight) / 2
        var metrics: [TextLine] = []
        metrics.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            let x: Double = switch format.alignment {
            case .leading: 0
            case .center: (boxWidth - line.width) / 2
            case .trailing: boxWidth - line.width
            }
            let top = Double(index) * advance
            metrics.append(TextLine(top: top, height: advance, baseline: top + baselineOffset, x: x, width: line.width))
        }
        return TextBlock(lines: metrics, width: boxWidth, content: .shaped(lines, face))
    }

    // MARK: Pango path

    private func layoutWithPango(_ text: String, format: TextFormat, width: Double?) -> TextBlock {
        let unit = Double(bf_pango_scale())
        let layout = pango_layout_new(context)!
        let description = Self.makePangoDescription(format.font)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        if format.tabularFigures, let attributes = Self.makeFeatureAttributes(Self.tabularFigureFeatures) {
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        pango_layout_set_auto_dir(layout, 1)
        if let width {
            pango_layout_set_width(layout, Int32((width * unit).rounded(.down)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        switch format.alignment {
        case .leading: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .trailing: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if format.lineSpacing != 1 {
            pango_layout_set_line_spacing(layout, Float(max(0.1, format.lineSpacing)))
        }
        pango_layout_set_text(layout, emojiPresentation == .text ? Self.preferringTextEmoji(text) : text, -1)

        var metrics: [TextLine] = []
        let iterator = pango_layout_get_iter(layout)
        repeat {
            var top: Int32 = 0
            var bottom: Int32 = 0
            pango_layout_iter_get_line_yrange(iterator, &top, &bottom)
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            let baseline = pango_layout_iter_get_baseline(iterator)
            metrics.append(TextLine(top: Double(top) / unit, height: Double(bottom - top) / unit,
                                    baseline: Double(baseline) / unit, x: Double(logical.x) / unit,
                                    width: Double(logical.width) / unit))
        } while pango_layout_iter_next_line(iterator) != 0
        pango_layout_iter_free(iterator)

        var logicalSize = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logicalSize)
        let boxWidth = width ?? Double(logicalSize.width) / unit
        return TextBlock(lines: metrics, width: boxWidth, content: .pango(PangoLayoutBox(adopting: layout)))
    }

    /// Asks for the text (monochrome) form of each emoji with variation selector 15, unless
    /// it is part of a sequence only a colour font can draw.
    static func preferringTextEmoji(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { $0.properties.isEmojiPresentation }) else { return text }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1].value : 0
            // A flag is two regional indicators; a selector between them would break it up.
            if (0x1F1E6...0x1F1FF).contains(scalar.value) {
                result.append(scalar)
                index += 1
                continue
            }
            if scalar.properties.isEmojiPresentation, scalar.value > 0x7F {
                result.append(scalar)
                switch next {
                case 0xFE0F:
                    result.append(Unicode.Scalar(0xFE0E)!)
                    index += 2
                    continue
                case 0xFE0E, 0x200D, 0x1F3FB...0x1F3FF, 0x20E3:
                    break
                default:
                    result.append(Unicode.Scalar(0xFE0E)!)
                }
                index += 1
                continue
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }

    static func makePangoDescription(_ font: FontDescription) -> OpaquePointer {
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, font.family)
        pango_font_description_set_absolute_size(description, font.size * Double(bf_pango_scale()))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(font.weight.rawValue)))
        pango_font_description_set_style(description, font.isItalic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        return description
    }

    /// The OpenType features of `TextFormat.tabularFigures`, the same for both paths.
    static let tabularFigureFeatures = "tnum 1"

    static func makeFeatureAttributes(_ features: String) -> OpaquePointer? {
        guard let list = pango_attr_list_new() else { return nil }
        pango_attr_list_insert(list, pango_attr_font_features_new(features))
        return list
    }
}

/// Owns one `PangoLayout`.
final class PangoLayoutBox {
    let layout: OpaquePointer

    init(adopting layout: OpaquePointer) {
        self.layout = layout
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
    }
}

/// Words placed on one line by the fast path.
struct ShapedLine {
    struct Item {
        let word: ShapedWord
        let x: Double
        let spacesBefore: Int
    }

    /// False when only measuring: the words are then counted, not kept.
    let keepsItems: Bool
    private(set) var items: [Item] = []
    private(set) var isEmpty = true
    private(set) var width = 0.0

    init(keepsItems: Bool = true) {
        self.keepsItems = keepsItems
    }

    mutating func append(_ word: ShapedWord, spaces: Int, spaceWidth: Double) {
        let x = width + Double(spaces) * spaceWidth
        if keepsItems { items.append(Item(word: word, x: x, spacesBefore: spaces)) }
        isEmpty = false
        width = x + word.width
    }
}
