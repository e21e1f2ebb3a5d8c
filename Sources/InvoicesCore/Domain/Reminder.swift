import BillfoldCore
import Foundation

/// How firmly a reminder asks: a friendly reminder first, then two dunning notices.
public enum ReminderLevel: String, Sendable, Hashable, CaseIterable {
    case friendly
    case first
    case second

    public var title: String {
        switch self {
        case .friendly: tr("Payment Reminder")
        case .first: tr("First Dunning Notice")
        case .second: tr("Second Dunning Notice")
        }
    }

    /// The level after `previous`, or the last one again.
    public static func next(after previous: ReminderLevel?) -> ReminderLevel {
        switch previous {
        case nil: .friendly
        case .friendly: .first
        case .first, .second: .second
        }
    }
}

/// A reminder sent for an overdue invoice, with the amounts as they were on its date, so its
/// letter can be made again exactly as sent.
public struct Reminder: Sendable, Hashable {
    public internal(set) var id: Int64?
    public let invoiceID: InvoiceID
    public var level: ReminderLevel
    public var date: CalendarDay
    /// The invoice's balance on `date`.
    public var openAmount: Money
    public var fee: Money
    /// Per cent a year; 0 charges no interest.
    public var interestRate: Decimal
    /// `StatutoryInterest` on the open amount from the due date to `date`.
    public var interest: Money
    /// The new day by which to pay.
    public var deadline: CalendarDay

    public init(invoiceID: InvoiceID, level: ReminderLevel, date: CalendarDay, openAmount: Money, fee: Money,
                interestRate: Decimal, interest: Money, deadline: CalendarDay) {
        self.id = nil
        self.invoiceID = invoiceID
        self.level = level
        self.date = date
        self.openAmount = openAmount
        self.fee = fee
        self.interestRate = interestRate
        self.interest = interest
        self.deadline = deadline
    }

    /// A reminder for `invoice` on `date`: its balance, the interest at `interestRate` since
    /// the due date, the fee, and `deadlineDays` days to pay.
    public static func draft(for invoice: Invoice, level: ReminderLevel, on date: CalendarDay, fee: Money,
                             interestRate: Decimal, deadlineDays: Int) throws(ReminderError) -> Reminder {
        guard let id = invoice.id else { throw .notOverdue }
        guard invoice.status == .sent, date > invoice.dueDate else { throw .notOverdue }
        let open: Money
        do { open = try invoice.totals().balanceDue } catch { throw .amountTooLarge }
        guard open.isPositive else { throw .notOverdue }
        guard fee.currency == invoice.currency else { throw .feeCurrency(invoice.currency) }
        guard !fee.isNegative else { throw .negativeFee }
        guard !interestRate.isNaN, (0...100).contains(interestRate), TaxRate.decimals(interestRate) <= 4 else {
            throw .invalidRate
        }
        guard (0...365).contains(deadlineDays) else { throw .invalidDeadline }
        let interest = try StatutoryInterest.amount(on: open, percentPerYear: interestRate, from: invoice.dueDate, to: date)
        return Reminder(invoiceID: id, level: level, date: date, openAmount: open, fee: fee, interestRate: interestRate,
                        interest: interest, deadline: date.adding(days: deadlineDays))
    }
}

/// Why a reminder cannot be written.
public enum ReminderError: Error, LocalizedError, Sendable, Equatable {
    case notOverdue
    case negativeFee
    case feeCurrency(Currency)
    case invalidRate
    case invalidDeadline
    case amountTooLarge

    public var errorDescription: String? {
        switch self {
        case .notOverdue: tr("Only a sent invoice that is past its due date and not fully paid gets a reminder.")
        case .negativeFee: tr("Enter a fee of zero or more.")
        case .feeCurrency(let currency): String(format: tr("Enter the fee in %@, the invoice’s currency."), currency.code)
        case .invalidRate: tr("Enter a yearly interest rate from 0 to 100 %, with at most 4 decimal places.")
        case .invalidDeadline: tr("Enter between 0 and 365 days to pay.")
        case .amountTooLarge: tr("The amounts are too large to calculate with. Check the quantities and prices.")
        }
    }
}

/// Default interest, computed per day, exactly.
///
/// Day count actual/365: every calendar day after the due date up to and including the
/// reminder's date counts 1/365 of the yearly rate, in leap years too. The interest is
/// open × rate/100 × days/365 worked out as one fraction of whole numbers (the rate's decimal
/// digits included), then rounded half-up to the currency's minor unit once, at the end.
public enum StatutoryInterest {
    public static let daysPerYear: Int64 = 365

    public static func amount(on open: Money, percentPerYear rate: Decimal, from dueDate: CalendarDay,
                              to day: CalendarDay) throws(ReminderError) -> Money {
        let days = Int64(max(0, dueDate.days(to: day)))
        guard days > 0, rate > 0, open.isPositive else { return .zero(open.currency) }
        // rate = significand × 10^exponent, both whole.
        var significand = rate.significand
        var exponent = rate.exponent
        while exponent > 0 { significand *= 10; exponent -= 1 }
        let rateDigits = NSDecimalNumber(decimal: significand).int64Value
        var scale: Int64 = 1
        for _ in 0..<(-exponent) { scale *= 10 }
        guard let numerator = multiply([open.minorUnits, rateDigits, days]),
              let denominator = multiply([100, daysPerYear, scale]) else { throw .amountTooLarge }
        // Half-up: add half the denominator before dividing (both positive here).
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        let rounded = remainder * 2 >= denominator ? quotient + 1 : quotient
        return Money(minorUnits: rounded, currency: open.currency)
    }

    private static func multiply(_ factors: [Int64]) -> Int64? {
        var product: Int64 = 1
        for factor in factors {
            let (result, overflow) = product.multipliedReportingOverflow(by: factor)
            if overflow { return nil }
            product = result
        }
        return product
    }
}

/// Everything a reminder letter shows.
public struct ReminderDocument: Sendable, Hashable {
    public let profile: BusinessProfile
    public let invoice: Invoice
    public let billTo: BillTo
    public let reminder: Reminder
    /// Reminders sent before this one, oldest first.
    public let previous: [Reminder]
    public let logoURL: URL?

    /// Fees of this reminder and the ones before it.
    public func fees() throws(MoneyError) -> Money {
        try Money.sum(previous.map(\.fee) + [reminder.fee], currency: reminder.fee.currency)
    }

    /// What to pay now: the open amount, every fee and the interest.
    public func totalToPay() throws(MoneyError) -> Money {
        try Money.sum([reminder.openAmount, try fees(), reminder.interest], currency: reminder.openAmount.currency)
    }
}
