import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The invoice form, in its own window: client, number, dates, currency, lines, discount and
/// notes, with the totals worked out as you type. Save writes everything in one transaction;
/// a value that cannot be read says why beside it and keeps Save off. A quote is written in
/// the same form, its due date being the day it is valid until.
@MainActor
final class InvoiceEditor: FormWindow {
    private let repository: InvoiceRepository
    // The shell does not keep the context; the views do.
    private let context: PluginContext
    private let money = MoneyFormatter()
    private let numbers = NumberFormatting()
    private let profile: BusinessProfile
    /// Why the business profile or the clients could not be read: shown at once, and Save
    /// stays off, so a read error never looks like an empty library.
    private var readProblems: [String] = []
    /// The invoice as loaded (or a new draft); the form's values are applied to a copy of it.
    private(set) var base: Invoice
    private(set) var clients: [Client] = []

    var onSaved: (@MainActor (Invoice) -> Void)?
    /// The quote being written, when the form is for a quote.
    private(set) var quote: Quote?
    var onQuoteSaved: (@MainActor (Quote) -> Void)?
    var isQuote: Bool { quote != nil }

    let saveButton = Button(label: tr("_Save"))
    let clientRow: ComboRow
    /// Shown instead of the client list while there are no clients: libadwaita 1.2's combo
    /// row cannot open with nothing chosen.
    let newClientRow = ActionRow(title: tr("Client"), subtitle: tr("No clients yet"))
    let newClientButton = Button(label: tr("_New Client…"))
    let numberRow = EntryRow(title: tr("Number"))
    let issueRow = EntryRow(title: tr("Issue Date"))
    let dueRow = EntryRow(title: tr("Due Date"))
    let currencyRow: CurrencyRow
    let discountRow = EntryRow(title: tr("Invoice Discount %"))
    let notesView = TextView()
    let buyerReferenceRow = EntryRow(title: tr("Client’s Reference"))
    let orderRow = EntryRow(title: tr("Purchase Order"))
    let deliveryRow = EntryRow(title: tr("Delivery Date"))
    let deliveryEndRow = EntryRow(title: tr("Delivered Until (for a period)"))
    let exemptionRow = EntryRow(title: tr("VAT Exemption Reason"))
    /// What an e-invoice of this invoice still needs, or that it is ready.
    let eInvoiceStatus = Label("", wraps: true, style: "dim-label")
    let invoiceErrors = Label("", wraps: true, style: "inline-error")
    let linesBox = Box(.vertical, spacing: 12)
    let addLineButton = Button(label: tr("_Add Line"))
    private(set) var lineEditors: [LineItemEditor] = []
    let subtotalLabel = Label("", wraps: false, style: "numeric")
    let discountLabel = Label("", wraps: false, style: "numeric")
    let totalLabel = Label("", wraps: false, style: "numeric")
    let totalsGroup = PreferencesGroup(title: tr("Totals"))
    private let discountTotalRow = ActionRow(title: tr("Discount"))
    private var taxRows: [Widget] = []
    private let totalRow = ActionRow(title: tr("Total"))

    private var isUpdating = false
    /// Once the due date is typed, changing the issue date or client no longer moves it.
    private var dueDateEdited = false
    private var previousClientIndex: Int?
    /// Problems show once the form was edited or Save was tried, not on a form just opened.
    private var showsProblems = false
    /// The form's invoice when every field reads and the rules accept it.
    private(set) var current: Invoice?
    private(set) var currentTotals: InvoiceTotals?
    private(set) weak var clientEditor: ClientEditor?

    init(repository: InvoiceRepository, context: PluginContext, invoice: Invoice?) {
        self.repository = repository
        self.context = context
        do { profile = try repository.profile() } catch {
            profile = .initial()
            readProblems = [String(format: tr("The business profile could not be read: %@"), error.localizedDescription)]
        }
        clientRow = ComboRow(title: tr("Client"), choices: [])
        let today = CalendarDay.today()
        base = invoice ?? Invoice(clientID: nil, issueDate: today,
                                  dueDate: InvoiceRules.dueDate(issuedOn: today, termsDays: profile.paymentTermsDays),
                                  currency: profile.defaultCurrency, notes: profile.defaultNotes)
        if invoice == nil { base.lines = [base.newLine(profile: profile)] }
        dueDateEdited = invoice != nil
        currencyRow = CurrencyRow(title: tr("Currency"), currency: base.currency)
        showsProblems = invoice != nil
        super.init()
        build()
        loadClients(selecting: base.clientID)
        fill()
        if isNew { applyClientDefaults() }
        update()
    }

