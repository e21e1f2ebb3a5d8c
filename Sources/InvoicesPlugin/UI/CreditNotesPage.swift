import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The credit notes: every one issued, newest first, beside the chosen one and its PDF. They
/// are made from a sent invoice's pane (Create Credit Note) and never change afterwards.
@MainActor
final class CreditNotesPage {
    let pane: DocumentListPane
    var widget: Widget { pane.widget }
    let repository: InvoiceRepository
    // The shell does not keep the context; the views do.
    private let context: PluginContext
    private weak var navigator: (any DocumentNavigator)?
    private(set) var ids: [CreditNoteID] = []
    private var rows = RowWindow<CreditNoteSummary>()
    private let money = MoneyFormatter()
    private(set) var selectedID: CreditNoteID?
    private(set) var shown: CreditNote?

    let heading = DocumentHeading(showsBadge: false)
    let issueRow = ActionRow(title: tr("Issued"))
    let invoiceRow = ActionRow(title: tr("For Invoice"))
    let reasonRow = ActionRow(title: tr("Reason"))
    let totalLabel = Label("", wraps: false, style: "numeric")
    let lines = DocumentLinesGroup(title: tr("Credited Lines"))
    let saveBadge: ProBadge
    let savePDFButton: Button
    package let preview = DocumentPreview(emptyTitle: tr("No Credit Note"))
    let saveXRechnungButton = Button(label: tr("Save XRechnung…"))
    private(set) lazy var eInvoices = EInvoiceSaving(context: context, documentActions: documentActions)
    private(set) lazy var documentActions = DocumentActions(parent: context.window) { [weak self] error in
        self?.context.showToast(error.localizedDescription)
    }

    init(context: PluginContext, repository: InvoiceRepository, switcher: DocumentKindSwitcher,
         navigator: any DocumentNavigator) {
        self.context = context
        self.repository = repository
        self.navigator = navigator
        saveBadge = ProBadge(feature: .exportInvoicePDF, entitlements: context.entitlements)
        savePDFButton = saveBadge.makeButton(label: tr("Save PDF…"))
        let empty = StatusPage(iconName: "x-office-document-symbolic", title: tr("No Credit Notes"),
                               description: tr("A sent invoice is never changed or deleted. To correct or cancel one, open it and choose Create Credit Note. Credit notes do not count toward the free plan’s invoice limit."))
        let none = StatusPage(iconName: "x-office-document-symbolic", title: tr("No Credit Note Selected"),
                              description: tr("Choose a credit note from the list."))
        var rowContent: (@MainActor (Int) -> SummaryRowContent?)?
        pane = DocumentListPane(context: context, title: tr("Credit Notes"), switcher: switcher, emptyPage: empty,
                                noneSelected: none, readErrorTitle: tr("Credit Notes Could Not Be Read"),
                                content: { position in rowContent?(position) })
        rowContent = { [weak self] position in self?.rowContent(at: position) }
        pane.onSelectionChanged = { [weak self] position in
            guard let self else { return }
            self.selectedID = position.flatMap { self.ids.indices.contains($0) ? self.ids[$0] : nil }
            self.showSelected()
        }
        pane.detailStack.add(buildDetail(), named: "credit-note")
        reload()
    }

    private func buildDetail() -> Widget {
        let content = Box(.vertical, spacing: 18)
        content.setMargins(top: 18, bottom: 24, start: 12, end: 12)
        content.append(heading.widget)
        savePDFButton.onClicked { [weak self] in self?.savePDF() }
        saveXRechnungButton.onClicked { [weak self] in self?.saveXRechnung() }
        saveXRechnungButton.tooltip = tr("Save the credit note as an XRechnung e-invoice (XML), as German public bodies ask for")
        let buttons = Box(.horizontal, spacing: 6, children: [savePDFButton, saveXRechnungButton])
        buttons.align(horizontal: .start)
        content.append(buttons)
        let facts = PreferencesGroup()
        for row in [issueRow, reasonRow] { row.addCssClass("property") }
        facts.add(issueRow)
        invoiceRow.addSuffix(Image(iconName: "go-next-symbolic"))
        invoiceRow.onActivated { [weak self] in
            guard let self, let id = self.shown?.invoiceID else { return }
            self.navigator?.showInvoice(id)
        }
        facts.add(invoiceRow)
        facts.add(reasonRow)
        let totalRow = ActionRow(title: tr("Credited"))
        totalLabel.align(vertical: .center)
        totalLabel.addCssClass("heading")
        totalRow.addSuffix(totalLabel)
        facts.add(totalRow)
        content.append(facts)
        content.append(lines.group)

        return DetailsOrPreview(details: content, preview: preview.widget).widget
    }

