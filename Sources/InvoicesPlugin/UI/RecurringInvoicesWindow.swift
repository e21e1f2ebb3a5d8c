import BillfoldCore
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The recurring invoices in their own window: each with its client, schedule and next issue
/// date, to create, edit, pause, resume or delete. Saving or resuming one issues what is due
/// at once, as a start of Billfold would.
@MainActor
final class RecurringInvoicesWindow: AdwaitaWindow {
    private let repository: InvoiceRepository
    private let context: PluginContext
    /// Called after invoices were issued, so the invoice list can show them.
    var onIssued: (@MainActor () -> Void)?

    let list = ListBox()
    let listStack = Stack()
    /// What the last run issued, or why periods wait.
    let statusLabel = Label("", wraps: true, style: "dim-label")
    /// On the free plan: how issued invoices count toward its limit.
    let planNote = Label("", wraps: true, style: "dim-label")
    let addButton = Button(iconName: "list-add-symbolic", accessibleLabel: tr("New Recurring Invoice"))
    /// Shown instead of the list when it cannot be read: never an empty list.
    let readErrorPage = StatusPage(iconName: "dialog-error-symbolic", title: tr("Recurring Invoices Could Not Be Read"))
    private(set) var summaries: [RecurringInvoiceSummary] = []
    private(set) weak var editor: RecurringInvoiceEditor?
    private(set) var confirmation: MessageDialog?

