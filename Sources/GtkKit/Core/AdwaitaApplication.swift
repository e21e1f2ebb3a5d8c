import CGtk
import GObjectCore

/// An `AdwApplication`: a GTK application with libadwaita's styling and style manager.
@MainActor
public final class AdwaitaApplication: Application {
    public init(id: String) {
        super.init(adopting: untyped(adw_application_new(id, G_APPLICATION_DEFAULT_FLAGS)))
    }

    package var gtkApplicationPointer: UnsafeMutablePointer<GtkApplication> { pointer() }

    /// Binds keyboard shortcuts (e.g. `<Control>q`) to an action (e.g. `app.quit`).
    public func setAccelerators(_ accelerators: [String], for actionName: String) {
        var cStrings: [UnsafePointer<CChar>?] = accelerators.map { UnsafePointer(strdup($0)) }
        cStrings.append(nil)
        defer { cStrings.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        cStrings.withUnsafeBufferPointer {
            gtk_application_set_accels_for_action(gtkApplicationPointer, actionName, $0.baseAddress)
        }
    }

    public func accelerators(for actionName: String) -> [String] {
        guard let accels = gtk_application_get_accels_for_action(gtkApplicationPointer, actionName) else { return [] }
        defer { g_strfreev(accels) }
        var result: [String] = []
        var index = 0
        while let accel = accels[index] {
            result.append(String(cString: accel))
            index += 1
        }
        return result
    }

    /// Loads app-wide CSS (a file from the installed data directory).
    public func loadStyleSheet(path: String) {
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_path(provider, path)
        if let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider),
                                                       guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        g_object_unref(provider)
    }
}

public enum ColorScheme: Sendable {
    case followSystem, light, dark
}

/// Light and dark style, app-wide (`AdwStyleManager`).
@MainActor
public enum StyleManager {
    public static var colorScheme: ColorScheme {
        get {
            switch adw_style_manager_get_color_scheme(adw_style_manager_get_default()) {
            case ADW_COLOR_SCHEME_FORCE_LIGHT: .light
            case ADW_COLOR_SCHEME_FORCE_DARK: .dark
            default: .followSystem
            }
        }
        set {
            let scheme: AdwColorScheme = switch newValue {
            case .followSystem: ADW_COLOR_SCHEME_DEFAULT
            case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
            case .dark: ADW_COLOR_SCHEME_FORCE_DARK
            }
            adw_style_manager_set_color_scheme(adw_style_manager_get_default(), scheme)
        }
    }

    /// Whether the app is drawn dark right now, from the system preference or the override.
    public static var isDark: Bool { adw_style_manager_get_dark(adw_style_manager_get_default()) != 0 }
}

/// Whether GTK can open a display. Tests that need one skip with a message when it cannot.
@MainActor
public enum Display {
    private static var initialized: Bool?

    /// Initializes GTK and libadwaita once; false when there is no display to open.
    public static func open() -> Bool {
        if let initialized { return initialized }
        let ok = gtk_init_check() != 0
        if ok { adw_init() }
        initialized = ok
        return ok
    }

    /// When the cairo renderer is forced (`GSK_RENDERER=cairo`), opens the display now without
    /// GTK's GL set-up, which nothing would use: GTK 4.8 on X11 loads the GL stack (Mesa, and
    /// with it LLVM, about 50 MiB) at display start only to pick the windows' visual. Call it
    /// first thing, before other threads run: it sets `GDK_DEBUG=gl-disable` for GTK to read,
    /// then puts the variable back as it was, so apps Billfold opens do not inherit it.
    /// Otherwise it does nothing, and the application opens the display as it starts.
    public static func openWithoutGLForCairoRendering() {
        guard let renderer = getenv("GSK_RENDERER"), String(cString: renderer).lowercased() == "cairo" else { return }
        let previous = getenv("GDK_DEBUG").map { String(cString: $0) }
        setenv("GDK_DEBUG", previous.map { $0 + ",gl-disable" } ?? "gl-disable", 1)
        _ = open()
        if let previous {
            setenv("GDK_DEBUG", previous, 1)
        } else {
            unsetenv("GDK_DEBUG")
        }
    }
}
