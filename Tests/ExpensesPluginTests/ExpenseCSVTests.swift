import BillfoldCore
@testable import ExpensesCore
@testable import ExpensesPlugin
import Foundation
import Testing

@Suite struct ExpenseCSVTests {
    @Test func awkwardVendorNamesSurviveARoundTrip() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let vendors = ["Smith, Jones & Co", "The \"Quoted\" Diner", "Two\nlines", "Carriage\r\nreturn",
                       "\"", ",", "Zürich Café 🍰", "Plain"]
        for (index, vendor) in vendors.enumerated() {
            try repository.addExpense(meal(eur(Int64(100 + index)), vendor: vendor), to: trip.id)
        }
        let expenses = try repository.expenses(in: trip.id)
        let text = ExpenseCSV.string(for: trip, expenses: expenses)
        let rows = try #require(parseCSV(text))
        #expect(rows.first == ExpenseCSV.header)
        #expect(rows.dropFirst().map { $0[2] } == vendors.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(rows.allSatisfy { $0.count == ExpenseCSV.header.count })
        #expect(text.contains("\"Smith, Jones & Co\""))
        #expect(text.contains("\"The \"\"Quoted\"\" Diner\""))
        #expect(text.contains(",Plain,"))   // unquoted when nothing calls for quotes
    }

    @Test func numbersAndDatesDoNotDependOnTheLocale() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        try repository.addExpense(meal(Money(minorUnits: 123_456_78, currency: .usd), rate: dec("0.9215")), to: trip.id)
        try repository.addExpense(meal(jpy(5000), on: "2024-03-06", vendor: "Ramen", rate: dec("0.0061")), to: trip.id)
        try repository.addExpense(ExpenseDetails(date: day("2024-03-07"),
                                                 mileage: Mileage(distance: dec("12.5"), unit: .miles,
                                                                  ratePerUnit: dec("0.655"), currency: .usd),
                                                 exchangeRate: dec("0.9")), to: trip.id)
        let rows = try #require(parseCSV(ExpenseCSV.string(for: trip, expenses: try repository.expenses(in: trip.id))))
        #expect(rows[1] == ["2024-03-05", "meals", "Café A Brasileira", "123456.78", "USD", "0.9215", "113765.42", "EUR",
                            "", "", "", "", "", "", ""])
        #expect(rows[2] == ["2024-03-06", "meals", "Ramen", "5000", "JPY", "0.0061", "30.50", "EUR", "", "", "", "", "", "", ""])
        #expect(rows[3] == ["2024-03-07", "mileage", "", "8.19", "USD", "0.9", "7.37", "EUR", "12.5", "mi", "0.655", "", "", "", ""])
    }

    @Test func theInvoicesVATIsInTheLastTwoColumns() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        try workspace.repository.addExpense(ExpenseDetails(
            date: day("2024-03-05"), category: .supplies, vendor: "Papeterie", amount: eur(17_250), vat: [
                ExpenseVAT(categoryCode: "S", rate: dec("19"), taxableAmount: eur(10_000), taxAmount: eur(1_900)),
                ExpenseVAT(categoryCode: "S", rate: dec("7.5"), taxableAmount: eur(5_000), taxAmount: eur(375)),
                ExpenseVAT(categoryCode: "O", rate: nil, taxableAmount: eur(-25), taxAmount: eur(0)),
            ]), to: trip.id)
        let rows = try #require(parseCSV(ExpenseCSV.string(for: trip, expenses: try workspace.repository.expenses(in: trip.id))))
        #expect(Array(rows[0].suffix(2)) == ["vat", "vat_by_rate"])
        #expect(Array(rows[1].suffix(2)) == ["22.75", "S:19:100.00:19.00;S:7.5:50.00:3.75;O::-0.25:0.00"])
    }

    @Test func lineEndingsBOMAndReceiptNames() throws {
        let workspace = try Workspace()
        let repository = workspace.repository
        let trip = try repository.createTrip(lisbonTrip())
        let receipt = try repository.importReceipt(data: Samples.jpeg, suggestedName: "r.jpg").reference
        try repository.addExpense(meal(eur(100), receipt: receipt), to: trip.id)
        let expenses = try repository.expenses(in: trip.id)
        let plain = ExpenseCSV.data(for: trip, expenses: expenses)
        #expect(!plain.starts(with: [0xEF, 0xBB, 0xBF]))
        let text = String(decoding: plain, as: UTF8.self)
        #expect(text.hasSuffix("\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(text.contains(receipt.fileName))
        let marked = ExpenseCSV.data(for: trip, expenses: expenses, includesByteOrderMark: true)
        #expect(marked.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(marked.dropFirst(3) == plain)
    }

    @Test func writingReplacesTheFileWhole() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        try workspace.repository.addExpense(meal(eur(100)), to: trip.id)
        let target = workspace.directory.file("lisbon.csv")
        try Data("old contents".utf8).write(to: target)
        try ExpenseCSV.write(for: trip, expenses: try workspace.repository.expenses(in: trip.id), to: target)
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written.hasPrefix("date,category,vendor"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path)
            .filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        let unwritable = workspace.directory.file("no such folder/lisbon.csv")
        #expect(throws: ExportError.self) {
            try ExpenseCSV.write(for: trip, expenses: [], to: unwritable)
        }
    }

    @Test func amountsKeepTheCurrencysDecimals() {
        #expect(ExpenseCSV.plainAmount(eur(5)) == "0.05")
        #expect(ExpenseCSV.plainAmount(eur(-5)) == "-0.05")
        #expect(ExpenseCSV.plainAmount(eur(100)) == "1.00")
        #expect(ExpenseCSV.plainAmount(jpy(1200)) == "1200")
        #expect(ExpenseCSV.plainAmount(Money(minorUnits: 1, currency: bhd)) == "0.001")
        #expect(ExpenseCSV.field("a,b") == "\"a,b\"")
        #expect(ExpenseCSV.field("plain") == "plain")
    }
}
