import BillfoldCore
@testable import ExpensesCore
@testable import ExpensesPlugin
import Foundation
import Storage
import Testing

@Suite struct ExpensesCommandLineTests {
    @Test func listShowsATableOfTrips() throws {
        let workspace = try Workspace()
        let lisbon = try workspace.repository.createTrip(lisbonTrip())
        try workspace.repository.addExpense(meal(eur(123_456)), to: lisbon.id)
        try workspace.repository.addExpense(meal(eur(44)), to: lisbon.id)
        _ = try workspace.repository.createTrip(TripDetails(name: "Zürich", startDate: day("2024-05-02"),
                                                            endDate: day("2024-05-02"), currency: .chf))
        let captured = CapturedOutput()
        let status = ExpensesCommandLine.run(arguments: ["list"], database: workspace.database,
                                             receipts: workspace.store, output: captured.output)
        #expect(status == 0)
        #expect(captured.errorText.isEmpty)
        let lines = captured.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("Name"))
        #expect(lines[2].hasPrefix("Zürich"))
        #expect(lines[3].hasPrefix("Lisbon conference"))
        #expect(lines[3].hasSuffix("2"))
        #expect(lines[3].contains(MoneyFormatter().string(from: eur(123_500))), "\(lines)")
        // Columns line up: every row is as long as the ruler or shorter only by trailing space.
        #expect(lines[2].count == lines[3].count)
    }

    @Test func tableIsFormattedForTheLocale() throws {
        let trip = Trip(id: TripID(rawValue: 1), details: lisbonTrip())
        let table = ExpensesCommandLine.tripTable([TripSummary(trip: trip, total: eur(123_456), expenseCount: 3)],
                                                  moneyFormatter: MoneyFormatter(locale: Locale(identifier: "de_DE")),
                                                  locale: Locale(identifier: "de_DE"))
        #expect(table.contains("1.234,56"))
        #expect(table.contains("04.03.2024"))
        #expect(ExpensesCommandLine.tripTable([]).contains("No trips"))
    }

    @Test func exportWritesTheCSV() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        try workspace.repository.addExpense(meal(eur(100)), to: trip.id)
        let target = workspace.directory.file("out.csv")
        let captured = CapturedOutput()
        let status = ExpensesCommandLine.run(arguments: ["export", "lisbon conference", "--output", target.path],
                                             database: workspace.database, receipts: workspace.store,
                                             output: captured.output)
        #expect(status == 0)
        let rows = try #require(parseCSV(try String(contentsOf: target, encoding: .utf8)))
        #expect(rows.count == 2)
    }

    @Test func mistakesExitWithAReason() throws {
        let workspace = try Workspace()
        func run(_ arguments: [String]) -> (Int32, String) {
            let captured = CapturedOutput()
            let status = ExpensesCommandLine.run(arguments: arguments, database: workspace.database,
                                                 receipts: workspace.store, output: captured.output)
            return (status, captured.errorText)
        }
        let missing = run(["export", "Atlantis", "--output", workspace.directory.file("a.csv").path])
        #expect(missing.0 == 1)
        #expect(missing.1.contains("Atlantis"))
        #expect(run([]).0 == 2)
        #expect(run(["fly"]).0 == 2)
        #expect(run(["list", "extra"]).0 == 2)
        #expect(run(["export", "Lisbon"]).1.contains("--output"))
        #expect(run(["export", "--output"]).0 == 2)
        #expect(run(["export", "A", "B", "--output", "x.csv"]).0 == 2)
        #expect(run(["export", "A", "--output", "x.csv", "--traveller", "Ada"]).0 == 2)
    }
}
