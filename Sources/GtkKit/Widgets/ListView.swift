import CGtk
import GObjectCore

/// What a `ListView` shows: a `GListModel` of `GtkStringObject`s, one per row.
@MainActor
public protocol ListViewModel: AnyObject {
    var count: Int { get }
    /// The row's id, or nil past the end.
    subscript(index: Int) -> String? { get }
}

extension StringList: ListViewModel {}

/// A virtualized `GtkListView` over a list of row ids (or only positions), with single selection.
///
/// Only the rows on screen exist as widgets: `makeRow` builds one when GTK needs another,
/// and `bind` fills a recycled row for the id at a position. So a list of 100 000 ids costs
/// a few dozen widgets, and the caller loads data only for the ids it is asked to bind.
/// A row is typed: its controller is the row widget's own wrapper subclass, kept with the
/// list item from setup and released on teardown.
@MainActor
public final class ListView<Row: Widget>: Widget {
    public let model: any ListViewModel
    private let selection: Object
    private let factory: Object
    /// The Swift wrappers of the row widgets, by their list item, so they live as long as it.
    private var rows: [UnsafeMutableRawPointer: Row] = [:]
    private let makeRow: @MainActor () -> Row
    private let bind: @MainActor (_ row: Row, _ id: String, _ position: Int) -> Void

    public init<Model: Object & ListViewModel>(model: Model, makeRow: @escaping @MainActor () -> Row,
                bind: @escaping @MainActor (_ row: Row, _ id: String, _ position: Int) -> Void) {
        self.model = model
        self.makeRow = makeRow
        self.bind = bind
        // Both constructors take ownership of their argument: give each its own reference.
        let listModel = model.opaquePointer
        g_object_ref(UnsafeMutableRawPointer(listModel))
        let single = gtk_single_selection_new(listModel)
        gtk_single_selection_set_autoselect(single, 0)
        gtk_single_selection_set_can_unselect(single, 1)
        // Autoselect was on while it was made, which chose the first row.
        gtk_single_selection_set_selected(single, GTK_INVALID_LIST_POSITION)
        selection = Object(retaining: untyped(single))
        let signalFactory = gtk_signal_list_item_factory_new()
        factory = Object(retaining: untyped(signalFactory))
        g_object_ref(UnsafeMutableRawPointer(single))
        super.init(adopting: untyped(gtk_list_view_new(single, signalFactory)))
        // The view took the factory's first reference and the extra one of the selection;
        // drop the selection's first, so each object is held by the view and its wrapper.
        g_object_unref(UnsafeMutableRawPointer(single))

        factory.connectWithPointer("setup") { [weak self] item in
            guard let self, let item else { return }
            let row = self.makeRow()
            self.rows[item] = row
            gtk_list_item_set_child(OpaquePointer(item), row.widgetPointer)
        }
        factory.connectWithPointer("bind") { [weak self] item in
            guard let self, let item, let row = self.rows[item] else { return }
            let listItem = OpaquePointer(item)
            let position = Int(gtk_list_item_get_position(listItem))
            guard let object = gtk_list_item_get_item(listItem),
                  let text = gtk_string_object_get_string(OpaquePointer(object)) else { return }
            self.bind(row, String(cString: text), position)
        }
        factory.connectWithPointer("teardown") { [weak self] item in
            guard let self, let item else { return }
            self.rows[item] = nil
        }
    }

    /// How many row widgets exist now (a few screens' worth, whatever the model's size).
    public var rowWidgetCount: Int { rows.count }

    /// The row widgets that exist now, bound or waiting to be.
    public var rowWidgets: [Row] { Array(rows.values) }

    /// The selected position, or nil.
    public var selectedIndex: Int? {
        get {
            let position = gtk_single_selection_get_selected(selection.pointer())
            return position == GTK_INVALID_LIST_POSITION ? nil : Int(position)
        }
        set {
            gtk_single_selection_set_selected(selection.pointer(), newValue.map { guint($0) } ?? GTK_INVALID_LIST_POSITION)
        }
    }

    /// The id at the selected position, or nil.
    public var selectedID: String? { selectedIndex.flatMap { model[$0] } }

