import CGtk
import GObjectCore

/// A `GtkBox`: children in a row or a column.
@MainActor
open class Box: Widget {
    public init(_ orientation: Orientation, spacing: Int = 0, children: [Widget] = []) {
        super.init(adopting: untyped(gtk_box_new(orientation.gtk, gint(spacing))))
        children.forEach(append)
    }

    public func append(_ child: Widget) { gtk_box_append(pointer(), child.widgetPointer) }
    public func prepend(_ child: Widget) { gtk_box_prepend(pointer(), child.widgetPointer) }
    public func remove(_ child: Widget) { gtk_box_remove(pointer(), child.widgetPointer) }
    /// Puts `child` right after `sibling`, which must be a child already.
    public func insert(_ child: Widget, after sibling: Widget) {
        gtk_box_insert_child_after(pointer(), child.widgetPointer, sibling.widgetPointer)
    }

    /// Draws the children as one linked group, as GNOME does for segmented buttons.
    public func makeLinked() { addCssClass("linked") }

    public var isHomogeneous: Bool {
        get { gtk_box_get_homogeneous(pointer()) != 0 }
        set { gtk_box_set_homogeneous(pointer(), newValue ? 1 : 0) }
    }
}

/// A `GtkSeparator`.
@MainActor
public final class Separator: Widget {
    public init(_ orientation: Orientation) {
        super.init(adopting: untyped(gtk_separator_new(orientation.gtk)))
    }
}

/// A `GtkScrolledWindow`.
@MainActor
public final class ScrolledWindow: Widget {
    public init(child: Widget? = nil, horizontalScrolling: Bool = false) {
        super.init(adopting: untyped(gtk_scrolled_window_new()))
        gtk_scrolled_window_set_policy(pointer(), horizontalScrolling ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER,
                                       GTK_POLICY_AUTOMATIC)
        if let child { gtk_scrolled_window_set_child(pointer(), child.widgetPointer) }
        self.child = child
    }

    public var child: Widget? {
        didSet { gtk_scrolled_window_set_child(pointer(), child?.widgetPointer) }
    }

    /// The least height it shows of its content, however little room its parent offers.
    public var minimumContentHeight: Int {
        get { Int(gtk_scrolled_window_get_min_content_height(pointer())) }
        set { gtk_scrolled_window_set_min_content_height(pointer(), gint(newValue)) }
    }

    /// Make the scrolled content size itself to the page instead of a fixed viewport height.
    public var propagatesNaturalHeight: Bool {
        get { gtk_scrolled_window_get_propagate_natural_height(pointer()) != 0 }
        set { gtk_scrolled_window_set_propagate_natural_height(pointer(), newValue ? 1 : 0) }
    }
}

/// A `GtkStack`: one visible child at a time, chosen by name.
@MainActor
public final class Stack: Widget {
    private var children: [String: Widget] = [:]

    public init() {
        super.init(adopting: untyped(gtk_stack_new()))
        gtk_stack_set_transition_type(pointer(), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        // Sized by the visible child alone: a homogeneous stack measures every child, hidden
        // ones too, which took about 35 ms of Billfold's start-up with two plugin pages.
        isHomogeneous = false
    }

    /// Whether the stack takes the size of its largest child rather than of the visible one.
    public var isHomogeneous: Bool {
        get { gtk_stack_get_hhomogeneous(pointer()) != 0 && gtk_stack_get_vhomogeneous(pointer()) != 0 }
        set {
            gtk_stack_set_hhomogeneous(pointer(), newValue ? 1 : 0)
            gtk_stack_set_vhomogeneous(pointer(), newValue ? 1 : 0)
        }
    }

    public func add(_ child: Widget, named name: String) {
        gtk_stack_add_named(pointer(), child.widgetPointer, name)
        children[name] = child
    }

    public func remove(named name: String) {
        guard let child = children.removeValue(forKey: name) else { return }
        gtk_stack_remove(pointer(), child.widgetPointer)
    }

    public func child(named name: String) -> Widget? { children[name] }

    public var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(pointer()).map { String(cString: $0) } }
        set { if let newValue, children[newValue] != nil { gtk_stack_set_visible_child_name(pointer(), newValue) } }
    }
}
