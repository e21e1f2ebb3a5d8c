import Foundation
import Testing
@testable import Graphics
@testable import Documents

@Suite struct TableTests {
    @Test func everyWordLiesInsideThePrintableArea() throws {
        let document = SampleDocuments.invoice(rows: 150)
        let pdf = try ReadBack(document.renderPDF())
        let printable = document.pageSetup.printableArea
        #expect(pdf.pageCount > 3)
        for page in pdf.pages {
            let runs = page.textRuns()
            #expect(!runs.isEmpty)
            for run in runs {
                #expect(printable.contains(run.rect, tolerance: 0.5), "“\(run.text)” at \(run.rect) on page \(page.index + 1)")
            }
        }
    }

    @Test func headerRowIsRepeatedAtTheTopOfTheTableOnEveryPage() throws {
        let document = SampleDocuments.invoice(rows: 150)
        let pdf = try ReadBack(document.renderPDF())
        for page in pdf.pages {
            let runs = page.textRuns()
            let unit = try #require(runs.first { $0.text == "Unit" }, "no header on page \(page.index + 1)")
            let description = try #require(runs.first { $0.text == "Description" })
            #expect(abs(unit.rect.minY - description.rect.minY) < 1)
            // Table rows start with a date; every one on the page is below the header.
            let dates = runs.filter { $0.text.wholeMatch(of: /2024-\d\d-\d\d/) != nil }
            #expect(!dates.isEmpty)
            for date in dates { #expect(date.rect.minY > unit.rect.maxY) }
        }
    }

    @Test func everyRowAppearsOnceAndInOrder() throws {
        let document = SampleDocuments.invoice(rows: 120)
        let pdf = try ReadBack(document.renderPDF())
        let amounts = pdf.pages.flatMap { page in page.textRuns().map(\.text) }
        let expected = SampleDocuments.invoiceRows(120).map { $0.cells[4] }
        var position = amounts.startIndex
        for amount in expected {
            guard let found = amounts[position...].firstIndex(of: amount) else {
                Issue.record("amount \(amount) missing or out of order")
                return
            }
            position = found + 1
        }
    }

    @Test func pageNumbersCountTheFinishedDocument() throws {
        let document = SampleDocuments.invoice(rows: 150)
        let rendered = try document.renderPDF()
        let pdf = try ReadBack(rendered)
        #expect(rendered.pageCount == pdf.pageCount)
        #expect(try document.paginate().pageCount == pdf.pageCount)
        for page in pdf.pages {
            let text = page.text()
            #expect(text.contains("Page \(page.index + 1) of \(pdf.pageCount)"), "page \(page.index + 1): \(text.suffix(80))")
        }
    }

    /// The first pass keeps its first pages laid out in full so drawing need not lay them out
    /// again: they must break where measuring breaks and hold what a second layout would.
    @Test func pagesTheFirstPassKeepsAreThePagesALaterLayoutMakes() throws {
        let document = SampleDocuments.invoice(rows: 150)
        let measured = try LayoutEngine(document: document).paginate()
        let engine = try LayoutEngine(document: document)
        let (starts, kept) = engine.paginate(keepingFirst: 2)
        #expect(measured.count > 3)
        #expect(starts == measured)
        #expect(kept.count == 2)
        func signature(_ items: [PlacedItem]) -> [String] {
            items.map { item in
                switch item {
                case .text(let block, let lines, let origin, _):
                    // Measured-only text has no glyphs to draw.
                    if case .shaped(let shaped, _) = block.content, shaped.contains(where: { !$0.keepsItems }) { "measured text" }
                    else { "text \(origin) \(lines) \(block.width) \(block.height)" }
                case .fill(let rect, _): "fill \(rect)"
                case .line(let from, let to, let width, _): "line \(from) \(to) \(width)"
                default: "other"
                }
            }
        }
        let again = try LayoutEngine(document: document)
        for (index, items) in kept.enumerated() {
            #expect(!items.isEmpty)
            #expect(signature(items) == signature(again.layoutPage(from: starts[index]).items), "page \(index + 1)")
        }
    }

    @Test func aTwoThousandCharacterCellWrapsOverPagesWithNothingLost() throws {
        var words: [String] = []
        var length = 0
        var index = 0
        while length < 2_000 {
            let word = SampleDocuments.words[index % SampleDocuments.words.count] + String(index)
            words.append(word)
            length += word.count + 1
            index += 1
        }
        words.append("lastwordofthecell")
        let long = words.joined(separator: " ")
        #expect(long.count >= 2_000)
        let table = Table(columns: [TableColumn("Item", width: .fixed(60)), TableColumn("Description", width: .fixed(90)), .numeric("Amount")],
                          rows: [TableRow(["Before", "Short", "1.00"]), TableRow(["Long", long, "2.00"]), TableRow(["After", "Short", "3.00"])])
        var document = Document(pageSetup: PageSetup(paper: .a4, margins: EdgeInsets(all: 200)))
        document.blocks = [.table(table)]
        let pdf = try ReadBack(document.renderPDF())
        #expect(pdf.pageCount >= 3)
        #expect(pdf.pages.last?.text().contains("lastwordofthecell") == true)
        let printable = document.pageSetup.printableArea
        // The cell's words, page after page, in the description column only.
        let column = (printable.minX + 60)..<(printable.minX + 150)
        let cellText = pdf.pages.flatMap { page in
            page.textRuns().filter { column.contains($0.rect.minX) && $0.text != "Description" && $0.text != "Short" }.map(\.text)
        }.joined()
        #expect(cellText == compact(long))
        for page in pdf.pages {
            for run in page.textRuns() {
                #expect(printable.contains(run.rect, tolerance: 0.5), "“\(run.text)” at \(run.rect)")
            }
        }
    }

    /// A cell equal to the one above reuses its layout; it must still be drawn in its own row,
    /// and in bold in an emphasized row.
    @Test func cellsThatRepeatTheRowAboveStayInTheirRowAndStyle() throws {
        var rows = (1...23).map { TableRow(["Item \($0)", "12.5", "h"]) }
        rows.insert(TableRow(["Subtotal", "12.5", "h"], isEmphasized: true), at: 12)
        let table = Table(columns: [TableColumn("Description"), .numeric("Qty"), TableColumn("Unit", width: .fit)], rows: rows)
        var document = Document()
        document.blocks = [.table(table)]
        let pdf = try ReadBack(document.renderPDF())
        #expect(pdf.pageCount == 1)
        let runs = pdf.pages[0].textRuns()
        let quantities = runs.filter { $0.text == "12.5" }
        let descriptions = runs.filter { $0.text == "Item" || $0.text == "Subtotal" }
        #expect(quantities.count == rows.count)
        #expect(runs.filter { $0.text == "h" }.count == rows.count)
        #expect(descriptions.count == rows.count)
        for (quantity, description) in zip(quantities, descriptions) {
            #expect(abs(quantity.rect.minY - description.rect.minY) < 1)
        }
        let subtotal = try #require(descriptions.firstIndex { $0.text == "Subtotal" })
        #expect(quantities[subtotal].rect.width > quantities[subtotal - 1].rect.width + 0.1)
        #expect(abs(quantities[subtotal + 1].rect.width - quantities[subtotal - 1].rect.width) < 0.01)
    }

    @Test func anUnbrokenWordWiderThanItsColumnWrapsBetweenCharacters() throws {
        let word = String(repeating: "abcdefghij", count: 30)
        let table = Table(columns: [TableColumn("Reference", width: .fixed(80)), TableColumn("Note")],
                          rows: [TableRow([word, "ok"])])
        var document = Document()
        document.blocks = [.table(table)]
        let pdf = try ReadBack(document.renderPDF())
        #expect(pdf.compactText.contains(word))
        let page = pdf.pages[0]
        let columnRight = document.pageSetup.printableArea.minX + 80
        for run in page.textRuns() where run.text.hasPrefix("abc") || run.text.hasPrefix("bcd") || run.text.contains("fgh") {
            #expect(run.rect.maxX <= columnRight + 0.5)
        }
    }

    @Test func amountsAreRightAlignedOnOneEdge() throws {
        var document = Document()
        document.blocks = [.table(SampleDocuments.invoiceTable(rows: 12))]
        let pdf = try ReadBack(document.renderPDF())
        let amounts = Set(SampleDocuments.invoiceRows(12).map { $0.cells[4] })
        let right = document.pageSetup.printableArea.maxX
        let edges = pdf.pages[0].textRuns().filter { amounts.contains($0.text) && $0.rect.maxX > right - 40 }.map(\.rect.maxX)
        #expect(edges.count == 12)
        #expect((edges.max() ?? 0) - (edges.min() ?? 0) < 0.6)
        #expect(abs((edges.max() ?? 0) - (right - TableStyle.ruled.cellPadding.right)) < 1)
    }

    @Test func columnWidthsNeverExceedTheAvailableWidth() throws {
        let engine = try LayoutEngine(document: Document())
        let table = Table(columns: [TableColumn("A", width: .fixed(300)), TableColumn("B", width: .fit), TableColumn("C", width: .fraction(2)),
                                    TableColumn("D", width: .fraction(1))],
                          rows: [TableRow(["x", String(repeating: "wide ", count: 40), "y", "z"])])
        let widths = engine.tableColumnWidths(table, index: 0, available: 400)
        #expect(widths.count == 4)
        #expect(widths.reduce(0, +) <= 400.001)
        #expect(widths.allSatisfy { $0 > 0 })
        #expect(widths[2] > widths[3])
    }

    @Test func aTableThatCannotStartNearTheFootMovesWithItsHeader() throws {
        var document = Document(pageSetup: PageSetup(paper: .a4))
        let filler = Array(repeating: "Filler paragraph that takes a line of the page.", count: 200).joined(separator: " ")
        document.blocks = [.paragraph(Paragraph(filler)), .table(SampleDocuments.invoiceTable(rows: 3))]
        let pdf = try ReadBack(document.renderPDF())
        for page in pdf.pages {
            let runs = page.textRuns()
            let hasHeader = runs.contains { $0.text == "Description" }
            let hasRows = runs.contains { $0.text.hasPrefix("2024-") }
            #expect(hasHeader == hasRows, "page \(page.index + 1) has a header without rows or rows without a header")
        }
    }
}

/// Rows cut across pages where the rest of a page would otherwise stay blank.
@Suite struct TableRowSplitTests {
    /// Short rows, then one whose description fits a fresh page but not what is left of this one.
    static func document(longWords: Int) -> (Document, String) {
        let long = (0..<longWords).map { "word\($0)" }.joined(separator: " ") + " lastwordofthecell"
        var rows = (0..<12).map { TableRow(["Item \($0)", "1.00"]) }
        rows.append(TableRow([long, "99.00"]))
        rows.append(TableRow(["After", "3.00"]))
        var document = Document(pageSetup: PageSetup(paper: .a4))
        let filler = Array(repeating: "A paragraph that fills part of the first page before the table starts.", count: 30)
            .joined(separator: " ")
        document.blocks = [.paragraph(Paragraph(filler)), .table(Table(columns: [TableColumn("Description"), .numeric("Amount")], rows: rows))]
        return (document, long)
    }

