import CGtk
import GObjectCore

/// A `GtkLabel`. Labels wrap by default: Billfold never clips text.
@MainActor
public final class Label: Widget {
    public init(_ text: String = "", wraps: Bool = true, style: String? = nil) {
        super.init(adopting: untyped(gtk_label_new(text)))
        self.wraps = wraps
        if let style { addCssClass(style) }
    }

    public var text: String {
        get { String(cString: gtk_label_get_text(pointer())) }
        set { gtk_label_set_text(pointer(), newValue) }
    }

    public var wraps: Bool {
        get { gtk_label_get_wrap(pointer()) != 0 }
        set {
            gtk_label_set_wrap(pointer(), newValue ? 1 : 0)
            gtk_label_set_wrap_mode(pointer(), PANGO_WRAP_WORD_CHAR)
        }
    }

    /// 0 is the leading edge, 1 the trailing edge (mirrored in right-to-left locales).
    public var xAlign: Double {
        get { Double(gtk_label_get_xalign(pointer())) }
        set { gtk_label_set_xalign(pointer(), Float(newValue)) }
    }

    public var isSelectable: Bool {
        get { gtk_label_get_selectable(pointer()) != 0 }
        set { gtk_label_set_selectable(pointer(), newValue ? 1 : 0) }
    }

    /// Whether part of the text is selected.
    public var hasSelection: Bool {
        var start: Int32 = 0, end: Int32 = 0
        return gtk_label_get_selection_bounds(pointer(), &start, &end) != 0
    }

    /// Selects nothing. A selectable label that takes the focus selects all its text, and keeps
    /// it selected (greyed) when the focus moves on.
    public func clearSelection() { gtk_label_select_region(pointer(), 0, 0) }

    public func setJustification(_ align: Align) {
        switch align {
        case .center: gtk_label_set_justify(pointer(), GTK_JUSTIFY_CENTER)
        case .end: gtk_label_set_justify(pointer(), GTK_JUSTIFY_RIGHT)
        default: gtk_label_set_justify(pointer(), GTK_JUSTIFY_LEFT)
        }
    }

    /// Labels the given widget for assistive technologies (and Alt+letter mnemonics).
    public func describes(_ widget: Widget) { gtk_label_set_mnemonic_widget(pointer(), widget.widgetPointer) }
}

/// A `GtkImage` showing a named (symbolic) icon.
@MainActor
public final class Image: Widget {
    public init(iconName: String, pixelSize: Int? = nil) {
        super.init(adopting: untyped(gtk_image_new_from_icon_name(iconName)))
        if let pixelSize { gtk_image_set_pixel_size(pointer(), gint(pixelSize)) }
    }

    public var iconName: String? {
        get { gtk_image_get_icon_name(pointer()).map { String(cString: $0) } }
        set { gtk_image_set_from_icon_name(pointer(), newValue) }
    }
}
