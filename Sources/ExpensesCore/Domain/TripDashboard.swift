import BillfoldCore
import Foundation

/// Spending in one category, in the trip currency.
public struct CategoryTotal: Hashable, Sendable {
    public let category: ExpenseCategory
    public let total: Money
    public let expenseCount: Int
}

/// Spending on one day, in the trip currency, with the total of that day and all before it.
public struct DayTotal: Hashable, Sendable {
    public let day: CalendarDay
    public let total: Money
    public let runningTotal: Money
    public let expenseCount: Int
}

/// What the trip detail shows above its expense list, and the report's cover: exact sums in
/// the trip currency (integer minor units, checked for overflow).
public struct TripDashboard: Hashable, Sendable {
    public let trip: Trip
    public let total: Money
    public let expenseCount: Int
    /// Categories with at least one expense, in `ExpenseCategory.allCases` order.
    public let byCategory: [CategoryTotal]
    /// Every day from the trip's start to its end, days without spending included as zero;
    /// widened to take in expenses dated outside the trip, so the days always sum to `total`.
    public let byDay: [DayTotal]

    /// The per-day line is worth drawing only when the trip spans more than one day.
    public var showsDailySpending: Bool { trip.days.dayCount > 1 }

    /// The totals of `expenses`, which must all belong to `trip`.
    public init(trip: Trip, expenses: [Expense]) throws(ExpensesError) {
        let currency = trip.currency
        do {
            var total = Money.zero(currency)
            var categories: [ExpenseCategory: (Money, Int)] = [:]
            var days: [CalendarDay: (Money, Int)] = [:]
            var first = trip.startDate
            var last = trip.endDate
            for expense in expenses {
                let amount = expense.convertedAmount
                total = try total.adding(amount)
                let category = categories[expense.category] ?? (.zero(currency), 0)
                categories[expense.category] = (try category.0.adding(amount), category.1 + 1)
                let day = days[expense.date] ?? (.zero(currency), 0)
                days[expense.date] = (try day.0.adding(amount), day.1 + 1)
                first = min(first, expense.date)
                last = max(last, expense.date)
            }
            self.trip = trip
            self.total = total
            expenseCount = expenses.count
            byCategory = ExpenseCategory.allCases.compactMap { category in
                categories[category].map { CategoryTotal(category: category, total: $0.0, expenseCount: $0.1) }
            }
            var running = Money.zero(currency)
            var perDay: [DayTotal] = []
            perDay.reserveCapacity(DayRange(first, last).dayCount)
            for day in DayRange(first, last) {
                let spent = days[day] ?? (.zero(currency), 0)
                running = try running.adding(spent.0)
                perDay.append(DayTotal(day: day, total: spent.0, runningTotal: running, expenseCount: spent.1))
            }
            byDay = perDay
        } catch {
            // Converted amounts are in the trip currency unless it changed under them.
            if case .currencyMismatch = error { throw .currencyLocked(currency) }
            throw .totalTooLarge
        }
    }

    /// The category's total, zero when nothing was spent on it.
    public func total(for category: ExpenseCategory) -> Money {
        byCategory.first { $0.category == category }?.total ?? .zero(trip.currency)
    }
}
