import CGtk
import GObjectCore

/// A `GtkTextView` with its buffer: several lines of text to read or edit, e.g. a pasted block.
@MainActor
public final class TextView: Widget {
    /// The view's `GtkTextBuffer`, which emits `changed`.
    private let buffer: Object

    public init(text: String = "") {
        let view = untyped(gtk_text_view_new())
        buffer = Object(retaining: untyped(gtk_text_view_get_buffer(view.assumingMemoryBound(to: GtkTextView.self))))
        super.init(adopting: view)
        wrapsAnywhere = true
        if !text.isEmpty { self.text = text }
    }

    private var bufferPointer: UnsafeMutablePointer<GtkTextBuffer> { buffer.pointer() }

    public var text: String {
        get {
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(bufferPointer, &start, &end)
            guard let text = gtk_text_buffer_get_text(bufferPointer, &start, &end, 0) else { return "" }
            defer { g_free(text) }
            return String(cString: text)
        }
        set { gtk_text_buffer_set_text(bufferPointer, newValue, -1) }
    }

    /// Characters in the buffer, known without copying the text out (a huge paste stays cheap).
    public var characterCount: Int { Int(gtk_text_buffer_get_char_count(bufferPointer)) }

    /// A fixed-width font, for codes and keys whose characters must be told apart.
    public var isMonospace: Bool {
        get { gtk_text_view_get_monospace(pointer()) != 0 }
        set { gtk_text_view_set_monospace(pointer(), newValue ? 1 : 0) }
    }

    public var isEditable: Bool {
        get { gtk_text_view_get_editable(pointer()) != 0 }
        set { gtk_text_view_set_editable(pointer(), newValue ? 1 : 0) }
    }

    /// Wraps long lines at any character (a base64 line has no spaces) instead of scrolling sideways.
    public var wrapsAnywhere: Bool {
        get { gtk_text_view_get_wrap_mode(pointer()) != GTK_WRAP_NONE }
        set { gtk_text_view_set_wrap_mode(pointer(), newValue ? GTK_WRAP_CHAR : GTK_WRAP_NONE) }
    }

    /// The height of `lines` lines of text in the view's font, plus its top and bottom margins:
    /// what a field meant for an address needs to show all of it.
    public func height(ofLines lines: Int) -> Int {
        let layout = gtk_widget_create_pango_layout(widgetPointer, "Ag")
        var height: gint = 0
        pango_layout_get_pixel_size(layout, nil, &height)
        g_object_unref(UnsafeMutableRawPointer(layout))
        let margins = gtk_text_view_get_top_margin(pointer()) + gtk_text_view_get_bottom_margin(pointer())
        return max(1, lines) * Int(height) + Int(margins)
    }

    /// Space between the text and the view's edges.
    public func setTextMargins(_ margin: Int) {
        gtk_text_view_set_top_margin(pointer(), gint(margin))
        gtk_text_view_set_bottom_margin(pointer(), gint(margin))
        gtk_text_view_set_left_margin(pointer(), gint(margin))
        gtk_text_view_set_right_margin(pointer(), gint(margin))
    }

    /// Selects everything, e.g. so that a paste replaces it.
    public func selectAll() {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(bufferPointer, &start, &end)
        gtk_text_buffer_select_range(bufferPointer, &start, &end)
    }

    /// Typing, pasting, dropping text, or setting `text`.
    @discardableResult
    public func onChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        buffer.connect("changed", handler)
    }
}
