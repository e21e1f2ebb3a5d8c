import BillfoldCore
import BillfoldUI
import GtkKit
import InvoicesCore

/// Asks for a payment against an invoice: amount (the balance by default), date and a note.
@MainActor
final class PaymentDialog: FormWindow {
    let amountRow = EntryRow(title: tr("Amount"))
    let dateRow = EntryRow(title: tr("Date"))
    let noteRow = EntryRow(title: tr("Note"))
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let recordButton = Button(label: tr("_Record"))
    var onRecord: (@MainActor (Money, CalendarDay, String) -> Void)?
    private let currency: Currency
    private let balance: Money
    private let money = MoneyFormatter()

    init(invoice: Invoice, parent: Window?) {
        currency = invoice.currency
        balance = (try? invoice.totals().balanceDue) ?? .zero(invoice.currency)
        super.init()
        makeForm(title: tr("Record Payment"), over: parent, width: 420, submitButton: recordButton,
                 submit: { [weak self] in self?.record() },
                 values: { [weak self] in [self?.amountRow.text, self?.dateRow.text, self?.noteRow.text].compactMap { $0 } })

        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        recordButton.onClicked { [weak self] in self?.record() }
        let header = HeaderBar(dialogTitle: tr("Record Payment"), subtitle: invoice.number, cancel: cancel,
                               action: recordButton)

        let group = PreferencesGroup(description: String(format: tr("Still owed: %@"), money.string(from: balance)))
        amountRow.text = money.string(from: balance, showSymbol: false)
        amountRow.addSuffix(Label(currency.code, wraps: false, style: "dim-label"))
        dateRow.text = CalendarDay.today().formatted(.short)
        for row in [amountRow, dateRow, noteRow] {
            group.add(row)
            row.onChanged { [weak self] in self?.validate() }
        }
        submitsOnReturn([amountRow, dateRow, noteRow])
        errorLabel.xAlign = 0
        let content = Box(.vertical, spacing: 12, children: [group, errorLabel])
        content.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        self.content = Box(.vertical, children: [header, content])
        validate()
    }

    /// The payment as typed, or why it cannot be recorded.
    private func parsed() -> Result<(Money, CalendarDay), ParseFailure> {
        let amount: Money
        do {
            amount = try money.money(from: amountRow.text, currency: currency)
        } catch {
            return .failure(ParseFailure(message: error.localizedDescription))
        }
        guard amount.isPositive else { return .failure(ParseFailure(message: tr("Enter a payment amount above zero."))) }
        guard amount.minorUnits <= balance.minorUnits else {
            return .failure(ParseFailure(message: String(format: tr("The payment is more than the %@ still owed. Enter at most that amount."),
                                                         money.string(from: balance))))
        }
        do {
            return .success((amount, try CalendarDay.parse(dateRow.text)))
        } catch {
            return .failure(ParseFailure(message: error.localizedDescription))
        }
    }

    @discardableResult
    func validate() -> Bool {
        switch parsed() {
        case .success:
            errorLabel.isVisible = false
            recordButton.isSensitive = true
            return true
        case .failure(let failure):
            errorLabel.text = failure.message
            errorLabel.isVisible = true
            recordButton.isSensitive = false
            return false
        }
    }

    func record() {
        guard validate(), case .success(let (amount, date)) = parsed() else { return }
        onRecord?(amount, date, noteRow.text.trimmingCharacters(in: .whitespaces))
        closeAfterSubmitting()
    }
}

/// A message saying why typed text cannot be used.
struct ParseFailure: Error {
    let message: String
}
