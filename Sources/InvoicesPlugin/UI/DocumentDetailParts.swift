import BillfoldCore
import GtkKit
import InvoicesCore

/// The top of a document's details: its number, its client and, for invoices and quotes, a
/// badge with the status, coloured by a style class that follows the status.
@MainActor
final class DocumentHeading {
    let widget: Widget
    let numberLabel = Label("", wraps: true, style: "title-2")
    let clientLabel = Label("", wraps: true, style: "dim-label")
    let badge = Label("", wraps: false, style: "status-badge")
    private var badgeClass: String?

    init(showsBadge: Bool) {
        numberLabel.xAlign = 0
        numberLabel.isSelectable = true
        clientLabel.xAlign = 0
        let titles = Box(.vertical, spacing: 4, children: [numberLabel, clientLabel])
        guard showsBadge else {
            widget = titles
            return
        }
        titles.expandsHorizontally = true
        badge.align(vertical: .center)
        widget = Box(.horizontal, spacing: 12, children: [titles, badge])
    }

    func showStatus(_ title: String, styleClass: String) {
        badge.text = title
        if let badgeClass { badge.removeCssClass(badgeClass) }
        badgeClass = styleClass
        badge.addCssClass(styleClass)
    }
}

/// A document's lines, a row each: the description's first line (wrapping over three lines
/// at most; the form and the PDF show all of it), quantity × unit price, and the line's net.
@MainActor
final class DocumentLinesGroup {
    let group: PreferencesGroup
    private(set) var rows: [ActionRow] = []
    private let money = MoneyFormatter()

    init(title: String) {
        group = PreferencesGroup(title: title)
    }

    /// Shows `lines` with their nets; the group hides when there are none.
    func show(_ lines: [LineItem], nets: [Money]) {
        rows.forEach(group.remove)
        rows = []
        let numbers = NumberFormatting()
        for (line, net) in zip(lines, nets) {
            let firstLine = line.description.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            let quantity = numbers.string(from: line.quantity)
            let price = money.string(from: line.unitPrice)
            let row = ActionRow.plain(title: firstLine,
                                      subtitle: line.unit.isEmpty ? String(format: tr("%@ × %@"), quantity, price)
                                          : String(format: tr("%@ %@ × %@"), quantity, line.unit, price))
            row.titleLines = 3
            let amount = Label(money.string(from: net), wraps: false, style: "numeric")
            amount.align(vertical: .center)
            row.addSuffix(amount)
            group.add(row)
            rows.append(row)
        }
        group.isVisible = !lines.isEmpty
    }
}
