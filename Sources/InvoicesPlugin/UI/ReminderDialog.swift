import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// Writes a payment reminder for an overdue invoice: the level, a fee, the interest rate and
/// the days to pay, with the letter previewed as it is typed. Save, Print or Email first
/// records the reminder on the invoice's history, once, and then hands the letter on; from
/// then on the form is fixed, so what was sent is what was recorded.
@MainActor
final class ReminderDialog: AdwaitaWindow {
    private let repository: InvoiceRepository
    private let context: PluginContext
    private let invoice: Invoice
    private let money = MoneyFormatter()
    private let numbers = NumberFormatting()
    /// Called once the reminder is recorded.
    var onRecorded: (@MainActor (Reminder) -> Void)?

    let levelRow = ComboRow(title: tr("Level"), choices: ReminderLevel.allCases.map(\.title))
    let feeRow = EntryRow(title: tr("Fee"))
    let rateRow = EntryRow(title: tr("Interest Rate per Year"))
    let daysRow = EntryRow(title: tr("Days to Pay"))
    let interestRow = ActionRow(title: tr("Interest"))
    let totalRow = ActionRow(title: tr("Total to Pay"))
    let interestLabel = Label("", wraps: false, style: "numeric")
    let totalLabel = Label("", wraps: false, style: "numeric")
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let saveButton = Button(label: tr("_Save PDF…"))
    let printButton = Button(label: tr("_Print…"))
    let emailButton = Button(label: tr("_Email…"))
    let preview = DocumentPreview(emptyTitle: tr("No Reminder"))
    let body = Leaflet()
    let letterToggle = ToggleButton(label: tr("_Letter"))
    private(set) var recorded: Reminder?
    /// Made when first used. It holds this window as the parent of its dialogs, so it is let go
    /// when the window closes.
    private var documentActions: DocumentActions?

    init(invoice: Invoice, previous: [Reminder], repository: InvoiceRepository, context: PluginContext) {
        self.invoice = invoice
        self.repository = repository
        self.context = context
        super.init()
        makeDialog(title: tr("Send Reminder"), over: context.window, width: 980, height: 720)
        let close = Button(label: tr("_Close"))
        close.onClicked { [weak self] in self?.close() }
        let header = HeaderBar(title: WindowTitle(tr("Send Reminder"), subtitle: invoice.number))
        header.packStart(close)

        let form = PreferencesGroup(description: String(format: tr("Interest runs per day from the due date, %@, to today, on the open amount, counting 365 days a year."),
                                                        invoice.dueDate.formatted(.medium)))
        let last = previous.last
        levelRow.selectedIndex = ReminderLevel.allCases.firstIndex(of: ReminderLevel.next(after: last?.level))
        feeRow.text = money.string(from: last?.fee ?? .zero(invoice.currency), showSymbol: false)
        feeRow.addSuffix(Label(invoice.currency.code, wraps: false, style: "dim-label"))
        rateRow.addSuffix(Label("%", wraps: false, style: "dim-label"))
        rateRow.text = numbers.string(from: last?.interestRate ?? 0, maximumFractionDigits: 4)
        daysRow.text = String(last.map { $0.date.days(to: $0.deadline) } ?? 14)
        form.add(levelRow)
        levelRow.onSelectionChanged { [weak self] in self?.update() }
        for row in [feeRow, rateRow, daysRow] {
            form.add(row)
            row.onChanged { [weak self] in self?.update() }
        }
        for (row, label) in [(interestRow, interestLabel), (totalRow, totalLabel)] {
            label.align(vertical: .center)
            row.addSuffix(label)
            form.add(row)
        }
        totalLabel.addCssClass("heading")
        errorLabel.xAlign = 0
        saveButton.addCssClass("suggested-action")
        saveButton.onClicked { [weak self] in self?.send { pdf, name in self?.save(pdf, name) } }
        printButton.onClicked { [weak self] in self?.send { pdf, _ in self?.print(pdf) } }
        emailButton.onClicked { [weak self] in self?.send { pdf, name in self?.email(pdf, name) } }
        let note = Label(tr("Saving, printing or emailing records the reminder on the invoice."), wraps: true, style: "dim-label")
        note.xAlign = 0
        let buttons = Box(.vertical, spacing: 6, children: [saveButton, printButton, emailButton])
        let side = Box(.vertical, spacing: 12, children: [form, errorLabel, buttons, note])
        side.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        let sideScroller = ScrolledWindow(child: side)
        sideScroller.setSizeRequest(width: 340)
        // The letter takes the width the form does not need.
        sideScroller.expandsHorizontally = false
        preview.widget.expandsHorizontally = true
        preview.widget.setSizeRequest(width: 300)
        // On a narrow window the form and the letter take turns, switched from the header.
        body.append(sideScroller)
        body.append(preview.widget)
        body.expandsVertically = true
        letterToggle.onToggled { [weak self, weak sideScroller] in
            guard let self, let sideScroller else { return }
            self.body.visibleChild = self.letterToggle.isActive ? self.preview.widget : sideScroller
        }
        body.onFoldedChanged { [weak self] in self?.updateFolding() }
        header.packEnd(letterToggle)
        content = Box(.vertical, children: [header, body])
        onCloseRequest { [weak self] in
            self?.documentActions = nil
            return false
        }
        updateFolding()
        update()
    }

