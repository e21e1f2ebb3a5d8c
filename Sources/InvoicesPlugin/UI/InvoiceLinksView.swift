import BillfoldCore
import GtkKit
import InvoicesCore
import PluginAPI

/// The parts of the invoice pane that tie it to other documents: the quote it was made from,
/// its credit notes and what they took off the amounts, and Create Credit Note for a sent
/// invoice, which is how one is corrected or cancelled. The pane places each part.
@MainActor
final class InvoiceLinksView {
    let widget = Box(.vertical, spacing: 12)
    weak var navigator: (any DocumentNavigator)?
    private let repository: InvoiceRepository
    // The shell does not keep the context; the views do.
    private let context: PluginContext
    private let money = MoneyFormatter()
    private(set) var invoice: Invoice?

    let creditNoteButton = Button(label: tr("Create Credit _Note…"))
    /// For the pane's amounts, between the total and the payments.
    let creditedRow = ActionRow(title: tr("Credited"))
    let creditedLabel = Label("", wraps: false, style: "numeric")
    let linksGroup = PreferencesGroup(title: tr("Related Documents"))
    let quoteRow = ActionRow(title: tr("From Quote"))
    private var quoteID: QuoteID?
    private var noteRows: [Widget] = []
    /// The credit note dialog while it is open; its window keeps it, not this view.
    private(set) weak var creditNoteDialog: CreditNoteDialog?

    init(repository: InvoiceRepository, context: PluginContext) {
        self.repository = repository
        self.context = context
        creditNoteButton.tooltip = tr("Correct or cancel the sent invoice with a credit note")
        creditNoteButton.onClicked { [weak self] in self?.openCreditNoteDialog() }
        quoteRow.addSuffix(Image(iconName: "go-next-symbolic"))
        quoteRow.onActivated { [weak self] in
            guard let self, let id = self.quoteID else { return }
            self.navigator?.showQuote(id)
        }
        linksGroup.add(quoteRow)
        widget.append(linksGroup)
    }

    func show(_ invoice: Invoice?) {
        self.invoice = invoice
        noteRows.forEach(linksGroup.remove)
        noteRows = []
        guard let invoice, let id = invoice.id else {
            widget.isVisible = false
            creditedRow.isVisible = false
            return
        }
        widget.isVisible = true
        creditNoteButton.isVisible = invoice.status == .sent || invoice.status == .paid
        let credited = Money(minorUnits: invoice.creditedMinorUnits, currency: invoice.currency)
        creditedRow.isVisible = !credited.isZero
        creditedLabel.text = money.string(from: (try? credited.negated()) ?? credited)
        do {
            let quote = try repository.quote(convertedInto: id)
            quoteID = quote?.id
            quoteRow.isVisible = quote != nil
            quoteRow.subtitle = quote.map { String(format: tr("%@ of %@"), $0.link.number, $0.link.issueDate.formatted(.medium)) }
            for note in try repository.creditNotes(forInvoice: id) {
                let total = (try? note.totals(of: invoice).total).map { money.string(from: $0) } ?? ""
                let row = ActionRow(title: String(format: tr("Credit Note %@"), note.number),
                                    subtitle: String(format: tr("%@ · %@ credited"), note.issueDate.formatted(.medium), total))
                row.addSuffix(Image(iconName: "go-next-symbolic"))
                row.onActivated { [weak self] in
                    guard let noteID = note.id else { return }
                    self?.navigator?.showCreditNote(noteID)
                }
                linksGroup.add(row)
                noteRows.append(row)
            }
        } catch {
            quoteRow.isVisible = false
            context.showToast(error.localizedDescription)
        }
        linksGroup.isVisible = quoteRow.isVisible || !noteRows.isEmpty
    }

    func openCreditNoteDialog() {
        guard let invoice else { return }
        let earlier: [CreditNote]
        do {
            earlier = try repository.creditNotes(forInvoice: invoice.id ?? InvoiceID(0))
        } catch {
            context.showToast(error.localizedDescription)
            return
        }
        let dialog = CreditNoteDialog(invoice: invoice, earlier: earlier, repository: repository, parent: context.window)
        dialog.onIssued = { [weak self] note in
            guard let self else { return }
            self.navigator?.creditNoteIssued(note)
            self.context.showToast(String(format: tr("Credit note %@ issued for invoice %@"), note.number, invoice.number))
        }
        creditNoteDialog = dialog
        dialog.present()
    }
}
