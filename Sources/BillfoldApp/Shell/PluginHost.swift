import BillfoldCore
import GObjectCore
import GtkKit
import PluginAPI
import Storage

/// Creates the plugins, activates the enabled ones, and keeps what they contributed: pages,
/// services and shortcuts. A plugin that fails to start is shown as failed; the rest go on.
@MainActor
final class PluginHost {
    struct PageEntry {
        let id: String
        let page: PluginPage
        let failed: Bool
    }

    let plugins: [any Plugin]
    private let settings: Settings?
    var database: Result<Database, any Error>
    private(set) var services = ServiceRegistry()
    private(set) var pages: [PageEntry] = []
    private(set) var failures: [String: any Error] = [:]
    private(set) var activePlugins: [any Plugin] = []
    private var shortcuts: [String: [String: @MainActor () -> Void]] = [:]
    private var shortcutTitles: [String: [ShortcutInfo]] = [:]
    private var installedAccelerators: Set<String> = []

    weak var hosting: PluginHosting?
    var currentPageID: String?
    var onPagesChanged: (@MainActor () -> Void)?

    init(plugins: [any Plugin], settings: Settings?, database: Result<Database, any Error>) {
        self.plugins = plugins
        self.settings = settings
        self.database = database
    }

    convenience init(pluginTypes: [any Plugin.Type], settings: Settings?, database: Result<Database, any Error>) {
        self.init(plugins: pluginTypes.map { $0.init() }, settings: settings, database: database)
    }

    // MARK: Enabling

    func isEnabled(_ id: String) -> Bool {
        !(settings?.strings("disabled-plugins").contains(id) ?? false)
    }

    func setEnabled(_ id: String, _ enabled: Bool) {
        guard let settings, isEnabled(id) != enabled else { return }
        var disabled = settings.strings("disabled-plugins").filter { $0 != id }
        if !enabled { disabled.append(id) }
        settings.set("disabled-plugins", disabled)
        activateEnabledPlugins()
    }

    /// Deactivates every plugin and forgets its pages, e.g. before the database file is replaced.
    func deactivatePlugins() {
        activePlugins.forEach { $0.deactivate() }
        activePlugins = []
    }

    /// (Re)activates every enabled plugin from scratch, so services and pages always match the
    /// current choice in Preferences.
    func activateEnabledPlugins() {
        activePlugins.forEach { $0.deactivate() }
        activePlugins = []
        services = ServiceRegistry()
        pages = []
        failures = [:]
        shortcuts = [:]
        shortcutTitles = [:]
        guard let hosting else { return }
        for plugin in plugins where isEnabled(plugin.info.id) {
            let context = PluginContext(pluginID: plugin.info.id, services: services, settings: settings,
                                        database: database, host: hosting)
            do {
                try plugin.activate(in: context)
                activePlugins.append(plugin)
                if let page = plugin.page {
                    pages.append(PageEntry(id: plugin.info.id, page: page, failed: false))
                }
            } catch {
                failures[plugin.info.id] = error
                let page = PluginPage(title: plugin.info.name, iconName: plugin.info.iconName,
                                      widget: failurePage(for: plugin.info, error: error, hosting: hosting))
                pages.append(PageEntry(id: plugin.info.id, page: page, failed: true))
            }
        }
        onPagesChanged?()
    }

    private func failurePage(for info: PluginInfo, error: any Error, hosting: PluginHosting) -> Widget {
        let header = HeaderBar(title: WindowTitle(info.name))
        header.packStart(hosting.makeBackButton())
        let status = StatusPage(iconName: "dialog-error-symbolic",
                                title: String(format: tr("%@ Could Not Start"), info.name),
                                description: error.localizedDescription)
        status.expandsVertically = true
        return Box(.vertical, children: [header, status])
    }

    // MARK: Shortcuts

    /// Records a plugin's shortcut; returns true when the window must start listening for it.
    func route(_ accelerator: String, title: String, pluginID: String,
               _ handler: @escaping @MainActor () -> Void) -> Bool {
        shortcuts[accelerator, default: [:]][pluginID] = handler
        shortcutTitles[pluginID, default: []].append(ShortcutInfo(title: title, accelerator: accelerator))
        return installedAccelerators.insert(accelerator).inserted
    }

    /// Runs the shortcut of the plugin whose page is shown.
    func dispatchShortcut(_ accelerator: String) {
        guard let id = currentPageID else { return }
        shortcuts[accelerator]?[id]?()
    }

    var shortcutGroups: [ShortcutGroup] {
        pages.compactMap { page in
            guard let shortcuts = shortcutTitles[page.id], !shortcuts.isEmpty else { return nil }
            return ShortcutGroup(title: page.page.title, shortcuts: shortcuts)
        }
    }
}
