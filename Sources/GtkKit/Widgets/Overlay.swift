import CGtk
import GObjectCore

/// A `GtkOverlay`: widgets floating above a main child, such as on-screen controls over a view.
@MainActor
public final class Overlay: Widget {
    public init(child: Widget) {
        super.init(adopting: untyped(gtk_overlay_new()))
        gtk_overlay_set_child(pointer(), child.widgetPointer)
    }

    /// Places `overlay` above the child, where its alignment puts it (e.g. bottom centre).
    public func addOverlay(_ overlay: Widget) { gtk_overlay_add_overlay(pointer(), overlay.widgetPointer) }
    public func removeOverlay(_ overlay: Widget) { gtk_overlay_remove_overlay(pointer(), overlay.widgetPointer) }
}
