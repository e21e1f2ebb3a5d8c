import GtkKit

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
/// context's back button for the folded layout.
@MainActor
public struct PluginPage {
    public let title: String
    public let iconName: String
    public let widget: Widget
    /// Called when the page becomes visible, e.g. to focus its first field.
    public let onShown: (@MainActor () -> Void)?

    public init(title: String, iconName: String, widget: Widget, onShown: (@MainActor () -> Void)? = nil) {
        self.title = title
        self.iconName = iconName
        self.widget = widget
        self.onShown = onShown
    }
}

/// A feature module of Billfold. The shell lists plugin types in one place, creates them at
/// start-up and activates the enabled ones with a `PluginContext`.
@MainActor
public protocol Plugin: AnyObject {
    init()
    var info: PluginInfo { get }

    /// Subcommands of `billfold` this plugin offers; they run without a display.
    nonisolated static var commands: [CommandLineCommand] { get }

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
    public nonisolated static var commands: [CommandLineCommand] { [] }
    public func makePreferencesPage() -> PreferencesPage? { nil }
    public func deactivate() {}
}
