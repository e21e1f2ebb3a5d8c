import BillfoldCore
import GtkKit
import InvoicesCore
import PluginAPI

/// The Invoices page as a whole: invoices, quotes and credit notes, one list at a time, chosen
/// with the view switcher above each list. A view switcher keeps the three apart (each has its
/// own numbers, statuses and actions) while one click moves between them, as GNOME apps do
/// for a few peer views; filters would have mixed documents no one adds up together.
@MainActor
final class InvoicesDocumentsView: DocumentNavigator {
    let widget = Stack()
    let invoices: InvoicesPage
    private let repository: InvoiceRepository
    private let context: PluginContext
    private var switchers: [DocumentKindSwitcher] = []
    private(set) var shown: DocumentKindTab = .invoices

    /// Built when first chosen: most visits are to the invoices.
    var quotes: QuotesPage {
        if let builtQuotes { return builtQuotes }
        let page = QuotesPage(context: context, repository: repository, switcher: makeSwitcher(), navigator: self)
        widget.add(page.widget, named: DocumentKindTab.quotes.rawValue)
        builtQuotes = page
        return page
    }
    private var builtQuotes: QuotesPage?

    var creditNotes: CreditNotesPage {
        if let builtCreditNotes { return builtCreditNotes }
        let page = CreditNotesPage(context: context, repository: repository, switcher: makeSwitcher(), navigator: self)
        widget.add(page.widget, named: DocumentKindTab.creditNotes.rawValue)
        builtCreditNotes = page
        return page
    }
    private var builtCreditNotes: CreditNotesPage?

    init(context: PluginContext, repository: InvoiceRepository) {
        self.context = context
        self.repository = repository
        invoices = InvoicesPage(context: context, repository: repository)
        invoices.navigator = self
        invoices.listPane.insert(makeSwitcher().widget, after: invoices.listHeader)
        widget.add(invoices.widget, named: DocumentKindTab.invoices.rawValue)
        widget.visibleChildName = DocumentKindTab.invoices.rawValue
    }

    private func makeSwitcher() -> DocumentKindSwitcher {
        let switcher = DocumentKindSwitcher(selected: shown)
        switcher.onChoose = { [weak self] tab in self?.show(tab) }
        switchers.append(switcher)
        return switcher
    }

    func show(_ tab: DocumentKindTab) {
        shown = tab
        switch tab {
        case .invoices: invoices.reload(dataChanged: true)
        case .quotes: quotes.reload()
        case .creditNotes: creditNotes.reload()
        }
        widget.visibleChildName = tab.rawValue
        for switcher in switchers { switcher.select(tab) }
    }

    // MARK: DocumentNavigator

    func showInvoice(_ id: InvoiceID) {
        show(.invoices)
        invoices.select(id)
    }

    func showQuote(_ id: QuoteID) {
        show(.quotes)
        quotes.select(id)
    }

    func showCreditNote(_ id: CreditNoteID) {
        show(.creditNotes)
        creditNotes.select(id)
    }

    var showsInvoices: Bool { shown == .invoices }

    /// Credit notes are made from a sent invoice, so there is nothing new to start there.
    func newDocumentInView() {
        if shown == .quotes { quotes.openEditor(for: nil) }
    }

    func creditNoteIssued(_ note: CreditNote) {
        invoices.invoiceChanged(note.invoiceID)
        builtCreditNotes?.reload()
    }
}
