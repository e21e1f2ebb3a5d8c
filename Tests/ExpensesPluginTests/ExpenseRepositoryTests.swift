import BillfoldCore
import ExpensesCore
import ExpensesPlugin
import Foundation
import Storage
import Testing

@Suite struct ExpenseRepositoryTests {
    @Test func tripsRoundTrip() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        var details = lisbonTrip()
        details.name = "  Lisbon conference \n"
        let trip = try repository.createTrip(details)
        #expect(trip.name == "Lisbon conference")
        #expect(try repository.trip(trip.id) == trip)
        #expect(try repository.trip(named: "LISBON CONFERENCE ") == trip)

        var edited = trip
        edited.name = "Lisbon, Swift meetup"
        edited.endDate = day("2024-03-09")
        edited.purpose = "Talk and workshop"
        edited.currency = .usd   // allowed while the trip has no expenses
        try repository.updateTrip(edited)
        #expect(try repository.trip(trip.id) == edited)
        #expect(try repository.trip(named: "Lisbon conference") == nil)

        #expect(throws: ExpensesError.invalidTrip(.endBeforeStart)) {
            var broken = edited
            broken.endDate = day("2024-01-01")
            try repository.updateTrip(broken)
        }
        #expect(throws: ExpensesError.tripNotFound(TripID(rawValue: 999))) {
            try repository.updateTrip(Trip(id: TripID(rawValue: 999), details: lisbonTrip()))
        }
    }

    @Test func tripNamesAreUniqueIgnoringCase() throws {
        let repository = try Workspace().repository
        let first = try repository.createTrip(lisbonTrip())
        var again = lisbonTrip()
        again.name = "LISBON Conference"
        #expect(throws: ExpensesError.duplicateTripName("LISBON Conference")) { try repository.createTrip(again) }
        again.name = "Porto"
        var second = try repository.createTrip(again)
        second.name = "lisbon conference"
        #expect(throws: ExpensesError.duplicateTripName("lisbon conference")) { try repository.updateTrip(second) }
        var renamed = first
        renamed.name = "Lisbon Conference"   // its own name in other case is fine
        try repository.updateTrip(renamed)
    }

    @Test func expensesRoundTripWithBothAmounts() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let receipt = try repository.importReceipt(from: try workspace.pick(Samples.jpeg, named: "dinner.jpg")).reference

        let dinner = try repository.addExpense(
            ExpenseDetails(date: day("2024-03-05"), category: .meals, vendor: " Taberna, \"Da Rua\" ",
                           amount: usd(4250), exchangeRate: dec("0.9215"), notes: "With the organisers\nand a guest",
                           receipt: receipt),
            to: trip.id)
        #expect(dinner.vendor == "Taberna, \"Da Rua\"")
        #expect(dinner.originalAmount == usd(4250))
        #expect(dinner.convertedAmount == eur(3916))   // 39.16375 → 39.16
        #expect(dinner.amounts.exchangeRate == dec("0.9215"))

        let drive = try repository.addExpense(
            ExpenseDetails(date: day("2024-03-04"),
                           mileage: Mileage(distance: dec("312.7"), unit: .kilometres, ratePerUnit: dec("0.30"), currency: .eur)),
            to: trip.id)
        #expect(drive.convertedAmount == eur(9381))
        let hotel = try repository.addExpense(
            ExpenseDetails(date: day("2024-03-04"), category: .lodging, vendor: "Hotel", amount: eur(48000)), to: trip.id)

        let loaded = try repository.expenses(in: trip.id)
        #expect(loaded == [drive, hotel, dinner])   // by date, then as added
        #expect(try repository.expense(dinner.id) == dinner)
        #expect(loaded.first?.details.cost.mileage?.ratePerUnit == dec("0.30"))

        var changed = dinner
        changed.exchangeRate = dec("0.95")
        changed.category = .entertainment
        changed.notes = ""
        let saved = try repository.updateExpense(changed)
        #expect(saved.convertedAmount == eur(4038))   // 40.375 → 40.38
        #expect(try repository.expense(dinner.id) == saved)

        try repository.deleteExpense(hotel.id)
        #expect(try repository.expenses(in: trip.id).map(\.id) == [drive.id, dinner.id])
        #expect(throws: ExpensesError.expenseNotFound(hotel.id)) { try repository.deleteExpense(hotel.id) }
    }

    @Test func invalidExpensesAreNotSaved() throws {
        let repository = try Workspace().repository
        let trip = try repository.createTrip(lisbonTrip())
        #expect(throws: ExpensesError.invalidExpense(.missingExchangeRate(from: .usd, to: .eur))) {
            try repository.addExpense(meal(usd(100)), to: trip.id)
        }
        #expect(throws: ExpensesError.tripNotFound(TripID(rawValue: 42))) {
            try repository.addExpense(meal(eur(100)), to: TripID(rawValue: 42))
        }
        let saved = try repository.addExpense(meal(eur(100)), to: trip.id)
        var broken = saved
        broken.vendor = ""
        #expect(throws: ExpensesError.invalidExpense(.emptyVendor)) { try repository.updateExpense(broken) }
        #expect(try repository.expenses(in: trip.id) == [saved])
    }

    @Test func anExpenseOutsideTheTripIsSavedAndWarnedAbout() throws {
        let repository = try Workspace().repository
        let trip = try repository.createTrip(lisbonTrip())
        let taxi = try repository.addExpense(meal(eur(3500), on: "2024-03-02", vendor: "Taxi"), to: trip.id)
        #expect(try repository.expenses(in: trip.id) == [taxi])
        #expect(taxi.warnings(for: trip) == [.dateOutsideTrip(date: day("2024-03-02"), trip: trip.days)])
    }

    @Test func theCurrencyIsLockedOnceThereAreExpenses() throws {
        let repository = try Workspace().repository
        var trip = try repository.createTrip(lisbonTrip())
        try repository.addExpense(meal(eur(100)), to: trip.id)
        trip.currency = .usd
        #expect(throws: ExpensesError.currencyLocked(.eur)) { try repository.updateTrip(trip) }
    }

    @Test func theTripListHasDatesTotalsAndCountsAndCanBeSearched() throws {
        let repository = try Workspace().repository
        let lisbon = try repository.createTrip(lisbonTrip())
        let zurich = try repository.createTrip(TripDetails(name: "Zürich client visit", startDate: day("2024-05-02"),
                                                           endDate: day("2024-05-03"), purpose: "Kick-off workshop",
                                                           currency: .chf))
        let empty = try repository.createTrip(TripDetails(name: "Berlin", startDate: day("2023-11-10"),
                                                          endDate: day("2023-11-10"), purpose: "", currency: .eur))
        try repository.addExpense(meal(eur(1234)), to: lisbon.id)
        try repository.addExpense(meal(eur(1)), to: lisbon.id)
        try repository.addExpense(meal(usd(1000), rate: dec("0.3333")), to: lisbon.id)   // 3.333 → 3.33
        try repository.addExpense(ExpenseDetails(date: day("2024-05-02"), category: .transit, vendor: "SBB",
                                                 amount: Money(minorUnits: 8800, currency: .chf)), to: zurich.id)

        let all = try repository.tripSummaries()
        #expect(all.map(\.id) == [zurich.id, lisbon.id, empty.id])   // latest first
        #expect(all[1].total == eur(1568))
        #expect(all[1].expenseCount == 3)
        #expect(all[0].total == Money(minorUnits: 8800, currency: .chf))
        #expect(all[2].total == eur(0))
        #expect(all[2].expenseCount == 0)

        #expect(try repository.tripSummaries(matching: "zurich").map(\.id) == [zurich.id])
        #expect(try repository.tripSummaries(matching: "WORKSHOP").map(\.id) == [zurich.id])
        #expect(try repository.tripSummaries(matching: "meetup").map(\.id) == [lisbon.id])
        #expect(try repository.tripSummaries(matching: "  ").count == 3)
        #expect(try repository.tripSummaries(matching: "100%_").isEmpty)
    }

    @Test func dataSurvivesReopeningTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("billfold.sqlite3").path
        let store = ReceiptStore(directory: directory.file("receipts"))
        let trip: Trip
        let expense: Expense
        do {
            let repository = try ExpenseRepository(database: try Database.open(path: path), receipts: store)
            trip = try repository.createTrip(lisbonTrip())
            expense = try repository.addExpense(meal(usd(999), rate: dec("0.91")), to: trip.id)
            repository.database.close()
        }
        let database = try Database.open(path: path)
        let repository = try ExpenseRepository(database: database, receipts: store)
        #expect(try database.schemaVersion(owner: ExpenseRepository.migrationOwner) == 2)
        #expect(try repository.trip(trip.id) == trip)
        #expect(try repository.expenses(in: trip.id) == [expense])
    }
}