    private func updateFolding() {
        letterToggle.isVisible = body.isFolded
        if !body.isFolded { letterToggle.isActive = false }
    }

    /// The reminder as typed, or why it cannot be written.
    func read() -> Result<Reminder, ParseFailure> {
        let level = levelRow.selectedIndex.map { ReminderLevel.allCases[$0] } ?? .friendly
        do {
            let fee = try money.money(from: feeRow.text.isEmpty ? "0" : feeRow.text, currency: invoice.currency)
            let rate = try numbers.percent(from: rateRow.text.isEmpty ? "0" : rateRow.text, maximumFractionDigits: 4)
            guard let days = Int(daysRow.text.trimmingCharacters(in: .whitespaces)) else { throw ReminderError.invalidDeadline }
            return .success(try Reminder.draft(for: invoice, level: level, on: .today(), fee: fee, interestRate: rate,
                                               deadlineDays: days))
        } catch {
            return .failure(ParseFailure(message: error.localizedDescription))
        }
    }

    /// Shows the amounts and makes the letter again, or says what is wrong.
    func update() {
        guard recorded == nil else { return }
        switch read() {
        case .success(let reminder):
            do {
                let document = try repository.document(for: reminder)
                interestLabel.text = money.string(from: reminder.interest)
                totalLabel.text = money.string(from: try document.totalToPay())
                errorLabel.isVisible = false
                setSendable(true)
                preview.generate { try ReminderPDF.render(document).data }
            } catch {
                showProblem(error.localizedDescription)
            }
        case .failure(let failure):
            showProblem(failure.message)
        }
    }

    private func showProblem(_ message: String) {
        errorLabel.text = message
        errorLabel.isVisible = true
        interestLabel.text = ""
        totalLabel.text = ""
        setSendable(false)
    }

    private func setSendable(_ sendable: Bool) {
        for button in [saveButton, printButton, emailButton] { button.isSensitive = sendable }
    }

    /// Records the reminder (the first time) and passes its letter to `action`.
    func send(_ action: @escaping @MainActor (Data, String) -> Void) {
        guard context.ensureAllowed(.exportInvoicePDF) else { return }
        do {
            let reminder: Reminder
            if let recorded {
                reminder = recorded
            } else {
                guard case .success(let typed) = read() else { return }
                reminder = try repository.record(typed)
                recorded = reminder
                for widget: Widget in [levelRow, feeRow, rateRow, daysRow] { widget.isSensitive = false }
                onRecorded?(reminder)
            }
            let pdf = try ReminderPDF.render(try repository.document(for: reminder)).data
            action(pdf, ReminderPDF.suggestedFileName(for: reminder, invoice: invoice))
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
        }
    }

    func actions() -> DocumentActions {
        if let documentActions { return documentActions }
        let actions = DocumentActions(parent: self) { [weak self] error in
            self?.errorLabel.text = error.localizedDescription
            self?.errorLabel.isVisible = true
        }
        documentActions = actions
        return actions
    }

    private func save(_ pdf: Data, _ name: String) {
        actions().saveAs(pdf: pdf, suggestedName: name) { [weak self] url in
            self?.context.showToast(String(format: tr("Saved “%@”"), url.lastPathComponent))
        }
    }

    private func print(_ pdf: Data) {
        actions().print(pdf: pdf, jobName: String(format: tr("Reminder for %@"), invoice.number))
    }

    private func email(_ pdf: Data, _ name: String) {
        actions().email(pdf: pdf, fileName: name, subject: String(format: tr("Reminder: invoice %@"), invoice.number),
                              recipient: invoice.billTo?.email)
    }
}
