import BillfoldCore
import Foundation
import GtkKit
import InvoicesCore

/// Asks what a credit note takes back: each line of the invoice with the quantity to credit,
/// all that is left by default (which cancels the invoice), less for a correction; or an
/// amount taken off in one of the invoice's VAT groups, such as a price reduction; and why.
/// Nothing is issued until what was typed can be read and is allowed.
@MainActor
final class CreditNoteDialog: AdwaitaWindow {
    /// Quantities of lines, or an amount.
    let creditRow = ComboRow(title: tr("Credit"), choices: [tr("Quantities of Lines"), tr("An Amount")])
    let quantityRows: [EntryRow]
    let amountDescriptionRow = EntryRow(title: tr("Description"))
    let amountRow = EntryRow(title: tr("Net Amount"))
    /// Shown when the invoice has more than one VAT group.
    let amountVATRow: ComboRow
    let reasonRow = EntryRow(title: tr("Reason"))
    let totalLabel = Label("", wraps: false, style: "numeric")
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let issueButton = Button(label: tr("_Issue"))
    var onIssued: (@MainActor (CreditNote) -> Void)?
    private let invoice: Invoice
    private let earlier: [CreditNote]
    private let remaining: [Decimal]
    /// The invoice's VAT groups, as `amountVATRow` lists them.
    private let vatGroups: [InvoiceTotals.TaxLine]
    let linesGroup: PreferencesGroup
    let amountGroup: PreferencesGroup
    private let repository: InvoiceRepository
    private let money = MoneyFormatter()
    private let numbers = NumberFormatting()

    init(invoice: Invoice, earlier: [CreditNote], repository: InvoiceRepository, parent: Window?) {
        self.invoice = invoice
        self.earlier = earlier
        self.repository = repository
        remaining = CreditNote.remainingQuantities(of: invoice, after: earlier)
        quantityRows = invoice.lines.map { EntryRow(title: $0.description.split(separator: "\n").first.map(String.init) ?? "") }
        let totals = try? invoice.totals()
        vatGroups = totals?.taxLines ?? []
        let numbers = self.numbers
        amountVATRow = ComboRow(title: tr("VAT"), choices: vatGroups.map { $0.category.groupTitle(rate: $0.rate, numbers: numbers) })
        linesGroup = PreferencesGroup(title: tr("Quantities to Credit"),
                                      description: tr("Everything not yet credited cancels the invoice. Lower a quantity, or set it to 0, to correct only part of it."))
        amountGroup = PreferencesGroup(title: tr("Amount to Take Off"),
                                       description: totals?.discount.isZero == false
                                           ? tr("For example a price reduction: nothing is taken back. Before tax and before the invoice’s discount, which applies to it too.")
                                           : tr("For example a price reduction: nothing is taken back. Before tax."))
        super.init()
        let title = tr("Create Credit Note")
        makeDialog(title: title, over: parent, width: 480, height: 560)
        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        issueButton.onClicked { [weak self] in self?.issue() }
        let header = HeaderBar(dialogTitle: title, subtitle: String(format: tr("For invoice %@"), invoice.number),
                               cancel: cancel, action: issueButton)

        let lines = linesGroup
        for (index, row) in quantityRows.enumerated() {
            row.text = numbers.string(from: max(0, remaining[index]))
            row.addSuffix(Label(String(format: tr("of %@"), numbers.string(from: max(0, remaining[index]))),
                                wraps: false, style: "dim-label"))
            row.isSensitive = remaining[index] > 0
            row.onChanged { [weak self] in self?.update() }
            lines.add(row)
        }
        let kind = PreferencesGroup()
        kind.add(creditRow)
        creditRow.onSelectionChanged { [weak self] in self?.update() }
        amountDescriptionRow.text = tr("Price reduction")
        amountRow.addSuffix(Label(invoice.currency.code, wraps: false, style: "dim-label"))
        for row in [amountDescriptionRow, amountRow] {
            row.onChanged { [weak self] in self?.update() }
            amountGroup.add(row)
        }
        amountVATRow.onSelectionChanged { [weak self] in self?.update() }
        amountVATRow.isVisible = vatGroups.count > 1
        amountGroup.add(amountVATRow)
        let details = PreferencesGroup()
        reasonRow.onChanged { [weak self] in self?.update() }
        details.add(reasonRow)
        let totalRow = ActionRow(title: tr("Credit Note Total"))
        totalLabel.align(vertical: .center)
        totalLabel.addCssClass("heading")
        totalRow.addSuffix(totalLabel)
        details.add(totalRow)
        errorLabel.xAlign = 0
        let content = Box(.vertical, spacing: 18, children: [kind, lines, amountGroup, details, errorLabel])
        content.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 560))
        scroller.expandsVertically = true
        scroller.propagatesNaturalHeight = true
        self.content = Box(.vertical, children: [header, scroller])
        update()
    }

    /// Whether the note takes off an amount rather than quantities.
    var creditsAnAmount: Bool { creditRow.selectedIndex == 1 }

    /// The credit note as typed, or why it cannot be issued.
    func parsed() -> Result<CreditNote, ParseFailure> {
        var note = CreditNote(invoiceID: invoice.id ?? InvoiceID(0), issueDate: .today(), reason: reasonRow.text, lines: [])
        do throws(ParseFailure) {
            if creditsAnAmount {
                note.amounts = [try parsedAmount()]
            } else {
                note.lines = try parsedLines()
            }
        } catch {
            return .failure(error)
        }
        do {
            try note.check(against: invoice, after: earlier)
        } catch {
            return .failure(ParseFailure(message: error.localizedDescription))
        }
        return .success(note)
    }

    /// The quantities typed, each line's that is not 0.
    private func parsedLines() throws(ParseFailure) -> [CreditedLine] {
        var credited: [CreditedLine] = []
        for (index, row) in quantityRows.enumerated() where row.isSensitive {
            let text = row.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            let quantity: Decimal
            do {
                quantity = try numbers.decimal(from: text)
            } catch {
                throw ParseFailure(message: String(format: tr("Line %d: %@"), index + 1, error.localizedDescription))
            }
            if quantity != 0 { credited.append(CreditedLine(invoiceLine: index, quantity: quantity)) }
        }
        return credited
    }

    /// The amount typed, in the VAT group chosen.
    private func parsedAmount() throws(ParseFailure) -> CreditedAmount {
        let text = amountRow.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw ParseFailure(message: tr("Enter the amount to take off.")) }
        let net: Money
        do {
            net = try money.money(from: text, currency: invoice.currency)
        } catch {
            throw ParseFailure(message: error.localizedDescription)
        }
        guard let index = amountVATRow.selectedIndex, vatGroups.indices.contains(index) else {
            throw ParseFailure(message: InvoiceError.creditAmountGroupNotBilled.localizedDescription)
        }
        return CreditedAmount(description: amountDescriptionRow.text, net: net, vatCategory: vatGroups[index].category,
                              taxRate: vatGroups[index].rate)
    }

    @discardableResult
    func update() -> Bool {
        linesGroup.isVisible = !creditsAnAmount
        amountGroup.isVisible = creditsAnAmount
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
