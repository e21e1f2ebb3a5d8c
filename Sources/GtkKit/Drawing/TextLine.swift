import CGtk
import GObjectCore

/// A colour in 0…1 channels, as the widget's theme gives it.
public struct StyleColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public func withAlpha(_ factor: Double) -> StyleColor {
        StyleColor(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    init(_ rgba: GdkRGBA) {
        self.init(red: Double(rgba.red), green: Double(rgba.green), blue: Double(rgba.blue), alpha: Double(rgba.alpha))
    }
}

extension Widget {
    /// The widget's text colour now (it follows light, dark and high-contrast styles).
    public var foregroundColor: StyleColor {
        var rgba = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(widgetPointer), &rgba)
        return StyleColor(rgba)
    }

    /// A named colour of the theme, such as libadwaita's "accent_color" or "error_color".
    public func styleColor(named name: String) -> StyleColor? {
        var rgba = GdkRGBA()
        guard gtk_style_context_lookup_color(gtk_widget_get_style_context(widgetPointer), name, &rgba) != 0 else { return nil }
        return StyleColor(rgba)
    }
}

/// One line of text that a widget's paint function appends (`Snapshot.append`), in the
/// widget's own font (so it follows the desktop's font, text scaling and direction), shaped
/// only when its text changes. Painted rows use it where hundreds of recycled label widgets
/// would each be measured again.
/// Its Pango layout is made when first measured or drawn: GTK 4.8's list view makes some 200
/// rows, and only those on screen are ever painted.
@MainActor
public final class TextLine {
    public enum Weight { case regular, bold }

    /// Weak: the widget usually owns its text lines.
    private weak var widget: Widget?
    private let weight: Weight
    private let scale: Double
    private let tabularFigures: Bool
    private var layout: Object?

    /// `scale` multiplies the widget's font size (0.83 is CSS "smaller"); `tabularFigures`
    /// gives every digit one width, so amounts in a column line up.
    public init(in widget: Widget, weight: Weight = .regular, scale: Double = 1, tabularFigures: Bool = false) {
        self.widget = widget
        self.weight = weight
        self.scale = scale
        self.tabularFigures = tabularFigures
    }

    var layoutPointer: OpaquePointer {
        if let layout { return layout.opaquePointer }
        let pointer: OpaquePointer
        if let widget {
            pointer = gtk_widget_create_pango_layout(widget.widgetPointer, nil)!
        } else {
            // Outlived by its widget (never while the widget draws it): Pango's default font.
            let context = pango_font_map_create_context(pango_cairo_font_map_get_default())!
            defer { g_object_unref(UnsafeMutableRawPointer(context)) }
            pointer = pango_layout_new(context)!
        }
        let attributes = pango_attr_list_new()
        if weight == .bold { pango_attr_list_insert(attributes, pango_attr_weight_new(PANGO_WEIGHT_BOLD)) }
        if scale != 1 { pango_attr_list_insert(attributes, pango_attr_scale_new(scale)) }
        if tabularFigures { pango_attr_list_insert(attributes, pango_attr_font_features_new("tnum=1")) }
        pango_layout_set_attributes(pointer, attributes)
        pango_attr_list_unref(attributes)
        pango_layout_set_ellipsize(pointer, PANGO_ELLIPSIZE_END)
        pango_layout_set_single_paragraph_mode(pointer, 1)
        pango_layout_set_text(pointer, text, -1)
        if let maximumWidth { pango_layout_set_width(pointer, Self.pangoWidth(maximumWidth)) }
        layout = Object(adopting: UnsafeMutableRawPointer(pointer))
        return pointer
    }

    private static func pangoWidth(_ width: Int?) -> gint {
        width.map { gint(clamping: max(0, $0) * Int(PANGO_SCALE)) } ?? -1
    }

    public var text: String = "" {
        didSet { if text != oldValue, let layout { pango_layout_set_text(layout.opaquePointer, text, -1) } }
    }

    /// The width beyond which the text ends in "…" (nil: never).
    public var maximumWidth: Int? {
        didSet {
            guard maximumWidth != oldValue, let layout else { return }
            pango_layout_set_width(layout.opaquePointer, Self.pangoWidth(maximumWidth))
        }
    }

    /// The laid-out size in pixels (after ellipsizing).
    public var size: (width: Int, height: Int) {
        var width: gint = 0, height: gint = 0
        pango_layout_get_pixel_size(layoutPointer, &width, &height)
        return (Int(width), Int(height))
    }

    /// What the line height depends on besides the text line's own weight and scale: the
    /// desktop's font and resolution (text scaling), e.g. "Cantarell 11 at 98304" (dpi × 1024).
    public var metricsKey: String {
        guard let widget else { return "" }
        let key = bf_widget_font_key(widget.widgetPointer)!
        defer { g_free(key) }
        return String(cString: key)
    }

    /// The height of one line in this font, whatever the text: rows sized by it never change
    /// height when their text does.
    public var lineHeight: Int {
        let saved = text
        pango_layout_set_text(layoutPointer, "Ag", -1)
        let height = size.height
        pango_layout_set_text(layoutPointer, saved, -1)
        return height
    }
}