    init(repository: InvoiceRepository, context: PluginContext) {
        self.repository = repository
        self.context = context
        super.init()
        makeDialog(title: tr("Recurring Invoices"), over: context.window, width: 560, height: 600)

        let header = HeaderBar(title: WindowTitle(tr("Recurring Invoices")))
        addButton.tooltip = tr("New Recurring Invoice")
        addButton.onClicked { [weak self] in self?.edit(nil) }
        header.packStart(addButton)

        list.styleAsBoxedList()
        list.accessibleLabel = tr("Recurring Invoices")
        listStack.add(list, named: "list")
        let newButton = Button(label: tr("_New Recurring Invoice"))
        newButton.addCssClass("pill")
        newButton.addCssClass("suggested-action")
        newButton.align(horizontal: .center)
        newButton.onClicked { [weak self] in self?.edit(nil) }
        listStack.add(StatusPage(iconName: "view-refresh-symbolic", title: tr("No Recurring Invoices"),
                                 description: tr("Bill a client the same every month, quarter, year or few weeks: Billfold issues each invoice when it is due, also for the periods it was closed."),
                                 child: newButton), named: "empty")
        listStack.add(readErrorPage, named: "read-error")
        statusLabel.xAlign = 0
        statusLabel.isVisible = false
        planNote.xAlign = 0
        if let limit = InvoicePlan(context.entitlements).invoiceLimit {
            planNote.text = String(format: tr("Issued invoices count toward the %d invoices of the free version. A period beyond them waits until there is room, and is never skipped."), limit)
        }
        planNote.isVisible = !planNote.text.isEmpty
        let content = Box(.vertical, spacing: 12, children: [statusLabel, listStack, planNote])
        content.setMargins(top: 12, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 600))
        scroller.expandsVertically = true
        self.content = Box(.vertical, children: [header, scroller])
        reload()
    }

    func reload() {
        list.removeAll()
        do {
            summaries = try repository.recurringInvoices()
        } catch {
            summaries = []
            readErrorPage.pageDescription = error.localizedDescription
            listStack.visibleChildName = "read-error"
            return
        }
        for summary in summaries { list.append(row(for: summary), accessibleLabel: summary.clientName) }
        listStack.visibleChildName = summaries.isEmpty ? "empty" : "list"
    }

    private func row(for summary: RecurringInvoiceSummary) -> Widget {
        let recurring = summary.recurring
        var parts = [recurring.interval.title]
        do {
            let net = try Money.sum(recurring.lines.map { try $0.netAmount() }, currency: recurring.currency)
            parts.append(String(format: tr("%@ before tax"), MoneyFormatter().string(from: net)))
        } catch {
            parts.append(error.localizedDescription)
        }
        if recurring.isPaused {
            parts.append(tr("Paused"))
        } else if let next = summary.nextIssueDate {
            parts.append(String(format: tr("Next %@"), next.formatted(.medium)))
        } else {
            parts.append(tr("Ended"))
        }
        parts.append(String(format: trn("%d issued", "%d issued", summary.issuedCount), summary.issuedCount))
        let row = ActionRow.plain(title: summary.clientName, subtitle: parts.joined(separator: " · "))

        let pause = Button(iconName: recurring.isPaused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic",
                           accessibleLabel: recurring.isPaused ? tr("Resume") : tr("Pause"))
        pause.tooltip = recurring.isPaused ? tr("Resume") : tr("Pause")
        pause.onClicked { [weak self] in self?.setPaused(!recurring.isPaused, recurring) }
        let edit = Button(iconName: "document-edit-symbolic", accessibleLabel: tr("Edit"))
        edit.tooltip = tr("Edit")
        edit.onClicked { [weak self] in self?.edit(recurring) }
        let delete = Button(iconName: "user-trash-symbolic", accessibleLabel: tr("Delete"))
        delete.tooltip = tr("Delete")
        delete.onClicked { [weak self] in self?.confirmDelete(summary) }
        for button in [pause, edit, delete] {
            button.addCssClass("flat")
            button.align(vertical: .center)
            row.addSuffix(button)
        }
        return row
    }

    // MARK: Actions

    func edit(_ recurring: RecurringInvoice?) {
        let clients: [Client]
        let profile: BusinessProfile
        do {
            clients = try repository.clients()
            profile = try repository.profile()
        } catch {
            context.showToast(error.localizedDescription)
            return
        }
        let editor = RecurringInvoiceEditor(repository: repository, profile: profile, clients: clients,
                                            recurring: recurring, parent: self)
        editor.onSaved = { [weak self] _ in self?.issueDue() }
        // Back to this window, so its keys (Escape) work again once the form is gone.
        editor.onCloseRequest { [weak self] in
            self?.present()
            return false
        }
        self.editor = editor
        editor.present()
    }

    func setPaused(_ paused: Bool, _ recurring: RecurringInvoice) {
        var changed = recurring
        changed.isPaused = paused
        do {
            try repository.save(changed)
        } catch {
            context.showToast(error.localizedDescription)
        }
        issueDue()
    }

    /// Issues what is due now and says what happened.
    func issueDue() {
        do {
            let run = try repository.issueDueRecurringInvoices(plan: InvoicePlan(context.entitlements))
            statusLabel.text = run.summary ?? ""
            statusLabel.isVisible = run.summary != nil
            if !run.issued.isEmpty { onIssued?() }
        } catch {
            statusLabel.text = String(format: tr("Recurring invoices could not be issued: %@"), error.localizedDescription)
            statusLabel.isVisible = true
        }
        reload()
    }

    private func confirmDelete(_ summary: RecurringInvoiceSummary) {
        guard let id = summary.recurring.id else { return }
        let dialog = MessageDialog(parent: self, heading: tr("Delete Recurring Invoice?"),
                                   body: String(format: tr("No more invoices are issued for %@. The invoices already issued stay."),
                                                summary.clientName))
        dialog.addResponse("keep", label: tr("_Keep"))
        dialog.addResponse("delete", label: tr("_Delete"), appearance: .destructive)
        dialog.setDefaultResponse("keep")
        dialog.setCloseResponse("keep")
        dialog.onResponse { [weak self] response in
            guard let self else { return }
            self.confirmation = nil
            guard response == "delete" else { return }
            do {
                try self.repository.deleteRecurringInvoice(id)
            } catch {
                self.context.showToast(error.localizedDescription)
            }
            self.reload()
        }
        confirmation = dialog
        dialog.present()
    }
}
