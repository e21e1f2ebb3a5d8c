import GObjectCore
import GtkKit
import PluginAPI
import Storage

/// Stands in for the shell in plugin tests: records toasts and shortcuts.
@MainActor
public final class TestHost: PluginHosting {
    public var window: Window?
    public private(set) var toasts: [String] = []
    public private(set) var undoHandlers: [@MainActor () -> Void] = []
    public private(set) var shortcuts: [String: @MainActor () -> Void] = [:]
    /// The pages Preferences was opened at, in order ("" for the first page).
    public private(set) var preferencesShown: [String] = []

    public init(window: Window? = nil) { self.window = window }

    public func showToast(_ message: String, undoLabel: String?, onUndo: (@MainActor () -> Void)?) {
        toasts.append(message)
        if let onUndo { undoHandlers.append(onUndo) }
    }

    public func addShortcut(_ accelerator: String, title: String, pluginID: String,
                            _ handler: @escaping @MainActor () -> Void) {
        shortcuts[accelerator] = handler
    }

    public func showPreferences(page: String?) { preferencesShown.append(page ?? "") }

    public func makeBackButton() -> Widget { Button(iconName: "go-previous-symbolic", accessibleLabel: "Back") }

    /// A context for one plugin, with a fresh or shared service registry.
    public func context(for pluginID: String, services: ServiceRegistry = ServiceRegistry(),
                        settings: Settings? = nil, database: Database? = nil) -> PluginContext {
        let result: Result<Database, any Error> = database.map { .success($0) }
            ?? Result { try Database.inMemory() }
        return PluginContext(pluginID: pluginID, services: services, settings: settings, database: result, host: self)
    }
}
