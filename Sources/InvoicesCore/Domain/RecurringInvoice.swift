import BillfoldCore
import Foundation
import Storage

/// How often a recurring invoice is issued.
public enum RecurrenceInterval: Sendable, Hashable {
    case monthly
    case quarterly
    case yearly
    case weeks(Int)

    public static let maximumWeeks = 52

    /// Whole months between two issues, or nil for a weekly interval.
    var months: Int? {
        switch self {
        case .monthly: 1
        case .quarterly: 3
        case .yearly: 12
        case .weeks: nil
        }
    }

    public var title: String {
        switch self {
        case .monthly: tr("Monthly")
        case .quarterly: tr("Quarterly")
        case .yearly: tr("Yearly")
        case .weeks(let count): String(format: trn("Every week", "Every %d weeks", count), count)
        }
    }
}

/// Whether an issued invoice stays a draft to look over or goes out as sent.
public enum RecurringIssueMode: String, Sendable, Hashable, CaseIterable {
    case draft
    case sent

    public var title: String {
        switch self {
        case .draft: tr("Issue as draft")
        case .sent: tr("Issue and mark as sent")
        }
    }
}

/// The fields of a recurring invoice that validation can point at.
public enum RecurringInvoiceField: Hashable, Sendable {
    case client
    case interval
    case endDate
    case notes
    case lines
    case line(Int, LineItemField)
}

/// A template that issues an invoice for each period of a schedule: the client, the lines
/// (whose descriptions may name the period), how often, from when and until when.
///
/// Period `k` starts `k` intervals after the start date; its invoice is due to be issued on
/// that day. Months are counted from the start day, so a schedule starting on 31 January
/// issues on 28 or 29 February, then on 31 March.
public struct RecurringInvoice: Sendable, Hashable {
    public internal(set) var id: RecurringInvoiceID?
    public var clientID: ClientID?
    public var currency: Currency
    public var lines: [LineItem]
    public var interval: RecurrenceInterval
    public var startDate: CalendarDay
    /// The last day a period may start on; nil runs until stopped.
    public var endDate: CalendarDay?
    public var issueMode: RecurringIssueMode
    /// A paused template issues nothing; periods missed meanwhile are issued when resumed.
    public var isPaused: Bool
    public var notes: String

    public init(clientID: ClientID?, currency: Currency, lines: [LineItem] = [], interval: RecurrenceInterval = .monthly,
                startDate: CalendarDay, endDate: CalendarDay? = nil, issueMode: RecurringIssueMode = .draft,
                isPaused: Bool = false, notes: String = "") {
        self.id = nil
        self.clientID = clientID
        self.currency = currency
        self.lines = lines
        self.interval = interval
        self.startDate = startDate
        self.endDate = endDate
        self.issueMode = issueMode
        self.isPaused = isPaused
        self.notes = notes
    }

    // MARK: - Schedule

    /// The first day of period `index` (0 is the start date).
    public func periodStart(_ index: Int) -> CalendarDay {
        guard let months = interval.months else {
            guard case .weeks(let weeks) = interval else { return startDate }
            return startDate.adding(days: index * weeks * 7)
        }
        let monthIndex = startDate.year * 12 + (startDate.month - 1) + index * months
        let year = monthIndex / 12
        let month = monthIndex % 12 + 1
        let day = min(startDate.day, CalendarDay.lastDay(ofMonth: month, year: year))
        return CalendarDay(year: year, month: month, day: day) ?? startDate
    }

    /// Period `index`: from its first day to the day before the next one starts.
    public func period(_ index: Int) -> DayRange {
        DayRange(periodStart(index), periodStart(index + 1).adding(days: -1))
    }

    /// Whether period `index` starts within the schedule (on or before the end date).
    func isScheduled(_ index: Int) -> Bool {
        index >= 0 && endDate.map { periodStart(index) <= $0 } ?? true
    }

    /// The indexes of the periods due by `today` that start after `lastIssued`, the first day
    /// of the last period issued: a schedule changed after issuing goes on from there and never
    /// bills a stretch of time again.
    public func duePeriods(through today: CalendarDay, after lastIssued: CalendarDay? = nil) -> [Int] {
        var indexes: [Int] = []
        var index = 0
        while isScheduled(index), periodStart(index) <= today {
            if lastIssued.map({ periodStart(index) > $0 }) ?? true { indexes.append(index) }
            index += 1
        }
        return indexes
    }

