import BillfoldCore
import GtkKit

/// The colour of a row's status badge, by what the status means (style.css's `.status-badge`
/// classes have the same colours for labels).
public enum BadgeTone: Sendable, Hashable {
    case neutral, accent, warning, success, dimmed
}

/// What a row of a list of records shows (invoices, quotes, credit notes, trips, clients): a
/// title over a subtitle, an amount over a detail line, and a status.
public struct SummaryRowContent: Equatable {
    public let title: String
    public let subtitle: String
    public let amount: String
    /// The line under the amount: "Due Dec 28, 2026", "Valid until …"; empty lets the subtitle
    /// take the row's width.
    public let detail: String
    /// The status in a pill coloured by `tone`; empty for none.
    public let badge: String
    public let tone: BadgeTone
    /// Why the record could not be read; nil when it was.
    public let problem: String?

    public init(title: String, subtitle: String, amount: String, detail: String, badge: String = "",
                tone: BadgeTone = .neutral) {
        self.title = title
        self.subtitle = subtitle
        self.amount = amount
        self.detail = detail
        self.badge = badge
        self.tone = tone
        problem = nil
    }

    private init(problem: String) {
        title = "—"
        subtitle = problem
        amount = ""
        detail = ""
        badge = ""
        tone = .neutral
        self.problem = problem
    }

    /// A row that could not be read: the reason in the subtitle's place, a dash for the title.
    public static func unreadable(_ reason: String) -> SummaryRowContent {
        SummaryRowContent(problem: reason)
    }

    /// What a screen reader says for the row.
    public var accessibleLabel: String {
        if let problem { return problem }
        // Translators: a list row without an amount as a screen reader says it: title, subtitle,
        // such as "Acme, 3 invoices · owes €120.00".
        if amount.isEmpty { return String(format: tr("%@, %@"), title, subtitle) }
        // Translators: a list row as a screen reader says it: title, subtitle, amount (and status),
        // such as "INV-2026-0001, Acme, €120.00, Paid".
        return badge.isEmpty ? String(format: tr("%@, %@, %@"), title, subtitle, amount)
            : String(format: tr("%@, %@, %@, %@"), title, subtitle, amount, badge)
    }
}

/// One row of a list of records: title and subtitle on the left, amount and detail on the
/// right, and the status badge, painted as one widget of a fixed height.
///
/// GTK 4.8's list view keeps about 200 rows bound, and a search binds them all again. With a
/// label per text, each of those rows was measured and laid out anew (60–80 ms a keystroke).
/// A painted row never changes size, and binding one only records its position: the record is
/// read and its text laid out when the row is painted, which only the rows on screen are.
/// The row is one widget: every widget in a row is made, styled, mapped and allocated 200
/// times over when a library opens. It paints render nodes, not Cairo pixels (`SnapshotArea`).
@MainActor
public final class SummaryRowView: SnapshotArea {
    private lazy var title = TextLine(in: self, weight: .bold)
    private lazy var subtitle = TextLine(in: self)
    private lazy var amount = TextLine(in: self, weight: .bold, tabularFigures: true)
    private lazy var detail = TextLine(in: self, tabularFigures: true)
    private lazy var badge = TextLine(in: self, weight: .bold, scale: 0.833)
    private let content: @MainActor (Int) -> SummaryRowContent?
    public private(set) var position: Int?
    private var shown: SummaryRowContent?

    /// Line heights by font and resolution: GTK 4.8 makes some 200 rows at once, and shaping three
    /// lines in each to measure them cost as much as the rest of making the row.
    private static var metrics: [String: Metrics] = [:]
    private struct Metrics {
        let titleHeight: Int
        let subtitleHeight: Int
        let contentHeight: Int
    }
    private var lineMetrics = Metrics(titleHeight: 0, subtitleHeight: 0, contentHeight: 0)
    private static let lineSpacing = 2
    private static let columnGap = 12
    private static let badgeWidth = 78
    private static let badgePadding = (horizontal: 8, vertical: 2)