    /// The form for a quote: a new one when `quote` has no id yet.
    init(repository: InvoiceRepository, context: PluginContext, quote: Quote) {
        self.repository = repository
        self.context = context
        do { profile = try repository.profile() } catch {
            profile = .initial()
            readProblems = [String(format: tr("The business profile could not be read: %@"), error.localizedDescription)]
        }
        clientRow = ComboRow(title: tr("Client"), choices: [])
        self.quote = quote
        base = quote.invoiceDraftContent(status: .draft)
        if quote.lines.isEmpty { base.lines = [base.newLine(profile: profile)] }
        dueDateEdited = quote.id != nil
        currencyRow = CurrencyRow(title: tr("Currency"), currency: base.currency)
        showsProblems = quote.id != nil
        super.init()
        build()
        loadClients(selecting: base.clientID)
        fill()
        if isNew { applyClientDefaults() }
        update()
    }

    var isNew: Bool { quote.map { $0.id == nil } ?? (base.id == nil) }

    // MARK: Building

    private func build() {
        let title = isQuote ? (isNew ? tr("New Quote") : String(format: tr("Edit Quote %@"), base.number))
            : (isNew ? tr("New Invoice") : String(format: tr("Edit Invoice %@"), base.number))
        makeForm(title: title, over: context.window, width: 720, height: 760, submitButton: saveButton,
                 submit: { [weak self] in self?.save() }, values: { [weak self] in self?.formValues ?? [] })

        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.close() }
        saveButton.onClicked { [weak self] in self?.save() }
        let header = HeaderBar(dialogTitle: self.title ?? "", cancel: cancel, action: saveButton)

        let content = Box(.vertical, spacing: 24)
        content.setMargins(top: 24, bottom: 24, start: 12, end: 12)

        let details = PreferencesGroup(title: isQuote ? tr("Quote") : tr("Invoice"))
        clientRow.onSelectionChanged { [weak self] in self?.clientChanged() }
        details.add(clientRow)
        newClientButton.align(vertical: .center)
        newClientButton.onClicked { [weak self] in self?.newClient() }
        newClientRow.addSuffix(newClientButton)
        details.add(newClientRow)
        numberRow.addCssClass("numeric")
        details.add(numberRow)
        let dateHint = String(format: tr("Dates like %@"), CalendarDay.today().formatted(.short))
        details.groupDescription = dateHint
        details.add(issueRow)
        details.add(dueRow)
        details.add(currencyRow)
        details.add(discountRow)
        for row in [numberRow, issueRow, discountRow] { row.onChanged { [weak self] in self?.fieldChanged() } }
        issueRow.onChanged { [weak self] in self?.issueDateChanged() }
        dueRow.onChanged { [weak self] in
            guard let self else { return }
            guard !self.isUpdating else { return }
            self.dueDateEdited = true
            self.update()
        }
        currencyRow.onChanged { [weak self] in self?.fieldChanged() }
        submitsOnReturn([numberRow, issueRow, dueRow, discountRow, buyerReferenceRow, orderRow, deliveryRow, deliveryEndRow,
                         exemptionRow])
        invoiceErrors.xAlign = 0
        invoiceErrors.isVisible = false
        content.append(Box(.vertical, spacing: 6, children: [details, invoiceErrors]))

        let linesHeader = Label(tr("Lines"), wraps: false, style: "heading")
        linesHeader.xAlign = 0
        addLineButton.align(horizontal: .start)
        addLineButton.onClicked { [weak self] in self?.addLine() }
        content.append(Box(.vertical, spacing: 12, children: [linesHeader, linesBox, addLineButton]))

