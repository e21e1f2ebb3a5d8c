import BillfoldCore
import Foundation

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
