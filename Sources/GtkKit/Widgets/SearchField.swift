import CGtk
import GObjectCore

/// A `GtkSearchEntry`: a text field with a search icon and a clear button that reports changes
/// after a short pause, so a list is filtered once per burst of typing.
@MainActor
public final class SearchField: Widget {
    public init(placeholder: String) {
        super.init(adopting: untyped(gtk_search_entry_new()))
        setProperty("placeholder-text", placeholder)
        accessibleLabel = placeholder
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(bf_editable(widgetPointer))) }
        set { gtk_editable_set_text(bf_editable(widgetPointer), newValue) }
    }

    /// The text changed and typing paused (or the field was cleared).
    @discardableResult
    public func onSearchChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("search-changed", handler)
    }
}
