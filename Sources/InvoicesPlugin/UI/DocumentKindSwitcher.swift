import BillfoldCore
import GtkKit
import InvoicesCore

/// The three kinds of document the Invoices page lists.
enum DocumentKindTab: String, CaseIterable {
    case invoices
    case quotes
    case creditNotes

    var title: String {
        switch self {
        case .invoices: tr("Invoices")
        case .quotes: tr("Quotes")
        case .creditNotes: tr("Credit Notes")
        }
    }
}

/// The view switcher at the top of each list: Invoices | Quotes | Credit Notes, as linked
/// toggle buttons like the Details | Preview switch. Each list has its own; the page keeps
/// them showing the same choice.
@MainActor
final class DocumentKindSwitcher {
    let widget = Box(.horizontal)
    private(set) var buttons: [DocumentKindTab: ToggleButton] = [:]
    private var isUpdating = false
    var onChoose: (@MainActor (DocumentKindTab) -> Void)?

    init(selected: DocumentKindTab) {
        widget.makeLinked()
        widget.setMargins(top: 6, bottom: 0, start: 12, end: 12)
        widget.accessibleLabel = tr("Kind of Document")
        for tab in DocumentKindTab.allCases {
            let button = ToggleButton(label: tab.title)
            if let first = buttons[.invoices] { button.join(first) }
            button.isActive = tab == selected
            button.expandsHorizontally = true
            button.onToggled { [weak self, weak button] in
                guard let self, let button, button.isActive, !self.isUpdating else { return }
                self.onChoose?(tab)
            }
            buttons[tab] = button
            widget.append(button)
        }
    }

    /// Shows `tab` as chosen without announcing it.
    func select(_ tab: DocumentKindTab) {
        isUpdating = true
        buttons[tab]?.isActive = true
        isUpdating = false
    }
}

/// Moves between the three lists, e.g. from a quote to the invoice it became.
@MainActor
protocol DocumentNavigator: AnyObject {
    func showInvoice(_ id: InvoiceID)
    func showQuote(_ id: QuoteID)
    func showCreditNote(_ id: CreditNoteID)
    /// A credit note changed an invoice's balance: both lists show it.
    func creditNoteIssued(_ note: CreditNote)
    /// Whether the invoices are the list in view.
    var showsInvoices: Bool { get }
    /// Starts a new document of the kind in view: a quote while the quotes are.
    func newDocumentInView()
}
