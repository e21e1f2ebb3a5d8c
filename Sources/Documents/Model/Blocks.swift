import Foundation
import Graphics

/// A piece of a document, flowed top to bottom onto pages.
public indirect enum Block: Sendable {
    case paragraph(Paragraph)
    case heading(Heading)
    case keyValues(KeyValueList)
    case table(Table)
    case image(ImageBlock)
    /// Pages of another PDF (a receipt), drawn as vectors, each scaled to fit.
    case pdfPages(EmbeddedPDF)
    case chart(ChartBlock)
    /// A QR code drawn as vector squares, sharp at any zoom and in print.
    case qrCode(QRCodeBlock)
    /// Empty vertical room, in points (dropped at the top of a page).
    case spacer(Double)
    case rule(Rule)
    /// Continue on a new page (ignored at the top of a page).
    case pageBreak
    /// Blocks kept on one page when they fit on one; otherwise they flow as usual.
    case keepTogether([Block])
    /// Blocks side by side (the sender and the client of an invoice), kept on one page.
    case columns(ColumnSet)

    /// A paragraph of plain text.
    public static func text(_ text: String, style: TextStyle = .body) -> Block {
        .paragraph(Paragraph(text, style: style))
    }
}

/// Plain text (no markup) in one style. Newlines start new paragraphs within the block.
public struct Paragraph: Sendable {
    public var text: String
    public var style: TextStyle

    public init(_ text: String, style: TextStyle = .body) {
        self.text = text
        self.style = style
    }
}

/// A heading; never left alone at the bottom of a page.
public struct Heading: Sendable {
    public var text: String
    public var level: Int
    public var style: TextStyle

    /// `level` 1 to 3; `style` overrides the level's preset.
    public init(_ text: String, level: Int = 1, style: TextStyle? = nil) {
        self.text = text
        self.level = min(3, max(1, level))
        self.style = style ?? [TextStyle.heading1, .heading2, .heading3][self.level - 1]
    }
}

/// Labelled values in two columns: "Invoice number  2024-017", or totals at the right.
public struct KeyValueList: Sendable {
    public struct Item: Sendable {
        public var key: String
        public var value: String
        /// Set in the headings' semibold with a rule above, for a grand total.
        public var isEmphasized: Bool

        public init(_ key: String, _ value: String, isEmphasized: Bool = false) {
            self.key = key
            self.value = value
            self.isEmphasized = isEmphasized
        }
    }

    public enum Placement: Sendable {
        /// Keys at the left edge, values after them.
        case leading
        /// A compact block at the right edge with values right-aligned (totals).
        case trailing
    }

    public var items: [Item]
    public var placement: Placement
    /// Width of the list; nil: the content width (leading) or what the text needs (trailing).
    public var width: Double?
    public var keyStyle: TextStyle
    public var valueStyle: TextStyle
    public var rowSpacing: Double
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(_ items: [Item], placement: Placement = .leading, width: Double? = nil,
                keyStyle: TextStyle = TextStyle.body.withColor(Palette.secondaryText),
                valueStyle: TextStyle = .body, rowSpacing: Double = 3,
                spaceBefore: Double = 4, spaceAfter: Double = 8) {
        self.items = items
        self.placement = placement
        self.width = width
        self.keyStyle = keyStyle
        self.valueStyle = valueStyle
        self.rowSpacing = rowSpacing
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}

/// A horizontal line across the content width.
public struct Rule: Sendable {
    public var thickness: Double
    public var color: Color
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(thickness: Double = 0.75, color: Color = Palette.hairline, spaceBefore: Double = 8, spaceAfter: Double = 8) {
        self.thickness = thickness
        self.color = color
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}

/// Where a picture comes from.
public enum ImageSource: Sendable {
    case data(Data)
    case file(path: String)
}

/// A JPEG or PNG picture (a logo, a photographed receipt), upright per its EXIF orientation,
/// scaled to fit its box with its proportions kept.
public struct ImageBlock: Sendable {
    public var source: ImageSource
    /// The box, in points; nil: the content width, and the page body's height.
    public var maxWidth: Double?
    public var maxHeight: Double?
    public var alignment: TextAlignment
    /// Pixels kept per inch at the printed size: big photos are scaled down while decoding,
    /// which bounds memory and file size. nil: the picture goes in with all its pixels (one
    /// already made for its box).
    public var resolution: Double?
    public var caption: String?
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(_ source: ImageSource, maxWidth: Double? = nil, maxHeight: Double? = nil,
                alignment: TextAlignment = .leading, resolution: Double? = 200, caption: String? = nil,
                spaceBefore: Double = 6, spaceAfter: Double = 10) {
        self.source = source
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.alignment = alignment
        self.resolution = resolution
        self.caption = caption
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}

/// Pages of a PDF placed in the document as vectors (text stays text), each scaled to fit
/// the content width and `maxHeight`, one after another.
public struct EmbeddedPDF: Sendable {
    public var data: Data
    /// Zero-based page indices; nil: every page.
    public var pages: [Int]?
    public var maxHeight: Double?
    /// A hairline around each page, so a white page stands out from the paper.
    public var isFramed: Bool
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(_ data: Data, pages: [Int]? = nil, maxHeight: Double? = nil, isFramed: Bool = true,
                spaceBefore: Double = 6, spaceAfter: Double = 10) {
        self.data = data
        self.pages = pages
        self.maxHeight = maxHeight
        self.isFramed = isFramed
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}

/// A chart drawn by `ChartPainter`, the same code that draws it on screen.
public struct ChartBlock: Sendable {
    public var chart: Chart
    public var style: ChartStyle
    public var height: Double
    /// nil: the content width.
    public var width: Double?
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(_ chart: Chart, style: ChartStyle = .print, height: Double = 180, width: Double? = nil,
                spaceBefore: Double = 6, spaceAfter: Double = 12) {
        self.chart = chart
        self.style = style
        self.height = height
        self.width = width
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}

/// A QR code in a square box; the box includes the light margin (quiet zone) scanners need.
public struct QRCodeBlock: Sendable {
    public var code: QRCode
    /// Side of the box, in points; nil: the column's width.
    public var side: Double?
    /// Light modules around the symbol; 4 is what ISO/IEC 18004 asks for.
    public var quietZone: Int
    public var color: Color
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(_ code: QRCode, side: Double? = nil, quietZone: Int = 4, color: Color = .black,
                spaceBefore: Double = 0, spaceAfter: Double = 0) {
        self.code = code
        self.side = side
        self.quietZone = max(0, quietZone)
        self.color = color
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}

/// Columns laid side by side; each column's blocks flow top to bottom inside it.
public struct ColumnSet: Sendable {
    public struct Column: Sendable {
        public var width: ColumnWidth
        public var blocks: [Block]

        public init(width: ColumnWidth = .fraction(1), _ blocks: [Block]) {
            self.width = width
            self.blocks = blocks
        }
    }

    public var columns: [Column]
    public var gap: Double
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(_ columns: [Column], gap: Double = 24, spaceBefore: Double = 0, spaceAfter: Double = 12) {
        self.columns = columns
        self.gap = gap
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}
