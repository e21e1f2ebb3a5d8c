import CGtk
import GObjectCore

/// Lets the user drop a file from the file manager onto a widget (a `GtkDropTarget` for
/// `GFile`). It sees the drag before the widget's children do, so a file dropped on a text
/// view inside is handed over as a file, not pasted as its address.
@MainActor
public final class FileDropTarget: Object {
    /// Attaches a new drop target to `widget`, which keeps it for its lifetime.
    public init(attachedTo widget: Widget) {
        let target = untyped(gtk_drop_target_new(bf_type_file(), GDK_ACTION_COPY))
        super.init(adopting: target)
        gtk_event_controller_set_propagation_phase(OpaquePointer(target), GTK_PHASE_CAPTURE)
        // The widget takes over a reference of its own; this wrapper keeps the one it adopted.
        g_object_ref(target)
        gtk_widget_add_controller(widget.widgetPointer, OpaquePointer(target))
    }

    /// Whether a file is being dragged over the widget right now.
    public var isHovering: Bool { gtk_drop_target_get_current_drop(pointer()) != nil }

    /// Calls `handler` when a drag over the widget starts or ends, to highlight the drop area.
    @discardableResult
    public func onHoverChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        onNotify("current-drop", handler)
    }

    /// Calls `handler` with the dropped file's local path (`nil` for a file that has none, such
    /// as one on a remote share); its result tells the file manager whether the drop was taken.
    public func onDrop(_ handler: @escaping @MainActor (String?) -> Bool) {
        connectSignal("drop", arguments: [.pointer, .double, .double], returning: .integer) { arguments in
            var path: String?
            // The argument is a boxed GValue holding the GFile.
            if let dropped = arguments.pointer(1), let file = bf_value_get_file(dropped.assumingMemoryBound(to: GValue.self)), let cPath = g_file_get_path(file) {
                path = String(cString: cPath)
                g_free(cPath)
            }
            return handler(path) ? 1 : 0
        }
    }

    /// Delivers the file at `path` as a drop from the file manager would; returns whether it was
    /// taken. For tests, which cannot drag.
    @discardableResult
    package func deliver(fileAt path: String) -> Bool {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        return bf_drop_target_emit_file(rawPointer, file, 0, 0) != 0
    }
}
