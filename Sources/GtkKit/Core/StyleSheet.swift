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
        let manager = Object(retaining: untyped(adw_style_manager_get_default()))
        // Watched by the widget: finalizing it disconnects the handler from the shared manager.
        manager.connectSignal("notify::dark", arguments: [.pointer], watchedBy: self) { [weak self] _ in
            if let self { handler(self) }
            return 0
        }
    }
}
