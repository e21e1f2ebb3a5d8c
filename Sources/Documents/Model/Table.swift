import Graphics

/// How wide a table column (or a column of a `ColumnSet`) is.
public enum ColumnWidth: Sendable, Hashable {
    /// Exactly this many points.
    case fixed(Double)
    /// A share of the width left after fixed and fitted columns, by weight.
    case fraction(Double)
    /// As wide as its widest cell on one line (a table column only; elsewhere like `.fraction(1)`);
    /// narrowed, and then wrapped, when the table would not fit.
    case fit
}

public struct TableColumn: Sendable {
    public var title: String
    public var width: ColumnWidth
    public var alignment: TextAlignment
    /// Numbers are set with tabular figures so digits line up.
    public var isNumeric: Bool

    public init(_ title: String, width: ColumnWidth = .fraction(1), alignment: TextAlignment = .leading, isNumeric: Bool = false) {
        self.title = title
        self.width = width
        self.alignment = alignment
        self.isNumeric = isNumeric
    }

    /// A column of amounts or quantities: fitted, right-aligned, tabular figures.
    public static func numeric(_ title: String, width: ColumnWidth = .fit) -> TableColumn {
        TableColumn(title, width: width, alignment: .trailing, isNumeric: true)
    }
}

public struct TableRow: Sendable {
    public var cells: [String]
    /// Semibold like the headings, for subtotal rows inside a table.
    public var isEmphasized: Bool

    public init(_ cells: [String], isEmphasized: Bool = false) {
        self.cells = cells
        self.isEmphasized = isEmphasized
    }
}

public struct TableStyle: Sendable {
    public var bodyText: TextStyle
    public var headerText: TextStyle
    public var cellPadding: EdgeInsets
    /// Fill behind every other row (zebra), nil for none.
    public var stripeColor: Color?
    /// Line under each body row (ruled), nil for none.
    public var ruleColor: Color?
    public var ruleWidth: Double
    public var headerBackground: Color?
    public var headerRuleColor: Color
    public var headerRuleWidth: Double

    public init(bodyText: TextStyle = TableStyle.defaultBody, headerText: TextStyle = TableStyle.defaultHeader,
                cellPadding: EdgeInsets = EdgeInsets(vertical: 4.5, horizontal: 6),
                stripeColor: Color? = nil, ruleColor: Color? = nil, ruleWidth: Double = 0.5,
                headerBackground: Color? = nil, headerRuleColor: Color = Palette.text, headerRuleWidth: Double = 0.9) {
        self.bodyText = bodyText
        self.headerText = headerText
        self.cellPadding = cellPadding
        self.stripeColor = stripeColor
        self.ruleColor = ruleColor
        self.ruleWidth = ruleWidth
        self.headerBackground = headerBackground
        self.headerRuleColor = headerRuleColor
        self.headerRuleWidth = headerRuleWidth
    }

    public static let defaultBody = TextStyle(font: FontDescription(size: 9))
    public static let defaultHeader = TextStyle(font: FontDescription(size: 8, weight: .semibold), color: Palette.secondaryText)

    /// Every other row on a light grey band.
    public static let zebra = TableStyle(stripeColor: Palette.stripe)
    /// A hairline under every row.
    public static let ruled = TableStyle(ruleColor: Palette.hairline)
}

/// Rows of cells under a header. Cells wrap (never clipped); the header repeats on each page;
/// a row taller than a page is split between lines.
public struct Table: Sendable {
    public var columns: [TableColumn]
    public var rows: [TableRow]
    public var style: TableStyle
    public var showsHeader: Bool
    public var repeatsHeader: Bool
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(columns: [TableColumn], rows: [TableRow], style: TableStyle = .ruled,
                showsHeader: Bool = true, repeatsHeader: Bool = true,
                spaceBefore: Double = 8, spaceAfter: Double = 12) {
        self.columns = columns
        self.rows = rows
        self.style = style
        self.showsHeader = showsHeader
        self.repeatsHeader = repeatsHeader
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }
}
