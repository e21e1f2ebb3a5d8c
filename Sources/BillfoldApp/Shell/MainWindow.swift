import AppLibrary
import BillfoldCore
import GObjectCore
import GtkKit
import BillfoldUI
import PluginAPI
import Storage

/// The main window: a sidebar of plugin pages and the selected page, folding into one pane on
/// a narrow appWindow.
@MainActor
final class MainWindow {
    private let appWindow: ApplicationWindow
    private let settings: Settings
    private let leaflet = Leaflet()
    private let sidebar = Sidebar()
    private let pages = Stack()
    private let toasts: ToastOverlay
    private let host: PluginHost
    private var backButtons: [Button] = []

    init(application: AdwaitaApplication, settings: Settings, plugins: [any Plugin], database: Result<Database, any Error>) {
        appWindow = ApplicationWindow(application: application)
        self.settings = settings
        RecentCurrencies.settings = settings
        toasts = ToastOverlay(child: leaflet)
        host = PluginHost(plugins: plugins, settings: settings, database: database)
        appWindow.title = tr("Billfold")
        appWindow.content = toasts
        appWindow.setSizeRequest(width: 360, height: 400)
        restoreState()
        buildLayout()
        host.hosting = self
        host.onPagesChanged = { [weak self] in self?.reloadPages() }
        host.activateEnabledPlugins()
        appWindow.onCloseRequest { [weak self] in
            self?.saveState()
            return false
        }
    }

    func present() {
        if case .success(let database) = host.database {
            appWindow.onFirstFrame { [weak self] in
                AppDatabase.backUpIfDue(database) { message, error in
                    self?.showToast(message, undoLabel: nil, onUndo: nil)
                    // Damage the backup's check found while the library is open: offer the backups now.
                    if (error as? DatabaseError)?.offersRestore == true { self?.explain(error) }
                }
            }
        }
        appWindow.present()
        if case .failure(let error) = host.database { explain(error) }
    }

    /// The database could not be opened: say why. Only damage (or an emptied file) offers a
    /// restore, from a list of every backup; every other problem is fixed outside Billfold, and
    /// the file is left exactly as it is.
    private func explain(_ error: any Error) {
        let restorable = (error as? DatabaseError)?.offersRestore ?? false
        guard restorable else {
            let dialog = MessageDialog(parent: appWindow, heading: tr("Your Billfold Data Could Not Be Opened"),
                                       body: error.localizedDescription)
            dialog.addResponse("close", label: tr("_Close"))
            dialog.setCloseResponse("close")
            dialog.present()
            return
        }
        Task.detached(priority: .userInitiated) {
            let summaries = Result { try AppDatabase.backupSummaries() }
            await MainActor.run { [weak self] in self?.offerRestore(after: error, summaries: summaries) }
        }
    }

