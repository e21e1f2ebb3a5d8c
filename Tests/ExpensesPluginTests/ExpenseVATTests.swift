import BillfoldCore
@testable import ExpensesCore
@testable import ExpensesPlugin
import Foundation
import Storage
import Testing

/// The VAT per rate of an expense: saved, changed, undone and migrated without loss.
@Suite struct ExpenseVATTests {
    private let vat = [
        ExpenseVAT(categoryCode: "S", rate: dec("19"), taxableAmount: eur(10_000), taxAmount: eur(1_900)),
        ExpenseVAT(categoryCode: "S", rate: dec("7.5"), taxableAmount: eur(5_000), taxAmount: eur(375)),
        ExpenseVAT(categoryCode: "O", rate: nil, taxableAmount: eur(1_000), taxAmount: eur(0)),
    ]

    private func supplies(_ amount: Money, vat: [ExpenseVAT]) -> ExpenseDetails {
        ExpenseDetails(date: day("2024-03-05"), category: .supplies, vendor: "Papeterie", amount: amount, vat: vat)
    }

    @Test func theVATIsSavedAndReadBackExactlyInItsOrder() throws {
        let workspace = try Workspace()
        let trip = try workspace.repository.createTrip(lisbonTrip())
        let added = try workspace.repository.addExpense(supplies(eur(18_275), vat: vat), to: trip.id)
        #expect(added.vat == vat)
        #expect(try workspace.repository.expense(added.id)?.vat == vat)
        #expect(try workspace.repository.expenses(in: trip.id).map(\.vat) == [vat])

        var changed = added
        changed.vat = [vat[1]]
        try workspace.repository.updateExpense(changed)
        #expect(try workspace.repository.expense(added.id)?.vat == [vat[1]])

        let deleted = try workspace.repository.deleteExpenseKeepingReceipt(added.id)
        #expect(try workspace.database.queryValue("SELECT count(*) FROM expenses_expense_vat", as: Int.self) == 0)
        try workspace.repository.restore(deleted)
        #expect(try workspace.repository.expense(added.id)?.vat == [vat[1]])

        let deletedTrip = try workspace.repository.deleteTrip(trip.id)
        try workspace.repository.restore(deletedTrip)
        #expect(try workspace.repository.expense(added.id)?.vat == [vat[1]])
    }

    @Test func vatInAnotherCurrencyIsRefusedAndATotalThatDiffersIsPointedOut() throws {
        let trip = lisbonTrip()
        let inDollars = supplies(usd(17_275), vat: vat)
        #expect(inDollars.check(for: trip).errors.contains(.vatInOtherCurrency(.eur)))
        var mileage = ExpenseDetails(date: day("2024-03-05"),
                                     mileage: Mileage(distance: 10, unit: .kilometres, ratePerUnit: dec("0.30"), currency: .eur))
        mileage.vat = vat
        #expect(mileage.check(for: trip).errors.contains(.vatOnMileage))

        // 100 + 19 + 50 + 3.75 + 10 + 0
        #expect(supplies(eur(18_275), vat: vat).warnings(for: trip).isEmpty)
        let typo = supplies(eur(18_200), vat: vat)
        #expect(typo.check(for: trip).canSave)
        #expect(typo.warnings(for: trip) == [.vatDoesNotAddUp(vatGross: eur(18_275), amount: eur(18_200))])
    }

    @Test func totalsArePerCurrencyCategoryAndRate() throws {
        let expenses = [
            Expense(id: ExpenseID(rawValue: 1), tripID: TripID(rawValue: 1), details: supplies(eur(18_275), vat: vat),
                    amounts: ExpenseAmounts(original: eur(18_275), exchangeRate: nil, converted: eur(18_275))),
            Expense(id: ExpenseID(rawValue: 2), tripID: TripID(rawValue: 1), details: supplies(eur(1_190), vat: [
                ExpenseVAT(categoryCode: "S", rate: 19, taxableAmount: eur(1_000), taxAmount: eur(190)),
            ]), amounts: ExpenseAmounts(original: eur(1_190), exchangeRate: nil, converted: eur(1_190))),
        ]
        let totals = try ExpenseVAT.totals(of: expenses)
        #expect(totals.map(\.taxAmount) == [eur(2_090), eur(375), eur(0)])
        #expect(totals.first?.taxableAmount == eur(11_000))
    }