        let notesCaption = Label(tr("Notes"), wraps: false, style: "heading")
        notesCaption.xAlign = 0
        notesView.wrapsAtWords()
        notesView.setTextMargins(8)
        notesView.setSizeRequest(height: 72)
        notesView.accessibleLabel = tr("Notes")
        notesCaption.describes(notesView)
        notesView.onChanged { [weak self] in self?.fieldChanged() }
        let notesFrame = ScrolledWindow(child: notesView)
        notesFrame.propagatesNaturalHeight = true
        notesFrame.addCssClass("card")
        content.append(Box(.vertical, spacing: 12, children: [notesCaption, notesFrame]))

        // A quote's number comes from its own pattern; e-invoice details belong to the invoice.
        numberRow.isVisible = !isQuote
        if isQuote {
            dueRow.title = tr("Valid Until")
            discountRow.title = tr("Quote Discount %")
        }
        let eInvoice = PreferencesGroup(title: tr("E-Invoice"),
                                        description: tr("References, delivery and VAT details that e-invoices carry and the PDF prints."))
        for row in [buyerReferenceRow, orderRow, deliveryRow, deliveryEndRow, exemptionRow] {
            eInvoice.add(row)
            row.onChanged { [weak self] in self?.fieldChanged() }
        }
        eInvoiceStatus.xAlign = 0
        if !isQuote { content.append(Box(.vertical, spacing: 6, children: [eInvoice, eInvoiceStatus])) }

