import BillfoldCore
import Documents
import Foundation
import Testing
@testable import ExpensesCore
@testable import ExpensesPlugin

@Suite struct DashboardChartsTests {
    let money = MoneyFormatter(locale: Locale(identifier: "en_US"))

    func expense(_ id: Int64, _ category: ExpenseCategory, _ amount: Money, on date: String) -> Expense {
        Expense(id: ExpenseID(rawValue: id), tripID: TripID(rawValue: 1),
                details: ExpenseDetails(date: day(date), category: category, vendor: "V", amount: amount),
                amounts: ExpenseAmounts(original: amount, exchangeRate: nil, converted: amount))
    }

    @Test func barsPerCategoryLabelledWithExactAmounts() throws {
        let trip = Trip(id: TripID(rawValue: 1), details: lisbonTrip(currency: .usd))
        let dashboard = try TripDashboard(trip: trip, expenses: [
            expense(1, .meals, usd(6_420), on: "2024-03-05"),
            expense(2, .lodging, usd(41_250), on: "2024-03-05"),
            expense(3, .meals, usd(1_005), on: "2024-03-06"),
        ])
        let charts = DashboardCharts(dashboard: dashboard, money: money, locale: Locale(identifier: "en_US"))
        let bars = charts.byCategory
        #expect(bars.kind == .bar)
        #expect(bars.categories == [ExpenseCategory.meals.localizedName, ExpenseCategory.lodging.localizedName])
        #expect(bars.series.first?.values == [74.25, 412.5])
        #expect(bars.series.first?.values.map(bars.valueLabel) == ["$74.25", "$412.50"])
    }

    @Test func aLinePerDayOnlyForTripsOfSeveralDays() throws {
        let trip = Trip(id: TripID(rawValue: 1), details: lisbonTrip(currency: .usd))
        let dashboard = try TripDashboard(trip: trip, expenses: [expense(1, .meals, usd(1_990), on: "2024-03-05")])
        let line = try #require(DashboardCharts(dashboard: dashboard, money: money, locale: Locale(identifier: "en_US")).byDay)
        #expect(line.kind == .line)
        #expect(line.categories == ["Mar 4", "Mar 5", "Mar 6", "Mar 7", "Mar 8"])
        #expect(line.series.first?.values == [0, 19.9, 0, 0, 0])
        #expect(line.valueLabel(19.9) == "$19.90")

        var oneDay = lisbonTrip(currency: .usd)
        oneDay.endDate = oneDay.startDate
        let short = try TripDashboard(trip: Trip(id: TripID(rawValue: 2), details: oneDay), expenses: [])
        #expect(DashboardCharts(dashboard: short).byDay == nil)
    }
}
