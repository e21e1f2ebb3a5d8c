import CGtk
import GObjectCore

/// A `GtkButton`.
@MainActor
open class Button: Widget {
    public init(label: String) {
        super.init(adopting: untyped(gtk_button_new_with_mnemonic(label)))
    }

    /// An icon-only button; `accessibleLabel` names it for screen readers and tests.
    public init(iconName: String, accessibleLabel: String) {
        super.init(adopting: untyped(gtk_button_new_from_icon_name(iconName)))
        self.accessibleLabel = accessibleLabel
        tooltip = accessibleLabel
    }

    /// A button whose content is any widget (e.g. an icon and a label).
    public init(child: Widget) {
        super.init(adopting: untyped(gtk_button_new()))
        gtk_button_set_child(pointer(), child.widgetPointer)
    }

    package override init(adopting pointer: UnsafeMutableRawPointer) {
        super.init(adopting: pointer)
    }

    public var label: String? {
        get { gtk_button_get_label(pointer()).map { String(cString: $0) } }
        set { gtk_button_set_label(pointer(), newValue) }
    }

    public var iconName: String? {
        get { gtk_button_get_icon_name(pointer()).map { String(cString: $0) } }
        set { gtk_button_set_icon_name(pointer(), newValue) }
    }

    /// Activates this action (e.g. `app.quit`, `win.save`) when clicked.
    public var actionName: String? {
        get { gtk_actionable_get_action_name(OpaquePointer(widgetPointer)).map { String(cString: $0) } }
        set { gtk_actionable_set_action_name(OpaquePointer(widgetPointer), newValue) }
    }

    public var hasFrame: Bool {
        get { gtk_button_get_has_frame(pointer()) != 0 }
        set { gtk_button_set_has_frame(pointer(), newValue ? 1 : 0) }
    }

    @discardableResult
    public func onClicked(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("clicked", handler)
    }

    /// Clicks the button synchronously, as a pointer click would.
    public func click() { emit("clicked") }

    /// Places the label (or other content) at the leading edge, as a menu item has it, instead
    /// of the centre.
    public func alignContentToStart() {
        guard let child = gtk_button_get_child(pointer()) else { return }
        gtk_widget_set_halign(child, GTK_ALIGN_START)
    }
}

/// A `GtkToggleButton`; buttons in one group behave like radio buttons.
@MainActor
public final class ToggleButton: Button {
    public override init(label: String) {
        super.init(adopting: untyped(gtk_toggle_button_new_with_mnemonic(label)))
    }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(pointer()) != 0 }
        set { gtk_toggle_button_set_active(pointer(), newValue ? 1 : 0) }
    }

    /// Makes this button exclusive with `other`'s group.
    public func join(_ other: ToggleButton) { gtk_toggle_button_set_group(pointer(), other.pointer()) }

    @discardableResult
    public func onToggled(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        connect("toggled", handler)
    }
}

/// A `GtkSwitch`.
@MainActor
public final class Switch: Widget {
    public init() {
        super.init(adopting: untyped(gtk_switch_new()))
        align(vertical: .center)
    }

    public var isActive: Bool {
        get { gtk_switch_get_active(pointer()) != 0 }
        set { gtk_switch_set_active(pointer(), newValue ? 1 : 0) }
    }

    @discardableResult
    public func onToggled(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        onNotify("active", handler)
    }
}

/// A `GtkMenuButton` opening a menu model.
@MainActor
public final class MenuButton: Widget {
    public init(iconName: String, menu: Menu, accessibleLabel: String) {
        super.init(adopting: untyped(gtk_menu_button_new()))
        gtk_menu_button_set_icon_name(pointer(), iconName)
        gtk_menu_button_set_menu_model(pointer(), menu.menuPointer)
        self.accessibleLabel = accessibleLabel
        tooltip = accessibleLabel
    }

    /// A menu button showing text (with a drop-down arrow), such as a zoom level.
    public init(label: String, menu: Menu, accessibleLabel: String) {
        super.init(adopting: untyped(gtk_menu_button_new()))
        gtk_menu_button_set_label(pointer(), label)
        gtk_menu_button_set_menu_model(pointer(), menu.menuPointer)
        self.accessibleLabel = accessibleLabel
        tooltip = accessibleLabel
    }

    public var label: String? {
        get { gtk_menu_button_get_label(pointer()).map { String(cString: $0) } }
        set { gtk_menu_button_set_label(pointer(), newValue) }
    }

    /// Marks it as the window's primary menu, opened with F10.
    public func makePrimary() {
        if bf_gtk_at_least(4, 4) != 0 { setProperty("primary", true) }
    }

    public func popup() { gtk_menu_button_popup(pointer()) }
}

/// A `GMenu` of actions, with sections.
@MainActor
public final class Menu: Object {
    public init() { super.init(adopting: untyped(g_menu_new())) }

    package var menuPointer: UnsafeMutablePointer<GMenuModel> { pointer() }

    public func append(_ label: String, action: String) { g_menu_append(pointer(), label, action) }
    public func appendSection(_ section: Menu) { g_menu_append_section(pointer(), nil, section.menuPointer) }
}
