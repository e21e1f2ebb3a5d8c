import BillfoldCore
import ExpensesCore
import ExpensesPlugin
import Foundation
import Testing

@Suite struct TripDashboardTests {
    private func sampleTrip() throws -> (Workspace, Trip) {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())   // 4 to 8 March
        try repository.addExpense(ExpenseDetails(date: day("2024-03-04"), category: .lodging, vendor: "Hotel",
                                                 amount: eur(48000)), to: trip.id)
        try repository.addExpense(meal(eur(1250), on: "2024-03-04"), to: trip.id)
        try repository.addExpense(meal(usd(3333), on: "2024-03-06", rate: dec("0.9111")), to: trip.id)   // 30.366963 → 30.37
        try repository.addExpense(ExpenseDetails(date: day("2024-03-06"), category: .transit, vendor: "Metro",
                                                 amount: eur(165)), to: trip.id)
        try repository.addExpense(ExpenseDetails(date: day("2024-03-08"),
                                                 mileage: Mileage(distance: dec("41.5"), unit: .kilometres,
                                                                  ratePerUnit: dec("0.30"), currency: .eur)),
                                  to: trip.id)   // 12.45
        return (workspace, trip)
    }

    @Test func totalsByCategoryAreExactAndInCategoryOrder() throws {
        let (workspace, trip) = try sampleTrip()
        let dashboard = try workspace.repository.dashboard(for: trip.id)
        #expect(dashboard.total == eur(48000 + 1250 + 3037 + 165 + 1245))
        #expect(dashboard.expenseCount == 5)
        #expect(dashboard.byCategory.map(\.category) == [.meals, .lodging, .transit, .mileage])
        #expect(dashboard.byCategory.map(\.total) == [eur(4287), eur(48000), eur(165), eur(1245)])
        #expect(dashboard.byCategory.map(\.expenseCount) == [2, 1, 1, 1])
        #expect(dashboard.total(for: .supplies) == eur(0))
        let sum = try Money.sum(dashboard.byCategory.map(\.total), currency: .eur)
        #expect(sum == dashboard.total)
    }

    @Test func everyDayOfTheTripIsPresentWithARunningTotal() throws {
        let (workspace, trip) = try sampleTrip()
        let dashboard = try workspace.repository.dashboard(for: trip.id)
        #expect(dashboard.showsDailySpending)
        #expect(dashboard.byDay.map(\.day.isoString) == ["2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08"])
        #expect(dashboard.byDay.map(\.total) == [eur(49250), eur(0), eur(3202), eur(0), eur(1245)])
        #expect(dashboard.byDay.map(\.runningTotal) == [eur(49250), eur(49250), eur(52452), eur(52452), eur(53697)])
        #expect(dashboard.byDay.map(\.expenseCount) == [2, 0, 2, 0, 1])
        #expect(dashboard.byDay.last?.runningTotal == dashboard.total)
    }

    @Test func daysOutsideTheTripWidenTheLineSoItStillAddsUp() throws {
        let (workspace, trip) = try sampleTrip()
        try workspace.repository.addExpense(meal(eur(999), on: "2024-03-02", vendor: "Early train"), to: trip.id)
        let dashboard = try workspace.repository.dashboard(for: trip.id)
        #expect(dashboard.byDay.first?.day == day("2024-03-02"))
        #expect(dashboard.byDay.count == 7)
        #expect(dashboard.byDay[1].total == eur(0))
        #expect(dashboard.byDay.last?.runningTotal == dashboard.total)
    }

    @Test func aOneDayTripHasNoDailyLineAndAnEmptyTripIsZero() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(TripDetails(name: "Day trip", startDate: day("2024-06-01"),
                                                                    endDate: day("2024-06-01"), currency: .jpy))
        let empty = try workspace.repository.dashboard(for: trip.id)
        #expect(!empty.showsDailySpending)
        #expect(empty.total == jpy(0))
        #expect(empty.byCategory.isEmpty)
        #expect(empty.byDay.map(\.total) == [jpy(0)])
    }

    @Test func overflowIsAnErrorNotAWrongTotal() throws {
        let trip = Trip(id: TripID(rawValue: 1), details: lisbonTrip())
        let huge = Expense(id: ExpenseID(rawValue: 1), tripID: trip.id, details: meal(eur(.max)),
                           amounts: ExpenseAmounts(original: eur(.max), exchangeRate: nil, converted: eur(.max)))
        #expect(throws: ExpensesError.totalTooLarge) { try TripDashboard(trip: trip, expenses: [huge, huge]) }
    }
}
