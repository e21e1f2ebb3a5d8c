import GtkKit
import Plans
import Storage

/// What the shell shows about a plugin before and after it is enabled.
public struct PluginInfo: Sendable {
    /// Stable id, used in settings (`disabled-plugins`, `last-page`).
    public let id: String
    public let name: String
    public let summary: String
    public let iconName: String

    public init(id: String, name: String, summary: String, iconName: String) {
        self.id = id
        self.name = name
        self.summary = summary
        self.iconName = iconName
    }
}

/// A page a plugin adds to the sidebar. The widget brings its own header bar(s); it can add the
/// context's back button for the folded layout. A page given as `build` is made the first time it
/// is shown, so pages nobody opens cost nothing at start-up.
@MainActor
public final class PluginPage {
    public let title: String
    public let iconName: String
    /// Called when the page becomes visible, e.g. to focus its first field.
    public let onShown: (@MainActor () -> Void)?
    private var build: (@MainActor () -> Widget)?
    private var built: Widget?

    public init(title: String, iconName: String, widget: Widget, onShown: (@MainActor () -> Void)? = nil) {
        self.title = title
        self.iconName = iconName
        self.onShown = onShown
        built = widget
    }

    public init(title: String, iconName: String, onShown: (@MainActor () -> Void)? = nil,
                build: @escaping @MainActor () -> Widget) {
        self.title = title
        self.iconName = iconName
        self.onShown = onShown
        self.build = build
    }

    /// Whether the widget exists yet.
    public var isBuilt: Bool { built != nil }

    /// The page's widget, made on first use.
    public var widget: Widget {
        if let built { return built }
        let widget = build!()
        build = nil
        built = widget
        return widget
    }
}

/// A feature module of Billfold. The shell lists plugin types in one place, creates them at
/// start-up and activates the enabled ones with a `PluginContext`.
@MainActor
public protocol Plugin: AnyObject, SendableMetatype {
    init()
    var info: PluginInfo { get }

    /// Brings the plugin's tables up to date. The shell calls it on another thread while the
    /// toolkit starts, so activation finds them ready; activation still migrates (then a no-op)
    /// and is where a failure is reported.
    nonisolated static func prepareLibrary(_ database: Database) throws

    /// Sets the plugin up: migrations, services, actions, its page. Throwing reports the plugin
    /// as failed in the UI; the others keep working.
    func activate(in context: PluginContext) throws

    /// The page for the sidebar, once activated; nil for plugins that only offer services.
    var page: PluginPage? { get }

    /// A page for the Preferences window (e.g. the business profile), built each time the window
    /// opens; nil when the plugin has no settings.
    func makePreferencesPage() -> PreferencesPage?

    /// Releases what `activate` set up; the shell removes the page and services itself.
    func deactivate()
}

extension Plugin {
    public nonisolated static func prepareLibrary(_ database: Database) throws {}
    public func makePreferencesPage() -> PreferencesPage? { nil }
    public func deactivate() {}
}
