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
        let gesture = Object(adopting: untyped(gtk_gesture_click_new()))
        gesture.connectSignal("pressed", arguments: [.integer, .double, .double]) { [weak self] _ in
            self?.grabFocus()
            return 0
        }
        g_object_ref(gesture.rawPointer)
        gtk_widget_add_controller(widgetPointer, gesture.pointer())
    }

    /// Calls `handler` when a primary click on the widget ends: released where it was pressed.
    /// A press that turns into a drag (scrolling a list by touch) is no click.
    @discardableResult
    public func onClick(_ handler: @escaping @MainActor () -> Void) -> Object {
        let gesture = Object(adopting: untyped(gtk_gesture_click_new()))
        gesture.connectSignal("released", arguments: [.integer, .double, .double]) { arguments in
            // A double click reports a second release; the first one was the click.
            if arguments.integer(1) == 1 { handler() }
            return 0
        }
        g_object_ref(gesture.rawPointer)
        gtk_widget_add_controller(widgetPointer, gesture.pointer())
        return gesture
    }

    /// Reports a primary-button click, press then release, to the widget's click gestures
    /// (`onClick`, `takesFocusOnClick`), as a pointer clicking it would.
    public func simulateClick() {
        let controllers = gtk_widget_observe_controllers(widgetPointer)
        defer { g_object_unref(UnsafeMutableRawPointer(controllers)) }
        for index in 0..<g_list_model_get_n_items(controllers) {
            guard let controller = g_list_model_get_item(controllers, index) else { continue }
            defer { g_object_unref(controller) }
            let type = controller.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type
            if g_type_is_a(type, gtk_gesture_click_get_type()) != 0 {
                bf_gesture_click_emit_pressed(controller, 1, 1, 1)
                bf_gesture_click_emit_released(controller, 1, 1, 1)
            }
        }
    }
}
