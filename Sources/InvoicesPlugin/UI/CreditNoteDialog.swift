import BillfoldCore
import Foundation
import GtkKit
import InvoicesCore

/// Asks what a credit note takes back: each line of the invoice with the quantity to credit,
/// all that is left by default (which cancels the invoice), less for a correction; and why.
/// Nothing is issued until the quantities can be read and are allowed.
@MainActor
final class CreditNoteDialog: AdwaitaWindow {
    let quantityRows: [EntryRow]
    let reasonRow = EntryRow(title: tr("Reason"))
    let totalLabel = Label("", wraps: false, style: "numeric")
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let issueButton = Button(label: tr("_Issue"))
    var onIssued: (@MainActor (CreditNote) -> Void)?
    private let invoice: Invoice
    private let earlier: [CreditNote]
    private let remaining: [Decimal]
    private let repository: InvoiceRepository
    private let money = MoneyFormatter()
    private let numbers = NumberFormatting()

    init(invoice: Invoice, earlier: [CreditNote], repository: InvoiceRepository, parent: Window?) {
        self.invoice = invoice
        self.earlier = earlier
        self.repository = repository
        remaining = CreditNote.remainingQuantities(of: invoice, after: earlier)
        quantityRows = invoice.lines.map { EntryRow(title: $0.description.split(separator: "\n").first.map(String.init) ?? "") }
        super.init()
        let title = tr("Create Credit Note")
        makeDialog(title: title, over: parent, width: 480, height: 560)
        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        issueButton.onClicked { [weak self] in self?.issue() }
        let header = HeaderBar(dialogTitle: title, subtitle: String(format: tr("For invoice %@"), invoice.number),
                               cancel: cancel, action: issueButton)

        let lines = PreferencesGroup(title: tr("Quantities to Credit"),
                                     description: tr("Everything not yet credited cancels the invoice. Lower a quantity, or set it to 0, to correct only part of it."))
        for (index, row) in quantityRows.enumerated() {
            row.text = numbers.string(from: max(0, remaining[index]))
            row.addSuffix(Label(String(format: tr("of %@"), numbers.string(from: max(0, remaining[index]))),
                                wraps: false, style: "dim-label"))
            row.isSensitive = remaining[index] > 0
            row.onChanged { [weak self] in self?.update() }
            lines.add(row)
        }
        let details = PreferencesGroup()
        reasonRow.onChanged { [weak self] in self?.update() }
        details.add(reasonRow)
        let totalRow = ActionRow(title: tr("Credit Note Total"))
        totalLabel.align(vertical: .center)
        totalLabel.addCssClass("heading")
        totalRow.addSuffix(totalLabel)
        details.add(totalRow)
        errorLabel.xAlign = 0
        let content = Box(.vertical, spacing: 18, children: [lines, details, errorLabel])
        content.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 560))
        scroller.expandsVertically = true
        scroller.propagatesNaturalHeight = true
        self.content = Box(.vertical, children: [header, scroller])
        update()
    }

    /// The credit note as typed, or why it cannot be issued.
    func parsed() -> Result<CreditNote, ParseFailure> {
        var credited: [CreditedLine] = []
        for (index, row) in quantityRows.enumerated() where row.isSensitive {
            let text = row.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            let quantity: Decimal
            do {
                quantity = try numbers.decimal(from: text)
            } catch {
                return .failure(ParseFailure(message: String(format: tr("Line %d: %@"), index + 1, error.localizedDescription)))
            }
            if quantity != 0 { credited.append(CreditedLine(invoiceLine: index, quantity: quantity)) }
        }
        let note = CreditNote(invoiceID: invoice.id ?? InvoiceID(0), issueDate: .today(), reason: reasonRow.text, lines: credited)
        do {
            try note.check(against: invoice, after: earlier)
        } catch {
            return .failure(ParseFailure(message: error.localizedDescription))
        }
        return .success(note)
    }

    @discardableResult
    func update() -> Bool {
        switch parsed() {
        case .success(let note):
            totalLabel.text = (try? note.totals(of: invoice).total).map { money.string(from: $0) } ?? "—"
            errorLabel.isVisible = false
            issueButton.isSensitive = true
            return true
        case .failure(let failure):
            totalLabel.text = "—"
            errorLabel.text = failure.message
            errorLabel.isVisible = true
            issueButton.isSensitive = false
            return false
        }
    }

    func issue() {
        guard case .success(let note) = parsed() else { return }
        do {
            let issued = try repository.issue(note)
            onIssued?(issued)
            close()
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
        }
    }
}
