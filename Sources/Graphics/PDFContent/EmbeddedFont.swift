import CCairo

/// One TrueType font as a PDF's own text shows it: a CIDFont whose CIDs are the font's glyph
/// ids (Identity-H), embedded as a subset of the glyphs used, with the widths and the
/// `ToUnicode` map that make its text copyable and searchable.
final class EmbeddedFont {
    /// HarfBuzz's face of the font file, referenced while the document is written.
    private let face: OpaquePointer
    private let measuring: OpaquePointer
    private let unitsPerEm: Double
    /// Advance widths in thousandths of an em, as the PDF's `/W` gives them; -1 for a glyph not used.
    private var widths: [Int32]
    /// The text each glyph stands for, where known (UTF-16), for the `ToUnicode` map.
    private var texts: [[UInt16]?]

    init(face: OpaquePointer) {
        self.face = hb_face_reference(face)
        measuring = hb_font_create(face)
        unitsPerEm = Double(max(1, hb_face_get_upem(face)))
        let glyphCount = Int(hb_face_get_glyph_count(face))
        widths = Array(repeating: -1, count: glyphCount)
        texts = Array(repeating: nil, count: glyphCount)
    }

    deinit {
        hb_font_destroy(measuring)
        hb_face_destroy(face)
    }

    var glyphCount: Int { widths.count }

    /// Shows `glyphs` (Cairo's, y down from `origin`, which is in the page's default space),
    /// marking them used.
    func show(_ glyphs: [cairo_glyph_t], origin: Point, in stream: inout ContentStream) {
        let measuring = measuring
        let unitsPerEm = unitsPerEm
        widths.withUnsafeMutableBufferPointer { widths in
            for glyph in glyphs {
                let id = Int(glyph.index)
                guard id < widths.count else { continue }
                var width = widths[id]
                if width < 0 {
                    let advance = Double(hb_font_get_glyph_h_advance(measuring, hb_codepoint_t(id)))
                    width = max(0, Int32((advance * 1000 / unitsPerEm).rounded()))
                    widths[id] = width
                }
                stream.show(id, width: width, x: origin.x + glyph.x, y: origin.y - glyph.y)
            }
        }
    }

    func hasText(_ glyph: Int) -> Bool { texts[glyph] != nil }

    /// The first text a glyph was seen drawing stays its text.
    func setText(_ text: [UInt16], for glyph: Int) {
        if texts[glyph] == nil { texts[glyph] = text }
    }

    /// What writing the font takes longest to make: its program subset to the glyphs used and
    /// its `ToUnicode` map, both deflated.
    struct Program: Sendable {
        let glyphs: [Int]
        let length: Int
        let deflatedProgram: [UInt8]
        let deflatedToUnicode: [UInt8]
    }

    /// Makes the font's `Program`. Only reads the font, with a deflater of its own, so fonts
    /// are prepared side by side once nothing more is drawn.
    func prepare() throws(GraphicsError) -> Program {
        let glyphs = widths.indices.filter { widths[$0] >= 0 }
        let program = try subset(glyphs)
        let deflater = Deflater()
        return Program(glyphs: glyphs, length: program.count, deflatedProgram: try deflater.compress(program),
                       deflatedToUnicode: try deflater.compress(toUnicodeMap(glyphs)))
    }

    /// Writes the font's objects and returns the number of its Type 0 font dictionary.
    func write(_ program: Program, into writer: inout ObjectWriter, index: Int) -> Int {
        let name = subsetTag(program.glyphs, index: index) + "+" + postScriptName()
        let file = writer.addStream(dictionary: ["Length1": "\(program.length)"], deflated: program.deflatedProgram)
        let descriptor = writer.add(descriptorDictionary(name: name, file: file))
        let widthsArray = widthsText(program.glyphs)
        let cidFont = writer.add("<<\n/Type /Font\n/Subtype /CIDFontType2\n/BaseFont /\(name)\n"
            + "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>\n"
            + "/FontDescriptor \(descriptor) 0 R\n/CIDToGIDMap /Identity\n/W \(widthsArray)\n>>")
        let toUnicode = writer.addStream(dictionary: [:], deflated: program.deflatedToUnicode)
        return writer.add("<<\n/Type /Font\n/Subtype /Type0\n/BaseFont /\(name)\n/Encoding /Identity-H\n"
            + "/DescendantFonts [\(cidFont) 0 R]\n/ToUnicode \(toUnicode) 0 R\n>>")
    }

