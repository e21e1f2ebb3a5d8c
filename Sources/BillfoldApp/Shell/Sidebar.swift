import BillfoldCore
import GtkKit

/// The sidebar: the app's header bar with the primary menu, and one row per plugin page.
@MainActor
final class Sidebar {
    struct Entry {
        let id: String
        let title: String
        let iconName: String
        let failed: Bool
    }

    let widget: Box
    private let header = HeaderBar(title: WindowTitle(tr("Billfold")))
    let list = ListBox()
    private(set) var pageIDs: [String] = []
    /// Called when the user picks a page; not for `select(_:)`, which the window calls itself.
    var onPageSelected: (@MainActor (String) -> Void)?
    /// Tab in the list: focus goes on to the page instead of to the next row, which GtkListBox
    /// would also select.
    var onTabOut: (@MainActor () -> Void)?
    private var isSelecting = false

    init() {
        list.styleAsNavigationSidebar()
        list.accessibleLabel = tr("Sections")
        let scroller = ScrolledWindow(child: list)
        scroller.expandsVertically = true
        widget = Box(.vertical, children: [header, scroller])
        list.onRowActivated { [weak self] index in
            guard let self else { return }
            guard self.pageIDs.indices.contains(index) else { return }
            self.onPageSelected?(self.pageIDs[index])
        }
        list.addShortcut("Tab", capturing: true) { [weak self] in self?.onTabOut?() }
        // Backwards, focus leaves for the header's menu without selecting the row above.
        for accelerator in ["<Shift>Tab", "<Shift>ISO_Left_Tab"] {
            list.addShortcut(accelerator, capturing: true) { [weak self] in self?.header.focusInside(forward: false) }
        }
        list.onSelectionChanged { [weak self] index in
            guard let self, !self.isSelecting else { return }
            guard let index, self.pageIDs.indices.contains(index) else { return }
            self.onPageSelected?(self.pageIDs[index])
        }
    }

    func focusHeader() { header.focusInside() }

    var primaryMenu: MenuButton? {
        didSet { if let primaryMenu { header.packEnd(primaryMenu) } }
    }

    /// The window's close button sits on the page when unfolded and here when folded.
    var showsWindowButtons: Bool {
        get { header.showsEndTitleButtons }
        set { header.showsEndTitleButtons = newValue }
    }

    func setEntries(_ entries: [Entry]) {
        list.removeAll()
        pageIDs = entries.map(\.id)
        for entry in entries {
            let icon = Image(iconName: entry.failed ? "dialog-warning-symbolic" : entry.iconName)
            let label = Label(entry.title, wraps: false)
            label.xAlign = 0
            let row = Box(.horizontal, spacing: 12, children: [icon, label])
            row.setMargins(top: 6, bottom: 6, start: 6, end: 6)
            list.append(row, accessibleLabel: entry.title)
        }
    }

    func select(_ id: String) {
        guard let index = pageIDs.firstIndex(of: id), list.selectedIndex != index else { return }
        isSelecting = true
        defer { isSelecting = false }
        list.selectedIndex = index
    }
}
