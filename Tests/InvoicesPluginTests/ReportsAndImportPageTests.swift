import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Plans
import PluginAPI
import Storage
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The Invoices menu's windows driven in-process: the CSV import preview and the report window.
@Suite(.serialized, needsDisplay) @MainActor
struct ReportsAndImportPageTests {
    static let invoicesCSV = "number,status,issue_date,due_date,currency,client_name,line_description,line_unit_price,line_tax_rate,paid,paid_on\n"
        + "R-1,sent,2024-01-10,2024-01-24,EUR,Acme,Design,100.00,19,,\n"
        + "R-2,sent,2024-03-20,2024-04-03,EUR,Bolt,Workshop,500.00,19,200.00,2024-03-25\n"
        + "R-3,draft,2024-03-21,2024-04-04,EUR,Bolt,Draft work,10.00,19,,\n"

    func activate() throws -> (InvoicesPage, InvoiceRepository, TestHost, Invoices) {
        let host = TestHost()
        let plugin = Invoices()
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        try repository.saveProfile(BusinessProfile(name: "Studio Nord", defaultCurrency: .eur, paymentTermsDays: 14, defaultTaxRate: 19))
        try plugin.activate(in: host.context(for: "invoices", database: database))
        _ = try #require(plugin.page).widget
        return (try #require(plugin.invoicesPage), repository, host, plugin)
    }

    func csvFile(_ text: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("import.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theMenuOffersTheReportsAndTheCSVActions() throws {
        let (page, _, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        for action in ["receivables", "revenue", "import-clients", "import-invoices", "export-clients", "export-invoices"] {
            #expect(page.menu.actions.hasAction(named: action), "\(action)")
        }
        #expect(page.menu.button.accessibleLabel == "Reports, Import and Export")
    }

    @Test func cancellingThePreviewImportsNothingAndImportFillsTheList() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let directory = try TemporaryDirectory()
        let path = try csvFile(Self.invoicesCSV, in: directory)
        #expect(page.listStack.visibleChildName == "empty")

        let cancelled = try #require(page.menu.openImport(.invoices, path: path))
        #expect(!cancelled.importButton.isSensitive)
        #expect(await MainLoop.wait(until: { !cancelled.isBusy }))
        #expect(cancelled.summaryRow.title == "3 new invoices, 2 new clients")
        #expect(cancelled.importButton.isSensitive && !cancelled.problemsGroup.isVisible)
        cancelled.close()
        #expect(try repository.invoiceCount() == 0 && repository.clients().isEmpty)

        let dialog = try #require(page.menu.openImport(.invoices, path: path))
        #expect(await MainLoop.wait(until: { !dialog.isBusy }))
        dialog.importButton.click()
        #expect(await MainLoop.wait(until: { !dialog.isBusy && !dialog.isVisible }))
        #expect(try repository.invoiceCount() == 3)
        #expect(page.listStack.visibleChildName == "list" && page.model.ids.count == 3)
        #expect(host.toasts.last == "Imported 3 invoices with 2 new clients.")
        #expect(try repository.invoice(number: "R-2")?.totals().balanceDue == money("395.00"))

        let again = try #require(page.menu.openImport(.invoices, path: path))
        #expect(await MainLoop.wait(until: { !again.isBusy }))
        #expect(again.summaryRow.title == "0 new invoices, 3 already in the library")
        #expect(!again.importButton.isSensitive)
        again.close()
    }

    @Test func aWrongColumnShowsEachRowsProblemAndBlocksTheImport() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let directory = try TemporaryDirectory()
        let dialog = try #require(page.menu.openImport(.invoices, path: try csvFile(Self.invoicesCSV, in: directory)))
        defer { dialog.close() }
        let dateRow = try #require(dialog.columnRows["issue_date"])
        #expect(dateRow.selectedIndex == 3)
        #expect(dateRow.subtitle == "First row: 2024-01-10")
        // Reading the issue date from the client column: every row says why it cannot be imported.
        dateRow.selectedIndex = 6
        #expect(await MainLoop.wait(until: { !dialog.isBusy }))
        #expect(dialog.preview?.problems.map(\.line) == [2, 3, 4])
        #expect(dialog.problemsGroup.isVisible && !dialog.importButton.isSensitive)
        #expect(dialog.summaryRow.subtitle == "Correct the rows below in the file, or choose other columns, then import.")
        dialog.importRows()
        #expect(await MainLoop.wait(until: { !dialog.isBusy }))
        #expect(try repository.invoiceCount() == 0)
        dateRow.selectedIndex = 3
        #expect(!dialog.importButton.isSensitive)
        #expect(await MainLoop.wait(until: { !dialog.isBusy }))
        #expect(dialog.importButton.isSensitive)
    }

    @Test func anUnreadableFileSaysWhyAndOpensNothing() throws {
        let (page, _, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let directory = try TemporaryDirectory()
        let path = directory.path("broken.csv")
        try Data([0x61, 0x2C, 0x62, 0x0A, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: path))
        #expect(page.menu.openImport(.clients, path: path) == nil)
        #expect(host.toasts.last?.contains("not UTF-8") == true)
        #expect(page.menu.openImport(.clients, path: directory.path("missing.csv")) == nil)
        #expect(host.toasts.last?.contains("does not exist") == true)
    }

    @Test func theReceivablesWindowFollowsTheDayAndSaves() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let directory = try TemporaryDirectory()
        let file = try CSVImportFile(data: Data(Self.invoicesCSV.utf8))
        try repository.importCSV(try repository.previewImport(file, content: .invoices,
                                                              mapping: .detect(header: file.header, content: .invoices),
                                                              format: .plain, plan: .free), plan: .free)
        let window = page.menu.openReport(.receivables)
        defer { window.close() }
        window.dayRow.text = "2024-04-01"
        #expect(await MainLoop.wait(until: { !window.isLoading }))
        #expect(window.receivables?.rows.map(\.clientName) == ["Acme", "Bolt"])
        #expect(window.receivables?.totals.first?.total == money("514.00"))
        #expect(window.stack.visibleChildName == "results" && window.pdfButton.isSensitive)

        #expect(window.calendar.selectedDay == (2024, 4, 1))

        // Picking a day in the calendar is the same as typing it.
        window.calendar.selectedDay = (2024, 1, 2)
        #expect(window.dayRow.text == day("2024-01-02").formatted(.short))
        #expect(await MainLoop.wait(until: { !window.isLoading }))
        #expect(window.receivables?.asOf == day("2024-01-02"))
        #expect(window.stack.visibleChildName == "empty")

        window.dayRow.text = "not a day"
        #expect(window.errorLabel.isVisible && !window.csvButton.isSensitive && !window.isLoading)

        window.dayRow.text = "2024-04-01"
        #expect(await MainLoop.wait(until: { !window.isLoading }))
        let pdf = URL(fileURLWithPath: directory.path("r.pdf"))
        window.write(asPDF: true, to: pdf)
        #expect(await MainLoop.wait(until: { host.toasts.last == "Saved r.pdf" }))
        #expect(try Data(contentsOf: pdf).starts(with: Data("%PDF".utf8)))
    }

    @Test func theRevenueWindowSaysHowRevenueIsCounted() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let acme = try repository.save(Client(name: "Acme", currency: .eur))
        var invoice = Invoice(clientID: acme.id, issueDate: day("2024-05-02"), dueDate: day("2024-05-16"), currency: .eur,
                              lines: [line(price: "100.00", rate: "19")])
        try invoice.markSent(on: day("2024-05-02"))
        try repository.save(invoice)
        let window = page.menu.openReport(.revenue)
        defer { window.close() }
        let yearRow = try #require(window.yearRow)
        let years = yearRow.model.count
        #expect(years >= 2)
        yearRow.selectedIndex = years - 1
        #expect(await MainLoop.wait(until: { !window.isLoading && window.revenue?.year == 2024 }))
        #expect(window.revenue?.currencies.first?.months[4].gross == money("119.00"))
    }