        let subtotalRow = ActionRow(title: tr("Subtotal"))
        subtotalRow.addSuffix(subtotalLabel)
        discountTotalRow.addSuffix(discountLabel)
        totalRow.addSuffix(totalLabel)
        totalLabel.addCssClass("money-total")
        for label in [subtotalLabel, discountLabel, totalLabel] { label.align(vertical: .center) }
        totalsGroup.add(subtotalRow)
        totalsGroup.add(discountTotalRow)
        totalsGroup.add(totalRow)
        content.append(totalsGroup)

        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 760))
        scroller.expandsVertically = true
        self.content = Box(.vertical, children: [header, scroller])
    }

    private func loadClients(selecting id: ClientID?) {
        do {
            clients = try repository.clients()
            // A sent invoice may belong to a client since removed from the list.
            if let id, !clients.contains(where: { $0.id == id }), let archived = try repository.client(id) {
                clients.append(archived)
            }
        } catch {
            clients = []
            readProblems.append(String(format: tr("The clients could not be read: %@"), error.localizedDescription))
        }
        isUpdating = true
        clientRow.model.replaceAll(with: clients.map(\.name) + [tr("New Client…")])
        // A new invoice starts with the first client chosen, as the row always shows a choice.
        let index = id.flatMap { id in clients.firstIndex { $0.id == id } } ?? (clients.isEmpty || !isNew ? nil : 0)
        clientRow.selectedIndex = index
        clientRow.isVisible = !clients.isEmpty
        newClientRow.isVisible = clients.isEmpty
        previousClientIndex = index
        isUpdating = false
    }

    /// Puts the base invoice's values in the fields.
    private func fill() {
        isUpdating = true
        numberRow.text = base.number
        issueRow.text = base.issueDate.formatted(.short)
        dueRow.text = base.dueDate.formatted(.short)
        currencyRow.currency = base.currency
        discountRow.text = base.discountPercent == 0 ? "" : numbers.string(from: base.discountPercent, maximumFractionDigits: 4)
        notesView.text = base.notes
        buyerReferenceRow.text = base.buyerReference
        orderRow.text = base.purchaseOrderReference
        deliveryRow.text = base.deliveryDate?.formatted(.short) ?? ""
        deliveryEndRow.text = base.deliveryEndDate?.formatted(.short) ?? ""
        exemptionRow.text = isNew && base.exemptionReason.isEmpty ? profile.defaultExemptionReason : base.exemptionReason
        for line in base.lines { appendLineEditor(line) }
        isUpdating = false
        let locked = base.isLocked
        for widget: Widget in [clientRow, numberRow, issueRow, currencyRow, discountRow, buyerReferenceRow, orderRow,
                               deliveryRow, deliveryEndRow, exemptionRow] { widget.isSensitive = !locked }
        addLineButton.isVisible = !locked
        for editor in lineEditors { editor.isLocked = locked }
        if isNew { numberRow.title = String(format: tr("Number (next: %@)"), (try? repository.suggestedNumber(issuedOn: base.issueDate)) ?? "") }
    }

    // MARK: Changes

    private func appendLineEditor(_ line: LineItem) {
        let editor = LineItemEditor(line: line, standardRate: profile.defaultTaxRate) { [weak self] in self?.fieldChanged() }
        editor.isTouched = !isNew
        submitsOnReturn([editor.quantityEntry, editor.priceEntry, editor.taxEntry, editor.discountEntry])
        editor.removeButton.onClicked { [weak self, weak editor] in
            if let self, let editor { self.removeLine(editor) }
        }
        lineEditors.append(editor)
        linesBox.append(editor.widget)
    }

    func addLine() {
        let currency = selectedCurrency ?? base.currency
        var draft = base
        draft.currency = currency
        appendLineEditor(draft.newLine(profile: profile))
        update()
        _ = lineEditors.last?.descriptionView.grabFocus()
    }

    func removeLine(_ editor: LineItemEditor) {
        linesBox.remove(editor.widget)
        lineEditors.removeAll { $0 === editor }
        update()
    }

    private var selectedCurrency: Currency? { currencyRow.currency }

    /// What the fields hold, to tell whether closing loses anything.
    private var formValues: [String] {
        [String(clientRow.selectedIndex ?? -1), numberRow.text, issueRow.text, dueRow.text, currencyRow.currency.code,
         discountRow.text, notesView.text, buyerReferenceRow.text, orderRow.text, deliveryRow.text, deliveryEndRow.text,
         exemptionRow.text] + lineEditors.flatMap(\.values)
    }

    private var selectedClient: Client? {
        guard let index = clientRow.selectedIndex, clients.indices.contains(index) else { return nil }
        return clients[index]
    }

    private func fieldChanged() {
        guard !isUpdating else { return }
        showsProblems = true
        update()
    }

    private func issueDateChanged() {
        guard !isUpdating, !dueDateEdited, let issue = try? CalendarDay.parse(issueRow.text) else { return }
        setDueDate(from: issue)
    }

    private func setDueDate(from issue: CalendarDay) {
        let terms = isQuote ? Quote.defaultValidityDays : selectedClient?.paymentTerms(default: profile) ?? profile.paymentTermsDays
        isUpdating = true
        dueRow.text = InvoiceRules.dueDate(issuedOn: issue, termsDays: terms).formatted(.short)
        isUpdating = false
        update()
    }

    private func clientChanged() {
        guard !isUpdating else { return }
        if clientRow.selectedIndex == clients.count {
            newClient()
            return
        }
        previousClientIndex = clientRow.selectedIndex
        if isNew { applyClientDefaults() }
        update()
    }

    /// A new invoice takes the chosen client's currency and payment terms.
    private func applyClientDefaults() {
        guard let client = selectedClient else { return }
        isUpdating = true
        currencyRow.currency = client.currency
        buyerReferenceRow.text = client.buyerReference
        isUpdating = false
        if !dueDateEdited, let issue = try? CalendarDay.parse(issueRow.text) { setDueDate(from: issue) }
    }

    /// "New Client…" opens the client form; the new client is chosen, a cancel goes back.
    private func newClient() {
        let editor = ClientEditor(repository: repository, client: nil, parent: self, profile: profile)
        editor.onSaved = { [weak self] client in
            guard let self else { return }
            self.loadClients(selecting: client.id)
            if self.isNew { self.applyClientDefaults() }
            self.update()
        }
        editor.onClosed = { [weak self] in
            guard let self else { return }
            if self.clientRow.selectedIndex == self.clients.count {
                self.isUpdating = true
                self.clientRow.selectedIndex = self.previousClientIndex
                self.isUpdating = false
            }
        }
        clientEditor = editor
        editor.present()
    }

    // MARK: Reading the form

    /// Reads every field, shows what is wrong beside it, updates the totals and Save.
    func update() {
        var problems: [String] = []
        var invoice = base
        invoice.clientID = selectedClient?.id
        invoice.number = numberRow.text
        let currency = selectedCurrency ?? base.currency
        invoice.currency = currency
        do {
            invoice.issueDate = try CalendarDay.parse(issueRow.text)
            issueRow.removeCssClass("error")
        } catch {
            issueRow.addCssClass("error")
            problems.append(String(format: tr("Issue date: %@"), error.localizedDescription))
        }
        do {
            invoice.dueDate = try CalendarDay.parse(dueRow.text)
            dueRow.removeCssClass("error")
        } catch {
            dueRow.addCssClass("error")
            problems.append(String(format: tr("Due date: %@"), error.localizedDescription))
        }
        if discountRow.text.trimmingCharacters(in: .whitespaces).isEmpty {
            invoice.discountPercent = 0
            discountRow.removeCssClass("error")
        } else {
            do {
                invoice.discountPercent = try numbers.percent(from: discountRow.text, maximumFractionDigits: 4)
                discountRow.removeCssClass("error")
            } catch {
                discountRow.addCssClass("error")
                problems.append(String(format: tr("Invoice discount: %@"), error.localizedDescription))
            }
        }
        invoice.notes = notesView.text
        invoice.buyerReference = buyerReferenceRow.text.trimmingCharacters(in: .whitespaces)
        invoice.purchaseOrderReference = orderRow.text.trimmingCharacters(in: .whitespaces)
        invoice.exemptionReason = exemptionRow.text.trimmingCharacters(in: .whitespaces)
        for (row, keyPath, name) in [(deliveryRow, \Invoice.deliveryDate, tr("Delivery date: %@")),
                                     (deliveryEndRow, \Invoice.deliveryEndDate, tr("Delivered until: %@"))] {
            if row.text.trimmingCharacters(in: .whitespaces).isEmpty {
                invoice[keyPath: keyPath] = nil
                row.removeCssClass("error")
            } else {
                do {
                    invoice[keyPath: keyPath] = try CalendarDay.parse(row.text)
                    row.removeCssClass("error")
                } catch {
                    row.addCssClass("error")
                    problems.append(String(format: name, error.localizedDescription))
                }
            }
        }

        var lines: [LineItem] = []
        var lineProblems = false
        for editor in lineEditors {
            let (line, issues) = editor.read(currency: currency)
            editor.showProblems(issues, visible: showsProblems)
            if let line { lines.append(line) } else { lineProblems = true }
        }
        // A sent invoice's lines are locked: keep them exactly as stored.
        invoice.lines = base.isLocked ? base.lines : lines

        var ruleIssues: [ValidationIssue<InvoiceField>] = []
        if problems.isEmpty, !lineProblems {
            ruleIssues = quote.map { Self.quote($0, from: invoice).validate() } ?? invoice.validate()
            for (index, editor) in lineEditors.enumerated() {
                let messages = ruleIssues.compactMap { issue -> String? in
                    if case .line(index, _) = issue.field { return issue.message }
                    return nil
                }
                editor.showProblems(messages, visible: showsProblems)
            }
            problems += ruleIssues.filter {
                if case .line = $0.field { return false }
                return true
            }.map(\.message)
        }
        invoiceErrors.text = (readProblems + problems).joined(separator: "\n")
        invoiceErrors.isVisible = !readProblems.isEmpty || (!problems.isEmpty && showsProblems)

        let totals = lineProblems ? nil : try? InvoiceTotals(lines: invoice.lines, discountPercent: problems.isEmpty ? invoice.discountPercent : 0,
                                                              payments: invoice.payments, currency: currency)
        showTotals(totals, currency: currency)
        let valid = readProblems.isEmpty && problems.isEmpty && !lineProblems && ruleIssues.isEmpty
        current = valid ? invoice : nil
        currentTotals = totals
        saveButton.isSensitive = valid
        exemptionRow.isVisible = invoice.lines.contains { $0.vatCategory == .exempt } || !invoice.exemptionReason.isEmpty
        showEInvoiceStatus(valid ? invoice : nil)
    }

    /// Says, before anything is exported, what an e-invoice in the client's format still
    /// needs, naming each field and where to fill it in. A client that takes PDFs gets none.
    private func showEInvoiceStatus(_ invoice: Invoice?) {
        guard let invoice, !invoice.lines.isEmpty, let format = selectedClient?.eInvoiceFormat else {
            eInvoiceStatus.isVisible = false
            return
        }
        let document: InvoiceDocument
        do {
            document = try repository.document(for: invoice)
        } catch {
            eInvoiceStatus.text = error.localizedDescription
            eInvoiceStatus.isVisible = true
            return
        }
        let issues = EInvoiceExport.issues(document, format: format)
        eInvoiceStatus.isVisible = true
        eInvoiceStatus.text = issues.isEmpty
            ? String(format: tr("Ready to send as an e-invoice (%@)."), format.title)
            : ([String(format: tr("Still needed for an e-invoice (%@):"), format.title)] + issues.map { "• " + $0.message })
                .joined(separator: "\n")
    }

    private func showTotals(_ totals: InvoiceTotals?, currency: Currency) {
        taxRows.forEach(totalsGroup.remove)
        taxRows = []
        guard let totals else {
            for label in [subtotalLabel, discountLabel, totalLabel] { label.text = "—" }
            for editor in lineEditors { editor.amountLabel.text = "" }
            return
        }
        subtotalLabel.text = money.string(from: totals.subtotal)
        discountLabel.text = money.string(from: totals.discount)
        discountTotalRow.isVisible = !totals.discount.isZero
        totalLabel.text = money.string(from: totals.total)
        for (editor, net) in zip(lineEditors, totals.lineNets) { editor.amountLabel.text = money.string(from: net) }
        // The tax rows go between the discount and the total.
        totalsGroup.remove(totalRow)
        for line in totals.taxLines {
            let row = ActionRow(title: line.title(rate: numbers.percentString(from: line.rate, maximumFractionDigits: 4),
                                                  base: money.string(from: line.taxableAmount)))
            let label = Label(money.string(from: line.tax), wraps: false, style: "numeric")
            label.align(vertical: .center)
            row.addSuffix(label)
            totalsGroup.add(row)
            taxRows.append(row)
        }
        totalsGroup.add(totalRow)
    }

    // MARK: Saving

    /// Saves the form in one go; on a refusal the form stays open and says why.
    @discardableResult
    func save() -> Invoice? {
        showsProblems = true
        for editor in lineEditors { editor.isTouched = true }
        update()
        guard let invoice = current else { return nil }
        if let quote {
            saveQuote(quote, from: invoice)
            return nil
        }
        if isNew {
            let count = (try? repository.invoiceCount()) ?? 0
            if let limit = InvoicePlan(context.entitlements).limitMessage(existingCount: count) {
                guard context.ensureAllowed(.unlimitedInvoices, reason: limit) else { return nil }
            }
        }
        do {
            let saved = try repository.save(invoice)
            onSaved?(saved)
            closeAfterSubmitting()
            return saved
        } catch {
            invoiceErrors.text = error.localizedDescription
            invoiceErrors.isVisible = true
            return nil
        }
    }

    /// `quote` with the form's values.
    private static func quote(_ quote: Quote, from form: Invoice) -> Quote {
        var edited = quote
        edited.clientID = form.clientID
        edited.issueDate = form.issueDate
        edited.validUntil = form.dueDate
        edited.currency = form.currency
        edited.lines = form.lines
        edited.discountPercent = form.discountPercent
        edited.notes = form.notes
        return edited
    }

    /// Quotes do not count toward the plan's invoice limit, so nothing is asked first.
    private func saveQuote(_ quote: Quote, from form: Invoice) {
        do {
            let saved = try repository.save(Self.quote(quote, from: form))
            onQuoteSaved?(saved)
            closeAfterSubmitting()
        } catch {
            invoiceErrors.text = error.localizedDescription
            invoiceErrors.isVisible = true
        }
    }
}
