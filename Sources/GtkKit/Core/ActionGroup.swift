import CGtk
import GObjectCore

/// A `GSimpleActionGroup`: actions scoped to one widget and what is inside it, reachable as
/// `<prefix>.<name>` from its buttons and menus.
@MainActor
public final class ActionGroup: Object {
    public init() {
        super.init(adopting: untyped(g_simple_action_group_new()))
    }

    public func add(_ action: SimpleAction) {
        g_action_map_add_action(OpaquePointer(objectPointer), action.actionPointer)
    }

    public func hasAction(named name: String) -> Bool {
        g_action_map_lookup_action(OpaquePointer(objectPointer), name) != nil
    }

    /// Activates an action as a menu item would.
    public func activateAction(named name: String) {
        g_action_group_activate_action(OpaquePointer(objectPointer), name, nil)
    }
}

extension Widget {
    /// Makes `group`'s actions reachable as `prefix.name` from this widget and its descendants.
    public func insertActionGroup(_ group: ActionGroup, prefix: String) {
        gtk_widget_insert_action_group(widgetPointer, prefix, OpaquePointer(group.objectPointer))
    }

    /// Takes keyboard focus when clicked, so the widget's shortcuts work after a click on it.
    public func takesFocusOnClick() {
        let gesture = gtk_gesture_click_new()
        let box = Unmanaged.passRetained(WidgetReferenceBox(widgetPointer)).toOpaque()
        let trampoline: @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void = { _, _, _, _, data in
            let box = Unmanaged<WidgetReferenceBox>.fromOpaque(data!).takeUnretainedValue()
            _ = gtk_widget_grab_focus(box.widget)
        }
        g_signal_connect_data(UnsafeMutableRawPointer(gesture), "pressed", unsafeBitCast(trampoline, to: GCallback.self), box, { data, _ in
            guard let data else { return }
            Unmanaged<WidgetReferenceBox>.fromOpaque(data).release()
        }, GConnectFlags(rawValue: 0))
        gtk_widget_add_controller(widgetPointer, gesture)
    }
}

/// The widget a click gesture belongs to; unowned, as the gesture lives inside the widget.
private final class WidgetReferenceBox: @unchecked Sendable {
    let widget: UnsafeMutablePointer<GtkWidget>
    init(_ widget: UnsafeMutablePointer<GtkWidget>) { self.widget = widget }
}