    @Test func theReportWindowsAndTheImportPreviewAreFreedAfterUse() throws {
        let (page, _, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let directory = try TemporaryDirectory()
        let path = try csvFile(Self.invoicesCSV, in: directory)
        try expectFreedAfterUse({ page.menu.openReport(.receivables) }, use: { window in
            (window as! InvoiceReportWindow).dayRow.text = "2024-0"
        })
        try expectFreedAfterUse({ page.menu.openReport(.revenue) }, use: { window in
            (window as! InvoiceReportWindow).yearRow?.selectedIndex = 0
        })
        try expectFreedAfterUse({ page.menu.openImport(.invoices, path: path) }, use: { window in
            let dialog = window as! CSVImportDialog
            dialog.columnRows["number"]?.selectedIndex = 0
            dialog.formatRow.selectedIndex = 1
            _ = MainLoop.run(until: { !dialog.isBusy }, timeout: 5)
        })
        #expect(page.menu.reportWindow == nil && page.menu.importDialog == nil)
    }

    @Test func theMenuExportsClientsAndInvoicesAsTheDocumentedCSV() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let file = try CSVImportFile(data: Data(Self.invoicesCSV.utf8))
        try repository.importCSV(try repository.previewImport(file, content: .invoices,
                                                              mapping: .detect(header: file.header, content: .invoices),
                                                              format: .plain, plan: .free), plan: .free)
        let directory = try TemporaryDirectory()
        for (content, name) in [(CSVContent.clients, "clients.csv"), (.invoices, "invoices.csv")] {
            let url = URL(fileURLWithPath: directory.path(name))
            page.menu.write(content, to: url)
            #expect(await MainLoop.wait(until: { host.toasts.last == "Exported to \(name)" }))
            let written = try String(contentsOf: url, encoding: .utf8)
            #expect(written == (content == .clients ? try repository.clientsCSV() : try repository.invoicesCSV()))
        }
        page.menu.write(.clients, to: URL(fileURLWithPath: directory.path("no such folder/clients.csv")))
        // A folder that is not there: the toast says the file could not be saved, and why.
        #expect(await MainLoop.wait(until: { host.toasts.last?.hasPrefix("“\(directory.path("no such folder/clients.csv"))” could not be saved: ") == true }))
    }
}
