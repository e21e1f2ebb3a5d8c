import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The chosen quote: its facts, lines and total, what can be done with it now (send, accept,
/// decline, reopen, convert to an invoice), the invoice it became, and its PDF.
@MainActor
final class QuoteDetailView {
    let widget: Widget
    private weak var page: QuotesPage?
    private weak var navigator: (any DocumentNavigator)?
    private let repository: InvoiceRepository
    // The shell does not keep the context; the views do.
    private let context: PluginContext
    private let money = MoneyFormatter()
    private(set) var quote: Quote?

    let heading = DocumentHeading(showsBadge: true)
    let issueRow = ActionRow(title: tr("Issued"))
    let validRow = ActionRow(title: tr("Valid Until"))
    let invoiceRow = ActionRow(title: tr("Became Invoice"))
    let totalLabel = Label("", wraps: false, style: "numeric")
    let lines = DocumentLinesGroup(title: tr("Lines"))

    let editButton = Button(label: tr("_Edit"))
    let sendButton = Button(label: tr("Mark as _Sent"))
    let acceptButton = Button(label: tr("_Accept"))
    let declineButton = Button(label: tr("_Decline"))
    let reopenButton = Button(label: tr("_Reopen"))
    let convertButton = Button(label: tr("_Convert to Invoice"))
    let saveBadge: ProBadge
    let savePDFButton: Button
    package let preview = DocumentPreview(emptyTitle: tr("No Quote"))
    private var previewedRevision: (QuoteID, Int)?
    private(set) lazy var documentActions = DocumentActions(parent: context.window) { [weak self] error in
        self?.context.showToast(error.localizedDescription)
    }

    init(page: QuotesPage, repository: InvoiceRepository, context: PluginContext, navigator: (any DocumentNavigator)?) {
        self.page = page
        self.repository = repository
        self.context = context
        self.navigator = navigator
        saveBadge = ProBadge(feature: .exportInvoicePDF, entitlements: context.entitlements)
        savePDFButton = saveBadge.makeButton(label: tr("Save PDF…"))
        let content = Box(.vertical, spacing: 18)
        content.setMargins(top: 18, bottom: 24, start: 12, end: 12)
        content.append(heading.widget)

        for button in [sendButton, acceptButton, convertButton] { button.addCssClass("suggested-action") }
        let actions = Box(.vertical, spacing: 6, children: [
            Box(.horizontal, spacing: 6, children: [editButton, sendButton, acceptButton, convertButton]),
            Box(.horizontal, spacing: 6, children: [declineButton, reopenButton, savePDFButton]),
        ])
        content.append(actions)

        let facts = PreferencesGroup()
        for row in [issueRow, validRow] { row.addCssClass("property"); facts.add(row) }
        invoiceRow.addSuffix(Image(iconName: "go-next-symbolic"))
        facts.add(invoiceRow)
        let totalRow = ActionRow(title: tr("Total"))
        totalLabel.align(vertical: .center)
        totalLabel.addCssClass("heading")
        totalRow.addSuffix(totalLabel)
        facts.add(totalRow)
        content.append(facts)
        content.append(lines.group)

        widget = DetailsOrPreview(details: content, preview: preview.widget).widget

        invoiceRow.onActivated { [weak self] in
            guard let self, let id = self.quote?.invoiceID else { return }
            self.navigator?.showInvoice(id)
        }
        editButton.onClicked { [weak self] in
            guard let self, let quote = self.quote else { return }
            self.page?.openEditor(for: quote)
        }
        sendButton.onClicked { [weak self] in self?.change { try $0.markSent(on: .today()) } }
        acceptButton.onClicked { [weak self] in self?.change { try $0.accept(today: .today()) } }
        declineButton.onClicked { [weak self] in self?.change { try $0.decline() } }
        reopenButton.onClicked { [weak self] in self?.change { try $0.reopen(today: .today()) } }
        convertButton.onClicked { [weak self] in self?.convert() }
        savePDFButton.onClicked { [weak self] in self?.savePDF() }
    }

    func show(_ quote: Quote) {
        self.quote = quote
        guard let id = quote.id else { return }
        if previewedRevision.map({ $0 != (id, quote.revision) }) ?? true {
            previewedRevision = (id, quote.revision)
            refreshPreview(quote)
        }
        let status = quote.displayStatus(today: .today())
        heading.showStatus(status.title, styleClass: status.tone.badgeClass)
        heading.numberLabel.text = quote.number
        heading.clientLabel.text = repository.clientNameForDisplay(quote.clientID)
        issueRow.subtitle = quote.issueDate.formatted(.medium)
        validRow.subtitle = quote.validUntil.formatted(.medium)
        let totals = (try? quote.totals()) ?? .zero(quote.currency)
        totalLabel.text = money.string(from: totals.total)
        let invoiceNumber = repository.invoiceNumberForDisplay(quote.invoiceID)
        invoiceRow.isVisible = invoiceNumber != nil
        invoiceRow.subtitle = invoiceNumber

        lines.show(quote.lines, nets: totals.lineNets)

        editButton.isVisible = quote.status == .draft
        sendButton.isVisible = quote.status == .draft
        acceptButton.isVisible = status == .sent
        declineButton.isVisible = status == .sent
        reopenButton.isVisible = status == .declined || status == .expired
        convertButton.isVisible = quote.invoiceID == nil && status == .accepted
    }

    private func refreshPreview(_ quote: Quote) {
        do {
            let document = try repository.document(for: quote)
            preview.generate { try InvoicePDF.render(document).data }
        } catch {
            preview.showError(error.localizedDescription)
        }
    }

    /// Applies a status change and saves it; a refusal is shown, nothing is half-done.
    private func change(_ body: (inout Quote) throws -> Void) {
        guard var quote else { return }
        do {
            try body(&quote)
            let saved = try repository.save(quote)
            if let id = saved.id { page?.quoteChanged(id) }
        } catch {
            context.showToast(error.localizedDescription)
        }
    }

    /// The new invoice counts toward the free plan's limit, which is asked about first.
    func convert() {
        guard let quote, let id = quote.id else { return }
        let plan = InvoicePlan(context.entitlements)
        let count = (try? repository.invoiceCount()) ?? 0
        if !plan.allowsNewInvoice(existingCount: count) {
            guard context.ensureAllowed(.unlimitedInvoices) else { return }
        }
        do {
            let invoice = try repository.convertToInvoice(id, plan: InvoicePlan(context.entitlements))
            context.showToast(String(format: tr("Invoice %@ created from quote %@"), invoice.number, quote.number))
            if let invoiceID = invoice.id { navigator?.showInvoice(invoiceID) }
        } catch {
            context.showToast(error.localizedDescription)
        }
    }

    func savePDF() {
        guard let quote, context.ensureAllowed(.exportInvoicePDF) else { return }
        do {
            let pdf = try InvoicePDF.render(try repository.document(for: quote)).data
            documentActions.saveAs(pdf: pdf, suggestedName: InvoicePDF.suggestedFileName(for: quote.invoiceDraftContent())) { [weak self] url in
                self?.context.showToast(String(format: tr("Saved “%@”"), url.lastPathComponent))
            }
        } catch {
            context.showToast(error.localizedDescription)
        }
    }
}
