import BillfoldCore
import GtkKit

/// One row of the invoice list: number and client on the left, amount and due date on the
/// right, and the status badge. Rows are recycled, so `show` sets every label each time.
@MainActor
final class InvoiceRowView {
    let widget = Box(.horizontal, spacing: 12)
    let numberLabel = Label("", wraps: false, style: "heading")
    let clientLabel = Label("", wraps: false, style: "dim-label")
    let amountLabel = Label("", wraps: false, style: "numeric")
    let dueLabel = Label("", wraps: false, style: "dim-label")
    let badge = Label("", wraps: false, style: "status-badge")
    private var badgeClass: String?

    init() {
        let left = Box(.vertical, spacing: 2, children: [numberLabel, clientLabel])
        left.expandsHorizontally = true
        left.align(vertical: .center)
        for label in [numberLabel, clientLabel] {
            label.xAlign = 0
            label.ellipsizesAtEnd()
        }
        let right = Box(.vertical, spacing: 2, children: [amountLabel, dueLabel])
        right.align(vertical: .center)
        for label in [amountLabel, dueLabel] { label.xAlign = 1 }
        amountLabel.addCssClass("heading")
        dueLabel.addCssClass("numeric")
        badge.align(vertical: .center)
        badge.setSizeRequest(width: 78)
        widget.append(left)
        widget.append(right)
        widget.append(badge)
        widget.setMargins(top: 0, bottom: 0, start: 6, end: 0)
    }

    func show(_ summary: InvoiceSummary?, money: MoneyFormatter, dates: DayTextCache) {
        guard let summary else {
            numberLabel.text = ""
            clientLabel.text = ""
            amountLabel.text = ""
            dueLabel.text = ""
            badge.isVisible = false
            return
        }
        numberLabel.text = summary.number
        clientLabel.text = summary.clientName
        amountLabel.text = money.string(from: summary.total)
        dueLabel.text = dates.dueText(summary.dueDate)
        badge.isVisible = true
        badge.text = summary.displayStatus.title
        if let badgeClass { badge.removeCssClass(badgeClass) }
        badgeClass = summary.displayStatus.rawValue
        badge.addCssClass(summary.displayStatus.rawValue)
        widget.accessibleLabel = String(format: tr("%@, %@, %@, %@"), summary.number, summary.clientName,
                                        amountLabel.text, summary.displayStatus.title)
    }
}

/// Due-date texts by day. Formatting a date builds a formatter each time, and a screen of rows
/// shows the same few days over and over, so each day is formatted once.
@MainActor
final class DayTextCache {
    private var texts: [CalendarDay: String] = [:]

    func dueText(_ day: CalendarDay) -> String {
        if let text = texts[day] { return text }
        if texts.count > 4_000 { texts.removeAll(keepingCapacity: true) }
        let text = String(format: tr("Due %@"), day.formatted(.medium))
        texts[day] = text
        return text
    }
}
