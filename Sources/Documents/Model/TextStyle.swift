import Graphics

/// How a run of text looks and how much room it leaves around it.
public struct TextStyle: Sendable, Hashable {
    public var font: FontDescription
    public var color: Color
    public var alignment: TextAlignment
    /// A multiple of the font's natural line height.
    public var lineSpacing: Double
    /// Digits of equal width, so amounts line up.
    public var tabularFigures: Bool
    /// Vertical room before and after the block; between two blocks the larger one is used,
    /// and none is added at the top of a page.
    public var spaceBefore: Double
    public var spaceAfter: Double

    public init(font: FontDescription, color: Color = Palette.text, alignment: TextAlignment = .leading,
                lineSpacing: Double = 1, tabularFigures: Bool = false,
                spaceBefore: Double = 0, spaceAfter: Double = 0) {
        self.font = font
        self.color = color
        self.alignment = alignment
        self.lineSpacing = lineSpacing
        self.tabularFigures = tabularFigures
        self.spaceBefore = spaceBefore
        self.spaceAfter = spaceAfter
    }

    var format: TextFormat {
        TextFormat(font: font, alignment: alignment, lineSpacing: lineSpacing, tabularFigures: tabularFigures)
    }

    // MARK: Presets

    public static let body = TextStyle(font: FontDescription(size: 9.5), lineSpacing: 1.05, spaceAfter: 6)
    public static let small = TextStyle(font: FontDescription(size: 8), color: Palette.secondaryText, spaceAfter: 4)
    public static let title = TextStyle(font: FontDescription(size: 22, weight: .semibold), spaceAfter: 10)
    public static let heading1 = TextStyle(font: FontDescription(size: 15, weight: .semibold), spaceBefore: 16, spaceAfter: 6)
    public static let heading2 = TextStyle(font: FontDescription(size: 12, weight: .semibold), spaceBefore: 14, spaceAfter: 5)
    public static let heading3 = TextStyle(font: FontDescription(size: 10, weight: .semibold), spaceBefore: 10, spaceAfter: 4)

    // MARK: Variations

    public func withWeight(_ weight: FontWeight) -> TextStyle {
        var copy = self
        copy.font.weight = weight
        return copy
    }

    public func withColor(_ color: Color) -> TextStyle {
        var copy = self
        copy.color = color
        return copy
    }

    public func withAlignment(_ alignment: TextAlignment) -> TextStyle {
        var copy = self
        copy.alignment = alignment
        return copy
    }

    public func withSize(_ size: Double) -> TextStyle {
        var copy = self
        copy.font.size = size
        return copy
    }

    public func withSpacing(before: Double? = nil, after: Double? = nil) -> TextStyle {
        var copy = self
        if let before { copy.spaceBefore = before }
        if let after { copy.spaceAfter = after }
        return copy
    }
}

/// The colours of Billfold's documents: quiet greys around near-black text, one accent.
public enum Palette {
    public static let text = Color(hex: 0x1F2328)
    public static let secondaryText = Color(hex: 0x59636E)
    public static let tertiaryText = Color(hex: 0x818B98)
    public static let hairline = Color(hex: 0xD1D9E0)
    public static let stripe = Color(hex: 0xF4F6F8)
    public static let accent = Color(hex: 0x1C71D8)
}
