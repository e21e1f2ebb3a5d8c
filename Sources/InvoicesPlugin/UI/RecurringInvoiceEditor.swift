import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The form of a recurring invoice: client, how often, from when until when, whether invoices
/// go out as drafts or sent, and the lines, whose descriptions may name the period. A value
/// that cannot be read says why and keeps Save off; nothing is saved half-way.
@MainActor
final class RecurringInvoiceEditor: FormWindow {
    private let repository: InvoiceRepository
    private let profile: BusinessProfile
    private(set) var base: RecurringInvoice
    private(set) var clients: [Client] = []
    /// Called with the saved recurring invoice.
    var onSaved: (@MainActor (RecurringInvoice) -> Void)?

    let saveButton = Button(label: tr("_Save"))
    let clientRow = ComboRow(title: tr("Client"), choices: [])
    let intervalRow = ComboRow(title: tr("Repeat"), choices: [tr("Monthly"), tr("Quarterly"), tr("Yearly"), tr("Every few weeks")])
    let weeksRow = EntryRow(title: tr("Weeks Between Invoices"))
    let startRow = EntryRow(title: tr("First Issue Date"))
    let endRow = EntryRow(title: tr("Last Issue Date (optional)"))
    let modeRow = ComboRow(title: tr("New Invoices"), choices: RecurringIssueMode.allCases.map(\.title))
    let errorLabel = Label("", wraps: true, style: "inline-error")
    let linesBox = Box(.vertical, spacing: 12)
    /// Printed on each invoice; empty takes the business profile's default notes.
    let notesView = TextView()
    let addLineButton = Button(label: tr("_Add Line"))
    private(set) var lineEditors: [LineItemEditor] = []
    /// Problems show once the form was edited or Save was tried, not on a form just opened.
    private var showsProblems = false

    /// `recurring` to edit, or nil for a new one; `clients` are the ones to choose from.
    init(repository: InvoiceRepository, profile: BusinessProfile, clients: [Client], recurring: RecurringInvoice?,
         parent: Window?) {
        self.repository = repository
        self.profile = profile
        self.clients = clients
        let today = CalendarDay.today()
        let first = clients.first
        base = recurring ?? RecurringInvoice(clientID: first?.id, currency: first?.currency ?? profile.defaultCurrency,
                                             startDate: CalendarDay(year: today.year, month: today.month, day: 1) ?? today)
        if recurring == nil {
            var line = Invoice(clientID: nil, issueDate: today, dueDate: today, currency: base.currency).newLine(profile: profile)
            line.description = RecurringInvoice.Placeholder.period
            base.lines = [line]
        }
        showsProblems = recurring != nil
        super.init()
        build(isNew: recurring == nil, parent: parent)
        fill()
        validate()
    }

