import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The invoice pane's part for reminders: the "Send Reminder…" button, shown while the invoice
/// is overdue, and the reminders sent so far, each of which can be saved as PDF again.
@MainActor
final class InvoiceReminders {
    let button = Button(label: tr("Send _Reminder…"))
    let history = PreferencesGroup(title: tr("Reminders"))
    private var rows: [Widget] = []
    private let repository: InvoiceRepository
    private let context: PluginContext
    private let money = MoneyFormatter()
    private var invoice: Invoice?
    private var reminders: [Reminder] = []
    /// Called after a reminder was recorded, so the pane can show it.
    var onRecorded: (@MainActor (InvoiceID) -> Void)?
    /// The dialog while it exists; the window's own lifetime keeps it, not this pane.
    private(set) weak var dialog: ReminderDialog?
    private(set) lazy var documentActions = DocumentActions(parent: context.window) { [weak self] error in
        self?.context.showToast(error.localizedDescription)
    }

    init(repository: InvoiceRepository, context: PluginContext) {
        self.repository = repository
        self.context = context
        button.tooltip = tr("Write a payment reminder for this overdue invoice")
        button.onClicked { [weak self] in self?.openDialog() }
    }

    func show(_ invoice: Invoice?) {
        self.invoice = invoice
        rows.forEach(history.remove)
        rows = []
        reminders = []
        guard let invoice, let id = invoice.id else {
            button.isVisible = false
            history.isVisible = false
            return
        }
        button.isVisible = invoice.displayStatus(today: .today()) == .overdue
        do {
            reminders = try repository.reminders(for: id)
        } catch {
            // A history that cannot be read says so; it never looks empty.
            let row = ActionRow.plain(title: tr("Reminders could not be read"), subtitle: error.localizedDescription)
            history.add(row)
            rows = [row]
            history.isVisible = true
            return
        }
        for reminder in reminders {
            var subtitle = String(format: tr("Sent %@ · pay by %@"), reminder.date.formatted(.medium),
                                  reminder.deadline.formatted(.medium))
            if reminder.fee.isPositive { subtitle += " · " + String(format: tr("fee %@"), money.string(from: reminder.fee)) }
            if reminder.interest.isPositive {
                subtitle += " · " + String(format: tr("interest %@"), money.string(from: reminder.interest))
            }
            let row = ActionRow.plain(title: reminder.level.title, subtitle: subtitle)
            let save = Button(iconName: "document-save-symbolic", accessibleLabel: tr("Save Reminder PDF"))
            save.tooltip = tr("Save Reminder PDF")
            save.addCssClass("flat")
            save.align(vertical: .center)
            save.onClicked { [weak self] in self?.savePDF(of: reminder) }
            row.addSuffix(save)
            history.add(row)
            rows.append(row)
        }
        history.isVisible = !reminders.isEmpty
    }

    private func openDialog() {
        guard let invoice else { return }
        let dialog = ReminderDialog(invoice: invoice, previous: reminders, repository: repository, context: context)
        dialog.onRecorded = { [weak self] reminder in self?.onRecorded?(reminder.invoiceID) }
        self.dialog = dialog
        dialog.present()
    }

    private func savePDF(of reminder: Reminder) {
        guard let invoice, context.ensureAllowed(.exportInvoicePDF) else { return }
        do {
            let pdf = try ReminderPDF.render(try repository.document(for: reminder)).data
            documentActions.saveAs(pdf: pdf, suggestedName: ReminderPDF.suggestedFileName(for: reminder, invoice: invoice)) { [weak self] url in
                self?.context.showToast(String(format: tr("Saved “%@”"), url.lastPathComponent))
            }
        } catch {
            context.showToast(error.localizedDescription)
        }
    }
}
