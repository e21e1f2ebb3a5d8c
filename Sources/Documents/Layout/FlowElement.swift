import Foundation
import Graphics

/// A block flattened for pagination: groups become markers followed by their children, and
/// an embedded PDF becomes one element per page.
enum FlowElement {
    case text(String, TextStyle, keepWithNext: Bool)
    case keyValues(KeyValueList)
    case table(Table)
    case image(ImageBlock, id: Int)
    case pdfPage(EmbeddedPDF, sourceID: Int, page: Int, size: Size)
    case chart(ChartBlock)
    case qrCode(QRCodeBlock)
    case spacer(Double)
    case rule(Rule)
    case pageBreak
    /// Children are `index + 1 ..< end`.
    case keepTogether(end: Int)
    /// Children are the ranges, one per column, in order; `end` follows the last.
    case columns(ColumnSet, ranges: [Range<Int>], end: Int)

    var spaceBefore: Double {
        switch self {
        case .text(_, let style, _): style.spaceBefore
        case .keyValues(let list): list.spaceBefore
        case .table(let table): table.spaceBefore
        case .image(let image, _): image.spaceBefore
        case .pdfPage(let pdf, _, _, _): pdf.spaceBefore
        case .chart(let chart): chart.spaceBefore
        case .qrCode(let code): code.spaceBefore
        case .rule(let rule): rule.spaceBefore
        case .columns(let set, _, _): set.spaceBefore
        case .spacer, .pageBreak, .keepTogether: 0
        }
    }

    var spaceAfter: Double {
        switch self {
        case .text(_, let style, _): style.spaceAfter
        case .keyValues(let list): list.spaceAfter
        case .table(let table): table.spaceAfter
        case .image(let image, _): image.spaceAfter
        case .pdfPage(let pdf, _, _, _): pdf.spaceAfter
        case .chart(let chart): chart.spaceAfter
        case .qrCode(let code): code.spaceAfter
        case .rule(let rule): rule.spaceAfter
        case .columns(let set, _, _): set.spaceAfter
        case .spacer, .pageBreak, .keepTogether: 0
        }
    }
}

/// Where a page starts: an element and how much of it earlier pages already took.
struct Cursor: Sendable, Hashable {
    var element: Int
    var progress: Progress

    static let start = Cursor(element: 0, progress: .start)
}

enum Progress: Sendable, Hashable {
    case start
    /// Lines of a paragraph already placed.
    case line(Int)
    /// Items of a key/value list already placed.
    case item(Int)
    /// The next table row, and for a row split across pages the next line of each cell.
    case tableRow(Int, cellLines: [Int]?)
}

/// What the first pass learned and the drawing pass reuses: picture sizes, embedded PDF
/// page sizes, table column widths. Small: nothing here grows with the number of rows.
struct LayoutMemo: Sendable {
    struct WidthKey: Hashable, Sendable {
        let element: Int
        let width: Double
    }

    var images: [Int: ImageInfo] = [:]
    /// Every page's size, per embedded PDF source.
    var pdfPageSizes: [Int: [Size]] = [:]
    var columnWidths: [WidthKey: [Double]] = [:]
}

/// Flattens blocks, reading picture headers and opening embedded PDFs for their sizes
/// (or taking them from `memo`).
struct Flattener {
    var elements: [FlowElement] = []
    var memo: LayoutMemo
    private var nextImageID = 0
    private var pdfIDs: [PDFBytes: Int] = [:]

    init(memo: LayoutMemo) {
        self.memo = memo
    }

    mutating func add(_ blocks: [Block]) throws(DocumentError) {
        for block in blocks { try add(block) }
    }

    mutating func add(_ block: Block) throws(DocumentError) {
        switch block {
        case .paragraph(let paragraph):
            elements.append(.text(paragraph.text, paragraph.style, keepWithNext: false))
        case .heading(let heading):
            elements.append(.text(heading.text, heading.style, keepWithNext: true))
        case .keyValues(let list):
            elements.append(.keyValues(list))
        case .table(let table):
            elements.append(.table(table))
        case .image(let image):
            let id = nextImageID
            nextImageID += 1
            if memo.images[id] == nil { memo.images[id] = try Self.probe(image.source) }
            elements.append(.image(image, id: id))
        case .pdfPages(let pdf):
            let id = try sourceID(of: pdf)
            let sizes = memo.pdfPageSizes[id] ?? []
            for page in pdf.pages ?? Array(sizes.indices) {
                guard sizes.indices.contains(page) else {
                    throw DocumentError.embeddedPDF(.pageOutOfRange(index: page, pageCount: sizes.count))
                }
                elements.append(.pdfPage(pdf, sourceID: id, page: page, size: sizes[page]))
            }
        case .chart(let chart):
            elements.append(.chart(chart))
        case .qrCode(let code):
            elements.append(.qrCode(code))
        case .spacer(let height):
            elements.append(.spacer(max(0, height)))
        case .rule(let rule):
            elements.append(.rule(rule))
        case .pageBreak:
            elements.append(.pageBreak)
        case .keepTogether(let blocks):
            let marker = elements.count
            elements.append(.keepTogether(end: marker))
            try add(blocks)
            elements[marker] = .keepTogether(end: elements.count)
        case .columns(let set):
            let marker = elements.count
            elements.append(.pageBreak)
            var ranges: [Range<Int>] = []
            for column in set.columns {
                let start = elements.count
                try add(column.blocks)
                ranges.append(start..<elements.count)
            }
            elements[marker] = .columns(set, ranges: ranges, end: elements.count)
        }
    }

    static func imageData(_ source: ImageSource) throws(DocumentError) -> Data {
        switch source {
        case .data(let data):
            return data
        case .file(let path):
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw DocumentError.image(.unreadableFile(path: path, reason: (error as NSError).localizedDescription))
            }
        }
    }

    private static func probe(_ source: ImageSource) throws(DocumentError) -> ImageInfo {
        let data = try imageData(source)
        do {
            return try RasterImage.probe(data)
        } catch {
            throw DocumentError.image(error)
        }
    }

    /// Blocks that embed the same bytes (a receipt's pages, one block each) share one source
    /// id, so the PDF is parsed once here for its page sizes and once by the drawing pass,
    /// which keeps it open while its pages follow one another (not once per page).
    private mutating func sourceID(of pdf: EmbeddedPDF) throws(DocumentError) -> Int {
        let bytes = PDFBytes(pdf.data)
        if let id = pdfIDs[bytes] { return id }
        let id = pdfIDs.count
        pdfIDs[bytes] = id
        if memo.pdfPageSizes[id] == nil {
            do {
                let document = try PDFDocument(data: pdf.data)
                memo.pdfPageSizes[id] = try (0..<document.pageCount).map { index throws(PDFError) in try document.page(at: index).size }
            } catch {
                throw DocumentError.embeddedPDF(error)
            }
        }
        return id
    }
}

/// Which bytes a `Data` holds, by where they are: copies of one `Data` share their storage, so
/// this tells a receipt's pages apart from another receipt's without hashing megabytes.
/// Valid while the document holds the data.
private struct PDFBytes: Hashable {
    let address: UnsafeRawPointer?
    let count: Int

    init(_ data: Data) {
        address = data.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
        count = data.count
    }
}