    private func offerRestore(after error: any Error, summaries: Result<[BackupSummary], any Error>) {
        let backups = (try? summaries.get()) ?? []
        var body = (error as? DatabaseError)?.problemDescription ?? error.localizedDescription
        if case .failure(let listing) = summaries {
            body += "\n\n" + listing.localizedDescription
        } else if backups.isEmpty {
            body += "\n\n" + tr("No backup was found. The file was left as it is, so nothing is lost.")
        } else {
            body += "\n\n" + tr("Choose a backup to restore. The current file is kept beside it, renamed “before-restore”; nothing is deleted.")
        }
        let isDamage = (error as? DatabaseError)?.isCorruption ?? false
        let heading = isDamage ? tr("Your Billfold Data Is Damaged") : tr("Your Billfold Data Could Not Be Opened")
        let dialog = MessageDialog(parent: appWindow, heading: heading, body: body)
        dialog.addResponse("close", label: tr("_Close"))
        dialog.setCloseResponse("close")
        dialog.setDefaultResponse("close")
        var chosen: Backup?
        if !backups.isEmpty {
            dialog.addResponse("restore", label: tr("_Restore Backup"), appearance: .suggested)
            let list = ListBox()
            list.styleAsBoxedList()
            let dates = DateFormatting()
            for summary in backups {
                let row = ActionRow(title: dates.mediumDateAndTimeString(from: summary.backup.createdAt),
                                    subtitle: AppDatabase.describe(summary))
                row.isSensitive = summary.isSound
                list.append(row, accessibleLabel: row.title)
            }
            list.onSelectionChanged { [weak dialog] index in
                chosen = index.flatMap { backups.indices.contains($0) && backups[$0].isSound ? backups[$0].backup : nil }
                dialog?.setResponseEnabled("restore", chosen != nil)
            }
            // The newest sound backup is chosen to begin with; any other is a click away.
            list.selectedIndex = backups.firstIndex { $0.isSound }
            let scroller = ScrolledWindow(child: list)
            scroller.setSizeRequest(height: 240)
            dialog.setExtraChild(scroller)
            dialog.setResponseEnabled("restore", chosen != nil)
        }
        dialog.onResponse { [weak self] response in
            guard response == "restore", let self, let backup = chosen else { return }
            do {
                // The file is about to be renamed: the plugins and the connection let go of it first.
                if case .success(let open) = self.host.database {
                    self.host.deactivatePlugins()
                    open.close()
                }
                let kept = try AppDatabase.restore(backup)
                self.host.database = AppDatabase.open()
                self.host.activateEnabledPlugins()
                if let kept {
                    // A toast has one short line: the folder, opened, shows the kept file's full name.
                    self.showToast(tr("Backup restored. The file it replaced was kept beside it."),
                                   undoLabel: tr("Open Folder"), onUndo: { [weak self] in self?.openFolder(of: kept) })
                } else {
                    self.showToast(tr("Backup restored."), undoLabel: nil, onUndo: nil)
                }
                if case .failure(let error) = self.host.database { self.explain(error) }
            } catch {
                // Nothing was replaced: go on with the file as it was.
                self.host.database = AppDatabase.open()
                self.host.activateEnabledPlugins()
                self.showToast(error.localizedDescription, undoLabel: nil, onUndo: nil)
            }
        }
        dialog.present()
    }

    func close() { appWindow.close() }

    // MARK: Layout

    private func buildLayout() {
        sidebar.primaryMenu = makePrimaryMenu()
        sidebar.onPageSelected = { [weak self] id in self?.show(pageID: id, userChose: true) }
        sidebar.onTabOut = { [weak self] in
            guard let self else { return }
            // Folded, the page is not on screen: focus goes round to the sidebar's header.
            if self.leaflet.isFolded { self.sidebar.focusHeader() } else { self.pages.focusInside() }
        }
        sidebar.widget.setSizeRequest(width: 200)
        pages.expandsHorizontally = true
        pages.setSizeRequest(width: 360)
        leaflet.append(sidebar.widget)
        leaflet.append(Separator(.vertical), navigatable: false)
        leaflet.append(pages)
        leaflet.onFoldedChanged { [weak self] in self?.updateFolding() }
        updateFolding()
    }

    private func makePrimaryMenu() -> MenuButton {
        let section = Menu()
        section.append(tr("_Preferences"), action: "app.preferences")
        section.append(tr("_Keyboard Shortcuts"), action: "app.shortcuts")
        section.append(tr("_About Billfold"), action: "app.about")
        let menu = Menu()
        menu.appendSection(section)
        let button = MenuButton(iconName: "open-menu-symbolic", menu: menu, accessibleLabel: tr("Main Menu"))
        button.makePrimary()
        return button
    }

    private func updateFolding() {
        let folded = leaflet.isFolded
        sidebar.showsWindowButtons = folded
        backButtons.forEach { $0.isVisible = folded }
    }

    /// Rebuilds the sidebar and page stack from the host's current pages.
    private func reloadPages() {
        for id in sidebar.pageIDs { pages.remove(named: id) }
        let entries = host.pages
        sidebar.setEntries(entries.map { Sidebar.Entry(id: $0.id, title: $0.page.title, iconName: $0.page.iconName, failed: $0.failed) })
        let remembered = settings.string("last-page")
        let target = entries.first { $0.id == remembered }?.id ?? entries.first?.id
        if let target { show(pageID: target, userChose: false) }
        updateFolding()
    }