    /// `content` gives what the row at a position shows, or nil when there is none.
    public init(content: @escaping @MainActor (Int) -> SummaryRowContent?) {
        self.content = content
        super.init()
        let font = title.metricsKey
        let measured = Self.metrics[font] ?? {
            let titleHeight = title.lineHeight
            let subtitleHeight = subtitle.lineHeight
            return Metrics(titleHeight: titleHeight, subtitleHeight: subtitleHeight,
                           contentHeight: max(titleHeight + Self.lineSpacing + subtitleHeight,
                                              badge.lineHeight + 2 * Self.badgePadding.vertical))
        }()
        Self.metrics[font] = measured
        lineMetrics = measured
        contentHeight = measured.contentHeight
        expandsHorizontally = true
        // The row is hidden from assistive technologies; the list item carries its name.
        hideFromAssistiveTechnologies()
        setPaintFunction { [weak self] snapshot, width, height in
            guard let self else { return }
            self.update()
            self.paint(snapshot, width: width, height: height)
        }
        setMargins(top: 0, bottom: 0, start: 6, end: 0)
    }

    /// Shows the row at `position` (again, after the data behind it changed).
    public func bind(position: Int) {
        self.position = position
        queueDraw()
    }

    /// The texts as last painted, in reading order.
    public var texts: [String] { [title.text, subtitle.text, amount.text, detail.text, badge.text] }

    /// Takes the row's content from the list, if it changed since it was last shown.
    private func update() {
        let current = position.flatMap(content)
        guard current != shown else { return }
        shown = current
        title.text = current?.title ?? ""
        subtitle.text = current?.subtitle ?? ""
        amount.text = current?.amount ?? ""
        detail.text = current?.detail ?? ""
        badge.text = current?.badge ?? ""
        // Screen readers read the list item that holds the row, so the name goes there.
        listItemAccessibleLabel = current?.accessibleLabel
        // A reason too long for the row can still be read whole.
        tooltip = current?.problem
    }

    private func paint(_ snapshot: Snapshot, width: Int, height: Int) {
        guard let shown else { return }
        let foreground = foregroundColor
        let top = (height - (lineMetrics.titleHeight + Self.lineSpacing + lineMetrics.subtitleHeight)) / 2
        let secondLine = top + lineMetrics.titleHeight + Self.lineSpacing
        guard shown.problem == nil else {
            // A record that could not be read: the reason, across the row.
            subtitle.maximumWidth = width
            snapshot.append(title, x: 0, y: Double(top), color: foreground)
            snapshot.append(subtitle, x: 0, y: Double(secondLine), color: styleColor(named: "error_color") ?? foreground)
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
            snapshot.fillRoundedRectangle(x: x(pillStart, pillWidth), y: Double((height - pillHeight) / 2),
                                         width: Double(pillWidth), height: Double(pillHeight),
                                         radius: Double(pillHeight) / 2, color: colors.background)
            snapshot.append(badge, x: x(pillStart + (pillWidth - badgeText.width) / 2, badgeText.width),
                       y: Double((height - badgeText.height) / 2), color: colors.text)
            trailingEnd = max(0, pillStart - Self.columnGap)
        }

        // Amount over its date, right-aligned against the badge: they keep their natural width
        // up to two thirds of the row, so a long subtitle ends in "…" before a date does;
        // the title and subtitle take what is left.
        amount.maximumWidth = nil
        detail.maximumWidth = nil
        let trailingLimit = trailingEnd * 2 / 3
        amount.maximumWidth = min(amount.size.width, trailingLimit)
        detail.maximumWidth = min(detail.size.width, trailingLimit)
        let trailingWidth = max(amount.size.width, detail.size.width)
        snapshot.append(amount, x: x(trailingEnd - amount.size.width, amount.size.width), y: Double(top), color: foreground)
        snapshot.append(detail, x: x(trailingEnd - detail.size.width, detail.size.width), y: Double(secondLine), color: dim)

        let leadingWidth = max(0, trailingEnd - trailingWidth - Self.columnGap)
        title.maximumWidth = leadingWidth
        // With nothing under the amount, the subtitle may run beneath it.
        subtitle.maximumWidth = shown.detail.isEmpty ? trailingEnd : leadingWidth
        snapshot.append(title, x: x(0, title.size.width), y: Double(top), color: foreground)
        snapshot.append(subtitle, x: x(0, subtitle.size.width), y: Double(secondLine), color: dim)
    }

    /// The colours of style.css's `.status-badge` classes, from the theme's named colours.
    private func badgeColors(_ tone: BadgeTone, foreground: StyleColor) -> (text: StyleColor, background: StyleColor) {
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
