import BillfoldCore
import GObjectCore
import GtkKit

/// Preferences: appearance, and which plugins are on.
@MainActor
final class ShellPreferences {
    private let window: PreferencesWindow

    /// The `style` setting's values, in the order the Style row lists them.
    static let styles: [(key: String, scheme: ColorScheme)] = [("system", .followSystem), ("light", .light), ("dark", .dark)]

    /// Applies the saved style; called once at start-up.
    static func applyStyle(from settings: Settings) {
        let saved = settings.string("style")
        StyleManager.colorScheme = styles.first { $0.key == saved }?.scheme ?? .followSystem
    }

    init(parent: Window?, host: PluginHost, settings: Settings) {
        window = PreferencesWindow(parent: parent)
        let page = PreferencesPage(title: tr("General"), iconName: "preferences-system-symbolic")

        let appearance = PreferencesGroup(title: tr("Appearance"))
        let styles = Self.styles
        let style = ComboRow(title: tr("Style"), choices: [tr("Follow System"), tr("Light"), tr("Dark")])
        style.selectedIndex = styles.firstIndex { $0.scheme == StyleManager.colorScheme }
        style.onSelectionChanged {
            guard let index = style.selectedIndex else { return }
            StyleManager.colorScheme = styles[index].scheme
            settings.set("style", styles[index].key)
        }
        appearance.add(style)
        page.add(appearance)

        let plugins = PreferencesGroup(title: tr("Modules"),
                                       description: tr("Turn off what you do not use. Your data stays and comes back when you turn a module on again."))
        for plugin in host.plugins {
            let row = ActionRow(title: plugin.info.name, subtitle: plugin.info.summary)
            let toggle = Switch()
            toggle.isActive = host.isEnabled(plugin.info.id)
            toggle.accessibleLabel = plugin.info.name
            toggle.onToggled { [weak host] in host?.setEnabled(plugin.info.id, toggle.isActive) }
            row.addPrefix(Image(iconName: plugin.info.iconName))
            row.addSuffix(toggle)
            row.activates(toggle)
            plugins.add(row)
        }
        page.add(plugins)
        window.add(page)
        for plugin in host.activePlugins {
            if let pluginPage = plugin.makePreferencesPage() { window.add(pluginPage) }
        }
    }

    func present(page: String? = nil) {
        if let page { window.showPage(named: page) }
        window.present()
    }
}
