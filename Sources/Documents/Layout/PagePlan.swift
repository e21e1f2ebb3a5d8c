import Graphics

/// Something placed on a page, in page coordinates (points, top-left origin).
enum PlacedItem {
    case text(TextBlock, lines: Range<Int>, origin: Point, color: Color)
    case fill(Rect, Color)
    case line(from: Point, to: Point, width: Double, color: Color)
    /// `info`: what laying it out read from the picture's header, so drawing need not read it again.
    case image(ImageBlock, info: ImageInfo, rect: Rect)
    case pdfPage(EmbeddedPDF, sourceID: Int, page: Int, rect: Rect)
    case chart(ChartBlock, rect: Rect)
    case qrCode(QRCodeBlock, rect: Rect)

    func offsetBy(dx: Double, dy: Double) -> PlacedItem {
        func move(_ p: Point) -> Point { Point(x: p.x + dx, y: p.y + dy) }
        func move(_ r: Rect) -> Rect { Rect(origin: move(r.origin), size: r.size) }
        return switch self {
        case .text(let block, let lines, let origin, let color): .text(block, lines: lines, origin: move(origin), color: color)
        case .fill(let rect, let color): .fill(move(rect), color)
        case .line(let from, let to, let width, let color): .line(from: move(from), to: move(to), width: width, color: color)
        case .image(let image, let info, let rect): .image(image, info: info, rect: move(rect))
        case .pdfPage(let pdf, let id, let page, let rect): .pdfPage(pdf, sourceID: id, page: page, rect: move(rect))
        case .chart(let chart, let rect): .chart(chart, rect: move(rect))
        case .qrCode(let code, let rect): .qrCode(code, rect: move(rect))
        }
    }
}

/// The area blocks flow into: the page body, or an unbounded frame for a group or column.
struct Region {
    var x: Double
    var width: Double
    var bottom: Double

    var isUnbounded: Bool { bottom == .infinity }
}

/// Collects what goes on one page (or into one frame) and where the next block starts.
struct PageBuilder {
    let region: Region
    var y: Double
    var items: [PlacedItem] = []
    /// Whether anything took room yet; space before a block is dropped at the top.
    var hasContent = false
    /// Space the previous block wants after it; collapses with the next block's space before.
    var pendingSpace = 0.0

    init(region: Region, top: Double) {
        self.region = region
        y = top
    }

    func gap(before spaceBefore: Double) -> Double {
        hasContent ? max(pendingSpace, spaceBefore) : 0
    }

    var remaining: Double { region.bottom - y }

    /// Records a finished block.
    mutating func finish(at newY: Double, spaceAfter: Double) {
        y = newY
        hasContent = true
        pendingSpace = spaceAfter
    }
}

/// How placing an element went.
enum Outcome {
    /// Placed entirely; continue with element `next`.
    case done(next: Int)
    /// Part placed, the page is full; continue the element on the next page.
    case pageFull(Progress)
    /// Nothing placed; the element starts on the next page.
    case noRoom
    /// End the page; continue with element `next`.
    case breakPage(next: Int)
    /// A group that cannot stay together: flow its children one by one.
    case enterGroup
}

/// Tolerance for comparing heights built from sums of fractions of a point.
let layoutEpsilon = 0.01