    /// The used glyphs, numbered as in the whole font (so CID, glyph id and `/W` agree), without
    /// hinting or layout tables: a PDF reader draws positioned glyphs.
    private func subset(_ glyphs: [Int]) throws(GraphicsError) -> [UInt8] {
        guard let input = hb_subset_input_create_or_fail() else { throw .unsupportedPDF(reason: "the font could not be subset") }
        defer { hb_subset_input_destroy(input) }
        let glyphSet = hb_subset_input_glyph_set(input)
        for glyph in glyphs { hb_set_add(glyphSet, hb_codepoint_t(glyph)) }
        let dropped = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG)
        for tag in ["GSUB", "GPOS", "GDEF", "kern", "BASE", "JSTF", "MATH", "morx", "kerx", "DSIG", "hdmx", "LTSH", "VDMX", "gasp"] {
            let bytes = Array(tag.utf8)
            hb_set_add(dropped, hb_codepoint_t(bytes[0]) << 24 | hb_codepoint_t(bytes[1]) << 16
                                    | hb_codepoint_t(bytes[2]) << 8 | hb_codepoint_t(bytes[3]))
        }
        hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_RETAIN_GIDS.rawValue | HB_SUBSET_FLAGS_NO_HINTING.rawValue)
        guard let subsetFace = hb_subset_or_fail(face, input) else { throw .unsupportedPDF(reason: "the font could not be subset") }
        defer { hb_face_destroy(subsetFace) }
        let blob = hb_face_reference_blob(subsetFace)
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { throw .unsupportedPDF(reason: "the font could not be subset") }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// Six capital letters from the glyphs used, so two subsets of one font never share a name.
    private func subsetTag(_ glyphs: [Int], index: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in glyphs + [index] {
            hash = (hash ^ UInt64(truncatingIfNeeded: value)) &* 0x100_0000_01b3
        }
        var tag = ""
        for _ in 0..<6 {
            tag.append(Character(UnicodeScalar(UInt8(65 + hash % 26))))
            hash /= 26
        }
        return tag
    }

    /// The font's PostScript name, reduced to the characters a PDF name may hold plainly.
    private func postScriptName() -> String {
        var length: UInt32 = 128
        var buffer = [CChar](repeating: 0, count: 128)
        hb_ot_name_get_utf8(face, hb_ot_name_id_t(HB_OT_NAME_ID_POSTSCRIPT_NAME), nil, &length, &buffer)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return name.isEmpty ? "Font" : name
    }

    private func descriptorDictionary(name: String, file: Int) -> String {
        func scaled(_ value: Double) -> Int { Int((value * 1000 / unitsPerEm).rounded()) }
        func metric(_ tag: hb_ot_metrics_tag_t) -> Int {
            var position: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(measuring, tag, &position)
            return scaled(Double(position))
        }
        let head = table("head")
        let bbox = [36, 38, 40, 42].map { head.count >= $0 + 2 ? scaled(Double(Int16(bitPattern: UInt16(head[$0]) << 8 | UInt16(head[$0 + 1])))) : 0 }
        let post = table("post")
        var italicAngle = 0.0
        var fixedPitch = false
        if post.count >= 16 {
            let fixed = Int32(bitPattern: UInt32(post[4]) << 24 | UInt32(post[5]) << 16 | UInt32(post[6]) << 8 | UInt32(post[7]))
            italicAngle = Double(fixed) / 65536
            fixedPitch = post[12] | post[13] | post[14] | post[15] != 0
        }
        let os2 = table("OS/2")
        let weight = os2.count >= 6 ? Int(UInt16(os2[4]) << 8 | UInt16(os2[5])) : 400
        // Symbolic (its glyphs are not Adobe's standard Latin set), italic, fixed pitch.
        let flags = 4 | (italicAngle != 0 ? 64 : 0) | (fixedPitch ? 1 : 0)
        // PDF wants a stem width; none is in the font, so it follows the weight class.
        let stemV = 10 + 220 * max(0, weight - 50) / 900
        return "<<\n/Type /FontDescriptor\n/FontName /\(name)\n/Flags \(flags)\n"
            + "/FontBBox [\(bbox.map(String.init).joined(separator: " "))]\n"
            + "/ItalicAngle \(PDFNumber.text(italicAngle))\n/Ascent \(metric(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER))\n"
            + "/Descent \(metric(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER))\n/CapHeight \(metric(HB_OT_METRICS_TAG_CAP_HEIGHT))\n"
            + "/StemV \(stemV)\n/FontFile2 \(file) 0 R\n>>"
    }

    private func table(_ tag: String) -> [UInt8] {
        let bytes = Array(tag.utf8)
        let blob = hb_face_reference_table(face, hb_tag_t(bytes[0]) << 24 | hb_tag_t(bytes[1]) << 16 | hb_tag_t(bytes[2]) << 8 | hb_tag_t(bytes[3]))
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }

    /// `/W`: runs of consecutive glyphs, each with its widths.
    private func widthsText(_ glyphs: [Int]) -> String {
        var text = "["
        var index = 0
        while index < glyphs.count {
            var end = index + 1
            while end < glyphs.count, glyphs[end] == glyphs[end - 1] + 1 { end += 1 }
            text += "\(glyphs[index]) [" + glyphs[index..<end].map { String(widths[$0]) }.joined(separator: " ") + "]\n"
            index = end
        }
        return text + "]"
    }

    /// A CMap from each glyph (two bytes, as Identity-H shows it) to its text.
    private func toUnicodeMap(_ glyphs: [Int]) -> [UInt8] {
        let mapped = glyphs.filter { texts[$0] != nil }
        var text = "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
            + "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            + "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
            + "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        var start = 0
        while start < mapped.count {
            let chunk = mapped[start..<min(start + 100, mapped.count)]
            text += "\(chunk.count) beginbfchar\n"
            for glyph in chunk {
                text += "<" + PDFNumber.hex4(glyph) + "> <" + (texts[glyph] ?? []).map { PDFNumber.hex4(Int($0)) }.joined() + ">\n"
            }
            text += "endbfchar\n"
            start += 100
        }
        text += "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
        return Array(text.utf8)
    }
}