    private func show(pageID: String, userChose: Bool) {
        guard let entry = host.pages.first(where: { $0.id == pageID }) else { return }
        // Pages are put in the stack when first shown: ones nobody opens cost nothing.
        if pages.child(named: pageID) == nil { pages.add(entry.page.widget, named: pageID) }
        pages.visibleChildName = pageID
        sidebar.select(pageID)
        host.currentPageID = pageID
        settings.set("last-page", pageID)
        if userChose { leaflet.visibleChild = pages }
        entry.page.onShown?()
    }

    // MARK: Windows the menu opens

    func showPreferences(page: String? = nil) {
        ShellPreferences(parent: appWindow, host: host, settings: settings).present(page: page)
    }

    func showShortcuts() {
        let general = ShortcutGroup(title: tr("General"), shortcuts: [
            ShortcutInfo(title: tr("Preferences"), accelerator: "<Control>comma"),
            ShortcutInfo(title: tr("Keyboard Shortcuts"), accelerator: "<Control>question"),
            ShortcutInfo(title: tr("Main Menu"), accelerator: "F10"),
            ShortcutInfo(title: tr("Close Window"), accelerator: "<Control>w"),
            ShortcutInfo(title: tr("Quit"), accelerator: "<Control>q"),
        ])
        ShortcutsWindow(parent: appWindow, groups: [general] + host.shortcutGroups).present()
    }

    func showAbout() {
        AboutWindow(parent: appWindow, info: AboutInfo(
            applicationName: tr("Billfold"),
            applicationIcon: AppInfo.id,
            version: AppInfo.version,
            developerName: tr("The Billfold developers"),
            website: AppInfo.website,
            issueURL: AppInfo.issueURL,
            copyright: "© 2026 The Billfold developers",
            comments: tr("Invoices, trip expenses and tip splitting for freelancers and small businesses. Offline, with no account."),
            translatorCredits: tr("translator-credits") == "translator-credits" ? "" : tr("translator-credits")
        )).present()
    }

    // MARK: State

    private func restoreState() {
        ShellPreferences.applyStyle(from: settings)
        appWindow.setDefaultSize(width: settings.int("window-width"), height: settings.int("window-height"))
        if settings.bool("window-maximized") { appWindow.maximize() }
    }

    func saveState() {
        let maximized = appWindow.isMaximized
        settings.set("window-maximized", maximized)
        if !maximized {
            let size = appWindow.defaultSize
            settings.set("window-width", size.width)
            settings.set("window-height", size.height)
        }
    }
}

extension MainWindow: PluginHosting {
    var window: Window? { appWindow }

    func addShortcut(_ accelerator: String, title: String, pluginID: String, _ handler: @escaping @MainActor () -> Void) {
        if host.route(accelerator, title: title, pluginID: pluginID, handler) {
            appWindow.addShortcut(accelerator) { [weak self] in self?.host.dispatchShortcut(accelerator) }
        }
    }

    func showToast(_ message: String, undoLabel: String?, onUndo: (@MainActor () -> Void)?) {
        toasts.show(message, buttonLabel: onUndo == nil ? nil : (undoLabel ?? tr("Undo")), onButton: onUndo)
    }

    private func openFolder(of path: String) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        Launcher.open(fileAt: folder, parent: appWindow) { [weak self] error in
            if let error { self?.showToast(error.localizedDescription, undoLabel: nil, onUndo: nil) }
        }
    }

    func makeBackButton() -> Widget {
        let button = Button(iconName: "go-previous-symbolic", accessibleLabel: tr("Back"))
        button.onClicked { [weak self] in self?.leaflet.navigateBack() }
        button.isVisible = leaflet.isFolded
        backButtons.append(button)
        return button
    }
}
