import CGtk
import GObjectCore

/// An `AdwPreferencesGroup`: a titled list of rows in a boxed card.
@MainActor
public final class PreferencesGroup: Widget {
    public init(title: String = "", description: String? = nil) {
        super.init(adopting: untyped(adw_preferences_group_new()))
        adw_preferences_group_set_title(pointer(), title)
        adw_preferences_group_set_description(pointer(), description)
    }

    public func add(_ child: Widget) { adw_preferences_group_add(pointer(), child.widgetPointer) }
    public func remove(_ child: Widget) { adw_preferences_group_remove(pointer(), child.widgetPointer) }

    public func setHeaderSuffix(_ widget: Widget) {
        if bf_adw_at_least(1, 1) != 0 { adw_preferences_group_set_header_suffix(pointer(), widget.widgetPointer) }
    }

    public var groupDescription: String? {
        get { adw_preferences_group_get_description(pointer()).map { String(cString: $0) } }
        set { adw_preferences_group_set_description(pointer(), newValue) }
    }
}

/// An `AdwPreferencesPage`.
@MainActor
public final class PreferencesPage: Widget {
    public init(title: String, iconName: String) {
        super.init(adopting: untyped(adw_preferences_page_new()))
        adw_preferences_page_set_title(pointer(), title)
        adw_preferences_page_set_icon_name(pointer(), iconName)
    }

    public func add(_ group: PreferencesGroup) { adw_preferences_page_add(pointer(), group.pointer()) }

    /// The name the window shows the page by (`PreferencesWindow.showPage(named:)`); set it
    /// before the page is added.
    public var name: String? {
        get { adw_preferences_page_get_name(pointer()).map { String(cString: $0) } }
        set { adw_preferences_page_set_name(pointer(), newValue) }
    }
}

/// An `AdwPreferencesWindow`.
@MainActor
public final class PreferencesWindow: Window {
    public init(parent: Window?) {
        super.init(retaining: untyped(adw_preferences_window_new()))
        transientParent = parent
        isModal = true
        adw_preferences_window_set_search_enabled(pointer(), 0)
    }

    public func add(_ page: PreferencesPage) { adw_preferences_window_add(pointer(), page.pointer()) }

    /// Shows the page with this `name`; the first page stays shown when none has it.
    public func showPage(named name: String) { adw_preferences_window_set_visible_page_name(pointer(), name) }

    /// The name of the page shown.
    public var visiblePageName: String? {
        adw_preferences_window_get_visible_page_name(pointer()).map { String(cString: $0) }
    }
}

/// An `AdwActionRow`: a title, a subtitle, and widgets before and after.
@MainActor
open class ActionRow: Widget {
    public init(title: String, subtitle: String? = nil) {
        super.init(adopting: untyped(adw_action_row_new()))
        self.title = title
        if let subtitle { self.subtitle = subtitle }
    }

    package override init(adopting pointer: UnsafeMutableRawPointer) { super.init(adopting: pointer) }

    public var title: String {
        get { String(cString: adw_preferences_row_get_title(pointer())) }
        set { adw_preferences_row_set_title(pointer(), newValue) }
    }

    public var subtitle: String? {
        get { adw_action_row_get_subtitle(pointer()).map { String(cString: $0) } }
        set { adw_action_row_set_subtitle(pointer(), newValue) }
    }

    public func addPrefix(_ widget: Widget) { adw_action_row_add_prefix(pointer(), widget.widgetPointer) }
    public func addSuffix(_ widget: Widget) { adw_action_row_add_suffix(pointer(), widget.widgetPointer) }

    /// Clicking the row activates `widget` (e.g. toggles its switch).
    public func activates(_ widget: Widget) { adw_action_row_set_activatable_widget(pointer(), widget.widgetPointer) }

    @discardableResult
    public func onActivated(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        gtk_list_box_row_set_activatable(pointer(), 1)
        return connect("activated", handler)
    }
}

/// An `AdwEntryRow`: a text field that is a list row.
@MainActor
public final class EntryRow: Widget {
    public init(title: String) {
        super.init(adopting: untyped(adw_entry_row_new()))
        adw_preferences_row_set_title(pointer(), title)
    }

    public var title: String {
        get { String(cString: adw_preferences_row_get_title(pointer())) }
        set { adw_preferences_row_set_title(pointer(), newValue) }
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(bf_editable(widgetPointer))) }
        set { gtk_editable_set_text(bf_editable(widgetPointer), newValue) }
    }

    public func addSuffix(_ widget: Widget) { adw_entry_row_add_suffix(pointer(), widget.widgetPointer) }
    public func addPrefix(_ widget: Widget) { adw_entry_row_add_prefix(pointer(), widget.widgetPointer) }

    @discardableResult
    public func onChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler { connect("changed", handler) }

    /// Return in the row activates the window's default widget (its suggested action).
    public var activatesDefault: Bool {
        get { adw_entry_row_get_activates_default(pointer()) != 0 }
        set { adw_entry_row_set_activates_default(pointer(), newValue ? 1 : 0) }
    }

    /// Enter pressed in the row.
    @discardableResult
    public func onEntryActivated(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("entry-activated", handler)
    }
}

/// An `AdwComboRow` choosing one string from a list.
@MainActor
public final class ComboRow: Widget {
    public let model: StringList

    public init(title: String, choices: [String]) {
        model = StringList(choices)
        super.init(adopting: untyped(adw_combo_row_new()))
        adw_preferences_row_set_title(pointer(), title)
        adw_combo_row_set_model(pointer(), model.listModel)
    }

    public var selectedIndex: Int? {
        get {
            let index = adw_combo_row_get_selected(pointer())
            return index == GTK_INVALID_LIST_POSITION ? nil : Int(index)
        }
        set { adw_combo_row_set_selected(pointer(), newValue.map { guint($0) } ?? GTK_INVALID_LIST_POSITION) }
    }

    public var subtitle: String? {
        get { adw_action_row_get_subtitle(pointer()).map { String(cString: $0) } }
        set { adw_action_row_set_subtitle(pointer(), newValue) }
    }

    @discardableResult
    public func onSelectionChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        onNotify("selected", handler)
    }
}
