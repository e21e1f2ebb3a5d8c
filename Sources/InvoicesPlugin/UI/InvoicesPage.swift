import BillfoldCore
import BillfoldUI
import Foundation
import GObjectCore
import GtkKit
import InvoicesCore
import PluginAPI

/// The Invoices page: the invoice list beside the selected invoice, folding into one pane at a
/// time on a narrow window.
@MainActor
package final class InvoicesPage: InvoiceListActions {
    let widget = Leaflet()
    let repository: InvoiceRepository
    // The shell does not keep the context; the views do.
    private let context: PluginContext
    package let model: InvoiceListModel
    /// Reports, and CSV import and export.
    let menu: InvoicesMenu
    private let money = MoneyFormatter()
    private let dayTexts = DayTextCache()

    // List pane
    let listPane = Box(.vertical)
    let listHeader: HeaderBar
    let newButton = Button(iconName: "list-add-symbolic", accessibleLabel: tr("New Invoice"))
    package let searchEntry = SearchEntry(placeholder: tr("Search invoices"))
    private(set) var filterButtons: [InvoiceFilter: ToggleButton] = [:]
    private(set) var sortButtons: [InvoiceSort: CheckButton] = [:]
    let outstandingLabel = Label("", wraps: true)
    let overdueLabel = Label("", wraps: true)
    let totalsBox = Box(.vertical, spacing: 2)
    /// Says why the sums could not be read, in place of sums that would look like nothing owed.
    let totalsProblemLabel = Label("", wraps: true, style: "error")
    /// The filter chips, linked in one row.
    private let chips = Box(.horizontal)
    private lazy var sortButton = makeSortButton()
    private let overdueColumn = Box(.vertical, spacing: 2)
    /// The list's rows, one per matching invoice; each is bound from `model` by position.
    package let positions = PositionList()
    package private(set) var listView: ListView<SummaryRowView>!
    let listStack = Stack()
    /// Until the business profile has a name and an address, the empty state welcomes and the
    /// list's banner points to it: every invoice prints them.
    let emptyPage = StatusPage(iconName: "x-office-document-symbolic", title: "")
    let newFromEmpty = Button(label: tr("_New Invoice"))
    let setUpProfileButton = Button(label: tr("_Set Up Business Profile"))
    let profileBanner = Banner(title: tr("Invoices start with your business name and address."),
                               buttonLabel: tr("_Set Up Business Profile"))
    /// Shown instead of the list when the invoices cannot be read: never an empty list.
    let readErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: tr("Invoices Could Not Be Read"))

    // Detail pane
    let detailPane = Box(.vertical)
    let detailHeader: HeaderBar
    private let detailBack = Button(iconName: "go-previous-symbolic", accessibleLabel: tr("Back to the List"))
    let detailStack = Stack()
    let detailReadErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: tr("The Invoice Could Not Be Read"))
    /// The invoice pane, built when an invoice is first shown: a first start, with no invoice
    /// yet, does not pay for its preview and actions.
    package var detail: InvoiceDetailView {
        if let builtDetail { return builtDetail }
        let detail = InvoiceDetailView(list: self, repository: repository, context: context)
        detailStack.add(detail.widget, named: "invoice")
        detailHeader.packEnd(detail.headerActions)
        detail.placeActions(inHeader: detailHeader, folded: widget.isFolded)
        detail.links.navigator = navigator
        builtDetail = detail
        return detail
    }
    private var builtDetail: InvoiceDetailView?
    private var isInView: Bool { navigator?.showsInvoices ?? true }
    /// Where the invoice pane's links to quotes and credit notes lead.
    weak var navigator: (any DocumentNavigator)? {
        didSet { builtDetail?.links.navigator = navigator }
    }

    private var isUpdating = false
    /// The day the header's sums were worked out for (overdue depends on it).
    private var totalsDay: CalendarDay?
    private(set) var selectedID: InvoiceID?
    /// The editor open now, if any.
    private(set) weak var editor: InvoiceEditor?
    private(set) weak var clientsWindow: ClientsWindow?
    private(set) weak var recurringWindow: RecurringInvoicesWindow?

    init(context: PluginContext, repository: InvoiceRepository) {
        self.context = context
        self.repository = repository
        model = InvoiceListModel(repository: repository)
        menu = InvoicesMenu(repository: repository, context: context)
        listHeader = HeaderBar(title: WindowTitle(tr("Invoices")))
        // The pane shows the number as its heading; its header keeps the room for the actions.
        detailHeader = HeaderBar(title: WindowTitle(""))
        buildListPane()
        buildDetailPane()
        widget.append(listPane)
        widget.append(detailPane)
        widget.visibleChild = listPane
        widget.onFoldedChanged { [weak self] in self?.updateFolding() }
        updateFolding()
        addShortcuts()
        reload(dataChanged: true)
    }

    // MARK: Building

    private func buildListPane() {
        listHeader.packStart(context.makeBackButton())
        newButton.tooltip = tr("New Invoice (Ctrl+N)")
        newButton.onClicked { [weak self] in self?.newInvoice() }
        listHeader.packEnd(menu.button)
        listPane.insertActionGroup(menu.actions, prefix: "invoices")
        menu.onImported = { [weak self] in self?.reload(dataChanged: true) }
        listHeader.packEnd(newButton)
        listHeader.packEnd(sortButton)
        menu.onClients = { [weak self] in self?.openClients() }
        menu.onRecurring = { [weak self] in self?.openRecurring() }
        listPane.append(listHeader)
        profileBanner.onButtonClicked { [weak self] in self?.setUpProfile() }
        listPane.append(profileBanner)

        totalsBox.setMargins(top: 12, bottom: 6, start: 12, end: 12)
        let outstandingCaption = Label(tr("Outstanding"), wraps: false, style: "caption-heading")
        let overdueCaption = Label(tr("Overdue"), wraps: false, style: "caption-heading")
        outstandingCaption.addCssClass("dim-label")
        overdueCaption.addCssClass("error")
        for label in [outstandingCaption, overdueCaption, outstandingLabel, overdueLabel] { label.xAlign = 0 }
        for label in [outstandingLabel, overdueLabel] {
            label.addCssClass("numeric")
            label.addCssClass("heading")
        }
        overdueLabel.addCssClass("error")
        outstandingCaption.describes(outstandingLabel)
        overdueCaption.describes(overdueLabel)
        overdueColumn.append(overdueCaption)
        overdueColumn.append(overdueLabel)
        let outstandingColumn = Box(.vertical, spacing: 2, children: [outstandingCaption, outstandingLabel])
        let columns = Columns(minimumColumnWidth: 150, spacing: 12)
        columns.append(outstandingColumn)
        columns.append(overdueColumn)
        totalsBox.append(columns)
        totalsProblemLabel.xAlign = 0
        totalsBox.append(totalsProblemLabel)
        listPane.append(totalsBox)

        chips.makeLinked()
        for filter in [InvoiceFilter.all, .draft, .sent, .overdue, .paid] {
            let button = ToggleButton(label: filter.title)
            if let first = filterButtons[.all] { button.join(first) }
            button.isActive = filter == .all
            button.expandsHorizontally = true
            button.onToggled { [weak self, weak button] in
                guard let self, let button else { return }
                guard button.isActive, !self.isUpdating else { return }
                self.model.query.filter = filter
                self.reload(dataChanged: false)
            }
            filterButtons[filter] = button
            chips.append(button)
        }
        chips.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        listPane.append(chips)

        searchEntry.accessibleLabel = tr("Search invoices")
        searchEntry.setMargins(top: 0, bottom: 6, start: 12, end: 12)
        searchEntry.onSearchChanged { [weak self] in
            guard let self else { return }
            self.model.query.search = self.searchEntry.text
            self.reload(dataChanged: false)
        }
        listPane.append(searchEntry)

        listView = ListView(positions: positions, content: { [weak self] position in
            guard let self else { return nil }
            guard let summary = self.model.summary(at: position) else {
                return self.model.rowReadProblem.map { .unreadable(String(format: tr("The invoice could not be read: %@"), $0)) }
            }
            return SummaryRowContent(title: summary.number, subtitle: summary.clientName,
                                     amount: self.money.string(from: summary.total),
                                     detail: self.dayTexts.dueText(summary.dueDate),
                                     badge: summary.displayStatus.title, tone: summary.displayStatus.tone.badgeTone)
        }, reopen: { [weak self] in
            guard let self, self.widget.isFolded else { return }
            self.widget.visibleChild = self.detailPane
        })
        listView.accessibleLabel = tr("Invoices")
        listView.onSelectionChanged { [weak self] in
            guard let self else { return }
            guard !self.isUpdating else { return }
            self.selectionChanged()
            // On a narrow window choosing an invoice opens it.
            if self.widget.isFolded, self.selectedID != nil { self.widget.visibleChild = self.detailPane }
        }
        let scroller = ScrolledWindow(child: listView)
        scroller.expandsVertically = true
        listStack.add(scroller, named: "list")

        newFromEmpty.onClicked { [weak self] in self?.newInvoice() }
        setUpProfileButton.onClicked { [weak self] in self?.setUpProfile() }
        let emptyButtons = Box(.vertical, spacing: 12, children: [setUpProfileButton, newFromEmpty])
        for button in [setUpProfileButton, newFromEmpty] {
            button.addCssClass("pill")
            button.align(horizontal: .center)
        }
        emptyButtons.align(horizontal: .center)
        emptyPage.child = emptyButtons
        listStack.add(emptyPage, named: "empty")
        listStack.add(StatusPage(iconName: "edit-find-symbolic", title: tr("No Matching Invoices"),
                                 description: tr("Try another search or filter.")), named: "no-results")
        listStack.add(readErrorPage, named: "read-error")
        listStack.expandsVertically = true
        listPane.append(listStack)
        listPane.setSizeRequest(width: 300)
        // It shares the width with the invoice pane, and takes all of it when that is hidden.
        listPane.expandsHorizontally = true
    }

    private func makeSortButton() -> Widget {
        let choices = Box(.vertical, spacing: 6)
        choices.setMargins(6)
        choices.append(Label(tr("Sort By"), wraps: false, style: "heading"))
        for sort in InvoiceSort.allCases {
            let check = CheckButton(label: sort.title)
            if let first = sortButtons[.issueDate] { check.join(first) }
            check.isActive = sort == .issueDate
            check.onToggled { [weak self, weak check] in
                guard let self, let check else { return }
                guard check.isActive, !self.isUpdating else { return }
                self.model.query.sort = sort
                self.reload(dataChanged: false)
            }
            sortButtons[sort] = check
            choices.append(check)
        }
        return PopoverButton(iconName: "view-sort-descending-symbolic", content: choices, accessibleLabel: tr("Sort"))
    }

    private func buildDetailPane() {
        detailBack.onClicked { [weak self] in guard let self else { return }; self.widget.visibleChild = self.listPane }
        detailHeader.packStart(detailBack)
        detailPane.append(detailHeader)
        detailStack.add(StatusPage(iconName: "x-office-document-symbolic", title: tr("No Invoice Selected"),
                                   description: tr("Choose an invoice from the list.")), named: "none")
        detailStack.add(detailReadErrorPage, named: "read-error")
        detailStack.visibleChildName = "none"
        detailStack.expandsVertically = true
        detailStack.expandsHorizontally = true
        detailPane.append(detailStack)
        detailPane.expandsHorizontally = true
        detailPane.setSizeRequest(width: 300)
    }

    private func addShortcuts() {
        // The shortcuts act on the invoices while they are the list in view; Ctrl+N makes a
        // quote while the quotes are.
        context.addShortcut("<Control>n", title: tr("New Invoice")) { [weak self] in
            guard let self else { return }
            if let navigator = self.navigator, !navigator.showsInvoices { navigator.newDocumentInView() } else { self.newInvoice() }
        }
        context.addShortcut("<Control>f", title: tr("Search Invoices")) { [weak self] in
            guard let self, self.isInView else { return }
            _ = self.searchEntry.grabFocus()
        }
        context.addShortcut("<Control>s", title: tr("Save Invoice as PDF")) { [weak self] in
            guard let self, self.isInView, self.selectedID != nil else { return }
            self.detail.savePDF()
        }
        context.addShortcut("<Control>p", title: tr("Print Invoice")) { [weak self] in
            guard let self, self.isInView, self.selectedID != nil else { return }
            self.detail.printPDF()
        }
        context.addShortcut("Delete", title: tr("Delete Invoice")) { [weak self] in
            // Delete in a text field deletes text, not the invoice.
            guard let self, self.isInView,
                  !(self.context.window?.focusedWidget.map { $0.typeName.contains("Text") } ?? false) else { return }
            self.deleteSelected()
        }
    }

    private func updateFolding() {
        let folded = widget.isFolded
        detailBack.isVisible = folded
        // The window's buttons go on the list's header when the invoice pane is not beside it.
        listHeader.showsEndTitleButtons = folded || !detailPane.isVisible
        detailHeader.showsStartTitleButtons = folded
        builtDetail?.placeActions(inHeader: detailHeader, folded: folded)
    }

    /// The page came into view: the day may have changed since, so overdue is worked out again.
    func pageShown() {
        guard model.today != .today() else { return }
        reload(dataChanged: true)
    }

    /// The business profile changed: the shown invoice's PDF shows the seller again.
    func profileChanged() {
        builtDetail?.refreshPreview()
        showProfileGuidance()
    }

    /// Opens Preferences at the business profile.
    func setUpProfile() { context.showPreferences(page: BusinessProfile.preferencesPageName) }

    /// Welcomes to the profile first while it lacks what invoices print; a profile that cannot be
    /// read is left to the invoice form and the PDF, which say why.
    private func showProfileGuidance() {
        let ready = (try? repository.profile())?.isReadyForInvoices ?? true
        let hasInvoices = listStack.visibleChildName != "empty"
        emptyPage.title = ready ? tr("No Invoices") : tr("Welcome to Invoices")
        emptyPage.pageDescription = ready ? tr("Write your first invoice; it appears here.")
            : tr("Every invoice starts with your business name and address. Set them up once, then write your first invoice.")
        setUpProfileButton.isVisible = !ready
        setUpProfileButton.setCssClass("suggested-action", enabled: !ready)
        newFromEmpty.setCssClass("suggested-action", enabled: ready)
        profileBanner.isRevealed = !ready && hasInvoices
    }

    // MARK: The list

    /// Queries again and shows the result, keeping the selected invoice when it still matches.
    func reload(dataChanged: Bool) {
        let total: Int
        do {
            try model.reload(dataChanged: dataChanged)
            total = try repository.invoiceCount()
        } catch {
            readErrorPage.pageDescription = error.localizedDescription
            listStack.visibleChildName = "read-error"
            context.showToast(error.localizedDescription)
            return
        }
        isUpdating = true
        positions.count = model.ids.count
        if let selectedID, let position = model.position(of: selectedID) {
            listView.selectedIndex = position
        } else {
            listView.selectedIndex = nil
        }
        isUpdating = false
        // The rows on screen may now stand for other invoices.
        listView.rebindVisibleRows()
        listStack.visibleChildName = total == 0 ? "empty" : model.ids.isEmpty ? "no-results" : "list"
        // With no invoice at all, the list's own empty state fills the page, without filters
        // to choose or a second empty state beside it saying none is selected.
        for part in [detailPane, chips, searchEntry, sortButton] as [Widget] { part.isVisible = total > 0 }
        if dataChanged { showProfileGuidance() }
        updateFolding()
        // A search or filter changes neither the sums nor the open invoice, unless it hid it.
        if dataChanged || totalsDay != model.today {
            updateTotals()
            totalsDay = model.today
        }
        let shownID = listView.selectedIndex.flatMap { model.ids.indices.contains($0) ? model.ids[$0] : nil }
        if dataChanged || shownID != selectedID { selectionChanged() }
    }

    /// What the row widget bound to `position` shows, if one is.
    func rowTexts(at position: Int) -> [String]? {
        listView.rowWidgets.first { $0.position == position }?.texts
    }

    private func updateTotals() {
        let totals: [OutstandingTotal]
        do {
            totals = try repository.outstandingTotals(today: model.today)
            totalsProblemLabel.isVisible = false
        } catch {
            totals = []
            totalsProblemLabel.text = String(format: tr("The outstanding totals could not be read: %@"), error.localizedDescription)
            totalsProblemLabel.isVisible = true
        }
        let outstanding = totals.filter { !$0.outstanding.isZero }
        totalsBox.isVisible = !outstanding.isEmpty || totalsProblemLabel.isVisible
        outstandingLabel.text = outstanding.map { money.string(from: $0.outstanding) }.joined(separator: "\n")
        let overdue = totals.filter { !$0.overdue.isZero }
        overdueColumn.isVisible = !overdue.isEmpty
        overdueLabel.text = overdue.map { money.string(from: $0.overdue) }.joined(separator: "\n")
    }

    private func selectionChanged() {
        let id = listView.selectedIndex.flatMap { model.ids.indices.contains($0) ? model.ids[$0] : nil }
        selectedID = id
        let invoice: Invoice?
        do {
            invoice = try id.flatMap(repository.invoice)
        } catch {
            detailReadErrorPage.pageDescription = error.localizedDescription
            detailStack.visibleChildName = "read-error"
            builtDetail?.show(nil)
            return
        }
        guard let invoice else {
            detailStack.visibleChildName = "none"
            builtDetail?.show(nil)
            return
        }
        detail.show(invoice)
        detailStack.visibleChildName = "invoice"
    }

    /// Selects an invoice by id (after creating or duplicating it), clearing a filter that hides it.
    func select(_ id: InvoiceID) {
        if model.position(of: id) == nil {
            isUpdating = true
            model.query = InvoiceListQuery(sort: model.query.sort)
            searchEntry.text = ""
            filterButtons[.all]?.isActive = true
            isUpdating = false
            reload(dataChanged: true)
        }
        guard let position = model.position(of: id) else { return }
        listView.selectedIndex = position
        listView.scrollTo(position)
        if widget.isFolded { widget.visibleChild = detailPane }
    }

    /// After an invoice was saved: its row and the sums change.
    func invoiceChanged(_ id: InvoiceID) {
        model.invalidate(id)
        reload(dataChanged: true)
        select(id)
    }

    // MARK: Actions

    /// Opens the editor on a new draft, unless the free tier's limit is reached.
    func newInvoice() {
        let count = (try? repository.invoiceCount()) ?? 0
        if let limit = InvoicePlan(context.entitlements).limitMessage(existingCount: count) {
            guard context.ensureAllowed(.unlimitedInvoices, reason: limit) else { return }
        }
        openEditor(for: nil)
    }

    /// Opens the editor on a saved invoice, or on a new draft when `invoice` is nil.
    func openEditor(for invoice: Invoice?) {
        let editor = InvoiceEditor(repository: repository, context: context, invoice: invoice)
        editor.onSaved = { [weak self] saved in
            guard let self, let id = saved.id else { return }
            self.invoiceChanged(id)
        }
        self.editor = editor
        editor.present()
    }

    /// The client list; changes there (a rename, a deletion) show in the invoice list at once.
    func openClients() {
        let clients = ClientsWindow(repository: repository, context: context)
        clients.onChanged = { [weak self] in self?.reload(dataChanged: true) }
        clientsWindow = clients
        clients.present()
    }

    /// The recurring invoices; what they issue shows in the list at once.
    func openRecurring() {
        let window = RecurringInvoicesWindow(repository: repository, context: context)
        window.onIssued = { [weak self] in self?.reload(dataChanged: true) }
        recurringWindow = window
        window.present()
    }

    /// Deletes the selected invoice, offering Undo.
    func deleteSelected() {
        guard let id = selectedID else { return }
        delete(id)
    }

    func delete(_ id: InvoiceID) {
        do {
            let deleted = try repository.delete(id)
            selectedID = nil
            reload(dataChanged: true)
            context.showToast(String(format: tr("Invoice %@ deleted"), deleted.invoice.number),
                              undoLabel: tr("_Undo")) { [weak self] in
                guard let self else { return }
                do {
                    try self.repository.restore(deleted)
                    self.reload(dataChanged: true)
                    self.select(deleted.id)
                } catch {
                    self.context.showToast(error.localizedDescription)
                }
            }
        } catch {
            context.showToast(error.localizedDescription)
        }
    }
}
