import BillfoldCore
import BillfoldUI
import ExpensesCore
import Foundation
import GObjectCore
import GtkKit

/// New Trip and Edit Trip: name, dates typed in the locale's short format, purpose and the
/// reimbursement currency, checked as they are typed.
@MainActor
public final class TripDialog: FormWindow {
    private let repository: ExpenseRepository
    private let editing: Trip?

    let nameRow = EntryRow(title: tr("Name"))
    let startRow = EntryRow(title: tr("Start Date"))
    let endRow = EntryRow(title: tr("End Date"))
    let purposeRow = EntryRow(title: tr("Purpose"))
    let currencyRow: CurrencyRow
    let nameError = Label("", style: "error")
    let dateError = Label("", style: "error")
    let saveError = Label("", style: "error")
    public let saveButton: Button
    private var touched: Set<TripField> = []

    var onSaved: (@MainActor (Trip) -> Void)?

    /// A new trip is reimbursed in `defaultCurrency` unless the user chooses another.
    init(repository: ExpenseRepository, editing: Trip?, parent: Window?, defaultCurrency: Currency = .forLocale()) {
        self.repository = repository
        self.editing = editing
        let details = editing?.details ?? TripDetails.draft(currency: defaultCurrency)
        currencyRow = CurrencyRow(title: tr("Reimbursement Currency"), currency: details.currency)
        saveButton = Button(label: editing == nil ? tr("C_reate") : tr("_Save"))
        super.init()
        makeForm(title: editing == nil ? tr("New Trip") : tr("Edit Trip"), over: parent, width: 460, submitButton: saveButton,
                 submit: { [weak self] in self?.save() }, values: { [weak self] in self?.formValues ?? [] })

        let cancel = Button(label: tr("_Cancel"))
        let header = HeaderBar(dialogTitle: self.title ?? "", cancel: cancel, action: saveButton)

        let group = PreferencesGroup()
        for row in [nameRow, startRow, endRow, purposeRow] { group.add(row) }
        group.add(currencyRow)
        nameRow.text = details.name
        startRow.text = details.startDate.formatted(.short)
        endRow.text = details.endDate.formatted(.short)
        purposeRow.text = details.purpose
        currencyRow.note = tr("Every expense is converted to it")
        if let editing {
            do {
                if try !repository.expenses(in: editing.id).isEmpty {
                    currencyRow.isSensitive = false
                    currencyRow.note = tr("The trip has expenses converted to it")
                }
            } catch {
                // Its expenses may be in this currency: it stays as it is.
                currencyRow.isSensitive = false
                currencyRow.note = String(format: tr("The trip’s expenses could not be read: %@"), error.localizedDescription)
            }
        }

        let hint = Label(String(format: tr("Type dates like %@."), CalendarDay.today().formatted(.short)),
                         style: "dim-label")
        let content = Box(.vertical, spacing: 6, children: [group, hint, nameError, dateError, saveError])
        for label in [hint, nameError, dateError, saveError] {
            label.xAlign = 0
            label.setMargins(top: 0, bottom: 0, start: 12, end: 12)
        }
        for label in [nameError, dateError, saveError] { show(label, nil) }
        content.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        self.content = Box(.vertical, children: [header, Clamp(child: content, maximumWidth: 520)])

        cancel.onClicked { [weak self] in self?.close() }
        saveButton.onClicked { [weak self] in self?.save() }
        nameRow.onChanged { [weak self] in guard let self else { return }; self.touched.insert(.name); self.check() }
        startRow.onChanged { [weak self] in guard let self else { return }; self.touched.insert(.startDate); self.check() }
        endRow.onChanged { [weak self] in guard let self else { return }; self.touched.insert(.endDate); self.check() }
        submitsOnReturn([nameRow, startRow, endRow, purposeRow])
        check()
    }

    public override func present() {
        super.present()
        _ = nameRow.grabFocus()
    }

    /// The details typed so far, or the messages that stop saving (each shown by its field).
    @discardableResult
    func check() -> TripDetails? {
        var dateProblems: [String] = []
        var start: CalendarDay?
        var end: CalendarDay?
        do { start = try CalendarDay.parse(startRow.text) } catch {
            dateProblems.append(String(format: tr("Start date: %@"), error.localizedDescription))
        }
        do { end = try CalendarDay.parse(endRow.text) } catch {
            dateProblems.append(String(format: tr("End date: %@"), error.localizedDescription))
        }
        var nameProblem: String?
        var details: TripDetails?
        if let start, let end {
            let candidate = TripDetails(name: nameRow.text, startDate: start, endDate: end, purpose: purposeRow.text,
                                        currency: currencyRow.currency)
            let problems = candidate.problems()
            for problem in problems {
                switch problem.field {
                case .name: nameProblem = problem.localizedDescription
                default: dateProblems.append(problem.localizedDescription)
                }
            }
            if problems.isEmpty { details = candidate }
        } else if nameRow.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            nameProblem = TripValidationError.emptyName.localizedDescription
        }
        show(nameError, touched.contains(.name) ? nameProblem : nil)
        let datesTouched = touched.contains(.startDate) || touched.contains(.endDate)
        show(dateError, datesTouched && !dateProblems.isEmpty ? dateProblems.joined(separator: "\n") : nil)
        setState(of: startRow, invalid: datesTouched && start == nil)
        setState(of: endRow, invalid: datesTouched && (end == nil || (start != nil && end != nil && end! < start!)))
        setState(of: nameRow, invalid: touched.contains(.name) && nameProblem != nil)
        saveButton.isSensitive = details != nil
        return details
    }

    /// Creates or saves the trip; a refusal (say, a duplicate name) is shown in the dialog.
    @discardableResult
    public func save() -> Trip? {
        touched.formUnion([.name, .startDate, .endDate])
        guard let details = check() else { return nil }
        do {
            let trip: Trip
            if let editing {
                trip = try repository.updateTrip(Trip(id: editing.id, details: details))
            } else {
                trip = try repository.createTrip(details)
            }
            closeAfterSubmitting()
            onSaved?(trip)
            return trip
        } catch {
            show(saveError, error.localizedDescription)
            return nil
        }
    }

    /// What the fields hold, to tell whether closing loses anything.
    private var formValues: [String] {
        [nameRow.text, startRow.text, endRow.text, purposeRow.text, currencyRow.currency.code]
    }

    /// The messages shown, for tests and e2e checks.
    var visibleMessages: [String] {
        [nameError, dateError, saveError].filter(\.isVisible).map(\.text)
    }

    private func show(_ label: Label, _ message: String?) {
        label.text = message ?? ""
        label.isVisible = message != nil
    }

    private func setState(of row: Widget, invalid: Bool) {
        row.setCssClass("error", enabled: invalid)
    }
}