    /// The row at `position`; one that cannot be read says why, as the invoice list's rows do.
    func rowContent(at position: Int) -> SummaryRowContent? {
        let summary: CreditNoteSummary?
        do {
            summary = try rows.row(at: position, of: ids) { try repository.creditNoteSummaries(for: $0) }
        } catch {
            return .unreadable(String(format: tr("The credit note could not be read: %@"), error.localizedDescription))
        }
        guard let summary else { return nil }
        return SummaryRowContent(title: summary.number, subtitle: summary.clientName,
                                 amount: money.string(from: summary.total),
                                 detail: String(format: tr("For invoice %@"), summary.invoiceNumber))
    }

    func reload() {
        rows.removeAll()
        do {
            ids = try repository.creditNoteIDs()
        } catch {
            pane.showReadError(error.localizedDescription)
            context.showToast(error.localizedDescription)
            return
        }
        pane.show(count: ids.count, selecting: selectedID.flatMap { ids.firstIndex(of: $0) })
        showSelected()
    }

    func select(_ id: CreditNoteID) {
        selectedID = id
        reload()
        pane.revealDetail()
    }

    private func showSelected() {
        guard let id = selectedID else {
            pane.detailStack.visibleChildName = "none"
            pane.detailTitle.title = ""
            return
        }
        do {
            guard let note = try repository.creditNote(id), let invoice = try repository.invoice(note.invoiceID) else {
                pane.detailStack.visibleChildName = "none"
                return
            }
            show(note, of: invoice)
        } catch {
            pane.detailStack.visibleChildName = "none"
            context.showToast(error.localizedDescription)
        }
    }

    private func show(_ note: CreditNote, of invoice: Invoice) {
        let changed = shown != note
        shown = note
        pane.detailTitle.title = note.number
        heading.numberLabel.text = String(format: tr("Credit Note %@"), note.number)
        heading.clientLabel.text = invoice.billTo?.name ?? ""
        issueRow.subtitle = note.issueDate.formatted(.medium)
        invoiceRow.subtitle = invoice.number
        reasonRow.subtitle = note.reason
        reasonRow.isVisible = !note.reason.isEmpty
        let content = note.content(of: invoice)
        let totals = (try? content.totals()) ?? .zero(invoice.currency)
        totalLabel.text = money.string(from: totals.total)
        lines.show(content.lines, nets: totals.lineNets)
        pane.detailStack.visibleChildName = "credit-note"
        if changed {
            do {
                let document = try repository.document(for: note)
                preview.generate { try InvoicePDF.render(document).data }
            } catch {
                preview.showError(error.localizedDescription)
            }
        }
    }

    func savePDF() {
        guard let note = shown, context.ensureAllowed(.exportInvoicePDF) else { return }
        do {
            let document = try repository.document(for: note)
            let pdf: Data
            if let clientID = document.invoice.clientID, try repository.client(clientID)?.eInvoiceFormat == .facturX {
                pdf = try EInvoiceExport.facturXPDF(document).data
            } else {
                pdf = try InvoicePDF.render(document).data
            }
            documentActions.saveAs(pdf: pdf, suggestedName: InvoicePDF.suggestedFileName(for: document.invoice)) { [weak self] url in
                self?.context.showToast(String(format: tr("Saved “%@”"), url.lastPathComponent))
            }
        } catch {
            eInvoices.explain(error)
        }
    }

    /// Save XRechnung: the credit note's data alone (type 381, naming its invoice), as XML.
    func saveXRechnung() {
        guard let xml = xRechnungXML(), let note = shown else { return }
        eInvoices.saveXRechnung(xml, suggestedName: note.number + ".xml")
    }

    /// The shown credit note as XRechnung XML, made now; what is missing is explained instead.
    func xRechnungXML() -> Data? {
        guard let note = shown else { return nil }
        do {
            return try EInvoiceExport.ciiXML(try repository.document(for: note), format: .xrechnung)
        } catch {
            eInvoices.explain(error)
            return nil
        }
    }
}
