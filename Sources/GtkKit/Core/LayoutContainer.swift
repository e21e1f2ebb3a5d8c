import CGtk
import GObjectCore

/// A container whose children a Swift layout places (a `GtkCustomLayout`): `measure` says how
/// big the container wants to be, `allocate` calls `place(_:in:)` for each child. The height
/// may depend on the width (height-for-width), as for pages that zoom to fit the width.
@MainActor
public final class LayoutContainer: Widget {
    /// `measure(orientation, forSize)`: the minimum and natural width (for a height, or -1),
    /// or height (for a width, or -1).
    public typealias Measure = @MainActor (Orientation, Int) -> (minimum: Int, natural: Int)
    /// `allocate(width, height)`: place every child.
    public typealias Allocate = @MainActor (Int, Int) -> Void

    public init(measure: @escaping Measure, allocate: @escaping Allocate) {
        super.init(adopting: untyped(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)))
        attach(LayoutCallbacks(measure: measure, allocate: allocate), forKey: Self.callbacksKey)
        let layout = gtk_custom_layout_new(
            { _ in GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH },
            { widget, orientation, forSize, minimum, natural, _, _ in
                guard let callbacks = LayoutContainer.callbacks(of: widget) else { return }
                let result = MainActor.assumeIsolated {
                    callbacks.measure(orientation == GTK_ORIENTATION_HORIZONTAL ? .horizontal : .vertical, Int(forSize))
                }
                minimum?.pointee = gint(clamping: result.minimum)
                natural?.pointee = gint(clamping: max(result.minimum, result.natural))
            },
            { widget, width, height, _ in
                guard let callbacks = LayoutContainer.callbacks(of: widget) else { return }
                MainActor.assumeIsolated { callbacks.allocate(Int(width), Int(height)) }
            })
        gtk_widget_set_layout_manager(widgetPointer, layout)
    }

    public func append(_ child: Widget) { gtk_box_append(pointer(), child.widgetPointer) }
    public func remove(_ child: Widget) { gtk_box_remove(pointer(), child.widgetPointer) }

    /// Gives `child` its place, relative to the container; call it from `allocate` only.
    public func place(_ child: Widget, x: Int, y: Int, width: Int, height: Int) {
        // GTK warns about allocating a child below its minimum size; measure it first as it asks.
        var minimumWidth: gint = 0, minimumHeight: gint = 0
        gtk_widget_measure(child.widgetPointer, GTK_ORIENTATION_HORIZONTAL, -1, &minimumWidth, nil, nil, nil)
        gtk_widget_measure(child.widgetPointer, GTK_ORIENTATION_VERTICAL, gint(clamping: width), &minimumHeight, nil, nil, nil)
        var rect = GtkAllocation(x: gint(clamping: x), y: gint(clamping: y),
                                 width: max(gint(clamping: width), minimumWidth), height: max(gint(clamping: height), minimumHeight))
        gtk_widget_size_allocate(child.widgetPointer, &rect, -1)
    }

    private nonisolated static let callbacksKey = "billfold-layout-callbacks"

    private nonisolated static func callbacks(of widget: UnsafeMutablePointer<GtkWidget>?) -> LayoutCallbacks? {
        guard let widget, let data = g_object_get_data(UnsafeMutablePointer<GObject>(OpaquePointer(widget)), callbacksKey) else {
            return nil
        }
        return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? LayoutCallbacks
    }
}

/// The layout's closures, kept alive by the container's GObject.
private final class LayoutCallbacks: @unchecked Sendable {
    let measure: LayoutContainer.Measure
    let allocate: LayoutContainer.Allocate
    init(measure: @escaping LayoutContainer.Measure, allocate: @escaping LayoutContainer.Allocate) {
        self.measure = measure
        self.allocate = allocate
    }
}
