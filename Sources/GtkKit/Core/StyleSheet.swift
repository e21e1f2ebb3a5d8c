import CGtk
import GObjectCore

/// CSS that a reusable widget brings along, so it looks right in any window, not only in the
/// app whose style sheet defines its classes.
@MainActor
public enum StyleSheet {
    private static var installed: Set<String> = []

    /// Adds `css` for the whole display, once per `name`; later calls with the same name do nothing.
    public static func install(_ css: String, named name: String) {
        guard !installed.contains(name), let display = gdk_display_get_default() else { return }
        installed.insert(name)
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }
}

extension Widget {
    /// Calls `handler` with this widget when the app turns light or dark (`AdwStyleManager:dark`),
    /// for as long as the widget lives: the connection ends with it, whatever holds its wrapper.
    public func onDarkStyleChanged(_ handler: @escaping @MainActor (Widget) -> Void) {
        let manager = adw_style_manager_get_default()
        let box = Unmanaged.passRetained(StyleHandlerBox(widget: widgetPointer, handler)).toOpaque()
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            let box = Unmanaged<StyleHandlerBox>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(Widget(retaining: UnsafeMutableRawPointer(box.widget))) }
        }
        let closure = g_cclosure_new(unsafeBitCast(trampoline, to: GCallback.self), box) { data, _ in
            guard let data else { return }
            Unmanaged<StyleHandlerBox>.fromOpaque(data).release()
        }
        // Watching ties the closure to the widget: finalizing it disconnects and frees the box.
        g_object_watch_closure(objectPointer, closure)
        g_signal_connect_closure(UnsafeMutableRawPointer(manager), "notify::dark", closure, 0)
    }
}

/// The handler and its widget; unowned, since the watched closure ends before the widget does.
private final class StyleHandlerBox: @unchecked Sendable {
    let widget: UnsafeMutablePointer<GtkWidget>
    let handler: @MainActor (Widget) -> Void
    init(widget: UnsafeMutablePointer<GtkWidget>, _ handler: @escaping @MainActor (Widget) -> Void) {
        self.widget = widget
        self.handler = handler
    }
}
