import BillfoldCore
import Foundation

/// The status an invoice is saved with. Overdue is not one of them: it follows from the due
/// date and the balance (see `InvoiceDisplayStatus`), so it can never be out of date.
public enum InvoiceStatus: String, Sendable, Hashable, CaseIterable {
    case draft
    case sent
    case paid
    case cancelled

    public var title: String {
        switch self {
        case .draft: tr("Draft")
        case .sent: tr("Sent")
        case .paid: tr("Paid")
        case .cancelled: tr("Cancelled")
        }
    }

    /// draft → sent → paid (and back to sent when a payment is removed); draft or sent →
    /// cancelled. Paid and cancelled invoices stay as they are.
    public func canBecome(_ next: InvoiceStatus) -> Bool {
        switch (self, next) {
        case (.draft, .sent), (.sent, .paid), (.paid, .sent), (.draft, .cancelled), (.sent, .cancelled):
            return true
        default:
            return self == next
        }
    }
}

/// What a list row's badge shows: the saved status, with sent invoices past their due date and
/// not fully paid shown as overdue.
public enum InvoiceDisplayStatus: String, Sendable, Hashable, CaseIterable {
    case draft
    case sent
    case overdue
    case paid
    case cancelled

    public init(status: InvoiceStatus, dueDate: CalendarDay, balance: Money, today: CalendarDay) {
        switch status {
        case .draft: self = .draft
        case .paid: self = .paid
        case .cancelled: self = .cancelled
        case .sent: self = dueDate < today && balance.isPositive ? .overdue : .sent
        }
    }

    public var title: String {
        switch self {
        case .draft: tr("Draft")
        case .sent: tr("Sent")
        case .overdue: tr("Overdue")
        case .paid: tr("Paid")
        case .cancelled: tr("Cancelled")
        }
    }

    /// A hint for the badge's colour, without naming any toolkit's style classes.
    public enum Tone: Sendable, Hashable {
        case neutral, accent, warning, success, dimmed
    }

    public var tone: Tone {
        switch self {
        case .draft: .neutral
        case .sent: .accent
        case .overdue: .warning
        case .paid: .success
        case .cancelled: .dimmed
        }
    }
}
