import CGtk
import GObjectCore

extension Widget {
    /// Calls `handler` once, when the next frame of the widget's window has been painted (the
    /// frame clock's after-paint), e.g. to time how long content takes to reach the screen.
    /// Returns false, without calling it, when the widget is not on screen yet.
    @discardableResult
    public func afterNextPaint(_ handler: @escaping @MainActor () -> Void) -> Bool {
        guard let clock = gtk_widget_get_frame_clock(widgetPointer) else { return false }
        let clockObject = Object(retaining: untyped(clock))
        var connection: SignalHandler?
        connection = clockObject.connect("after-paint") {
            guard let current = connection else { return }
            connection = nil
            current.disconnect()
            handler()
        }
        gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_PAINT)
        return true
    }
}

extension Window {
    /// The GSK renderer drawing this window (e.g. `GskCairoRenderer`, `GskGLRenderer`), once it
    /// is on screen; for benchmarks and bug reports.
    public var rendererName: String? {
        guard let renderer = gtk_native_get_renderer(OpaquePointer(widgetPointer)) else { return nil }
        let object = UnsafeMutableRawPointer(renderer).assumingMemoryBound(to: GObject.self)
        return String(cString: g_type_name(object.pointee.g_type_instance.g_class.pointee.g_type))
    }
}
