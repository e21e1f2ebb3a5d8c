import CGtk
import GObjectCore

/// One scroll step from a mouse wheel or a touchpad.
public struct ScrollEvent: Sendable, Equatable {
    /// Positive is right or down; a wheel click is 1, a touchpad gives fractions.
    public var dx: Double
    public var dy: Double
    /// Ctrl was held, which by convention zooms instead of scrolling.
    public var isControlPressed: Bool

    public init(dx: Double, dy: Double, isControlPressed: Bool) {
        self.dx = dx
        self.dy = dy
        self.isControlPressed = isControlPressed
    }
}

/// Sees scroll events over a widget before the widget itself does (a `GtkEventControllerScroll`
/// in the capture phase), so Ctrl+scroll can zoom a scrolled view instead of scrolling it.
@MainActor
public final class ScrollController: Object {
    /// Set only while `deliver` emits, since a synthetic event carries no key state.
    private var simulatedControl: Bool?

    /// Attaches a new controller to `widget`, which keeps it for its lifetime.
    public init(attachedTo widget: Widget) {
        let flags = GtkEventControllerScrollFlags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES.rawValue)
        let controller = untyped(gtk_event_controller_scroll_new(flags))
        super.init(adopting: controller)
        gtk_event_controller_set_propagation_phase(OpaquePointer(controller), GTK_PHASE_CAPTURE)
        // The widget takes over a reference of its own; this wrapper keeps the one it adopted.
        g_object_ref(controller)
        gtk_widget_add_controller(widget.widgetPointer, OpaquePointer(controller))
    }

    /// Calls `handler` for each scroll; it returns true when it used the event, which then
    /// does not reach the widget (so a Ctrl+scroll that zoomed does not also scroll).
    public func onScroll(_ handler: @escaping @MainActor (ScrollEvent) -> Bool) {
        connectSignal("scroll", arguments: [.double, .double], returning: .integer) { [weak self] arguments in
            guard let self else { return 0 }
            let state = gtk_event_controller_get_current_event_state(self.pointer())
            let control = self.simulatedControl ?? (bf_modifiers_have_control(state) != 0)
            return handler(ScrollEvent(dx: arguments.double(1), dy: arguments.double(2), isControlPressed: control)) ? 1 : 0
        }
    }

    /// Delivers a scroll as the pointer would, with or without Ctrl; returns whether it was used.
    /// For tests, which cannot hold a key and turn a wheel.
    @discardableResult
    package func deliver(dx: Double = 0, dy: Double, control: Bool) -> Bool {
        simulatedControl = control
        defer { simulatedControl = nil }
        return bf_scroll_controller_emit(rawPointer, dx, dy) != 0
    }
}
