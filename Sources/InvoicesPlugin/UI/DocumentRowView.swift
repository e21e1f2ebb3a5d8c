import BillfoldCore
import GtkKit
import InvoicesCore

/// What a row of the invoice, quote or credit note list shows.
struct DocumentRowContent: Equatable {
    let number: String
    let client: String
    let amount: String
    /// The line under the amount: "Due Dec 28, 2026", "Valid until …", "For invoice …".
    let detail: String
    /// The status in a pill coloured by `tone`; empty for none.
    let badge: String
    let tone: InvoiceDisplayStatus.Tone
    /// Why the document could not be read; nil when it was.
    let problem: String?

    init(number: String, client: String, amount: String, detail: String, badge: String = "",
         tone: InvoiceDisplayStatus.Tone = .neutral) {
        self.number = number
        self.client = client
        self.amount = amount
        self.detail = detail
        self.badge = badge
        self.tone = tone
        problem = nil
    }

    private init(problem: String) {
        number = "—"
        client = problem
        amount = ""
        detail = ""
        badge = ""
        tone = .neutral
        self.problem = problem
    }

    /// A row that could not be read: the reason in the client's place, a dash for the number.
    static func unreadable(_ reason: String) -> DocumentRowContent {
        DocumentRowContent(problem: reason)
    }

    /// What a screen reader says for the row.
    var accessibleLabel: String {
        if let problem { return problem }
        // Translators: a list row as a screen reader says it: number, client, amount (and status).
        return badge.isEmpty ? String(format: tr("%@, %@, %@"), number, client, amount)
            : String(format: tr("%@, %@, %@, %@"), number, client, amount, badge)
    }
}

