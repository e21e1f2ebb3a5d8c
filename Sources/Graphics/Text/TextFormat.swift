/// Font weights Pango understands (CSS numbers).
public enum FontWeight: Int, Sendable, Hashable {
    case light = 300
    case regular = 400
    case medium = 500
    case semibold = 600
    case bold = 700
    case heavy = 800
}

/// A font request. `family` may list fallbacks, comma-separated ("Noto Sans, DejaVu Sans, Sans");
/// glyphs missing from the chosen face come from another installed font (Pango's fallback).
public struct FontDescription: Sendable, Hashable {
    public var family: String
    /// In user-space units: points in a document.
    public var size: Double
    public var weight: FontWeight
    public var isItalic: Bool

    public init(family: String = FontDescription.defaultFamily, size: Double,
                weight: FontWeight = .regular, isItalic: Bool = false) {
        self.family = family
        self.size = size
        self.weight = weight
        self.isItalic = isItalic
    }

    /// The sans-serif faces Billfold prefers, then whatever fontconfig calls sans.
    public static let defaultFamily = "Noto Sans, DejaVu Sans, Sans"

    public func withWeight(_ weight: FontWeight) -> FontDescription {
        var copy = self
        copy.weight = weight
        return copy
    }

    public func withSize(_ size: Double) -> FontDescription {
        var copy = self
        copy.size = size
        return copy
    }
}

/// Horizontal alignment relative to the text's direction: `leading` is left for English and
/// right for Arabic or Hebrew paragraphs.
public enum TextAlignment: Sendable, Hashable {
    case leading, center, trailing
}

/// How a piece of text is shaped and set.
public struct TextFormat: Sendable, Hashable {
    public var font: FontDescription
    public var alignment: TextAlignment
    /// A multiple of the font's natural line height.
    public var lineSpacing: Double
    /// Digits of equal width (OpenType `tnum`), so amounts line up in columns.
    public var tabularFigures: Bool

    public init(font: FontDescription, alignment: TextAlignment = .leading,
                lineSpacing: Double = 1, tabularFigures: Bool = false) {
        self.font = font
        self.alignment = alignment
        self.lineSpacing = lineSpacing
        self.tabularFigures = tabularFigures
    }
}

/// Position of one laid-out line inside its `TextBlock`; all values in user-space units,
/// `top` and `baseline` measured from the block's top edge, `x` from its left edge.
public struct TextLine: Sendable, Hashable {
    public let top: Double
    public let height: Double
    public let baseline: Double
    public let x: Double
    public let width: Double

    public var bottom: Double { top + height }
}
