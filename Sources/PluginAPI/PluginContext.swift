import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Storage

/// What the shell does for plugins. Implemented by the shell, and by a test host in tests.
@MainActor
public protocol PluginHosting: AnyObject {
    var window: Window? { get }
    func showToast(_ message: String, undoLabel: String?, onUndo: (@MainActor () -> Void)?)
    func addShortcut(_ accelerator: String, title: String, pluginID: String, _ handler: @escaping @MainActor () -> Void)
    func makeBackButton() -> Widget
    /// Opens Preferences at the page with this name (the first page when nil or unknown).
    func showPreferences(page: String?)
}

/// Everything a plugin gets from the shell when it is activated.
@MainActor
public final class PluginContext {
    public let pluginID: String
    public let services: ServiceRegistry
    /// The app's settings; nil only in tests that run without the compiled schema.
    public let settings: Settings?
    private let databaseResult: Result<Database, any Error>
    /// Weak: the shell owns the plugins, which own their contexts.
    private weak var host: (any PluginHosting)?

    public init(pluginID: String, services: ServiceRegistry, settings: Settings?,
                database: Result<Database, any Error>, host: PluginHosting) {
        self.pluginID = pluginID
        self.services = services
        self.settings = settings
        databaseResult = database
        self.host = host
    }

    /// The app's database, where the plugin adds its own tables with `migrate(owner:…)`.
    /// Throws why it could not be opened; a plugin that needs it lets that fail its activation.
    public func database() throws -> Database { try databaseResult.get() }

    /// The main window, for dialogs and file choosers.
    public var window: Window? { host?.window }

    /// Brief feedback; with `onUndo`, the toast offers Undo.
    public func showToast(_ message: String, undoLabel: String? = nil, onUndo: (@MainActor () -> Void)? = nil) {
        host?.showToast(message, undoLabel: undoLabel, onUndo: onUndo)
    }

    /// A shortcut active while this plugin's page is shown; `title` lists it in the
    /// Keyboard Shortcuts window.
    public func addShortcut(_ accelerator: String, title: String, _ handler: @escaping @MainActor () -> Void) {
        host?.addShortcut(accelerator, title: title, pluginID: pluginID, handler)
    }

    /// Opens Preferences, at the plugin's page named `page` when given.
    public func showPreferences(page: String? = nil) { host?.showPreferences(page: page) }

    /// A back button for the page's header bar, shown only while the window is folded.
    public func makeBackButton() -> Widget { host?.makeBackButton() ?? Box(.horizontal) }
}
