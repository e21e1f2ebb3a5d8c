import Foundation
import Testing
import CCairo
@testable import Graphics

@Suite struct TextEngineTests {
    let body = TextFormat(font: FontDescription(size: 10))

    @Test func plainTextTakesTheShapedPathAndWraps() {
        let engine = TextEngine()
        let block = engine.layout("Consulting hours for the migration of the legacy database", format: body, width: 120)
        guard case .shaped = block.content else {
            Issue.record("plain Latin text should be shaped word by word")
            return
        }
        #expect(block.lines.count > 1)
        for line in block.lines { #expect(line.width <= 120.001) }
        #expect(block.height == block.lines.last!.bottom)
    }

    @Test func shapedAndPangoPathsAgreeOnWidth() {
        let engine = TextEngine()
        let text = "Invoice total: 1,234.56 EUR"
        let shaped = engine.layout(text, format: body)
        let viaPango = engine.layout(text + "\u{200F}", format: body)
        guard case .pango = viaPango.content else {
            Issue.record("a right-to-left mark should force the Pango path")
            return
        }
        #expect(abs(shaped.width - viaPango.width) < 0.5)
        #expect(abs(shaped.lines[0].height - viaPango.lines[0].height) < 0.5)
    }

    @Test func aWordWiderThanTheLineBreaksBetweenCharacters() {
        let engine = TextEngine()
        let word = String(repeating: "W", count: 60)
        let block = engine.layout(word, format: body, width: 50)
        #expect(block.lines.count > 5)
        for line in block.lines { #expect(line.width <= 50.001) }
    }

    @Test func amountsMeasureLikeTheirCharactersAndBreakOnlyWhenTooWide() {
        let engine = TextEngine()
        var format = body
        format.tabularFigures = true
        let amount = engine.layout("1,234,567.89", format: format)
        #expect(amount.lines.count == 1)
        #expect(abs(amount.width - engine.naturalWidth(of: "1,234,567.89", format: format)) < 0.001)
        // Tabular figures: every digit has the same advance.
        #expect(abs(engine.naturalWidth(of: "11", format: format) - engine.naturalWidth(of: "88", format: format)) < 0.001)
        let narrow = engine.layout("Total 1,234,567.89", format: format, width: 30)
        #expect(narrow.lines.count > 2)
        for line in narrow.lines { #expect(line.width <= 30.001) }
    }

    /// French, Czech, Russian and more group digits with U+202F: their amounts are plain text
    /// and must not take the slow Pango path, which cost a French 1 000-line invoice 8 % more CPU.
    @Test func amountsGroupedWithNarrowNoBreakSpacesTakeTheShapedPath() {
        let engine = TextEngine()
        let french = "1\u{202F}234\u{202F}567,50\u{00A0}€"
        let shaped = engine.layout(french, format: body)
        guard case .shaped = shaped.content else {
            Issue.record("an amount grouped with narrow no-break spaces should be shaped word by word")
            return
        }
        let viaPango = engine.layout(french + "\u{200F}", format: body)
        guard case .pango = viaPango.content else {
            Issue.record("a right-to-left mark should force the Pango path")
            return
        }
        #expect(abs(shaped.width - viaPango.width) < 0.5)
        // The bidi controls just below U+202F still need Pango.
        guard case .pango = engine.layout("abc\u{202E}def", format: body).content else {
            Issue.record("a right-to-left override should force the Pango path")
            return
        }
    }

    /// Words are shaped by Pango's shaper without a `PangoLayout`; they must come out as a
    /// layout shapes them: the same glyphs (ligatures, kerning, tabular figures) at the same
    /// positions, and the same line height.
    @Test func wordsShapeAsPangosLayoutShapesThem() throws {
        let engine = TextEngine()
        for tabular in [false, true] {
            var format = TextFormat(font: FontDescription(size: ShapingFace.shapingSize))
            format.tabularFigures = tabular
            let face = engine.face(for: format)
            let layout = pango_layout_new(engine.context)!
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let description = TextEngine.makePangoDescription(format.font)
            pango_layout_set_font_description(layout, description)
            pango_font_description_free(description)
            if tabular, let attributes = TextEngine.makeFeatureAttributes(TextEngine.tabularFigureFeatures) {
                pango_layout_set_attributes(layout, attributes)
                pango_attr_list_unref(attributes)
            }
            for word in ["official", "AVATAR", "Tax", "naïve", "cafe\u{301}", "1,234.50", "—", "€12", "Москва", "Αθήνα"] {
                var text = word
                let shaped = try #require(text.withUTF8 { face.word($0) }, "\(word) should be shaped")
                pango_layout_set_text(layout, word, -1)
                let line = try #require(pango_layout_get_line_readonly(layout, 0))
                let run = try #require(line.pointee.runs?.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self))
                #expect(line.pointee.runs?.pointee.next == nil)
                let glyphs = run.pointee.glyphs.pointee
                let unit = Double(bf_pango_scale())
                var expected: [UInt32] = [], xs: [Double] = [], pen = 0.0
                for index in 0..<Int(glyphs.num_glyphs) {
                    let info = glyphs.glyphs[index]
                    expected.append(info.glyph)
                    xs.append(pen + Double(info.geometry.x_offset) / unit)
                    pen += Double(info.geometry.width) / unit
                }
                #expect(shaped.glyphs == expected, "\(word)")
                #expect(shaped.xs == xs && shaped.width == pen, "\(word)")
                var logical = PangoRectangle()
                pango_layout_line_get_extents(line, nil, &logical)
                #expect(face.lineHeight == Double(logical.height) / unit && face.ascent == Double(-logical.y) / unit)
            }
        }
        // Letters of two scripts are two items to a layout: Pango shapes such a word.
        var mixed = "abcгде"
        #expect(mixed.withUTF8 { engine.face(for: body).word($0) } == nil)
    }

    @Test func newlinesStartParagraphsAndEmptyTextHasOneLine() {
        let engine = TextEngine()
        #expect(engine.layout("a\nb\n\nc", format: body).lines.count == 4)
        #expect(engine.layout("", format: body).lines.count == 1)
    }

    @Test func trailingAlignmentEndsLinesAtTheRightEdge() {
        let engine = TextEngine()
        var format = body
        format.alignment = .trailing
        let block = engine.layout("12.50", format: format, width: 100)
        #expect(abs(block.lines[0].x + block.lines[0].width - 100) < 0.001)
    }

    @Test func drawnTextReadsBackFromThePDF() throws {
        let engine = TextEngine()
        let surface = try PDFSurface(pageSize: Size(width: 300, height: 200))
        let context = DrawingContext(surface: surface)
        let latin = engine.layout("Hello wide world, naïve café", format: body, width: 250)
        latin.draw(in: context, at: Point(x: 20, y: 20), color: .black)
        let hebrew = engine.layout("שלום עולם", format: body, width: 250)
        hebrew.draw(in: context, at: Point(x: 20, y: 60), color: .black)
        context.showPage()
        let data = try surface.finishBytes()
        let page = try PDFDocument(data: data).page(at: 0)
        let text = page.text()
        #expect(text.contains("Hello wide world, naïve café"))
        // Poppler's page text lists right-to-left letters in visual order; its search, which
        // viewers use, finds the words as typed.
        #expect(page.find("שלום").count == 1)
        #expect(page.find("עולם").count == 1)
        let runs = page.textRuns()
        let hello = try #require(runs.first { $0.text == "Hello" })
        #expect(abs(hello.rect.minX - 20) < 1.5)
        #expect(hello.rect.minY >= 20 && hello.rect.maxY <= 20 + latin.height + 1)
    }
}
