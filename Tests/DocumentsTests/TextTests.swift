import Foundation
import Testing
import Graphics
@testable import Documents

@Suite struct TextTests {
    static let hebrew = "קבלה על ארוחת ערב"
    static let arabic = "فاتورة الفندق"
    static let japanese = "東京のホテル代の領収書"
    static let emoji = "Coffee ☕ and cake 😀"

    static func document() -> Document {
        var document = Document()
        document.blocks = [
            .paragraph(Paragraph(hebrew)),
            .paragraph(Paragraph(arabic)),
            .paragraph(Paragraph(japanese)),
            .paragraph(Paragraph(emoji)),
            .table(Table(columns: [TableColumn("Description"), .numeric("Amount")], rows: [
                TableRow([hebrew, "45.00"]), TableRow([arabic, "680.00"]), TableRow([japanese + " " + emoji, "12.00"]),
            ])),
        ]
        return document
    }

    @Test func rightToLeftJapaneseAndEmojiCanBeFoundInThePDF() throws {
        let page = try ReadBack(Self.document().renderPDF()).pages[0]
        // Search is what a reader uses; each text appears in a paragraph and in the table.
        for word in ["קבלה", "ארוחת", "東京のホテル代", "領収書", "☕", "😀", "Coffee"] {
            #expect(page.find(word).count == 2, "\(word) found \(page.find(word).count) times")
        }
        // Poppler neither searches Arabic across its joined letter forms nor keeps one order
        // for it in page text: check the letters arrive as text, in logical or visual order.
        let text = compact(page.text())
        let arabic = compact(Self.arabic)
        let reversed = String(String.UnicodeScalarView(arabic.unicodeScalars.reversed()))
        #expect(text.contains(arabic) || text.contains(reversed))
    }

    @Test func rightToLeftParagraphsAlignToTheRight() throws {
        let document = Self.document()
        let page = try ReadBack(document.renderPDF()).pages[0]
        let printable = document.pageSetup.printableArea
        let hebrewHit = try #require(page.find("קבלה").first)
        let japaneseHit = try #require(page.find("東京").first)
        #expect(hebrewHit.maxX > printable.maxX - 80)
        #expect(japaneseHit.minX < printable.minX + 5)
    }

    @Test func longParagraphsFlowOverPagesWithoutLosingWords() throws {
        let words = (0..<1_500).map { "word\($0)" }
        var document = Document()
        document.blocks = [.paragraph(Paragraph(words.joined(separator: " ")))]
        let pdf = try ReadBack(document.renderPDF())
        #expect(pdf.pageCount > 1)
        let found = pdf.pages.flatMap { $0.textRuns().map(\.text) }.filter { $0.hasPrefix("word") }
        #expect(found == words)
    }

    @Test func aHeadingIsNeverLeftAloneAtTheFootOfAPage() throws {
        var document = Document()
        var blocks: [Block] = []
        for section in 0..<30 {
            blocks.append(.heading(Heading("Section \(section)", level: 2)))
            blocks.append(.paragraph(Paragraph(SampleDocuments.description(seed: section, length: 60 + section * 7))))
        }
        document.blocks = blocks
        let pdf = try ReadBack(document.renderPDF())
        let bottom = try LayoutEngine(document: document).body.maxY
        for page in pdf.pages {
            let runs = page.textRuns()
            guard let lastHeading = runs.last(where: { $0.text == "Section" }) else { continue }
            // Body text follows the heading on the same page.
            let below = runs.filter { $0.rect.minY > lastHeading.rect.maxY && $0.rect.maxY < bottom && $0.text != "Page" }
            #expect(!below.isEmpty, "page \(page.index + 1) ends with a heading")
        }
    }

    @Test func keepTogetherMovesTheGroupToTheNextPage() throws {
        var document = Document()
        let filler = SampleDocuments.description(seed: 3, length: 560)
        let group: [Block] = (0..<8).map { .paragraph(Paragraph("Kept line \($0)")) }
        document.blocks = [.paragraph(Paragraph(filler)), .keepTogether(group)]
        let pdf = try ReadBack(document.renderPDF())
        let pagesWithGroup = pdf.pages.filter { page in page.textRuns().contains { $0.text == "Kept" } }
        #expect(pagesWithGroup.count == 1)
        #expect(pagesWithGroup.first?.textRuns().filter { $0.text == "Kept" }.count == 8)
    }

    @Test func pageBreaksMakeExactlyThatManyPages() throws {
        var document = Document()
        document.blocks = [.paragraph(Paragraph("One")), .pageBreak, .pageBreak, .paragraph(Paragraph("Two")), .pageBreak,
                           .paragraph(Paragraph("Three"))]
        let rendered = try document.renderPDF()
        #expect(rendered.pageCount == 3)
        let pdf = try ReadBack(rendered)
        #expect(pdf.pageCount == 3)
        #expect(pdf.pages[1].text().contains("Two"))
        #expect(pdf.pages[2].text().contains("Page 3 of 3"))
    }

    @Test func anEmptyDocumentIsOnePage() throws {
        let rendered = try Document().renderPDF()
        #expect(rendered.pageCount == 1)
        #expect(try ReadBack(rendered).pages[0].text().contains("Page 1 of 1"))
    }

    @Test func columnsSitSideBySide() throws {
        var document = Document()
        document.blocks = [.columns(ColumnSet([.init([.paragraph(Paragraph("Left"))]),
                                               .init([.paragraph(Paragraph("Right", style: TextStyle.body.withAlignment(.trailing)))])]))]
        let page = try ReadBack(document.renderPDF()).pages[0]
        let left = try #require(page.textRuns().first { $0.text == "Left" })
        let right = try #require(page.textRuns().first { $0.text == "Right" })
        #expect(abs(left.rect.minY - right.rect.minY) < 0.5)
        #expect(right.rect.maxX > document.pageSetup.printableArea.maxX - 1)
    }

    @Test func totalsSitAtTheRightEdgeWithAmountsAligned() throws {
        var document = Document()
        document.blocks = [.keyValues(KeyValueList([.init("Subtotal", "1,200.00"), .init("VAT", "240.00"),
                                                    .init("Total", "1,440.00", isEmphasized: true)], placement: .trailing))]
        let page = try ReadBack(document.renderPDF()).pages[0]
        let right = document.pageSetup.printableArea.maxX
        let amounts = page.textRuns().filter { ["1,200.00", "240.00", "1,440.00"].contains($0.text) }
        #expect(amounts.count == 3)
        for amount in amounts { #expect(abs(amount.rect.maxX - right) < 1) }
    }

    /// German and French amounts carry no-break spaces; Cairo would set those in a font of its
    /// own and switch to it and back around every amount.
    @Test func amountsWithNoBreakSpacesStayInTheTextsFont() throws {
        var document = Document()
        document.blocks = [.paragraph(Paragraph("Summe 1.234,50\u{A0}€ et 1\u{202F}234,50\u{A0}€"))]
        let rendered = try document.renderPDF()
        let raw = String(decoding: rendered.data, as: UTF8.self)
        #expect(raw.components(separatedBy: "/Type /FontDescriptor").count - 1 == 1, "one font, no second subset for the spaces")
        let page = try ReadBack(rendered).pages[0]
        let text = page.text()
        #expect(text.contains("1.234,50 €"), "“\(text)”")
        #expect(text.contains("1 234,50 €"), "“\(text)”")
    }
}