    @Test func aLongRowContinuesOnTheNextPageInsteadOfLeavingThisOneBlank() throws {
        let (document, long) = Self.document(longWords: 600)
        let pdf = try ReadBack(document.renderPDF())
        #expect(pdf.pageCount == 2)
        let first = pdf.pages[0].textRuns()
        let second = pdf.pages[1].textRuns()
        // The description starts on page 1 with its amount beside its first line, and goes on.
        let start = try #require(first.first { $0.text == "word0" })
        let amount = try #require(first.first { $0.text == "99.00" })
        #expect(abs(amount.rect.minY - start.rect.minY) < 1)
        #expect(second.contains { $0.text == "lastwordofthecell" })
        #expect(!second.contains { $0.text == "99.00" })
        // Page 1 is used to its foot: its last line of text is near the bottom of the body.
        let body = try LayoutEngine(document: document).body
        let lastOnFirst = try #require(first.filter { $0.text.hasPrefix("word") }.map(\.rect.maxY).max())
        #expect(lastOnFirst > body.maxY - 40)
        // Nothing lost, nothing twice, in order.
        let words = pdf.pages.flatMap { $0.textRuns().map(\.text) }.filter { $0.hasPrefix("word") || $0 == "lastwordofthecell" }
        #expect(words == long.split(separator: " ").map(String.init))
    }

