import BillfoldCore
import GtkKit
import InvoicesCore

/// What a row shows: the invoice and its amount and due date as text.
struct InvoiceRowContent: Equatable {
    /// Nil when the invoice could not be read; `problem` says why, in the client's place.
    let summary: InvoiceSummary?
    let amount: String
    let due: String
    var problem: String?

    init(summary: InvoiceSummary, amount: String, due: String) {
        self.summary = summary
        self.amount = amount
        self.due = due
    }

    init(problem: String) {
        summary = nil
        amount = ""
        due = ""
        self.problem = problem
    }
}

/// One row of the invoice list: number and client on the left, amount and due date on the
/// right, and the status badge, drawn as one widget of a fixed height.
///
/// GTK 4.8's list view keeps about 200 rows bound, and a search binds them all again. With a
/// label per text, each of those rows was measured and laid out anew (60–80 ms a keystroke).
/// A drawn row never changes size, and binding one only records its position: the invoice is
/// read and its text laid out when the row is painted, which only the rows on screen are.
/// The row is the drawing area itself: every widget in a row is made, styled, mapped and
/// allocated 200 times over when a library opens.
@MainActor
package final class InvoiceRowView: DrawingArea {
    private lazy var number = TextLine(in: self, weight: .bold)
    private lazy var client = TextLine(in: self)
    private lazy var amount = TextLine(in: self, weight: .bold, tabularFigures: true)
    private lazy var due = TextLine(in: self, tabularFigures: true)
    private lazy var badge = TextLine(in: self, weight: .bold, scale: 0.833)
    private let content: @MainActor (Int) -> InvoiceRowContent?
    private(set) var position: Int?
    private var shown: InvoiceRowContent?

    /// The drawing's height by font and resolution: GTK 4.8 makes some 200 rows at once, and shaping three
    /// lines in each to measure them cost as much as the rest of making the row.
    private static var contentHeights: [String: Int] = [:]
    private static let lineSpacing = 2
    private static let columnGap = 12
    private static let badgeWidth = 78
    private static let badgePadding = (horizontal: 8, vertical: 2)

    /// `content` gives what the row at a position shows, or nil when there is none.
    init(content: @escaping @MainActor (Int) -> InvoiceRowContent?) {
        self.content = content
        super.init()
        let font = number.metricsKey
        let height = Self.contentHeights[font] ?? max(number.lineHeight + Self.lineSpacing + client.lineHeight,
                                                      badge.lineHeight + 2 * Self.badgePadding.vertical)
        Self.contentHeights[font] = height
        contentHeight = height
        expandsHorizontally = true
        // The drawing is hidden from assistive technologies; the list item carries the row's name.
        hideFromAssistiveTechnologies()
        setDrawFunction { [weak self] context, width, height in
            guard let self else { return }
            self.update()
            self.draw(context, width: width, height: height)
        }
        setMargins(top: 0, bottom: 0, start: 6, end: 0)
    }

    /// Shows the row at `position` (again, after the data behind it changed).
    func bind(position: Int) {
        self.position = position
        queueDraw()
    }

    /// The texts as last painted, in reading order.
    var texts: [String] { [number.text, client.text, amount.text, due.text, badge.text] }

    /// Takes the row's content from the list, if it changed since it was last shown.
    private func update() {
        let current = position.flatMap(content)
        guard current != shown else { return }
        shown = current
        number.text = current?.summary?.number ?? (current?.problem == nil ? "" : "—")
        client.text = current?.summary?.clientName ?? current?.problem ?? ""
        amount.text = current?.amount ?? ""
        due.text = current?.due ?? ""
        badge.text = current?.summary?.displayStatus.title ?? ""
        // Screen readers read the list item that holds the row, so the name goes there.
        listItemAccessibleLabel = current.map { content in
            guard let summary = content.summary else { return content.problem ?? "" }
            return String(format: tr("%@, %@, %@, %@"), summary.number, summary.clientName, content.amount,
                          summary.displayStatus.title)
        }
    }

    private func draw(_ context: CairoContext, width: Int, height: Int) {
        let foreground = foregroundColor
        guard let status = shown?.summary?.displayStatus else {
            // An invoice that could not be read: the reason, across the row.
            guard shown?.problem != nil else { return }
            client.maximumWidth = width
            number.draw(in: context, x: 0, y: 0, color: foreground)
            client.draw(in: context, x: 0, y: Double(number.lineHeight + Self.lineSpacing), color: styleColor(named: "error_color") ?? foreground)
            return
        }
        let dim = foreground.withAlpha(0.55)
        let rightToLeft = isRightToLeft
        // Positions are worked out left to right and mirrored for right-to-left languages.
        func x(_ start: Int, _ itemWidth: Int) -> Double { Double(rightToLeft ? width - start - itemWidth : start) }

        // The badge: a pill at the trailing edge, its text centred.
        badge.maximumWidth = nil
        let badgeText = badge.size
        let pillWidth = max(Self.badgeWidth, badgeText.width + 2 * Self.badgePadding.horizontal)
        let pillHeight = badgeText.height + 2 * Self.badgePadding.vertical
        let pillStart = width - pillWidth
        let colors = badgeColors(status, foreground: foreground)
        context.fillRoundedRectangle(x: x(pillStart, pillWidth), y: Double((height - pillHeight) / 2),
                                     width: Double(pillWidth), height: Double(pillHeight),
                                     radius: Double(pillHeight) / 2, color: colors.background)
        badge.draw(in: context, x: x(pillStart + (pillWidth - badgeText.width) / 2, badgeText.width),
                   y: Double((height - badgeText.height) / 2), color: colors.text)

        // Amount over due date, right-aligned against the badge; they keep their natural width
        // up to half the row, and the number and client take what is left.
        let space = max(0, pillStart - Self.columnGap)
        amount.maximumWidth = space / 2
        due.maximumWidth = space / 2
        let trailingWidth = max(amount.size.width, due.size.width)
        let trailingEnd = space
        let top = (height - (number.lineHeight + Self.lineSpacing + client.lineHeight)) / 2
        let secondLine = top + number.lineHeight + Self.lineSpacing
        amount.draw(in: context, x: x(trailingEnd - amount.size.width, amount.size.width), y: Double(top), color: foreground)
        due.draw(in: context, x: x(trailingEnd - due.size.width, due.size.width), y: Double(secondLine), color: dim)

        let leadingWidth = max(0, trailingEnd - trailingWidth - Self.columnGap)
        number.maximumWidth = leadingWidth
        client.maximumWidth = leadingWidth
        number.draw(in: context, x: x(0, number.size.width), y: Double(top), color: foreground)
        client.draw(in: context, x: x(0, client.size.width), y: Double(secondLine), color: dim)
    }

    /// The colours of style.css's `.status-badge` classes, from the theme's named colours.
    private func badgeColors(_ status: InvoiceDisplayStatus, foreground: StyleColor) -> (text: StyleColor, background: StyleColor) {
        func named(_ name: String) -> StyleColor { styleColor(named: name) ?? foreground }
        switch status {
        case .draft: return (foreground.withAlpha(0.75), foreground.withAlpha(0.1))
        case .sent: return (named("accent_color"), named("accent_bg_color").withAlpha(0.15))
        case .paid: return (named("success_color"), named("success_bg_color").withAlpha(0.15))
        case .overdue: return (named("error_color"), named("error_bg_color").withAlpha(0.15))
        case .cancelled: return (foreground.withAlpha(0.55), foreground.withAlpha(0.06))
        }
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
