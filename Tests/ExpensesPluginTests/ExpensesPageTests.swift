import BillfoldCore
import Documents
import Foundation
import GObjectCore
import Graphics
import GtkKit
import PluginAPI
import Storage
import Testing
import TestSupport
@testable import ExpensesCore
@testable import ExpensesPlugin

/// The Expenses page driven in-process as a person would: the plugin activated by a test host
/// over an in-memory database, receipts in a temporary directory.
/// GTK objects must be released on the main thread, so each test holds its own fixture.
@MainActor
final class PageFixture {
    let directory: TemporaryDirectory
    let host = TestHost()
    let plugin: Expenses
    let view: ExpensesView
    let money = MoneyFormatter()
    let numbers = NumberFormatting()

    init() throws {
        // Settings in memory: GTK's file chooser reads its own.
        _ = TestSettings.make()
        directory = try TemporaryDirectory()
        plugin = Expenses(receiptStore: ReceiptStore(directory: directory.url.appendingPathComponent("receipts")))
        try plugin.activate(in: host.context(for: "expenses", database: try Database.inMemory()))
        let page = try #require(plugin.page)
        #expect(!page.isBuilt)
        _ = page.widget
        view = try #require(plugin.view)
    }

    var store: ReceiptStore { view.repository.receipts }

