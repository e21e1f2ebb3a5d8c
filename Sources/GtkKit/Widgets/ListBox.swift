import CGtk
import GObjectCore

/// A `GtkListBox` of a few rows (sidebars, forms). Long lists use a virtualized view instead.
@MainActor
public final class ListBox: Widget {
    private var rows: [Widget] = []

    public init() {
        super.init(adopting: untyped(gtk_list_box_new()))
    }

    /// The GNOME sidebar look.
    public func styleAsNavigationSidebar() { addCssClass("navigation-sidebar") }
    /// The boxed-list card look.
    public func styleAsBoxedList() { addCssClass("boxed-list") }

    /// Appends a row; `accessibleLabel` names the row itself for screen readers (GTK wraps
    /// plain widgets in a `GtkListBoxRow` that would otherwise have no name).
    public func append(_ row: Widget, accessibleLabel: String? = nil) {
        gtk_list_box_append(pointer(), row.widgetPointer)
        rows.append(row)
        if let accessibleLabel, let listRow = gtk_widget_get_parent(row.widgetPointer) {
            bf_accessible_set_label(listRow, accessibleLabel)
        }
    }

    public func remove(_ row: Widget) {
        // A plain widget sits in the GtkListBoxRow GTK wrapped it in; that row is the list's child.
        let parent = gtk_widget_get_parent(row.widgetPointer)
        let child = parent.map { UnsafeMutableRawPointer($0) } == UnsafeMutableRawPointer(widgetPointer) ? row.widgetPointer : parent
        if let child { gtk_list_box_remove(pointer(), child) }
        rows.removeAll { $0.isSameObject(as: row) }
    }

    public func removeAll() { rows.forEach(remove) }

    public var count: Int { rows.count }

    /// The index of the selected row, or nil.
    public var selectedIndex: Int? {
        get {
            guard let row = gtk_list_box_get_selected_row(pointer()) else { return nil }
            let index = Int(gtk_list_box_row_get_index(row))
            return index >= 0 ? index : nil
        }
        set {
            if let newValue, let row = gtk_list_box_get_row_at_index(pointer(), gint(newValue)) {
                gtk_list_box_select_row(pointer(), row)
            } else {
                gtk_list_box_unselect_all(pointer())
            }
        }
    }

    /// Rows that were appended as plain widgets get wrapped in a `GtkListBoxRow`; this is the
    /// index of the row containing `widget`.
    public func index(of widget: Widget) -> Int? { rows.firstIndex { $0.isSameObject(as: widget) } }

    /// Selection changes (keyboard or pointer, or `selectedIndex`).
    @discardableResult
    public func onSelectionChanged(_ handler: @escaping @MainActor (Int?) -> Void) -> SignalHandler {
        connectWithPointer("row-selected") { row in
            guard let row else { handler(nil); return }
            handler(Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self))))
        }
    }

    /// Activates the row at `index` as a click or Enter would; a row that is not activatable
    /// does nothing, as it does for a click.
    public func activateRow(at index: Int) {
        guard let row = gtk_list_box_get_row_at_index(pointer(), gint(index)) else { return }
        _ = gtk_widget_activate(bf_widget(row))
    }

    /// A row clicked or Enter pressed on it.
    @discardableResult
    public func onRowActivated(_ handler: @escaping @MainActor (Int) -> Void) -> SignalHandler {
        connectWithPointer("row-activated") { row in
            guard let row else { return }
            handler(Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self))))
        }
    }
}