    /// Selection changes, whether by the user, by `selectedIndex`, or by the model changing.
    @discardableResult
    public func onSelectionChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        selection.onNotify("selected", handler)
    }

    /// A row activated (double click or Enter), with its position.
    @discardableResult
    public func onActivated(_ handler: @escaping @MainActor (Int) -> Void) -> SignalHandler {
        connectWithInteger("activate", handler)
    }

    /// Activates the row at `position`, as Enter or a double click on it does.
    public func activate(at position: Int) {
        guard position >= 0, position < model.count else { return }
        gtk_widget_activate_action_variant(widgetPointer, "list.activate-item", g_variant_new_uint32(guint32(position)))
    }

    /// Scrolls so that `position` is shown.
    public func scrollTo(_ position: Int) {
        guard position >= 0, position < model.count else { return }
        gtk_widget_activate_action_variant(widgetPointer, "list.scroll-to-item", g_variant_new_uint32(guint32(position)))
    }

    /// Binds every row on screen again, e.g. after the data behind the ids changed.
    public func rebindVisibleRows() {
        for (item, row) in rows {
            let listItem = OpaquePointer(item)
            guard let object = gtk_list_item_get_item(listItem),
                  let text = gtk_string_object_get_string(OpaquePointer(object)) else { continue }
            bind(row, String(cString: text), Int(gtk_list_item_get_position(listItem)))
        }
    }

    /// The rich-list look (rows with padding and separators).
    public func styleAsRichList() { addCssClass("rich-list") }
}

/// A list model that is only a length: `count` rows that a `ListView` binds by position from
/// data of its own. It is a `GtkSliceListModel` over blank rows that only ever grow in number,
/// so changing the length (a search going from 100 000 matches to 12 and back) makes and frees
/// no row objects, where resizing a `StringList` does both for every row.
extension Widget {
    /// The name assistive technologies read for the list item that holds this row. GTK 4.8
    /// reads a `GtkListView`'s item widget, not the row inside it, and `GtkListItem` has no
    /// accessible label of its own, so the label goes on the item widget.
    public var listItemAccessibleLabel: String? {
        get { listItemWidget?.accessibleLabel }
        set { listItemWidget?.accessibleLabel = newValue }
    }

    private var listItemWidget: Widget? {
        gtk_widget_get_parent(widgetPointer).map { Widget.wrapper(ofWidget: $0) }
    }
}

@MainActor
public final class PositionList: Object, ListViewModel {
    private let blanks = StringList()

    public init(count: Int = 0) {
        // The slice model takes ownership of its argument: give it its own reference.
        g_object_ref(UnsafeMutableRawPointer(blanks.opaquePointer))
        super.init(adopting: untyped(gtk_slice_list_model_new(blanks.opaquePointer, 0, 0)))
        self.count = count
    }

    private var slice: OpaquePointer { pointer() }

    public var count: Int {
        get { Int(gtk_slice_list_model_get_size(slice)) }
        set {
            let wanted = max(0, newValue)
            // Grown past the slice's end, so views see only the size change below.
            if wanted > blanks.count { blanks.appendBlanks(max(wanted, blanks.count * 2) - blanks.count) }
            if wanted != count { gtk_slice_list_model_set_size(slice, guint(wanted)) }
        }
    }

    public subscript(index: Int) -> String? { index >= 0 && index < count ? "" : nil }
}

extension StringList {
    /// Appends `count` empty strings in one change.
    func appendBlanks(_ count: Int) {
        guard count > 0 else { return }
        "".withCString { blank in
            var strings = [UnsafePointer<CChar>?](repeating: blank, count: count)
            strings.append(nil)
            strings.withUnsafeBufferPointer { gtk_string_list_splice(pointer(), guint(self.count), 0, $0.baseAddress) }
        }
    }

    /// Replaces the string at `index`; views bind that row again.
    public func replace(at index: Int, with string: String) {
        guard index >= 0, index < count else { return }
        var cStrings: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(string)), nil]
        defer { free(UnsafeMutableRawPointer(mutating: cStrings[0])) }
        cStrings.withUnsafeMutableBufferPointer {
            gtk_string_list_splice(pointer(), guint(index), 1, $0.baseAddress)
        }
    }

    public func remove(at index: Int) {
        guard index >= 0, index < count else { return }
        gtk_string_list_remove(pointer(), guint(index))
    }

    public func insert(_ string: String, at index: Int) {
        let position = max(0, min(index, count))
        var cStrings: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(string)), nil]
        defer { free(UnsafeMutableRawPointer(mutating: cStrings[0])) }
        cStrings.withUnsafeMutableBufferPointer {
            gtk_string_list_splice(pointer(), guint(position), 0, $0.baseAddress)
        }
    }

    /// The position of `string`, searching from the start; nil when absent.
    public func firstIndex(of string: String) -> Int? {
        for index in 0..<count where self[index] == string { return index }
        return nil
    }
}
