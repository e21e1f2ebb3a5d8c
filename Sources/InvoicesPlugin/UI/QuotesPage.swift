import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// The quotes: every quote, newest first, beside the chosen one.
@MainActor
final class QuotesPage {
    let pane: DocumentListPane
    var widget: Widget { pane.widget }
    let repository: InvoiceRepository
    // The shell does not keep the context; the views do.
    private let context: PluginContext
    private weak var navigator: (any DocumentNavigator)?
    let newButton = Button(iconName: "list-add-symbolic", accessibleLabel: tr("New Quote"))
    private(set) var ids: [QuoteID] = []
    private var rows = RowWindow<QuoteSummary>()
    private var today = CalendarDay.today()
    private let money = MoneyFormatter()
    private(set) var selectedID: QuoteID?
    private(set) weak var editor: InvoiceEditor?

    /// The quote pane, built when a quote is first shown.
    var detail: QuoteDetailView {
        if let builtDetail { return builtDetail }
        let detail = QuoteDetailView(page: self, repository: repository, context: context, navigator: navigator)
        pane.detailStack.add(detail.widget, named: "quote")
        builtDetail = detail
        return detail
    }
    private var builtDetail: QuoteDetailView?

    init(context: PluginContext, repository: InvoiceRepository, switcher: DocumentKindSwitcher,
         navigator: any DocumentNavigator) {
        self.context = context
        self.repository = repository
        self.navigator = navigator
        let newFromEmpty = Button(label: tr("_New Quote"))
        newFromEmpty.addCssClass("pill")
        newFromEmpty.addCssClass("suggested-action")
        newFromEmpty.align(horizontal: .center)
        let empty = StatusPage(iconName: "x-office-document-symbolic", title: tr("No Quotes"),
                               description: tr("Offer a price before the work; an accepted quote becomes an invoice in one click. Quotes do not count toward the free plan’s invoice limit."),
                               child: newFromEmpty)
        let none = StatusPage(iconName: "x-office-document-symbolic", title: tr("No Quote Selected"),
                              description: tr("Choose a quote from the list."))
        var rowContent: (@MainActor (Int) -> SummaryRowContent?)?
        pane = DocumentListPane(context: context, title: tr("Quotes"), switcher: switcher, emptyPage: empty,
                                noneSelected: none, readErrorTitle: tr("Quotes Could Not Be Read"),
                                content: { position in rowContent?(position) })
        rowContent = { [weak self] position in self?.rowContent(at: position) }
        newButton.tooltip = tr("New Quote")
        newButton.onClicked { [weak self] in self?.openEditor(for: nil) }
        newFromEmpty.onClicked { [weak self] in self?.openEditor(for: nil) }
        pane.listHeader.packEnd(newButton)
        pane.onSelectionChanged = { [weak self] position in self?.selectionChanged(position) }
        reload()
    }

    /// The row at `position`; one that cannot be read says why, as the invoice list's rows do.
    func rowContent(at position: Int) -> SummaryRowContent? {
        let summary: QuoteSummary?
        do {
            summary = try rows.row(at: position, of: ids) { try repository.quoteSummaries(for: $0, today: today) }
        } catch {
            return .unreadable(String(format: tr("The quote could not be read: %@"), error.localizedDescription))
        }
        guard let summary else { return nil }
        return SummaryRowContent(title: summary.number, subtitle: summary.clientName,
                                 amount: money.string(from: summary.total),
                                 detail: String(format: tr("Valid until %@"), summary.validUntil.formatted(.medium)),
                                 badge: summary.displayStatus.title, tone: summary.displayStatus.tone.badgeTone)
    }

    /// Reads the list again, keeping the chosen quote.
    func reload() {
        today = .today()
        rows.removeAll()
        do {
            ids = try repository.quoteIDs()
        } catch {
            pane.showReadError(error.localizedDescription)
            context.showToast(error.localizedDescription)
            return
        }
        pane.show(count: ids.count, selecting: selectedID.flatMap { ids.firstIndex(of: $0) })
        showSelected()
    }

    func select(_ id: QuoteID) {
        selectedID = id
        reload()
        pane.revealDetail()
    }

    private func selectionChanged(_ position: Int?) {
        selectedID = position.flatMap { ids.indices.contains($0) ? ids[$0] : nil }
        showSelected()
    }

    private func showSelected() {
        guard let id = selectedID else {
            pane.detailStack.visibleChildName = "none"
            pane.detailTitle.title = ""
            return
        }
        do {
            guard let quote = try repository.quote(id) else {
                selectedID = nil
                pane.detailStack.visibleChildName = "none"
                return
            }
            pane.detailTitle.title = quote.number
            detail.show(quote)
            pane.detailStack.visibleChildName = "quote"
        } catch {
            pane.detailStack.visibleChildName = "none"
            context.showToast(error.localizedDescription)
        }
    }

    /// After a quote was saved: its row changes and it is shown.
    func quoteChanged(_ id: QuoteID) {
        select(id)
    }

    /// The quote form, on a new draft when `quote` is nil. Quotes need a client first, which
    /// the form offers to create.
    func openEditor(for quote: Quote?) {
        let draft = quote ?? Quote(clientID: nil, issueDate: .today(), validUntil: CalendarDay.today().adding(days: Quote.defaultValidityDays),
                                   currency: (try? repository.profile().defaultCurrency) ?? .eur)
        let editor = InvoiceEditor(repository: repository, context: context, quote: draft)
        editor.onQuoteSaved = { [weak self] saved in
            guard let self, let id = saved.id else { return }
            self.quoteChanged(id)
        }
        self.editor = editor
        editor.present()
    }
}
