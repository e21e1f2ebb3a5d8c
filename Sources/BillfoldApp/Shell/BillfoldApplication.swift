import AppLibrary
import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import PluginAPI

/// The application: app-wide actions and shortcuts, and the one main window.
@MainActor
final class BillfoldApplication {
    private let application = AdwaitaApplication(id: AppInfo.id)
    private let pluginTypes: [any Plugin.Type]
    private var window: MainWindow?
    private var settings: Settings?
    private var plugins: [any Plugin] = []
    private var library: LibraryOpening?

    init(pluginTypes: [any Plugin.Type]) {
        self.pluginTypes = pluginTypes
        application.onStartup { [weak self] in self?.startUp() }
        application.onActivate { [weak self] in self?.activate() }
    }

    func run() -> Int32 {
        guard let settings = Settings(schemaID: AppInfo.id) else {
            let message = String(format: tr("The settings schema %@ is not installed. Install Billfold, or set GSETTINGS_SCHEMA_DIR to a folder with the compiled schema."), AppInfo.id)
            FileHandle.standardError.write(Data((message + "\n").utf8))
            return 1
        }
        self.settings = settings
        plugins = pluginTypes.map { $0.init() }
        let disabled = Set(settings.strings("disabled-plugins"))
        let enabled = plugins.filter { !disabled.contains($0.info.id) }.map { type(of: $0) }
        library = LibraryOpening(preparations: enabled.map { type in { try type.prepareLibrary($0) } })
        // GLib names the program after argv[0]: "billfold" to the desktop (accessibility, the X11
        // window class), whether `billfold` or the desktop file started `billfold-app`.
        return application.run(arguments: ["billfold"])
    }

    private func startUp() {
        if let styleSheet = AppInfo.styleSheet { application.loadStyleSheet(path: styleSheet) }
        addAction("quit", accelerators: ["<Control>q"]) { [weak self] in
            guard let self else { return }
            self.window?.saveState()
            self.application.quit()
        }
        addAction("close-window", accelerators: ["<Control>w"]) { [weak self] in self?.window?.close() }
        addAction("preferences", accelerators: ["<Control>comma"]) { [weak self] in self?.window?.showPreferences() }
        addAction("shortcuts", accelerators: ["<Control>question"]) { [weak self] in self?.window?.showShortcuts() }
        addAction("about") { [weak self] in self?.window?.showAbout() }
    }

    private func activate() {
        if let window {
            window.present()
            return
        }
        guard let settings, let library else { return }
        let window = MainWindow(application: application, settings: settings, plugins: plugins, database: library.wait())
        self.window = window
        window.present()
    }

    private func addAction(_ name: String, accelerators: [String] = [], _ handler: @escaping @MainActor () -> Void) {
        application.add(SimpleAction(name: name, handler))
        if !accelerators.isEmpty { application.setAccelerators(accelerators, for: "app.\(name)") }
    }
}
