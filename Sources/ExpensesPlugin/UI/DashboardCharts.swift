import BillfoldCore
import Documents
import ExpensesCore
import Foundation

/// The trip dashboard's charts as `Documents.Chart` values, for the same chart code the report
/// uses: spending by category, and by day when the trip spans more than one day. Values are
/// plotting positions in major units; every label is the exact amount from `MoneyFormatter`.
struct DashboardCharts {
    let dashboard: TripDashboard
    var money = MoneyFormatter()
    var locale: Locale = UserLocale.time

    /// One bar per category with spending, labelled with its amount.
    var byCategory: Chart {
        Chart(kind: .bar, categories: dashboard.byCategory.map(\.category.localizedName),
              series: [ChartSeries(tr("Amount"), values: dashboard.byCategory.map { Self.plotted($0.total) })],
              valueLabel: valueLabel)
    }

    /// Spending on each day of the trip, nil for a one-day trip.
    var byDay: Chart? {
        guard dashboard.showsDailySpending else { return nil }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.setLocalizedDateFormatFromTemplate("MMMd")
        return Chart(kind: .line, categories: dashboard.byDay.map { formatter.string(from: $0.day.middayUTC) },
                     series: [ChartSeries(tr("Spent"), values: dashboard.byDay.map { Self.plotted($0.total) })],
                     valueLabel: valueLabel)
    }

    private var valueLabel: @Sendable (Double) -> String {
        let money = self.money
        let currency = dashboard.trip.currency
        return { value in
            guard let amount = try? Money(Decimal(value), currency: currency, rounding: .halfUp) else { return "" }
            return money.string(from: amount)
        }
    }

    private static func plotted(_ money: Money) -> Double {
        NSDecimalNumber(decimal: money.decimalValue).doubleValue
    }
}
