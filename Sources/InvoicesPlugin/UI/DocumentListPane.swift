import BillfoldCore
import BillfoldUI
import GtkKit
import InvoicesCore
import PluginAPI

/// The badge class of style.css that shows a tone, and the drawn rows' badge colour.
extension InvoiceDisplayStatus.Tone {
    var badgeTone: BadgeTone {
        switch self {
        case .neutral: .neutral
        case .accent: .accent
        case .warning: .warning
        case .success: .success
        case .dimmed: .dimmed
        }
    }

    var badgeClass: String {
        switch self {
        case .neutral: "draft"
        case .accent: "sent"
        case .warning: "overdue"
        case .success: "paid"
        case .dimmed: "cancelled"
        }
    }
}

/// A list beside a detail pane, folding into one pane at a time on a narrow window, as the
/// invoices are shown: the frame the quote and credit note pages share. The rows are a
/// virtualized list of positions; the page says what each shows.
@MainActor
final class DocumentListPane {
    let widget = Leaflet()
    let listPane = Box(.vertical)
    let listHeader: HeaderBar
    let detailPane = Box(.vertical)
    let detailHeader: HeaderBar
    let detailTitle = WindowTitle("")
    let detailStack = Stack()
    let listStack = Stack()
    let positions = PositionList()
    private(set) var listView: ListView<SummaryRowView>!
    let readErrorPage: StatusPage
    private let detailBack = Button(iconName: "go-previous-symbolic", accessibleLabel: tr("Back to the List"))
    private var isUpdating = false
    var onSelectionChanged: (@MainActor (Int?) -> Void)?

    init(context: PluginContext, title: String, switcher: DocumentKindSwitcher, emptyPage: Widget, noneSelected: Widget,
         readErrorTitle: String, content: @escaping @MainActor (Int) -> SummaryRowContent?) {
        listHeader = HeaderBar(title: WindowTitle(title))
        detailHeader = HeaderBar(title: detailTitle)
        readErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: readErrorTitle)
        listHeader.packStart(context.makeBackButton())
        listPane.append(listHeader)
        listPane.append(switcher.widget)
        listView = ListView(positions: positions, content: content, reopen: { [weak self] in self?.revealDetail() })
        listView.accessibleLabel = title
        listView.onSelectionChanged { [weak self] in
            guard let self, !self.isUpdating else { return }
            self.onSelectionChanged?(self.listView.selectedIndex)
            if self.widget.isFolded, self.listView.selectedIndex != nil { self.widget.visibleChild = self.detailPane }
        }
        let scroller = ScrolledWindow(child: listView)
        scroller.expandsVertically = true
        scroller.setMargins(top: 6, bottom: 0, start: 0, end: 0)
        listStack.add(scroller, named: "list")
        listStack.add(emptyPage, named: "empty")
        listStack.add(readErrorPage, named: "read-error")
        listStack.expandsVertically = true
        listPane.append(listStack)
        listPane.setSizeRequest(width: 300)
        listPane.expandsHorizontally = true

        detailBack.onClicked { [weak self] in guard let self else { return }; self.widget.visibleChild = self.listPane }
        detailHeader.packStart(detailBack)
        detailPane.append(detailHeader)
        detailStack.add(noneSelected, named: "none")
        detailStack.visibleChildName = "none"
        detailStack.expandsVertically = true
        detailStack.expandsHorizontally = true
        detailPane.append(detailStack)
        detailPane.expandsHorizontally = true
        detailPane.setSizeRequest(width: 300)
        widget.append(listPane)
        widget.append(detailPane)
        widget.visibleChild = listPane
        widget.onFoldedChanged { [weak self] in self?.updateFolding() }
        updateFolding()
    }

    private func updateFolding() {
        let folded = widget.isFolded
        detailBack.isVisible = folded
        // The window's buttons go on the list's header when the detail pane is not beside it.
        listHeader.showsEndTitleButtons = folded || !detailPane.isVisible
        detailHeader.showsStartTitleButtons = folded
    }

    /// Shows `count` rows, or the read error instead of an empty list.
    func show(count: Int, selecting position: Int?) {
        isUpdating = true
        positions.count = count
        listView.selectedIndex = position
        isUpdating = false
        listView.rebindVisibleRows()
        listStack.visibleChildName = count == 0 ? "empty" : "list"
        if let position { listView.scrollTo(position) }
        // With nothing to choose, the list's empty state fills the page alone.
        detailPane.isVisible = count > 0
        updateFolding()
    }

    func showReadError(_ message: String) {
        readErrorPage.pageDescription = message
        listStack.visibleChildName = "read-error"
    }

    /// Opens the detail pane on a narrow window.
    func revealDetail() {
        if widget.isFolded { widget.visibleChild = detailPane }
    }

    /// The texts of the row bound to `position`, if one is.
    func rowTexts(at position: Int) -> [String]? {
        listView.rowWidgets.first { $0.position == position }?.texts
    }
}
