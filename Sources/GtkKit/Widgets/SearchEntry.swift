import CGtk
import GObjectCore

/// A `GtkSearchEntry`: search as you type, with a short delay so fast typing searches once.
@MainActor
public final class SearchEntry: Widget {
    public init(placeholder: String? = nil) {
        super.init(adopting: untyped(gtk_search_entry_new()))
        if let placeholder { setProperty("placeholder-text", placeholder) }
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(bf_editable(widgetPointer))) }
        set { gtk_editable_set_text(bf_editable(widgetPointer), newValue) }
    }

    /// Adds `typed` at the end as typing does: one insertion, where setting `text` is a
    /// deletion and an insertion, and so two searches.
    public func type(_ typed: String) {
        var position = gint(gtk_editable_get_text(bf_editable(widgetPointer)).map { g_utf8_strlen($0, -1) } ?? 0)
        gtk_editable_insert_text(bf_editable(widgetPointer), typed, -1, &position)
    }

    /// The text changed and the entry's short delay passed (or it was cleared).
    @discardableResult
    public func onSearchChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("search-changed", handler)
    }

    /// Return pressed in the entry.
    @discardableResult
    public func onActivated(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("activate", handler)
    }

    /// Escape pressed in the entry.
    @discardableResult
    public func onStopSearch(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("stop-search", handler)
    }
}