    @Test func migratingAVersionOneDatabaseKeepsEveryExpense() throws {
        let directory = try TemporaryDirectory()
        let database = try Database.inMemory()
        try database.migrate(owner: ExpenseSchema.owner, migrations: Array(ExpenseSchema.migrations.prefix(1)))
        let now = "2024-03-01T10:00:00Z"
        try database.execute("INSERT INTO expenses_trip (id, name, name_key, start_date, end_date, purpose, currency, "
            + "created_at, updated_at) VALUES (7, 'Lisbon', 'lisbon', '2024-03-04', '2024-03-08', 'Talk', 'EUR', ?, ?)", [now, now])
        try database.execute("INSERT INTO expenses_receipt (digest, kind, byte_count, pixel_width, pixel_height, "
            + "original_name, added_at) VALUES (?, 'jpeg', 1234, 64, 48, 'lunch.jpg', ?)",
            [String(repeating: "ab", count: 32), now])
        try database.execute("INSERT INTO expenses_expense (id, trip_id, date, category, vendor, original_minor, "
            + "original_currency, exchange_rate, converted_minor, notes, receipt_digest, created_at, updated_at) "
            + "VALUES (3, 7, '2024-03-05', 'meals', 'Café', 4250, 'USD', '0.9215', 3916, 'Team lunch', ?, ?, ?)",
            [String(repeating: "ab", count: 32), now, now])
        try database.execute("INSERT INTO expenses_expense (id, trip_id, date, category, vendor, original_minor, "
            + "original_currency, converted_minor, distance, distance_unit, rate_per_unit, created_at, updated_at) "
            + "VALUES (4, 7, '2024-03-06', 'mileage', '', 3600, 'EUR', 3600, '120', 'km', '0.30', ?, ?)", [now, now])

        let repository = try ExpenseRepository(database: database,
                                               receipts: ReceiptStore(directory: directory.url))
        #expect(try database.queryValue("SELECT version FROM \(Database.schemaVersionsTable) WHERE owner = 'expenses'",
                                        as: Int.self) == ExpenseSchema.migrations.count)
        let expenses = try repository.expenses(in: TripID(rawValue: 7))
        #expect(expenses.count == 2)
        let lunch = try #require(expenses.first)
        #expect(lunch.id == ExpenseID(rawValue: 3))
        #expect(lunch.vendor == "Café" && lunch.notes == "Team lunch" && lunch.category == .meals)
        #expect(lunch.originalAmount == usd(4_250) && lunch.convertedAmount == eur(3_916))
        #expect(lunch.amounts.exchangeRate == dec("0.9215"))
        #expect(lunch.receipt?.digest == String(repeating: "ab", count: 32) && lunch.receipt?.kind == .jpeg)
        #expect(lunch.vat.isEmpty)
        #expect(expenses[1].cost.mileage?.distance == 120 && expenses[1].convertedAmount == eur(3_600))
        // And the new table works on the old rows.
        var updated = lunch
        updated.vat = [ExpenseVAT(categoryCode: "S", rate: 23, taxableAmount: usd(3_455), taxAmount: usd(795))]
        try repository.updateExpense(updated)
        #expect(try repository.expense(lunch.id)?.vat == updated.vat)
    }
}

/// `billfold expense import FILE --trip NAME`.
@Suite struct ExpenseImportCommandTests {
    private func run(_ arguments: [String], in workspace: Workspace) -> (status: Int32, text: String, error: String) {
        let captured = CapturedOutput()
        let status = ExpenseImportCommand.run(arguments: arguments, database: workspace.database,
                                              receipts: workspace.store, output: captured.output)
        return (status, captured.text, captured.errorText)
    }

