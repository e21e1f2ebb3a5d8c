import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The client list in its own window: search, and for one client its details, what it owes,
/// its invoices, and edit or delete.
@MainActor
final class ClientsWindow: AdwaitaWindow {
    private let repository: InvoiceRepository
    private let context: PluginContext
    private let money = MoneyFormatter()
    /// Called after a client was added, changed or deleted, so the invoice list can follow.
    var onChanged: (@MainActor () -> Void)?

    let stack = Stack()
    let searchEntry = SearchEntry(placeholder: tr("Search clients"))
    private let positions = PositionList()
    /// Rows made only for the clients on screen: a library may have thousands.
    private(set) var list: ListView<SummaryRowView>!
    private(set) var summaries: [ClientSummary] = []
    let listStack = Stack()
    /// Shown instead of the list when the clients cannot be read: never an empty list.
    let readErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: tr("Clients Could Not Be Read"))
    private let windowTitle = WindowTitle(tr("Clients"))
    private let backButton = Button(iconName: "go-previous-symbolic", accessibleLabel: tr("Back to Clients"))
    private let addButton = Button(iconName: "list-add-symbolic", accessibleLabel: tr("New Client"))

    // One client
    let nameLabel = Label("", wraps: true, style: "title-2")
    let detailsLabel = Label("", wraps: true, style: "dim-label")
    let owedRow = ActionRow(title: tr("Outstanding"))
    // One amount per line; wrapping would break "Nothing" into syllables in the narrow suffix.
    let owedLabel = Label("", wraps: false, style: "numeric")
    let invoicesGroup = PreferencesGroup(title: tr("Invoices"))
    private var invoiceRows: [Widget] = []
    let editButton = Button(label: tr("_Edit"))
    let deleteButton = Button(label: tr("_Delete"))
    private(set) var shownClient: Client?
    private(set) weak var clientEditor: ClientEditor?
    private(set) var confirmation: MessageDialog?

    init(repository: InvoiceRepository, context: PluginContext) {
        self.repository = repository
        self.context = context
        super.init()
        makeDialog(title: tr("Clients"), over: context.window, width: 520, height: 640)

        let header = HeaderBar(title: windowTitle)
        backButton.onClicked { [weak self] in self?.showList() }
        header.packStart(backButton)
        addButton.tooltip = tr("New Client")
        addButton.onClicked { [weak self] in self?.edit(nil) }
        header.packStart(addButton)

        searchEntry.accessibleLabel = tr("Search clients")
        searchEntry.onSearchChanged { [weak self] in self?.reload() }
        // The search has the focus, so Escape reaches it first: it clears a search, and with
        // nothing to clear it closes the window, as Escape does anywhere else in it.
        searchEntry.onStopSearch { [weak self] in
            guard let self else { return }
            if self.searchEntry.text.isEmpty { self.close() } else { self.searchEntry.text = "" }
        }
        list = ListView(model: positions, makeRow: { [weak self] in
            let row = SummaryRowView { [weak self] position in self?.rowContent(at: position) }
            // A click opens the client; the list alone would only select its row.
            row.onClick { [weak self, weak row] in
                guard let position = row?.position else { return }
                self?.open(at: position)
            }
            return row
        }, bind: { row, _, position in
            row.bind(position: position)
        })
        list.styleAsRichList()
        list.accessibleLabel = tr("Clients")
        list.onActivated { [weak self] position in self?.open(at: position) }
        let scroller = ScrolledWindow(child: ClampScrollable(child: list, maximumWidth: 600))
        scroller.expandsVertically = true
        // The list's background spans the window; the clamp only keeps its rows readable.
        scroller.addCssClass("view")
        listStack.add(scroller, named: "list")
        listStack.add(StatusPage(iconName: "system-users-symbolic", title: tr("No Clients"),
                                 description: tr("Add a client with the + button, or when writing an invoice.")), named: "empty")
        listStack.add(StatusPage(iconName: "edit-find-symbolic", title: tr("No Matching Clients")), named: "no-results")
        listStack.add(readErrorPage, named: "read-error")
        let search = Clamp(child: searchEntry, maximumWidth: 600)
        search.setMargins(top: 12, bottom: 6, start: 12, end: 12)
        listStack.expandsVertically = true
        stack.add(Box(.vertical, children: [search, listStack]), named: "list")

        nameLabel.xAlign = 0
        nameLabel.isSelectable = true
        detailsLabel.xAlign = 0
        detailsLabel.isSelectable = true
        owedLabel.align(vertical: .center)
        owedLabel.xAlign = 1
        owedRow.addSuffix(owedLabel)
        let owed = PreferencesGroup()
        owed.add(owedRow)
        deleteButton.addCssClass("destructive-action")
        editButton.onClicked { [weak self] in guard let self else { return }; self.edit(self.shownClient) }
        deleteButton.onClicked { [weak self] in self?.confirmDelete() }
        let buttons = Box(.horizontal, spacing: 6, children: [editButton, deleteButton])
        let clientContent = Box(.vertical, spacing: 18, children: [
            Box(.vertical, spacing: 4, children: [nameLabel, detailsLabel]), buttons, owed, invoicesGroup,
        ])
        clientContent.setMargins(top: 18, bottom: 24, start: 12, end: 12)
        stack.add(ScrolledWindow(child: Clamp(child: clientContent, maximumWidth: 600)), named: "client")
        stack.expandsVertically = true
        self.content = Box(.vertical, children: [header, stack])
        showList()
    }

    func reload() {
        let anyClients: Bool
        do {
            summaries = try repository.clientSummaries(matching: searchEntry.text)
            anyClients = try !summaries.isEmpty || !repository.clients().isEmpty
        } catch {
            summaries = []
            showRows()
            readErrorPage.pageDescription = error.localizedDescription
            listStack.visibleChildName = "read-error"
            return
        }
        showRows()
        listStack.visibleChildName = !anyClients ? "empty" : summaries.isEmpty ? "no-results" : "list"
    }

    /// Lists `summaries` again, nothing chosen: the rows on screen read their clients anew.
    private func showRows() {
        positions.count = summaries.count
        list.selectedIndex = nil
        list.rebindVisibleRows()
    }

    /// What the row at `position` shows.
    func rowContent(at position: Int) -> SummaryRowContent? {
        guard summaries.indices.contains(position) else { return nil }
        let summary = summaries[position]
        return SummaryRowContent(title: summary.client.name, subtitle: subtitle(for: summary), amount: "", detail: "")
    }

    /// Opens the client listed at `position`.
    func open(at position: Int) {
        guard summaries.indices.contains(position) else { return }
        show(summaries[position].client)
    }

    /// The texts of the row bound to `position`, if one is.
    func rowTexts(at position: Int) -> [String]? {
        list.rowWidgets.first { $0.position == position }?.texts
    }

    private func subtitle(for summary: ClientSummary) -> String {
        var parts = [String(format: trn("%d invoice", "%d invoices", summary.invoiceCount), summary.invoiceCount)]
        if !summary.outstanding.isEmpty {
            parts.append(String(format: tr("owes %@"), summary.outstanding.map { money.string(from: $0) }.joined(separator: ", ")))
        }
        return parts.joined(separator: " · ")
    }

    func showList() {
        shownClient = nil
        backButton.isVisible = false
        addButton.isVisible = true
        windowTitle.title = tr("Clients")
        reload()
        stack.visibleChildName = "list"
        // The search has the focus whenever the list shows, so typing searches at once.
        _ = searchEntry.grabFocus()
    }

    /// One client's page: details, what it owes, and its latest invoices.
    func show(_ client: Client) {
        guard let id = client.id else { return }
        shownClient = client
        backButton.isVisible = true
        addButton.isVisible = false
        windowTitle.title = client.name
        nameLabel.text = client.name
        detailsLabel.text = [client.email, client.address, client.taxID].filter { !$0.isEmpty }.joined(separator: "\n")
        detailsLabel.isVisible = !detailsLabel.text.isEmpty
        invoiceRows.forEach(invoicesGroup.remove)
        invoiceRows = []
        let owed: [Money], count: Int, shown: [InvoiceSummary]
        do {
            owed = try repository.outstandingBalance(ofClient: id)
            count = try repository.invoiceCount(ofClient: id)
            shown = try repository.invoiceSummaries(matching: InvoiceListQuery(clientID: id), limit: 50)
        } catch {
            // Never "Nothing" owed or "No invoices yet" for what could not be read.
            owedLabel.text = "—"
            invoicesGroup.groupDescription = String(format: tr("The client’s invoices could not be read: %@"), error.localizedDescription)
            showClientPage()
            return
        }
        owedLabel.text = owed.isEmpty ? tr("Nothing") : owed.map { money.string(from: $0) }.joined(separator: "\n")
        for summary in shown {
            let row = ActionRow.plain(title: summary.number, subtitle: String(format: tr("%@ · %@"), summary.issueDate.formatted(.medium),
                                                                        summary.displayStatus.title))
            let amount = Label(money.string(from: summary.total), wraps: false, style: "numeric")
            amount.align(vertical: .center)
            row.addSuffix(amount)
            invoicesGroup.add(row)
            invoiceRows.append(row)
        }
        invoicesGroup.groupDescription = count > shown.count
            ? String(format: tr("The latest %d of %d; search the invoice list for the others."), shown.count, count)
            : (count == 0 ? tr("No invoices yet.") : nil)
        showClientPage()
    }

    /// The focus goes to Edit. Left to GTK, it lands on the selectable name, which then stays
    /// all selected as if the person had selected it.
    private func showClientPage() {
        stack.visibleChildName = "client"
        _ = editButton.grabFocus()
        nameLabel.clearSelection()
        detailsLabel.clearSelection()
    }

    func edit(_ client: Client?) {
        let profile = (try? repository.profile()) ?? .initial()
        let editor = ClientEditor(repository: repository, client: client, parent: self, profile: profile)
        editor.onSaved = { [weak self] saved in
            guard let self else { return }
            self.onChanged?()
            if self.shownClient != nil { self.show(saved) } else { self.reload() }
        }
        clientEditor = editor
        editor.present()
    }

    /// Asks before deleting; a client with invoices needs a decision about them.
    func confirmDelete() {
        guard let client = shownClient, let id = client.id else { return }
        let count: Int
        do {
            let recurring = try repository.recurringInvoiceCount(ofClient: id)
            if recurring > 0 {
                let dialog = MessageDialog(parent: self, heading: String(format: tr("%@ Cannot Be Deleted Yet"), client.name),
                                           body: InvoiceError.clientHasRecurringInvoices(count: recurring).localizedDescription)
                dialog.addResponse("close", label: tr("_Close"))
                dialog.setDefaultResponse("close")
                dialog.setCloseResponse("close")
                dialog.onResponse { [weak self] _ in self?.confirmation = nil }
                confirmation = dialog
                dialog.present()
                return
            }
            count = try repository.invoiceCount(ofClient: id)
        } catch {
            // What happens to its invoices cannot be asked without knowing whether it has any.
            context.showToast(error.localizedDescription)
            return
        }
        let body = count == 0
            ? tr("The client has no invoices.")
            : String(format: trn("%@ has %d invoice. Keep it: the client leaves this list, and the invoice keeps its name and address. Or delete it with the client; its number is never used again.",
                                 "%@ has %d invoices. Keep them: the client leaves this list, and the invoices keep its name and address. Or delete them with the client; their numbers are never used again.",
                                 count), client.name, count)
        let dialog = MessageDialog(parent: self, heading: String(format: tr("Delete %@?"), client.name), body: body)
        dialog.addResponse("cancel", label: tr("_Cancel"))
        if count == 0 {
            dialog.addResponse("delete", label: tr("_Delete"), appearance: .destructive)
        } else {
            dialog.addResponse("keep", label: tr("_Keep Invoices"))
            dialog.addResponse("delete", label: tr("Delete _Invoices Too"), appearance: .destructive)
        }
        dialog.setDefaultResponse("cancel")
        dialog.setCloseResponse("cancel")
        dialog.onResponse { [weak self] response in
            self?.confirmation = nil
            switch response {
            case "keep": self?.delete(id, invoices: .keep)
            case "delete": self?.delete(id, invoices: count == 0 ? nil : .delete)
            default: break
            }
        }
        confirmation = dialog
        dialog.present()
    }

    func delete(_ id: ClientID, invoices: ClientInvoicesOnDelete?) {
        do {
            let result = try repository.deleteClient(id, invoices: invoices)
            switch result {
            case .deleted:
                context.showToast(tr("Client deleted"))
            case .archived(let kept):
                context.showToast(String(format: trn("Client deleted; its %d invoice was kept", "Client deleted; its %d invoices were kept", kept), kept))
            case .deletedWithInvoices(let count):
                context.showToast(String(format: trn("Client and %d invoice deleted", "Client and %d invoices deleted", count), count))
            }
            onChanged?()
            showList()
        } catch {
            context.showToast(error.localizedDescription)
        }
    }
}
