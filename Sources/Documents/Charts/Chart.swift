import Graphics

/// One named row of values, one per category.
public struct ChartSeries: Sendable {
    public var name: String
    public var values: [Double]
    /// nil: the style's palette colour for the series' position.
    public var color: Color?

    public init(_ name: String, values: [Double], color: Color? = nil) {
        self.name = name
        self.values = values
        self.color = color
    }
}

/// What a chart shows. Values are plotting positions, not money: format them for labels
/// with `valueLabel` (for example from integer minor units to a localized amount).
public struct Chart: Sendable {
    public enum Kind: Sendable {
        case bar, line
    }

    public var kind: Kind
    public var categories: [String]
    public var series: [ChartSeries]
    public var valueLabel: @Sendable (Double) -> String
    /// Values written above single-series bars when there is room.
    public var showsValueLabels: Bool

    public init(kind: Kind, categories: [String], series: [ChartSeries], showsValueLabels: Bool = true,
                valueLabel: @escaping @Sendable (Double) -> String = Chart.plainNumber) {
        self.kind = kind
        self.categories = categories
        self.series = series
        self.showsValueLabels = showsValueLabels
        self.valueLabel = valueLabel
    }

    /// Whole numbers without decimals, others with two.
    public static let plainNumber: @Sendable (Double) -> String = { value in
        value.rounded() == value ? String(Int(value)) : String(format: "%.2f", value)
    }
}

/// Colours and type for a chart, so one painter serves paper, light and dark screens.
public struct ChartStyle: Sendable {
    public var background: Color?
    public var text: Color
    public var secondaryText: Color
    public var gridLine: Color
    public var axisLine: Color
    public var palette: [Color]
    /// Label font, in user-space units (points on paper, pixels on screen).
    public var font: FontDescription
    /// The inside of a line chart's point markers: the surface the chart sits on.
    public var markerFill: Color

    public init(background: Color?, text: Color, secondaryText: Color, gridLine: Color, axisLine: Color,
                palette: [Color], font: FontDescription, markerFill: Color? = nil) {
        self.background = background
        self.markerFill = markerFill ?? background ?? .white
        self.text = text
        self.secondaryText = secondaryText
        self.gridLine = gridLine
        self.axisLine = axisLine
        self.palette = palette.isEmpty ? [Palette.accent] : palette
        self.font = font
    }

    static let lightPalette = [Color(hex: 0x1C71D8), Color(hex: 0x2EC27E), Color(hex: 0xE66100),
                               Color(hex: 0x9141AC), Color(hex: 0xC01C28), Color(hex: 0x865E3C)]
    static let darkPalette = [Color(hex: 0x62A0EA), Color(hex: 0x57E389), Color(hex: 0xFFA348),
                              Color(hex: 0xC061CB), Color(hex: 0xF66151), Color(hex: 0xCDAB8F)]

    /// For PDFs and print: no background, small type.
    public static let print = ChartStyle(background: nil, text: Palette.text, secondaryText: Palette.secondaryText,
                                         gridLine: Color(hex: 0xE4E8EC), axisLine: Color(hex: 0xAEB7C1),
                                         palette: lightPalette, font: FontDescription(size: 7.5))
    /// For a light window.
    public static let light = ChartStyle(background: nil, text: Color(hex: 0x241F31), secondaryText: Color(hex: 0x5E5C64),
                                         gridLine: Color(hex: 0xDEDDDA), axisLine: Color(hex: 0x9A9996),
                                         palette: lightPalette, font: FontDescription(size: 12))
    /// For a dark window.
    public static let dark = ChartStyle(background: nil, text: Color(hex: 0xFFFFFF), secondaryText: Color(hex: 0xC0BFBC),
                                        gridLine: Color(hex: 0x3D3846), axisLine: Color(hex: 0x77767B),
                                        palette: darkPalette, font: FontDescription(size: 12),
                                        markerFill: Color(hex: 0x303030))
}