    private func build(isNew: Bool, parent: Window?) {
        makeForm(title: isNew ? tr("New Recurring Invoice") : tr("Edit Recurring Invoice"), over: parent, width: 680, height: 760,
                 submitButton: saveButton, submit: { [weak self] in self?.save() },
                 values: { [weak self] in self?.formValues ?? [] })
        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        saveButton.onClicked { [weak self] in self?.save() }
        let header = HeaderBar(dialogTitle: title ?? "", cancel: cancel, action: saveButton)

        let schedule = PreferencesGroup(title: tr("Schedule"),
                                        description: String(format: tr("Dates like %@"), CalendarDay.today().formatted(.short)))
        for row: Widget in [clientRow, intervalRow, weeksRow, startRow, endRow, modeRow] { schedule.add(row) }
        for row in [clientRow, intervalRow, modeRow] { row.onSelectionChanged { [weak self] in self?.edited() } }
        for row in [weeksRow, startRow, endRow] { row.onChanged { [weak self] in self?.edited() } }
        submitsOnReturn([weeksRow, startRow, endRow])
        errorLabel.xAlign = 0

        let linesHeader = Label(tr("Lines"), wraps: false, style: "heading")
        linesHeader.xAlign = 0
        let hint = Label(String(format: tr("In a description, %@ becomes the period of each invoice (e.g. “%@”), %@ and %@ its first and last day."),
                                RecurringInvoice.Placeholder.period,
                                RecurringInvoice.periodTitle(DayRange(CalendarDay(year: 2027, month: 3, day: 1) ?? .today(),
                                                                      CalendarDay(year: 2027, month: 3, day: 31) ?? .today()),
                                                             interval: .monthly),
                                RecurringInvoice.Placeholder.start, RecurringInvoice.Placeholder.end),
                         wraps: true, style: "dim-label")
        hint.xAlign = 0
        addLineButton.align(horizontal: .start)
        addLineButton.onClicked { [weak self] in self?.addLine() }

        let notesCaption = Label(tr("Notes"), wraps: false, style: "heading")
        notesCaption.xAlign = 0
        let notesHint = Label(tr("Printed on each invoice. Left empty, each invoice gets the default notes of your business profile."),
                              wraps: true, style: "dim-label")
        notesHint.xAlign = 0
        notesView.wrapsAtWords()
        notesView.setTextMargins(8)
        notesView.setSizeRequest(height: 72)
        notesView.accessibleLabel = tr("Notes")
        notesCaption.describes(notesView)
        let notesFrame = ScrolledWindow(child: notesView)
        notesFrame.propagatesNaturalHeight = true
        notesFrame.addCssClass("card")

        let content = Box(.vertical, spacing: 18, children: [
            schedule, errorLabel, Box(.vertical, spacing: 8, children: [linesHeader, hint]), linesBox, addLineButton,
            Box(.vertical, spacing: 8, children: [notesCaption, notesHint, notesFrame]),
        ])
        content.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 640))
        scroller.expandsVertically = true
        self.content = Box(.vertical, children: [header, scroller])
    }

    private func fill() {
        clientRow.model.replaceAll(with: clients.map(\.name))
        clientRow.selectedIndex = base.clientID.flatMap { id in clients.firstIndex { $0.id == id } }
        switch base.interval {
        case .monthly: intervalRow.selectedIndex = 0
        case .quarterly: intervalRow.selectedIndex = 1
        case .yearly: intervalRow.selectedIndex = 2
        case .weeks(let weeks):
            intervalRow.selectedIndex = 3
            weeksRow.text = String(weeks)
        }
        if weeksRow.text.isEmpty { weeksRow.text = "2" }
        startRow.text = base.startDate.formatted(.short)
        endRow.text = base.endDate?.formatted(.short) ?? ""
        modeRow.selectedIndex = RecurringIssueMode.allCases.firstIndex(of: base.issueMode)
        notesView.text = base.notes
        for line in base.lines { appendLineEditor(line) }
        notesView.onChanged { [weak self] in self?.edited() }
    }

    /// What the fields hold, to tell whether closing loses anything.
    private var formValues: [String] {
        [String(clientRow.selectedIndex ?? -1), String(intervalRow.selectedIndex ?? -1), weeksRow.text, startRow.text, endRow.text,
         String(modeRow.selectedIndex ?? -1), notesView.text] + lineEditors.flatMap(\.values)
    }

    private func edited() {
        showsProblems = true
        validate()
    }

    private func appendLineEditor(_ line: LineItem) {
        let editor = LineItemEditor(line: line, standardRate: profile.defaultTaxRate) { [weak self] in self?.edited() }
        editor.isTouched = showsProblems
        submitsOnReturn([editor.quantityEntry, editor.priceEntry, editor.taxEntry, editor.discountEntry])
        editor.removeButton.onClicked { [weak self, weak editor] in
            guard let self, let editor else { return }
            self.linesBox.remove(editor.widget)
            self.lineEditors.removeAll { $0 === editor }
            self.validate()
        }
        lineEditors.append(editor)
        linesBox.append(editor.widget)
    }

    func addLine() {
        appendLineEditor(Invoice(clientID: nil, issueDate: .today(), dueDate: .today(), currency: currency).newLine(profile: profile))
        _ = lineEditors.last?.descriptionView.grabFocus()
        validate()
    }

    private var currency: Currency {
        clientRow.selectedIndex.flatMap { clients.indices.contains($0) ? clients[$0].currency : nil } ?? base.currency
    }

    /// The recurring invoice as typed, or what is wrong with it.
    func read() -> Result<RecurringInvoice, ParseFailure> {
        var recurring = base
        var problems: [String] = []
        recurring.clientID = clientRow.selectedIndex.flatMap { clients.indices.contains($0) ? clients[$0].id : nil }
        recurring.currency = currency
        weeksRow.isVisible = intervalRow.selectedIndex == 3
        switch intervalRow.selectedIndex {
        case 1: recurring.interval = .quarterly
        case 2: recurring.interval = .yearly
        case 3:
            if let weeks = Int(weeksRow.text.trimmingCharacters(in: .whitespaces)) {
                recurring.interval = .weeks(weeks)
            } else {
                problems.append(tr("Enter a number of weeks from 1 to 52."))
            }
        default: recurring.interval = .monthly
        }
        do {
            recurring.startDate = try CalendarDay.parse(startRow.text)
        } catch {
            problems.append(String(format: tr("First issue date: %@"), error.localizedDescription))
        }
        if endRow.text.trimmingCharacters(in: .whitespaces).isEmpty {
            recurring.endDate = nil
        } else {
            do {
                recurring.endDate = try CalendarDay.parse(endRow.text)
            } catch {
                problems.append(String(format: tr("Last issue date: %@"), error.localizedDescription))
            }
        }
        recurring.issueMode = modeRow.selectedIndex.map { RecurringIssueMode.allCases[$0] } ?? .draft
        recurring.notes = notesView.text
        recurring.lines = []
        for editor in lineEditors {
            let (line, lineProblems) = editor.read(currency: recurring.currency)
            editor.showProblems(lineProblems, visible: showsProblems)
            if let line { recurring.lines.append(line) } else { problems += lineProblems }
        }
        if problems.isEmpty { problems = recurring.validate().map(\.message) }
        if clients.isEmpty { problems.insert(tr("Add a client first, in the client list."), at: 0) }
        guard problems.isEmpty else { return .failure(ParseFailure(message: problems.joined(separator: "\n"))) }
        return .success(recurring)
    }

    @discardableResult
    func validate() -> Bool {
        switch read() {
        case .success:
            errorLabel.isVisible = false
            saveButton.isSensitive = true
            return true
        case .failure(let failure):
            errorLabel.text = failure.message
            errorLabel.isVisible = showsProblems
            saveButton.isSensitive = false
            return false
        }
    }

    func save() {
        showsProblems = true
        for editor in lineEditors { editor.isTouched = true }
        guard validate(), case .success(let recurring) = read() else { return }
        do {
            let saved = try repository.save(recurring)
            onSaved?(saved)
            closeAfterSubmitting()
        } catch {
            errorLabel.text = error.localizedDescription
            errorLabel.isVisible = true
        }
    }
}
