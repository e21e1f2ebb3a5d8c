import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// What the invoice pane asks of the list it is shown beside.
@MainActor
protocol InvoiceListActions: AnyObject {
    func openEditor(for invoice: Invoice?)
    func delete(_ id: InvoiceID)
    func invoiceChanged(_ id: InvoiceID)
}

/// The selected invoice: its facts, amounts and payments, what can be done with it now, and
/// the PDF the client will get, regenerated in the background whenever the invoice changes.
@MainActor
package final class InvoiceDetailView {
    let widget: Widget
    private weak var list: (any InvoiceListActions)?
    private let repository: InvoiceRepository
    // The shell does not keep the context; the views do.
    private let context: PluginContext
    private let money = MoneyFormatter()
    private(set) var invoice: Invoice?

    let heading = DocumentHeading(showsBadge: true)
    let issueRow = ActionRow(title: tr("Issued"))
    let dueRow = ActionRow(title: tr("Due"))
    let subtotalRow = ActionRow(title: tr("Subtotal"))
    let discountRow = ActionRow(title: tr("Discount"))
    let totalRow = ActionRow(title: tr("Total"))
    let paidRow = ActionRow(title: tr("Paid"))
    let balanceRow = ActionRow(title: tr("Balance Due"))
    let subtotalLabel = Label("", wraps: false, style: "numeric")
    let discountLabel = Label("", wraps: false, style: "numeric")
    let totalLabel = Label("", wraps: false, style: "numeric")
    let paidLabel = Label("", wraps: false, style: "numeric")
    let balanceLabel = Label("", wraps: false, style: "numeric")
    let amountsGroup = PreferencesGroup(title: tr("Amounts"))
    /// One row per VAT category and rate: its net and its tax.
    private(set) var taxRows: [ActionRow] = []
    let lines = DocumentLinesGroup(title: tr("Lines"))
    let paymentsGroup = PreferencesGroup(title: tr("Payments"))
    private var paymentRows: [Widget] = []

    let editButton = Button(label: tr("_Edit"))
    let sendButton = Button(label: tr("Mark as _Sent"))
    let paymentButton = Button(label: tr("Record _Payment…"))
    let refundButton = Button(label: tr("Record _Refund…"))
    let paidButton = Button(label: tr("Mark as P_aid"))
    let reopenButton = Button(label: tr("_Reopen…"))
    let duplicateButton = Button(label: tr("D_uplicate"))
    let cancelButton = Button(label: tr("_Cancel Invoice"))
    let deleteButton = Button(label: tr("_Delete…"))
    let saveBadge: ProBadge
    let printBadge: ProBadge
    let emailBadge: ProBadge
    let primarySaveBadge: ProBadge
    let savePDFButton: Button
    let saveXRechnungButton = Button(label: tr("Save XRechnung…"))
    let printButton: Button
    let emailButton: Button
    /// Save PDF as the primary action of a paid or cancelled invoice, whose life is over.
    let primarySavePDFButton: Button
    /// The header's actions: the one next step for this invoice, and a menu of the rest.
    let headerActions = Box(.horizontal, spacing: 6)
    let moreActions: PopoverButton
    /// Where the header's actions go on a narrow window, under the number: beside the back
    /// and window buttons there the next step had no room for its name.
    let narrowActionsSlot = Box(.horizontal)

    /// The quote it came from, its credit notes, and Create Credit Note.
    let links: InvoiceLinksView
    let reminders: InvoiceReminders
    package let preview = DocumentPreview(emptyTitle: tr("No Invoice"))
    private(set) var body: DetailsOrPreview?
    package var previewToggle: ToggleButton? { body?.previewToggle }
    /// The invoice (id and revision) the preview was last made for, so a reload that changed
    /// nothing does not make it again.
    private var previewedRevision: (InvoiceID, Int)?
    private(set) lazy var documentActions = DocumentActions(parent: context.window) { [weak self] error in
        self?.context.showToast(error.localizedDescription)
    }
    private(set) lazy var eInvoices = EInvoiceSaving(context: context, documentActions: documentActions)

    init(list: any InvoiceListActions, repository: InvoiceRepository, context: PluginContext) {
        self.list = list
        self.repository = repository
        self.context = context
        links = InvoiceLinksView(repository: repository, context: context)
        saveBadge = ProBadge(feature: .exportInvoicePDF, entitlements: context.entitlements)
        printBadge = ProBadge(feature: .exportInvoicePDF, entitlements: context.entitlements)
        emailBadge = ProBadge(feature: .exportInvoicePDF, entitlements: context.entitlements)
        primarySaveBadge = ProBadge(feature: .exportInvoicePDF, entitlements: context.entitlements)
        savePDFButton = saveBadge.makeButton(label: tr("Save PDF…"))
        printButton = printBadge.makeButton(label: tr("Print…"))
        emailButton = emailBadge.makeButton(label: tr("Email…"))
        reminders = InvoiceReminders(repository: repository, context: context)
        primarySavePDFButton = primarySaveBadge.makeButton(label: tr("Save PDF…"))

        // The GNOME pattern: one suggested action in the header, everything else in its menu,
        // in sections that leave room for more documents (the destructive ones last).
        moreActions = ActionMenu(sections: [[editButton, paidButton, reopenButton, duplicateButton, links.creditNoteButton],
                                            [savePDFButton, saveXRechnungButton, printButton, emailButton, reminders.button],
                                            [cancelButton, deleteButton]]).button
        // Red text in the menu: a flat destructive button would draw white text on no background.
        deleteButton.addCssClass("error")
        for button in [sendButton, paymentButton, refundButton, primarySavePDFButton] {
            button.addCssClass("suggested-action")
            headerActions.append(button)
        }
        headerActions.append(moreActions)
        headerActions.isVisible = false
        narrowActionsSlot.align(horizontal: .end)
        // Empty, it would still take the content's spacing twice under the title.
        narrowActionsSlot.isVisible = false
        savePDFButton.tooltip = tr("Save the invoice as a PDF file (Ctrl+S)")
        primarySavePDFButton.tooltip = savePDFButton.tooltip
        printButton.tooltip = tr("Print the invoice (Ctrl+P)")
        saveXRechnungButton.tooltip = tr("Save the invoice as an XRechnung e-invoice (XML), as German public bodies ask for")
        emailButton.tooltip = tr("Write an email with the invoice attached")

        let content = Box(.vertical, spacing: 18)
        content.setMargins(top: 18, bottom: 24, start: 12, end: 12)

        content.append(heading.widget)
        content.append(narrowActionsSlot)

        let facts = PreferencesGroup()
        for row in [issueRow, dueRow] { row.addCssClass("property"); facts.add(row) }
        content.append(facts)

        for (row, label) in [(subtotalRow, subtotalLabel), (discountRow, discountLabel), (totalRow, totalLabel),
                             (links.creditedRow, links.creditedLabel), (paidRow, paidLabel), (balanceRow, balanceLabel)] {
            label.align(vertical: .center)
            row.addSuffix(label)
            amountsGroup.add(row)
        }
        balanceLabel.addCssClass("heading")
        content.append(amountsGroup)
        content.append(links.widget)
        content.append(lines.group)
        content.append(paymentsGroup)
        content.append(reminders.history)

        let body = DetailsOrPreview(details: content, preview: preview.widget)
        self.body = body
        widget = body.widget

        editButton.onClicked { [weak self] in
            guard let self else { return }
            guard let invoice = self.invoice else { return }
            self.list?.openEditor(for: invoice)
        }
        sendButton.onClicked { [weak self] in self?.change { invoice in try invoice.markSent(on: .today()) } }
        paidButton.onClicked { [weak self] in self?.markPaid() }
        reopenButton.onClicked { [weak self] in self?.confirmReopen() }
        reopenButton.tooltip = tr("Back to sent, removing the payment that settled it")
        cancelButton.onClicked { [weak self] in self?.confirmCancel() }
        paymentButton.onClicked { [weak self] in self?.record(.payment) }
        refundButton.onClicked { [weak self] in self?.record(.refund) }
        refundButton.tooltip = tr("Record money paid back to the client")
        duplicateButton.onClicked { [weak self] in self?.duplicate() }
        deleteButton.onClicked { [weak self] in self?.confirmDelete() }
        reminders.onRecorded = { [weak self] id in self?.list?.invoiceChanged(id) }
        savePDFButton.onClicked { [weak self] in self?.savePDF() }
        saveXRechnungButton.onClicked { [weak self] in self?.saveXRechnung() }
        primarySavePDFButton.onClicked { [weak self] in self?.savePDF() }
        printButton.onClicked { [weak self] in self?.printPDF() }
        emailButton.onClicked { [weak self] in self?.emailPDF() }
    }

    func show(_ invoice: Invoice?) {
        self.invoice = invoice
        headerActions.isVisible = invoice?.id != nil
        links.show(invoice)
        reminders.show(invoice)
        guard let invoice, let id = invoice.id else {
            previewedRevision = nil
            preview.clear()
            return
        }
        if previewedRevision.map({ $0 != (id, invoice.revision) }) ?? true {
            previewedRevision = (id, invoice.revision)
            refreshPreview(invoice)
        }
        let today = CalendarDay.today()
        let status = invoice.displayStatus(today: today)
        heading.showStatus(status.title, styleClass: status.rawValue)
        heading.numberLabel.text = invoice.number
        heading.clientLabel.text = invoice.billTo?.name ?? repository.clientNameForDisplay(invoice.clientID)
        issueRow.subtitle = invoice.issueDate.formatted(.medium)
        dueRow.subtitle = invoice.dueDate.formatted(.medium)
        let totals = (try? invoice.totals()) ?? .zero(invoice.currency)
        showAmounts(totals)

        lines.show(invoice.lines, nets: totals.lineNets)

        paymentRows.forEach(paymentsGroup.remove)
        paymentRows = []
        for payment in invoice.payments {
            var subtitle = payment.note.isEmpty ? nil : payment.note
            if payment.isRefund { subtitle = subtitle.map { String(format: tr("Refund · %@"), $0) } ?? tr("Refund") }
            let row = ActionRow.plain(title: payment.date.formatted(.medium), subtitle: subtitle)
            let amount = Label(money.string(from: payment.amount), wraps: false, style: "numeric")
            amount.align(vertical: .center)
            row.addSuffix(amount)
            paymentsGroup.add(row)
            paymentRows.append(row)
        }
        paymentsGroup.isVisible = !invoice.payments.isEmpty

        sendButton.isVisible = invoice.status == .draft
        paymentButton.isVisible = invoice.status == .sent
        // Money still going back to the client is the next step, before the PDF for the files.
        refundButton.isVisible = totals.refundDue != nil
        primarySavePDFButton.isVisible = (invoice.status == .paid || invoice.status == .cancelled) && !refundButton.isVisible
        savePDFButton.isVisible = !primarySavePDFButton.isVisible
        paidButton.isVisible = invoice.status == .sent
        reopenButton.isVisible = invoice.status == .paid && invoice.payments.last?.isRefund == false
        // A sent invoice stays as the client got it: a credit note corrects or cancels it.
        cancelButton.isVisible = invoice.status == .draft
        editButton.isVisible = invoice.status == .draft
        deleteButton.isVisible = invoice.canBeDeleted
    }

    /// Puts the next step and the menu in the header, or under the number on a narrow window.
    func placeActions(inHeader header: HeaderBar, folded: Bool) {
        let inSlot = headerActions.isInside(narrowActionsSlot)
        guard folded != inSlot else { return }
        if folded {
            header.remove(headerActions)
            narrowActionsSlot.append(headerActions)
            narrowActionsSlot.isVisible = true
        } else {
            narrowActionsSlot.remove(headerActions)
            narrowActionsSlot.isVisible = false
            header.packEnd(headerActions)
        }
    }

    /// Subtotal, discount, the net and tax of each VAT rate, total, paid and balance due.
    private func showAmounts(_ totals: InvoiceTotals) {
        subtotalLabel.text = money.string(from: totals.subtotal)
        discountLabel.text = money.string(from: totals.discount)
        discountRow.isVisible = !totals.discount.isZero
        totalLabel.text = money.string(from: totals.total)
        paidLabel.text = money.string(from: totals.paid)
        balanceRow.title = totals.refundDue == nil ? tr("Balance Due") : tr("Refund Due")
        balanceLabel.text = money.string(from: totals.refundDue ?? totals.balanceDue)
        // The tax rows go between the discount and the total, as on the PDF.
        taxRows.forEach(amountsGroup.remove)
        taxRows = []
        for row in [totalRow, links.creditedRow, paidRow, balanceRow] { amountsGroup.remove(row) }
        let numbers = NumberFormatting()
        for line in totals.taxLines {
            let row = ActionRow(title: line.title(rate: numbers.percentString(from: line.rate, maximumFractionDigits: 4),
                                                  base: money.string(from: line.taxableAmount)))
            let label = Label(money.string(from: line.tax), wraps: false, style: "numeric")
            label.align(vertical: .center)
            row.addSuffix(label)
            amountsGroup.add(row)
            taxRows.append(row)
        }
        for row in [totalRow, links.creditedRow, paidRow, balanceRow] { amountsGroup.add(row) }
    }

    // MARK: The PDF

    /// Makes the shown invoice's preview again, e.g. after the business profile changed.
    func refreshPreview() {
        guard let invoice else { return }
        refreshPreview(invoice)
    }

    /// Makes the preview again off the main actor; the data it needs is read here, quickly.
    private func refreshPreview(_ invoice: Invoice) {
        do {
            let document = try repository.document(for: invoice)
            preview.generate { try InvoicePDF.render(document).data }
        } catch {
            preview.showError(error.localizedDescription)
        }
    }

    /// The shown invoice's PDF as the client gets it, made now so it is never out of date: a
    /// Factur-X PDF (the same pages with the e-invoice inside) for a client marked for Factur-X,
    /// when `sending`; otherwise the plain PDF. An e-invoice that is not ready says what is missing.
    func currentPDF(sending: Bool = true) -> Data? {
        guard let id = invoice?.id else { return nil }
        do {
            let document = try repository.document(for: id)
            if sending, let clientID = invoice?.clientID, try repository.client(clientID)?.eInvoiceFormat == .facturX {
                return try EInvoiceExport.facturXPDF(document).data
            }
            return try InvoicePDF.render(document).data
        } catch {
            eInvoices.explain(error)
            return nil
        }
    }

    /// Save XRechnung: the invoice's data alone, as an XML file.
    func saveXRechnung() {
        guard let invoice, let xml = xRechnungXML() else { return }
        eInvoices.saveXRechnung(xml, suggestedName: EInvoiceExport.suggestedFileName(for: invoice, format: .xrechnung))
    }

    /// The shown invoice as XRechnung XML, made now; what is missing is explained instead.
    func xRechnungXML() -> Data? {
        guard let id = invoice?.id else { return nil }
        do {
            return try EInvoiceExport.ciiXML(try repository.document(for: id), format: .xrechnung)
        } catch {
            eInvoices.explain(error)
            return nil
        }
    }

    /// Save PDF: the free tier is asked first, and shown what Pro adds when it says no.
    func savePDF() {
        guard let invoice, context.ensureAllowed(.exportInvoicePDF), let pdf = currentPDF() else { return }
        documentActions.saveAs(pdf: pdf, suggestedName: InvoicePDF.suggestedFileName(for: invoice)) { [weak self] url in
            self?.context.showToast(String(format: tr("Saved “%@”"), url.lastPathComponent))
        }
    }

    func printPDF() {
        guard let invoice, context.ensureAllowed(.exportInvoicePDF), let pdf = currentPDF(sending: false) else { return }
        documentActions.print(pdf: pdf, jobName: invoice.number)
    }

    func emailPDF() {
        guard let invoice, context.ensureAllowed(.exportInvoicePDF), let pdf = currentPDF() else { return }
        let client = invoice.clientID.flatMap { try? repository.client($0) }
        let recipient = invoice.billTo?.email ?? client?.email
        let profile = (try? repository.profile()) ?? .initial()
        let subject = profile.name.isEmpty
            ? String(format: tr("Invoice %@"), invoice.number)
            : String(format: tr("Invoice %@ from %@"), invoice.number, profile.name)
        documentActions.email(pdf: pdf, fileName: InvoicePDF.suggestedFileName(for: invoice), subject: subject,
                              recipient: recipient)
    }

    /// Applies a status change and saves it; a refusal is shown, nothing is half-done.
    @discardableResult
    private func change(_ body: (inout Invoice) throws -> Void) -> Bool {
        guard var invoice else { return false }
        do {
            try body(&invoice)
            let saved = try repository.save(invoice)
            if let id = saved.id { list?.invoiceChanged(id) }
            return true
        } catch {
            context.showToast(error.localizedDescription)
            return false
        }
    }

    /// Records the balance as paid today; the toast's Undo takes that payment back.
    private func markPaid() {
        guard let number = invoice?.number else { return }
        guard change({ invoice in try invoice.markPaid(on: .today()) }), let id = invoice?.id else { return }
        context.showToast(String(format: tr("Invoice %@ marked as paid"), number), undoLabel: tr("_Undo")) { [weak self] in
            self?.reopen(id)
        }
    }

    /// Asks before reopening, saying which payment goes and what is owed again.
    private func confirmReopen() {
        guard let invoice, let id = invoice.id, let settling = invoice.payments.last else { return }
        let body = String(format: tr("The payment of %@ received on %@ is removed, so the invoice is owed again. Earlier payments stay."),
                          money.string(from: settling.amount), settling.date.formatted(.medium))
        let dialog = MessageDialog(parent: context.window, heading: String(format: tr("Reopen Invoice %@?"), invoice.number),
                                   body: body)
        dialog.addResponse("keep", label: tr("_Keep Paid"))
        dialog.addResponse("reopen", label: tr("_Reopen"), appearance: .suggested)
        dialog.setDefaultResponse("keep")
        dialog.setCloseResponse("keep")
        dialog.onResponse { [weak self] response in
            guard response == "reopen" else { return }
            self?.reopen(id)
        }
        dialog.present()
    }

    /// Paid → sent, read afresh so nothing saved since is overwritten.
    private func reopen(_ id: InvoiceID) {
        do {
            guard var stored = try repository.invoice(id) else { return }
            try stored.reopen()
            _ = try repository.save(stored)
            list?.invoiceChanged(id)
        } catch {
            context.showToast(error.localizedDescription)
        }
    }

    private func confirmCancel() {
        guard let invoice else { return }
        let dialog = MessageDialog(parent: context.window, heading: String(format: tr("Cancel Invoice %@?"), invoice.number),
                                   body: tr("The invoice stays in the list, marked cancelled, and keeps its number. It can no longer be paid."))
        dialog.addResponse("keep", label: tr("_Keep"))
        dialog.addResponse("cancel-invoice", label: tr("_Cancel Invoice"), appearance: .destructive)
        dialog.setDefaultResponse("keep")
        dialog.setCloseResponse("keep")
        dialog.onResponse { [weak self] response in
            guard response == "cancel-invoice" else { return }
            self?.change { invoice in try invoice.cancel() }
        }
        dialog.present()
    }

    /// Deleting asks first; the toast after it still offers Undo.
    private func confirmDelete() {
        guard let invoice, let id = invoice.id else { return }
        let dialog = MessageDialog(parent: context.window, heading: String(format: tr("Delete Invoice %@?"), invoice.number),
                                   body: tr("The invoice and its payments are removed. Its number is not given out again."))
        dialog.addResponse("keep", label: tr("_Keep"))
        dialog.addResponse("delete", label: tr("_Delete"), appearance: .destructive)
        dialog.setDefaultResponse("keep")
        dialog.setCloseResponse("keep")
        dialog.onResponse { [weak self] response in
            guard response == "delete" else { return }
            self?.list?.delete(id)
        }
        deleteConfirmation = dialog
        dialog.present()
    }

    /// The delete question while it is open.
    private(set) weak var deleteConfirmation: MessageDialog?

    private func record(_ kind: PaymentDialog.Kind) {
        guard let invoice else { return }
        let dialog = PaymentDialog(invoice: invoice, kind: kind, parent: context.window)
        dialog.onRecord = { [weak self] amount, date, note in
            self?.change { invoice in
                switch kind {
                case .payment: try invoice.recordPayment(amount, on: date, note: note)
                case .refund: try invoice.recordRefund(amount, on: date, note: note)
                }
            }
        }
        paymentDialog = dialog
        dialog.present()
    }

    /// The payment or refund dialog while it exists; the window's own lifetime keeps it, not this pane.
    private(set) weak var paymentDialog: PaymentDialog?

    private func duplicate() {
        guard let invoice else { return }
        let count = (try? repository.invoiceCount()) ?? 0
        if let limit = InvoicePlan(context.entitlements).limitMessage(existingCount: count) {
            guard context.ensureAllowed(.unlimitedInvoices, reason: limit) else { return }
        }
        do {
            let copy = try repository.save(invoice.duplicated(today: .today()))
            if let id = copy.id {
                list?.invoiceChanged(id)
                context.showToast(String(format: tr("Draft %@ created from %@"), copy.number, invoice.number))
            }
        } catch {
            context.showToast(error.localizedDescription)
        }
    }
}
