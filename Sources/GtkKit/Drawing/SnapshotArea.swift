import CGtk
import GObjectCore

/// The `GtkSnapshot` GTK lends a widget while it paints, valid only during that call: what is
/// appended to it becomes the widget's render nodes (text, colours, clips).
@MainActor
public struct Snapshot {
    package let pointer: OpaquePointer

    package init(pointer: OpaquePointer) { self.pointer = pointer }

    /// Appends the text line with its top-left corner at (x, y), as a text node.
    public func append(_ line: TextLine, x: Double, y: Double, color: StyleColor) {
        gtk_snapshot_save(pointer)
        var origin = graphene_point_t(x: Float(x), y: Float(y))
        gtk_snapshot_translate(pointer, &origin)
        var rgba = color.gdk
        gtk_snapshot_append_layout(pointer, line.layoutPointer, &rgba)
        gtk_snapshot_restore(pointer)
    }

    /// Fills a rectangle with rounded corners (a radius of half the height gives a pill).
    public func fillRoundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double,
                                     color: StyleColor) {
        var bounds = graphene_rect_t(origin: graphene_point_t(x: Float(x), y: Float(y)),
                                     size: graphene_size_t(width: Float(width), height: Float(height)))
        var shape = GskRoundedRect()
        gsk_rounded_rect_init_from_rect(&shape, &bounds, Float(min(radius, height / 2, width / 2)))
        gtk_snapshot_push_rounded_clip(pointer, &shape)
        var rgba = color.gdk
        gtk_snapshot_append_color(pointer, &rgba, &bounds)
        gtk_snapshot_pop(pointer)
    }
}

/// A widget whose content a Swift closure paints as render nodes, where a `DrawingArea` paints
/// pixels with Cairo.
///
/// GTK's renderers draw text and colour nodes themselves. A Cairo drawing is rasterized on the
/// CPU instead and, under the GL renderer, uploaded as a texture of its own each time it
/// changes; on Mesa's software GL the first such upload also compiles shader variants that
/// nothing else in a window needs (5 of 25 in the invoice list's first frame).
@MainActor
open class SnapshotArea: Widget {
    private var paint: (@MainActor (Snapshot, Int, Int) -> Void)?

    public init() {
        super.init(adopting: untyped(g_object_new_with_properties(Self.areaType, 0, nil, nil)))
    }

    /// The height the area asks for (0 = none); its width is what its parent gives it.
    public var contentHeight: Int = 0 {
        didSet { setSizeRequest(height: contentHeight > 0 ? contentHeight : -1) }
    }

    /// Sets what paints the area: `paint(snapshot, width, height)`, in logical pixels. GTK calls
    /// it whenever the area is resized or `queueDraw()` asks; the area keeps the closure as long
    /// as it lives, so capture owners weakly.
    public func setPaintFunction(_ paint: @escaping @MainActor (Snapshot, Int, Int) -> Void) {
        self.paint = paint
        queueDraw()
    }

    /// A subclass of `GtkWidget` whose snapshot calls the area's paint closure, registered once.
    private static let areaType: GType = {
        var info = GTypeInfo()
        info.class_size = guint16(MemoryLayout<GtkWidgetClass>.size)
        info.instance_size = guint16(MemoryLayout<GtkWidget>.size)
        info.class_init = { widgetClass, _ in
            guard let widgetClass else { return }
            widgetClass.assumingMemoryBound(to: GtkWidgetClass.self).pointee.snapshot = { widget, snapshot in
                guard let widget, let snapshot else { return }
                nonisolated(unsafe) let instance = widget
                nonisolated(unsafe) let target = snapshot
                MainActor.assumeIsolated {
                    guard let area = Object.wrapper(of: UnsafeMutableRawPointer(instance)) as? SnapshotArea,
                          let paint = area.paint else { return }
                    paint(Snapshot(pointer: target), area.width, area.height)
                }
            }
        }
        return g_type_register_static(gtk_widget_get_type(), "BillfoldSnapshotArea", &info, GTypeFlags(rawValue: 0))
    }()
}

extension StyleColor {
    var gdk: GdkRGBA {
        GdkRGBA(red: Float(red), green: Float(green), blue: Float(blue), alpha: Float(alpha))
    }
}