    @Test func aShortRowThatDoesNotFitMovesWhole() throws {
        // Three lines cannot leave two on each page: the row moves with its amount.
        var rows = (0..<60).map { TableRow(["Item \($0)", "1.00"]) }
        rows.append(TableRow([(0..<30).map { "short\($0)" }.joined(separator: " "), "7.00"]))
        var document = Document(pageSetup: PageSetup(paper: .a4))
        document.blocks = [.table(Table(columns: [TableColumn("Description", width: .fixed(120)), .numeric("Amount")], rows: rows))]
        let pdf = try ReadBack(document.renderPDF())
        for page in pdf.pages {
            let texts = page.textRuns().map(\.text)
            let shorts = texts.filter { $0.hasPrefix("short") }
            #expect(shorts.isEmpty || shorts.count == 30, "the short row was cut on page \(page.index + 1)")
        }
    }

    @Test func cuttingKeepsTwoLinesOnEachSide() {
        #expect(LayoutEngine.splitsWell([(0, 5, 20), (0, 1, 1)]))
        #expect(!LayoutEngine.splitsWell([(0, 1, 20), (0, 1, 1)]))
        #expect(!LayoutEngine.splitsWell([(0, 5, 6), (0, 1, 1)]))
        #expect(!LayoutEngine.splitsWell([(0, 5, 20), (0, 0, 1)]))
        #expect(!LayoutEngine.splitsWell([(0, 3, 3), (0, 1, 1)]))
    }
}