    @Test func anInvoiceMakesTheTripAndTheExpenseAndIsPrinted() throws {
        let workspace = try Workspace()
        let file = try workspace.pick(EInvoiceSamples.cii(), named: "RE-2026-0042.xml")
        let result = run(["import", file.path, "--trip", "Berlin fair", "--category", "supplies"], in: workspace)
        #expect(result.status == 0, "\(result.error)")
        let trip = try #require(try workspace.repository.trip(named: "berlin fair"))
        #expect(trip.currency == .eur && trip.startDate == day("2026-03-11"))
        let expense = try #require(try workspace.repository.expenses(in: trip.id).first)
        #expect(expense.vendor == "Papeterie Müller GmbH")
        #expect(expense.category == .supplies)
        #expect(expense.originalAmount == eur(17_250))
        #expect(expense.vat.map(\.taxAmount) == [eur(1_900), eur(350)])
        #expect(expense.receipt?.kind == .xml)
        #expect(expense.notes == "Invoice RE-2026-0042")
        let money = MoneyFormatter()
        #expect(result.text.contains("“Berlin fair”"))
        #expect(result.text.contains(money.string(from: eur(17_250))))
        #expect(result.text.contains(money.string(from: eur(1_900))) && result.text.contains(money.string(from: eur(350))))

        // The same file again would count twice: refused, saying where it already is.
        let again = run(["import", file.path, "--trip", "Berlin fair"], in: workspace)
        #expect(again.status == 1)
        #expect(again.error.contains("Papeterie Müller GmbH") && again.error.contains("Berlin fair"))
        #expect(try workspace.repository.expenses(in: trip.id).count == 1)

        // Into the same trip: a Factur-X PDF, its file kept as the receipt.
        let pdf = try workspace.pick(try EInvoiceSamples.pdf(attaching: [("factur-x.xml", EInvoiceSamples.ubl())]),
                                     named: "invoice.pdf")
        #expect(run(["import", pdf.path, "--trip", "Berlin fair"], in: workspace).status == 0)
        let both = try workspace.repository.expenses(in: trip.id)
        #expect(both.count == 2 && both.last?.receipt?.kind == .pdf)
    }

    @Test func anotherCurrencyNeedsTheRate() throws {
        let workspace = try Workspace()
        _ = try workspace.repository.createTrip(lisbonTrip(currency: .usd))
        let file = try workspace.pick(EInvoiceSamples.cii(), named: "invoice.xml")
        let refused = run(["import", file.path, "--trip", "Lisbon conference"], in: workspace)
        #expect(refused.status == 1)
        #expect(refused.error.contains("--rate"))
        let accepted = run(["import", file.path, "--trip", "Lisbon conference", "--rate", "1.08"], in: workspace)
        #expect(accepted.status == 0, "\(accepted.error)")
        let expense = try #require(try workspace.repository.expenses(in: TripID(rawValue: 1)).first)
        #expect(expense.convertedAmount == usd(18_630))
    }

    @Test func aFileThatIsNotAnInvoiceAddsNothingAndSaysWhy() throws {
        let workspace = try Workspace()
        let photo = try workspace.pick(Samples.jpeg, named: "receipt.jpg")
        let photoResult = run(["import", photo.path, "--trip", "Berlin"], in: workspace)
        #expect(photoResult.status == 1)
        #expect(photoResult.error == EInvoiceError.notAnInvoiceFile.localizedDescription + "\n")
        let credit = try workspace.pick(EInvoiceSamples.ubl(root: "CreditNote"), named: "credit.xml")
        #expect(run(["import", credit.path, "--trip", "Berlin"], in: workspace).error.contains("credit note"))
        let text = try workspace.pick(Data("just words".utf8), named: "notes.txt")
        #expect(run(["import", text.path, "--trip", "Berlin"], in: workspace).status == 1)
        #expect(try workspace.repository.tripSummaries().isEmpty)

        #expect(run([], in: workspace).status == 2)
        #expect(run(["import"], in: workspace).status == 2)
        #expect(run(["import", photo.path], in: workspace).status == 2)
        #expect(run(["import", photo.path, "--trip", "B", "--category", "mileage"], in: workspace).status == 2)
        #expect(run(["import", photo.path, "--trip", "B", "--rate", "-1"], in: workspace).status == 2)
        #expect(run(["fly"], in: workspace).status == 2)
    }
}
