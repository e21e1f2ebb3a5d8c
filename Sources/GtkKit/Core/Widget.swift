import CGtk
import GObjectCore

public enum Align: Sendable {
    case fill, start, end, center, baseline

    var gtk: GtkAlign {
        switch self {
        case .fill: GTK_ALIGN_FILL
        case .start: GTK_ALIGN_START
        case .end: GTK_ALIGN_END
        case .center: GTK_ALIGN_CENTER
        case .baseline: GTK_ALIGN_BASELINE
        }
    }
}

public enum Orientation: Sendable {
    case horizontal, vertical

    var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
}

/// A `GtkWidget`.
@MainActor
open class Widget: Object {
    package var widgetPointer: UnsafeMutablePointer<GtkWidget> { pointer() }

    /// The widget at `pointer` as Swift sees it: its own wrapper (with the state of its
    /// subclass) when it has one, a new plain one otherwise.
    package static func wrapper(ofWidget pointer: UnsafeMutableRawPointer) -> Widget {
        Object.wrapper(of: pointer) as? Widget ?? Widget(retaining: pointer)
    }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widgetPointer) != 0 }
        set { gtk_widget_set_visible(widgetPointer, newValue ? 1 : 0) }
    }

    /// Visible and inside a visible parent chain that is mapped on screen.
    public var isMapped: Bool { gtk_widget_get_mapped(widgetPointer) != 0 }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widgetPointer) != 0 }
        set { gtk_widget_set_sensitive(widgetPointer, newValue ? 1 : 0) }
    }

    public var expandsHorizontally: Bool {
        get { gtk_widget_get_hexpand(widgetPointer) != 0 }
        set { gtk_widget_set_hexpand(widgetPointer, newValue ? 1 : 0) }
    }

    public var expandsVertically: Bool {
        get { gtk_widget_get_vexpand(widgetPointer) != 0 }
        set { gtk_widget_set_vexpand(widgetPointer, newValue ? 1 : 0) }
    }

    public func align(horizontal: Align? = nil, vertical: Align? = nil) {
        if let horizontal { gtk_widget_set_halign(widgetPointer, horizontal.gtk) }
        if let vertical { gtk_widget_set_valign(widgetPointer, vertical.gtk) }
    }

    public func setMargins(top: Int = 0, bottom: Int = 0, start: Int = 0, end: Int = 0) {
        gtk_widget_set_margin_top(widgetPointer, gint(top))
        gtk_widget_set_margin_bottom(widgetPointer, gint(bottom))
        gtk_widget_set_margin_start(widgetPointer, gint(start))
        gtk_widget_set_margin_end(widgetPointer, gint(end))
    }

    public func setMargins(_ all: Int) { setMargins(top: all, bottom: all, start: all, end: all) }

    public func setSizeRequest(width: Int = -1, height: Int = -1) {
        gtk_widget_set_size_request(widgetPointer, gint(width), gint(height))
    }

    public var width: Int { Int(gtk_widget_get_width(widgetPointer)) }
    public var height: Int { Int(gtk_widget_get_height(widgetPointer)) }

    public func addCssClass(_ name: String) { gtk_widget_add_css_class(widgetPointer, name) }
    public func removeCssClass(_ name: String) { gtk_widget_remove_css_class(widgetPointer, name) }
    public func hasCssClass(_ name: String) -> Bool { gtk_widget_has_css_class(widgetPointer, name) != 0 }

    public func setCssClass(_ name: String, enabled: Bool) {
        enabled ? addCssClass(name) : removeCssClass(name)
    }

    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(widgetPointer).map { String(cString: $0) } }
        set { gtk_widget_set_tooltip_text(widgetPointer, newValue) }
    }

    /// The name assistive technologies read (and end-to-end tests find the widget by).
    public var accessibleLabel: String? {
        didSet { bf_accessible_set_label(widgetPointer, accessibleLabel ?? "") }
    }

    /// Leaves the widget out of what assistive technologies read, for drawing whose meaning a
    /// parent's accessible label already gives.
    public func hideFromAssistiveTechnologies() { bf_accessible_set_hidden(widgetPointer, 1) }

    public var accessibleDescription: String? {
        didSet { bf_accessible_set_description(widgetPointer, accessibleDescription ?? "") }
    }

    @discardableResult
    public func grabFocus() -> Bool { gtk_widget_grab_focus(widgetPointer) != 0 }

    public var hasFocus: Bool { gtk_widget_has_focus(widgetPointer) != 0 }

    /// Whether this widget is `ancestor` or inside it.
    public func isInside(_ ancestor: Widget) -> Bool {
        gtk_widget_is_ancestor(widgetPointer, ancestor.widgetPointer) != 0 || isSameObject(as: ancestor)
    }

    /// Runs the widget's default activation (as Enter or a click would).
    public func activate() { _ = gtk_widget_activate(widgetPointer) }

    /// Redraws the widget on the next frame.
    public func queueDraw() { gtk_widget_queue_draw(widgetPointer) }

    /// The direction text flows in this widget's locale, for layouts that must mirror.
    public var isRightToLeft: Bool { gtk_widget_get_direction(widgetPointer) == GTK_TEXT_DIR_RTL }

    /// Moves keyboard focus to the first (or, backwards, the last) focusable widget inside this one.
    @discardableResult
    public func focusInside(forward: Bool = true) -> Bool {
        gtk_widget_child_focus(widgetPointer, forward ? GTK_DIR_TAB_FORWARD : GTK_DIR_TAB_BACKWARD) != 0
    }

    /// Adds a keyboard shortcut, active while focus is inside this widget. A `capturing`
    /// shortcut runs before the focused widget sees the key (so Ctrl+Return reaches the window
    /// even from a text view, which would insert a newline).
    public func addShortcut(_ accelerator: String, capturing: Bool = false, _ handler: @escaping @MainActor () -> Void) {
        let controller = gtk_shortcut_controller_new()
        if capturing { gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE) }
        let trigger = gtk_shortcut_trigger_parse_string(accelerator)
        let box = CallbackBox(handler)
        let callback: GtkShortcutFunc = { _, _, data in
            let box = Unmanaged<CallbackBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler() }
            return 1
        }
        let action = gtk_callback_action_new(callback, Unmanaged.passRetained(box).toOpaque()) { data in
            guard let data else { return }
            Unmanaged<CallbackBox>.fromOpaque(data).release()
        }
        gtk_shortcut_controller_add_shortcut(OpaquePointer(UnsafeMutableRawPointer(controller)), gtk_shortcut_new(trigger, action))
        gtk_widget_add_controller(widgetPointer, controller)
    }
}

/// A closure that a C callback outlives the caller with; released by the callback's destroy-notify.
final class CallbackBox: @unchecked Sendable {
    let handler: @MainActor () -> Void
    init(_ handler: @escaping @MainActor () -> Void) { self.handler = handler }
}
