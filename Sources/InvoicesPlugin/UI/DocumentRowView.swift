import BillfoldCore
import GtkKit
import InvoicesCore

/// What a quote or credit note row shows.
struct DocumentRowContent: Equatable {
    let number: String
    let client: String
    let amount: String
    let detail: String
    let badge: String

    /// A row that could not be read: the reason in the client's place, a dash for the number.
    static func unreadable(_ reason: String) -> DocumentRowContent {
        DocumentRowContent(number: "—", client: reason, amount: "", detail: "", badge: "")
    }
}

/// One row of the quote or credit note list: number and client on the left, amount and a date
/// on the right, a status at the end. Binding records the position; the texts are read when
/// the row is bound, so only rows on screen load anything.
@MainActor
final class DocumentRowView: Box {
    let number = Label("", wraps: false, style: "heading")
    let client = Label("", wraps: false, style: "dim-label")
    let amount = Label("", wraps: false, style: "numeric")
    let detail = Label("", wraps: false, style: "dim-label")
    let badge = Label("", wraps: false, style: "status-badge")
    private let content: @MainActor (Int) -> DocumentRowContent?
    private(set) var position: Int?
    private var badgeClass: String?

    init(content: @escaping @MainActor (Int) -> DocumentRowContent?) {
        self.content = content
        super.init(.horizontal, spacing: 12)
        for label in [number, client] { label.xAlign = 0 }
        for label in [amount, detail] { label.xAlign = 1 }
        detail.addCssClass("numeric")
        amount.addCssClass("heading")
        let leading = Box(.vertical, spacing: 2, children: [number, client])
        leading.expandsHorizontally = true
        let trailing = Box(.vertical, spacing: 2, children: [amount, detail])
        badge.align(vertical: .center)
        append(leading)
        append(trailing)
        append(badge)
        setMargins(top: 8, bottom: 8, start: 6, end: 6)
    }

    var texts: [String] { [number.text, client.text, amount.text, detail.text, badge.text] }

    func bind(position: Int, tone: String?) {
        self.position = position
        let shown = content(position)
        number.text = shown?.number ?? ""
        client.text = shown?.client ?? ""
        amount.text = shown?.amount ?? ""
        detail.text = shown?.detail ?? ""
        badge.text = shown?.badge ?? ""
        badge.isVisible = !(shown?.badge.isEmpty ?? true)
        if let badgeClass { badge.removeCssClass(badgeClass) }
        badgeClass = tone
        if let tone { badge.addCssClass(tone) }
        accessibleLabel = shown.map { [$0.number, $0.client, $0.amount, $0.badge].filter { !$0.isEmpty }.joined(separator: ", ") }
    }
}