    /// A 300×200 PNG photo drawn for the test.
    func receiptPhoto(named name: String) throws -> URL {
        let surface = try ImageSurface(pixelWidth: 300, pixelHeight: 200, hasAlpha: false)
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 0, y: 0, width: 300, height: 200), color: Color(hex: 0xF6F5F4))
        context.fill(Rect(x: 20, y: 20, width: 120, height: 160), color: Color(hex: 0x1C71D8))
        return try directory.write(try surface.pngData(), named: name)
    }

    func createTrip(_ name: String = "Zürich workshop", from start: String = "2026-03-10",
                    to end: String = "2026-03-12") throws -> Trip {
        let dialog = view.showNewTripDialog()
        dialog.nameRow.text = name
        dialog.startRow.text = day(start).formatted(.short)
        dialog.endRow.text = day(end).formatted(.short)
        dialog.purposeRow.text = "Client workshop"
        #expect(dialog.saveButton.isSensitive)
        return try #require(dialog.save())
    }

    func waitForImport(_ dialog: ExpenseDialog) async {
        _ = await MainLoop.wait(until: { !dialog.isImporting }, timeout: 10)
    }

    func amountText(_ minorUnits: Int64, _ currency: Currency = .usd) -> String {
        money.string(from: Money(minorUnits: minorUnits, currency: currency), showSymbol: false)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct ExpensesPageTests {
    @Test func anEmptyListOffersNewTripThenShowsTheCreatedTrip() throws {
        let f = try PageFixture()
        #expect(f.view.summaries.isEmpty)
        #expect(f.view.listStack.visibleChildName == "empty")
        let trip = try f.createTrip()
        #expect(f.view.summaries.map(\.trip.name) == ["Zürich workshop"])
        #expect(f.view.listStack.visibleChildName == "trips")
        #expect(f.view.selectedTripID == trip.id)
        #expect(f.view.detail.trip?.id == trip.id)
        #expect(f.view.detail.totalLabel.text == f.money.string(from: .zero(trip.currency)))
        #expect(trip.startDate == day("2026-03-10") && trip.endDate == day("2026-03-12"))
    }

    /// A trip that cannot be read says so in its pane, not "No Trip Selected"; its form keeps
    /// the currency, since its expenses may be in it.
    @Test func aTripThatCannotBeReadSaysSo() throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        try f.view.repository.database.execute("ALTER TABLE expenses_expense RENAME TO expenses_expense_elsewhere")
        let again = f.view.showEditTripDialog(trip)
        defer { again.close() }
        #expect(!again.currencyRow.isSensitive)
        try f.view.repository.database.execute("ALTER TABLE expenses_expense_elsewhere RENAME TO expenses_expense")

        try f.view.repository.database.execute("UPDATE expenses_trip SET currency = 'not a currency'")
        f.view.detail.show(trip.id)
        #expect(f.view.detail.stack.visibleChildName == "read-error")
        #expect(!(f.view.detail.readErrorPage.pageDescription ?? "").isEmpty)
    }

    @Test func theTripFormSaysWhatIsWrongBesideTheFields() throws {
        let f = try PageFixture()
        let dialog = f.view.showNewTripDialog()
        dialog.nameRow.text = "x"
        dialog.nameRow.text = ""
        #expect(dialog.visibleMessages.contains(TripValidationError.emptyName.localizedDescription))
        #expect(!dialog.saveButton.isSensitive)
        dialog.nameRow.text = "Berlin"
        dialog.startRow.text = day("2026-05-10").formatted(.short)
        dialog.endRow.text = day("2026-05-08").formatted(.short)
        #expect(dialog.visibleMessages.contains(TripValidationError.endBeforeStart.localizedDescription))
        #expect(dialog.endRow.hasCssClass("error"))
        #expect(dialog.save() == nil)
        dialog.endRow.text = "not a date"
        #expect(dialog.visibleMessages.contains { $0.hasPrefix(String(format: tr("End date: %@"), "")) })
        dialog.endRow.text = day("2026-05-12").formatted(.short)
        #expect(dialog.visibleMessages.isEmpty)
        #expect(dialog.save() != nil)

        // A second trip of the same name is refused by the repository, and the dialog says so.
        let again = f.view.showNewTripDialog()
        again.nameRow.text = "berlin"
        #expect(again.save() == nil)
        #expect(again.visibleMessages == [ExpensesError.duplicateTripName("berlin").localizedDescription])
    }

    @Test func twoExpensesOneWithAReceiptMakeTheTotal() async throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let detail = f.view.detail

        let hotel = try #require(detail.showExpenseDialog(editing: nil))
        hotel.dateRow.text = day("2026-03-11").formatted(.short)
        hotel.categoryRow.selectedIndex = ExpenseCategory.allCases.firstIndex(of: .lodging)
        hotel.vendorRow.text = "Hotel Adler"
        hotel.amountRow.text = f.amountText(41_250)
        #expect(hotel.dropTarget.deliver(fileAt: try f.receiptPhoto(named: "hotel.png").path))
        await f.waitForImport(hotel)
        let receipt = try #require(hotel.receipt)
        #expect(receipt.kind == .png)
        #expect(hotel.receiptPicture.pixelSize.map { max($0.width, $0.height) } == 96)
        #expect(hotel.save() != nil)

        // Paid in euros: the rate is asked for, then the converted amount is shown.
        let dinner = try #require(detail.showExpenseDialog(editing: nil))
        dinner.dateRow.text = day("2026-03-10").formatted(.short)
        dinner.vendorRow.text = "Zeughauskeller"
        dinner.currencyRow.choose(.eur)
        dinner.amountRow.text = f.amountText(5_000, .eur)
        #expect(dinner.rateRow.isVisible)
        #expect(dinner.save() == nil)
        #expect(dinner.visibleMessages.contains(
            ExpenseValidationError.missingExchangeRate(from: .eur, to: .usd).localizedDescription))
        dinner.rateRow.text = f.numbers.string(from: dec("1.085"))
        #expect(dinner.convertedLabel.text.contains(f.money.string(from: usd(5_425))))
        #expect(dinner.save() != nil)

        #expect(detail.expenses.map(\.vendor) == ["Zeughauskeller", "Hotel Adler"])
        #expect(detail.receiptIndicators == [.none, .thumbnail])
        #expect(detail.totalLabel.text == f.money.string(from: usd(46_675)))
        #expect(f.view.summaries.first?.total == usd(46_675))
        #expect(FileManager.default.fileExists(atPath: f.store.url(for: receipt).path))
        #expect(try f.view.repository.expenses(in: trip.id).first?.amounts.exchangeRate == dec("1.085"))
    }

    @Test func amountsAreCheckedAsTheyAreTypedAndADateOutsideTheTripOnlyWarns() throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let dialog = try #require(f.view.detail.showExpenseDialog(editing: nil))
        dialog.vendorRow.text = "Kiosk"
        dialog.amountRow.text = "12x"
        #expect(!dialog.visibleMessages.isEmpty)
        #expect(dialog.amountRow.hasCssClass("error"))
        #expect(!dialog.saveButton.isSensitive)
        dialog.amountRow.text = f.amountText(0)
        #expect(dialog.visibleMessages.contains(ExpenseValidationError.nonPositiveAmount.localizedDescription))
        dialog.amountRow.text = f.amountText(350)
        #expect(dialog.visibleMessages.isEmpty)

        dialog.dateRow.text = day("2026-03-20").formatted(.short)
        let warning = ExpenseWarning.dateOutsideTrip(date: day("2026-03-20"), trip: trip.days).localizedDescription
        #expect(dialog.visibleMessages == [warning])
        #expect(dialog.saveButton.isSensitive)

        // Mileage takes a distance and a rate instead of an amount.
        dialog.categoryRow.selectedIndex = ExpenseCategory.allCases.firstIndex(of: .mileage)
        #expect(dialog.distanceRow.isVisible && !dialog.amountRow.isVisible)
        dialog.distanceRow.text = f.numbers.string(from: dec("42"))
        dialog.mileageRateRow.text = f.numbers.string(from: dec("0.655"))
        let saved = try #require(dialog.save())
        #expect(saved.convertedAmount == usd(2_751))
        #expect(saved.cost.mileage?.distance == dec("42"))
    }

    @Test func aDamagedPictureIsRefusedWithAMessage() async throws {
        let f = try PageFixture()
        _ = try f.createTrip()
        let dialog = try #require(f.view.detail.showExpenseDialog(editing: nil))
        // A sound header, then garbled pixel data: it imports, but cannot be decoded.
        var broken = try Data(contentsOf: try f.receiptPhoto(named: "whole.png"))
        broken.replaceSubrange(60..<200, with: Data(repeating: 0x5A, count: 140))
        let url = try f.directory.write(broken, named: "broken.png")
        dialog.importReceipt(from: url)
        await f.waitForImport(dialog)
        #expect(dialog.receipt == nil)
        #expect(dialog.visibleMessages == [ReceiptError.damaged(fileName: "broken.png", kind: .png).localizedDescription])

        let text = try f.directory.write(Data("not a receipt".utf8), named: "notes.txt")
        dialog.importReceipt(from: text)
        await f.waitForImport(dialog)
        #expect(dialog.receipt == nil)
        #expect(dialog.visibleMessages == [ReceiptError.unsupportedType(fileName: "notes.txt").localizedDescription])
    }

    @Test func deletingAnExpenseOffersUndoAndKeepsTheReceiptUntilItEnds() async throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let photo = try f.receiptPhoto(named: "taxi.png")
        let imported = try f.view.repository.importReceipt(from: photo)
        let expense = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-10"), category: .transit, vendor: "Taxi", amount: usd(2_400),
                           receipt: imported.reference), to: trip.id)
        f.view.detail.refresh()
        #expect(f.view.detail.expenses.count == 1)

        f.view.detail.deleteExpense(expense.id)
        #expect(f.view.detail.expenses.isEmpty)
        #expect(f.view.detail.totalLabel.text == f.money.string(from: usd(0)))
        #expect(f.host.toasts.last == String(format: tr("“%@” deleted"), "Taxi"))
        #expect(FileManager.default.fileExists(atPath: f.store.url(for: imported.reference).path))
        f.host.undoHandlers.last?()
        #expect(f.view.detail.expenses.map(\.id) == [expense.id])
        #expect(f.view.detail.totalLabel.text == f.money.string(from: usd(2_400)))

        // Deleted again and Undo no longer offered: the file goes.
        f.view.detail.deleteExpense(expense.id)
        f.view.endPendingUndos()
        #expect(!FileManager.default.fileExists(atPath: f.store.url(for: imported.reference).path))
    }

    @Test func deletingATripOffersUndo() throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        _ = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-11"), category: .meals, vendor: "Sprüngli", amount: usd(1_890)),
            to: trip.id)
        f.view.reload()
        f.view.deleteTrip(trip.id)
        #expect(f.view.summaries.isEmpty)
        #expect(f.view.detail.trip == nil)
        #expect(f.host.toasts.last == String(format: tr("“%@” deleted"), trip.name))
        f.host.undoHandlers.last?()
        #expect(f.view.summaries.map(\.id) == [trip.id])
        #expect(f.view.summaries.first?.total == usd(1_890))
        #expect(f.view.detail.trip?.id == trip.id)
    }

    @Test func aMissingReceiptFileShowsAWarning() throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let imported = try f.view.repository.importReceipt(from: try f.receiptPhoto(named: "lunch.png"))
        _ = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-10"), category: .meals, vendor: "Lunch", amount: usd(1_500),
                           receipt: imported.reference), to: trip.id)
        try FileManager.default.removeItem(at: f.store.url(for: imported.reference))
        f.view.detail.refresh()
        #expect(f.view.detail.receiptIndicators == [.missing])
        let dialog = try #require(f.view.detail.showExpenseDialog(editing: f.view.detail.expenses.first))
        #expect(dialog.receiptRow.subtitle == tr("The receipt file is missing. Attach it again."))
    }

    @Test func searchFindsTripsByNameOrPurpose() throws {
        let f = try PageFixture()
        _ = try f.createTrip("Zürich workshop")
        _ = try f.createTrip("Lisbon conference", from: "2026-04-01", to: "2026-04-03")
        f.view.searchField.text = "zurich"
        f.view.reload()
        #expect(f.view.summaries.map(\.trip.name) == ["Zürich workshop"])
        f.view.searchField.text = "nothing like it"
        f.view.reload()
        #expect(f.view.listStack.visibleChildName == "no-results")
    }

    @Test func exportCSVWritesTheTripsExpenses() throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        _ = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-10"), category: .meals, vendor: "Bar, \"Central\"", amount: usd(1_200)),
            to: trip.id)
        f.view.detail.refresh()
        let chooser = try #require(f.view.detail.exportCSV(in: f.directory.url.path))
        #expect(chooser.isSaveDialog)
        #expect(chooser.currentName == "Zürich workshop.csv")
        let target = f.directory.file("Zürich workshop.csv")
        chooser.respond(selecting: target.path)
        #expect(f.host.toasts.last == String(format: tr("Exported to %@"), "Zürich workshop.csv"))
        let rows = try #require(parseCSV(try String(contentsOf: target, encoding: .utf8)))
        #expect(rows.first == ExpenseCSV.header)
        #expect(rows.contains { $0.contains("Bar, \"Central\"") })
    }

    @Test func theReportIsPreviewedAfterRenderingInTheBackgroundAndSaved() async throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let imported = try f.view.repository.importReceipt(from: try f.receiptPhoto(named: "hotel.png"))
        _ = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-11"), category: .lodging, vendor: "Hotel Adler", amount: usd(41_250),
                           receipt: imported.reference), to: trip.id)
        _ = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-10"), category: .meals, vendor: "Zeughauskeller", amount: usd(6_420)),
            to: trip.id)
        f.view.detail.refresh()
        let report = try #require(f.view.detail.showReport())
        #expect(report.preview.state == .generating)
        #expect(!report.saveButton.isSensitive)
        await report.generation?.value
        guard case .ready(let pageCount) = report.preview.state else {
            Issue.record("the report is not shown: \(report.preview.state)")
            return
        }
        #expect(report.saveButton.isSensitive && report.printButton.isSensitive && report.emailButton.isSensitive)
        #expect(f.view.detail.showReport() === report)

        let target = f.directory.file("report.pdf")
        let saved = await report.save(to: target)
        #expect(saved)
        let pdf = try PDFDocument(data: try Data(contentsOf: target))
        // Cover and expense table, then one page for the one receipt.
        #expect(pdf.pageCount == pageCount)
        #expect(pageCount >= 3)
        let texts = try (0..<pdf.pageCount).map { try pdf.page(at: $0).text() }
        // Poppler reads "$476.70" back as "$ 476.70".
        #expect(texts[0].contains("476.70"))
        #expect(texts.contains { $0.contains("Hotel Adler") && $0.contains("Zeughauskeller") })
        #expect(texts.last?.contains("Hotel Adler") == true)
        report.close()
    }

    @Test func theDashboardChartsFollowTheExpenses() throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        #expect(!f.view.detail.charts.isVisible)
        _ = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-11"), category: .lodging, vendor: "Hotel Adler", amount: usd(41_250)),
            to: trip.id)
        f.view.detail.refresh()
        #expect(f.view.detail.charts.isVisible)
        #expect(f.view.detail.categoryChart.chart.categories == [ExpenseCategory.lodging.localizedName])
        #expect(f.view.detail.dailyChart.chart.series.first?.values == [0, 412.5, 0])
        #expect(f.view.detail.categoryChart.widget.accessibleDescription?.contains(f.money.string(from: usd(41_250))) == true)
    }

    @Test func aPDFReceiptOpensWithAllItsPages() async throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let pdf = try Document(blocks: [.text("Hotel Adler"), .pageBreak, .text("Minibar")]).renderPDF().data
        let url = try f.directory.write(pdf, named: "hotel.pdf")
        let imported = try f.view.repository.importReceipt(from: url)
        let expense = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-11"), category: .lodging, vendor: "Hotel Adler", amount: usd(41_250),
                           receipt: imported.reference), to: trip.id)
        f.view.detail.refresh()
        let dialog = try #require(f.view.detail.showExpenseDialog(editing: expense))
        #expect(dialog.viewReceiptButton.isVisible)
        let viewer = try #require(dialog.viewReceipt())
        let document = try #require(viewer.document)
        let shown = await MainLoop.wait(until: { document.pageCount == 2 }, timeout: 10)
        #expect(shown)
        viewer.close()
    }

    @Test func editingAnExpenseReplacesThenRemovesItsReceipt() async throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let first = try f.view.repository.importReceipt(from: try f.receiptPhoto(named: "first.png"))
        let expense = try f.view.repository.addExpense(
            ExpenseDetails(date: day("2026-03-11"), category: .transit, vendor: "SBB", amount: usd(3_300),
                           notes: "Airport train", receipt: first.reference), to: trip.id)
        f.view.detail.refresh()

        let dialog = try #require(f.view.detail.showExpenseDialog(editing: expense))
        #expect(dialog.vendorRow.text == "SBB")
        #expect(dialog.amountRow.text == f.amountText(3_300))
        #expect(dialog.notesRow.text == "Airport train")
        #expect(dialog.receipt == first.reference)
        #expect(dialog.removeReceiptButton.isVisible)

        // The full picture opens in a window of its own, decoded in the background.
        let viewer = try #require(dialog.viewReceipt())
        let loaded = await MainLoop.wait(until: { !viewer.isLoading }, timeout: 10)
        #expect(loaded)
        #expect(viewer.picture.pixelSize?.width == 300 && viewer.picture.pixelSize?.height == 200)
        viewer.close()

        // Replaced: the old file goes once the change is saved, since nothing else uses it.
        let url = try f.directory.write(Data(Samples.jpeg), named: "second.jpg")
        dialog.importReceipt(from: url)
        await f.waitForImport(dialog)
        let second = try #require(dialog.receipt)
        #expect(second.kind == .jpeg)
        #expect(dialog.save() != nil)
        #expect(!FileManager.default.fileExists(atPath: f.store.url(for: first.reference).path))

        let again = try #require(f.view.detail.showExpenseDialog(editing: f.view.detail.expenses.first))
        again.removeReceiptButton.click()
        #expect(again.receipt == nil)
        #expect(again.save()?.receipt == nil)
        #expect(!FileManager.default.fileExists(atPath: f.store.url(for: second).path))
        #expect(f.view.detail.receiptIndicators == [.none])
    }

    @Test func controlNOpensNewTrip() throws {
        let f = try PageFixture()
        let shortcut = try #require(f.host.shortcuts["<Control>n"])
        shortcut()
        #expect(f.view.tripDialog?.title == tr("New Trip"))
    }
}