/// One row of the invoice, quote or credit note list: number and client on the left, amount
/// and a date on the right, and the status badge, drawn as one widget of a fixed height.
///
/// GTK 4.8's list view keeps about 200 rows bound, and a search binds them all again. With a
/// label per text, each of those rows was measured and laid out anew (60–80 ms a keystroke).
/// A drawn row never changes size, and binding one only records its position: the document is
/// read and its text laid out when the row is painted, which only the rows on screen are.
/// The row is the drawing area itself: every widget in a row is made, styled, mapped and
/// allocated 200 times over when a library opens.
@MainActor
package final class DocumentRowView: DrawingArea {
    private lazy var number = TextLine(in: self, weight: .bold)
    private lazy var client = TextLine(in: self)
    private lazy var amount = TextLine(in: self, weight: .bold, tabularFigures: true)
    private lazy var detail = TextLine(in: self, tabularFigures: true)
    private lazy var badge = TextLine(in: self, weight: .bold, scale: 0.833)
    private let content: @MainActor (Int) -> DocumentRowContent?
    private(set) var position: Int?
    private var shown: DocumentRowContent?

    /// The drawing's height by font and resolution: GTK 4.8 makes some 200 rows at once, and shaping three
    /// lines in each to measure them cost as much as the rest of making the row.
    private static var contentHeights: [String: Int] = [:]
    private static let lineSpacing = 2
    private static let columnGap = 12
    private static let badgeWidth = 78
    private static let badgePadding = (horizontal: 8, vertical: 2)

    /// `content` gives what the row at a position shows, or nil when there is none.
    init(content: @escaping @MainActor (Int) -> DocumentRowContent?) {
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
    var texts: [String] { [number.text, client.text, amount.text, detail.text, badge.text] }

    /// Takes the row's content from the list, if it changed since it was last shown.
    private func update() {
        let current = position.flatMap(content)
        guard current != shown else { return }
        shown = current
        number.text = current?.number ?? ""
        client.text = current?.client ?? ""
        amount.text = current?.amount ?? ""
        detail.text = current?.detail ?? ""
        badge.text = current?.badge ?? ""
        // Screen readers read the list item that holds the row, so the name goes there.
        listItemAccessibleLabel = current?.accessibleLabel
        // A reason too long for the row can still be read whole.
        tooltip = current?.problem
    }

    private func draw(_ context: CairoContext, width: Int, height: Int) {
        guard let shown else { return }
        let foreground = foregroundColor
        let top = (height - (number.lineHeight + Self.lineSpacing + client.lineHeight)) / 2
        let secondLine = top + number.lineHeight + Self.lineSpacing
        guard shown.problem == nil else {
            // A document that could not be read: the reason, across the row.
            client.maximumWidth = width
            number.draw(in: context, x: 0, y: Double(top), color: foreground)
            client.draw(in: context, x: 0, y: Double(secondLine), color: styleColor(named: "error_color") ?? foreground)
            return
        }
        let dim = foreground.withAlpha(0.55)
        let rightToLeft = isRightToLeft
        // Positions are worked out left to right and mirrored for right-to-left languages.
        func x(_ start: Int, _ itemWidth: Int) -> Double { Double(rightToLeft ? width - start - itemWidth : start) }

        // The badge: a pill at the trailing edge, its text centred.
        var trailingEnd = width
        if !shown.badge.isEmpty {
            badge.maximumWidth = nil
            let badgeText = badge.size
            let pillWidth = max(Self.badgeWidth, badgeText.width + 2 * Self.badgePadding.horizontal)
            let pillHeight = badgeText.height + 2 * Self.badgePadding.vertical
            let pillStart = width - pillWidth
            let colors = badgeColors(shown.tone, foreground: foreground)
            context.fillRoundedRectangle(x: x(pillStart, pillWidth), y: Double((height - pillHeight) / 2),
                                         width: Double(pillWidth), height: Double(pillHeight),
                                         radius: Double(pillHeight) / 2, color: colors.background)
            badge.draw(in: context, x: x(pillStart + (pillWidth - badgeText.width) / 2, badgeText.width),
                       y: Double((height - badgeText.height) / 2), color: colors.text)
            trailingEnd = max(0, pillStart - Self.columnGap)
        }

        // Amount over its date, right-aligned against the badge: they keep their natural width
        // up to two thirds of the row, so a long client name ends in "…" before a date does;
        // the number and client take what is left.
        amount.maximumWidth = nil
        detail.maximumWidth = nil
        let trailingLimit = trailingEnd * 2 / 3
        amount.maximumWidth = min(amount.size.width, trailingLimit)
        detail.maximumWidth = min(detail.size.width, trailingLimit)
        let trailingWidth = max(amount.size.width, detail.size.width)
        amount.draw(in: context, x: x(trailingEnd - amount.size.width, amount.size.width), y: Double(top), color: foreground)
        detail.draw(in: context, x: x(trailingEnd - detail.size.width, detail.size.width), y: Double(secondLine), color: dim)

        let leadingWidth = max(0, trailingEnd - trailingWidth - Self.columnGap)
        number.maximumWidth = leadingWidth
        client.maximumWidth = leadingWidth
        number.draw(in: context, x: x(0, number.size.width), y: Double(top), color: foreground)
        client.draw(in: context, x: x(0, client.size.width), y: Double(secondLine), color: dim)
    }

    /// The colours of style.css's `.status-badge` classes, from the theme's named colours.
    private func badgeColors(_ tone: InvoiceDisplayStatus.Tone, foreground: StyleColor) -> (text: StyleColor, background: StyleColor) {
        func named(_ name: String) -> StyleColor { styleColor(named: name) ?? foreground }
        switch tone {
        case .neutral: return (foreground.withAlpha(0.75), foreground.withAlpha(0.1))
        case .accent: return (named("accent_color"), named("accent_bg_color").withAlpha(0.15))
        case .success: return (named("success_color"), named("success_bg_color").withAlpha(0.15))
        case .warning: return (named("error_color"), named("error_bg_color").withAlpha(0.15))
        case .dimmed: return (foreground.withAlpha(0.55), foreground.withAlpha(0.06))
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
