import CGtk
import GObjectCore

/// The `cairo_t` GTK lends a draw function, valid only during that call. The layers above
/// hand it to Graphics (`DrawingContext(borrowing: context.pointer)`), which draws with it.
@MainActor
public struct CairoContext {
    package let pointer: OpaquePointer
}

/// A `GtkDrawingArea`: a widget whose content a Swift closure draws with Cairo.
///
/// The user space is the widget's logical pixels; GTK has already applied the display's scale
/// factor, so vectors drawn here stay sharp on a HiDPI screen.
@MainActor
public final class DrawingArea: Widget {
    public init() {
        super.init(adopting: untyped(gtk_drawing_area_new()))
    }

    private var areaPointer: UnsafeMutablePointer<GtkDrawingArea> { pointer() }

    /// The size the area asks for when nothing else decides it (0 = none).
    public var contentWidth: Int {
        get { Int(gtk_drawing_area_get_content_width(areaPointer)) }
        set { gtk_drawing_area_set_content_width(areaPointer, gint(clamping: newValue)) }
    }

    public var contentHeight: Int {
        get { Int(gtk_drawing_area_get_content_height(areaPointer)) }
        set { gtk_drawing_area_set_content_height(areaPointer, gint(clamping: newValue)) }
    }

    /// Sets what draws the area: `draw(context, width, height)`, in logical pixels. GTK calls it
    /// whenever the area is resized or `queueDraw()` asks; it keeps the closure as long as the
    /// widget lives (or until it is replaced), so capture owners weakly.
    public func setDrawFunction(_ draw: @escaping @MainActor (CairoContext, Int, Int) -> Void) {
        let box = Unmanaged.passRetained(DrawFunctionBox(draw)).toOpaque()
        gtk_drawing_area_set_draw_func(areaPointer, { _, cr, width, height, data in
            guard let cr, let data else { return }
            let box = Unmanaged<DrawFunctionBox>.fromOpaque(data).takeUnretainedValue()
            nonisolated(unsafe) let context = cr
            MainActor.assumeIsolated { box.draw(CairoContext(pointer: context), Int(width), Int(height)) }
        }, box) { data in
            guard let data else { return }
            Unmanaged<DrawFunctionBox>.fromOpaque(data).release()
        }
    }
}

extension Widget {
    /// Device pixels per logical pixel on the display showing the widget (2 on most HiDPI screens).
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widgetPointer)) }

    /// Measures and lays the widget out again on the next frame, after what it shows changed size.
    public func queueResize() { gtk_widget_queue_resize(widgetPointer) }

    /// Whether the widget itself can take keyboard focus (containers normally cannot).
    public var isFocusable: Bool {
        get { gtk_widget_get_focusable(widgetPointer) != 0 }
        set { gtk_widget_set_focusable(widgetPointer, newValue ? 1 : 0) }
    }
}

/// The draw closure, released by the drawing area's destroy-notify.
private final class DrawFunctionBox: @unchecked Sendable {
    let draw: @MainActor (CairoContext, Int, Int) -> Void
    init(_ draw: @escaping @MainActor (CairoContext, Int, Int) -> Void) { self.draw = draw }
}
