import CGtk
import GObjectCore

/// A `GtkMenuButton` that opens a popover holding any widget, e.g. a few radio choices.
@MainActor
public final class PopoverButton: Widget {
    private let popover: Widget

    public init(iconName: String, content: Widget, accessibleLabel: String) {
        popover = Widget(retaining: untyped(gtk_popover_new()))
        super.init(adopting: untyped(gtk_menu_button_new()))
        gtk_popover_set_child(popover.pointer(), content.widgetPointer)
        gtk_menu_button_set_icon_name(pointer(), iconName)
        gtk_menu_button_set_popover(pointer(), popover.widgetPointer)
        self.accessibleLabel = accessibleLabel
        tooltip = accessibleLabel
    }

    public func popup() { gtk_menu_button_popup(pointer()) }
    public func popdown() { gtk_menu_button_popdown(pointer()) }

    /// Whether the popover is open.
    public var isOpen: Bool { gtk_widget_get_visible(popover.widgetPointer) != 0 }

    /// The popover appeared on screen, e.g. to put the focus in its search field.
    @discardableResult
    public func onOpened(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        popover.connect("map", handler)
    }
}

/// A `GtkCheckButton`; joined into a group it is a radio button.
@MainActor
public final class CheckButton: Widget {
    public init(label: String) {
        super.init(adopting: untyped(gtk_check_button_new_with_mnemonic(label)))
    }

    public var isActive: Bool {
        get { gtk_check_button_get_active(pointer()) != 0 }
        set { gtk_check_button_set_active(pointer(), newValue ? 1 : 0) }
    }

    /// Makes this one of `other`'s radio group: choosing one clears the others.
    public func join(_ other: CheckButton) { gtk_check_button_set_group(pointer(), other.pointer()) }

    @discardableResult
    public func onToggled(_ handler: @escaping @MainActor () -> Void) -> SignalHandler { connect("toggled", handler) }
}