    /// The first period starting after `lastIssued`, or nil when the schedule has ended.
    public func nextPeriod(after lastIssued: CalendarDay?) -> Int? {
        var index = 0
        while isScheduled(index) {
            if lastIssued.map({ periodStart(index) > $0 }) ?? true { return index }
            index += 1
        }
        return nil
    }

    // MARK: - Issuing

    /// The period as the lines print it: "March 2027" for a calendar month, "2027" for a
    /// calendar year, else its first and last day, in the user's language.
    public static func periodTitle(_ period: DayRange, interval: RecurrenceInterval, locale: Locale = UserLocale.time) -> String {
        let first = period.first
        switch interval {
        case .monthly where first.day == 1:
            return monthAndYear(first, locale: locale)
        case .yearly where first.day == 1 && first.month == 1:
            return String(first.year)
        case .quarterly where first.day == 1:
            return String(format: tr("%@ – %@"), monthAndYear(first, locale: locale), monthAndYear(period.last, locale: locale))
        default:
            return String(format: tr("%@ – %@"), first.formatted(.medium, locale: locale), period.last.formatted(.medium, locale: locale))
        }
    }

    private static func monthAndYear(_ day: CalendarDay, locale: Locale) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.setLocalizedDateFormatFromTemplate("MMMMyyyy")
        return formatter.string(from: day.middayUTC)
    }

    /// What a line's description may say, replaced by the period's when issued.
    public enum Placeholder {
        public static let period = "{period}"
        public static let start = "{start}"
        public static let end = "{end}"
    }

    /// The lines for `period`: each placeholder filled in; when no line names the period, the
    /// first line says it on a line of its own, so every invoice shows what it is for.
    public func lines(for period: DayRange, locale: Locale = UserLocale.time) -> [LineItem] {
        let title = Self.periodTitle(period, interval: interval, locale: locale)
        let placeholders = [Placeholder.period, Placeholder.start, Placeholder.end]
        let namesPeriod = lines.contains { line in placeholders.contains { line.description.contains($0) } }
        var filled = lines.map { line -> LineItem in
            var line = line
            line.description = line.description
                .replacingOccurrences(of: Placeholder.period, with: title)
                .replacingOccurrences(of: Placeholder.start, with: period.first.formatted(.medium, locale: locale))
                .replacingOccurrences(of: Placeholder.end, with: period.last.formatted(.medium, locale: locale))
            return line
        }
        if !namesPeriod, !filled.isEmpty {
            filled[0].description += "\n" + title
        }
        return filled
    }

    /// The invoice for period `index`, issued `today` for `client`: a missed period is issued
    /// on the day it is caught up with, since an invoice is dated when it is written; its
    /// period is in its lines and its delivery period.
    func invoice(forPeriod index: Int, client: Client, profile: BusinessProfile, today: CalendarDay,
                 locale: Locale = UserLocale.time) throws(InvoiceError) -> Invoice {
        let period = period(index)
        var invoice = Invoice.draft(for: client, profile: profile, today: today)
        invoice.currency = currency
        invoice.lines = lines(for: period, locale: locale)
        if !notes.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { invoice.notes = notes }
        invoice.deliveryDate = period.first
        invoice.deliveryEndDate = period.last
        if issueMode == .sent { try invoice.markSent(on: today) }
        return invoice
    }

    // MARK: - Validation

    public func validate() -> [ValidationIssue<RecurringInvoiceField>] {
        var issues: [ValidationIssue<RecurringInvoiceField>] = []
        if clientID == nil { issues.append(.init(.client, tr("Choose who the invoices are for."))) }
        if case .weeks(let weeks) = interval, !(1...RecurrenceInterval.maximumWeeks).contains(weeks) {
            issues.append(.init(.interval, tr("Enter a number of weeks from 1 to 52.")))
        }
        if let endDate, endDate < startDate {
            issues.append(.init(.endDate, tr("The last day cannot be before the first issue date.")))
        }
        if notes.count > Invoice.maximumNotesLength {
            issues.append(.init(.notes, tr("Shorten the notes to at most 100 000 characters.")))
        }
        if lines.isEmpty { issues.append(.init(.lines, tr("Add at least one line."))) }
        for (index, line) in lines.enumerated() {
            for issue in line.validate(index: index, currency: currency) {
                if case .line(let position, let field) = issue.field {
                    issues.append(.init(.line(position, field), issue.message))
                }
            }
        }
        return issues
    }
}

extension CalendarDay {
    static func lastDay(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
