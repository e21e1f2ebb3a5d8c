import BillfoldCore
import BillfoldUI
import GtkKit
import InvoicesCore

/// Asks for money received on an invoice, or paid back to the client: amount (all that is
/// owed or due back, by default), date and a note.
@MainActor
final class PaymentDialog: FormWindow {
    enum Kind {
        /// From the client, at most the balance due.
        case payment
        /// Back to the client, at most the refund due.
        case refund
    }

    let kind: Kind
    let amountRow = EntryRow(title: tr("Amount"))
    let dateRow = EntryRow(title: tr("Date"))
    let noteRow = EntryRow(title: tr("Note"))
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let recordButton = Button(label: tr("_Record"))
    var onRecord: (@MainActor (Money, CalendarDay, String) -> Void)?
    private let currency: Currency
    /// The most that can be recorded.
    private let limit: Money
    private let money = MoneyFormatter()

    init(invoice: Invoice, kind: Kind = .payment, parent: Window?) {
        self.kind = kind
        currency = invoice.currency
        let totals = try? invoice.totals()
        switch kind {
        case .payment: limit = totals?.balanceDue ?? .zero(invoice.currency)
        case .refund: limit = totals?.refundDue ?? .zero(invoice.currency)
        }
        super.init()
        let title = kind == .payment ? tr("Record Payment") : tr("Record Refund")
        makeForm(title: title, over: parent, width: 420, submitButton: recordButton,
                 submit: { [weak self] in self?.record() },
                 values: { [weak self] in [self?.amountRow.text, self?.dateRow.text, self?.noteRow.text].compactMap { $0 } })

        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        recordButton.onClicked { [weak self] in self?.record() }
        let header = HeaderBar(dialogTitle: title, subtitle: invoice.number, cancel: cancel, action: recordButton)

        let description = kind == .payment ? tr("Still owed: %@") : tr("Due to the client: %@")
        let group = PreferencesGroup(description: String(format: description, money.string(from: limit)))
        amountRow.text = money.string(from: limit, showSymbol: false)
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
        guard amount.isPositive else {
            return .failure(ParseFailure(message: (kind == .payment ? InvoiceError.paymentNotPositive : .refundNotPositive).localizedDescription))
        }
        guard amount.minorUnits <= limit.minorUnits else {
            let error: InvoiceError = kind == .payment ? .overpayment(balance: limit) : .overRefund(due: limit)
            return .failure(ParseFailure(message: error.localizedDescription))
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
