import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import PluginAPI
import Storage
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// What the panes show when a record they refer to cannot be read: the reason, never a blank
/// name, "Nothing" owed or "No Invoice Selected".
@Suite(.serialized, needsDisplay) @MainActor
struct PaneReadErrorTests {
    func activate() throws -> (InvoicesPage, InvoiceRepository, TestHost, Invoices) {
        let host = TestHost()
        let plugin = Invoices()
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        try repository.saveProfile(BusinessProfile(name: "Studio Nord", defaultCurrency: .eur, paymentTermsDays: 14,
                                                   defaultTaxRate: 19))
        try plugin.activate(in: host.context(for: "invoices", database: database))
        _ = try #require(plugin.page).widget
        return (try #require(plugin.invoicesPage), repository, host, plugin)
    }

    func draft(_ repository: InvoiceRepository, client: Client) throws -> Invoice {
        try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                    lines: [LineItem(description: "Work", quantity: 2, unitPrice: money("15.00"))]))
    }

    @Test func aClientThatCannotBeReadIsNamedInTheInvoicePane() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        let invoice = try draft(repository, client: client)
        try repository.database.execute("UPDATE invoices_client SET currency = 'not a currency'")
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        #expect(page.detailStack.visibleChildName == "invoice")
        #expect(page.detail.heading.clientLabel.text.hasPrefix("The client could not be read: "))
    }

    @Test func anInvoiceThatCannotBeReadIsNotShownAsNoneSelected() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        let invoice = try draft(repository, client: client)
        page.reload(dataChanged: true)
        try repository.database.execute("ALTER TABLE invoices_line RENAME TO invoices_line_elsewhere")
        page.select(try #require(invoice.id))
        #expect(page.detailStack.visibleChildName == "read-error")
        #expect(!(page.detailReadErrorPage.pageDescription ?? "").isEmpty)
    }

    @Test func aClientsInvoicesThatCannotBeReadAreNotNothingOwed() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let acme = try repository.save(Client(name: "Acme", currency: .eur))
        var invoice = try draft(repository, client: acme)
        try invoice.markSent(on: .today())
        _ = try repository.save(invoice)
        page.openClients()
        let clients = try #require(page.clientsWindow)
        defer { clients.close() }
        try repository.database.execute("ALTER TABLE invoices_invoice RENAME TO invoices_invoice_elsewhere")

        clients.show(acme)
        #expect(clients.stack.visibleChildName == "client")
        #expect(clients.owedLabel.text == "—")
        #expect(clients.invoicesGroup.groupDescription?.hasPrefix("The client’s invoices could not be read: ") == true)

        // Deleting asks what happens to its invoices; without knowing them it does not ask.
        let toasts = host.toasts.count
        clients.confirmDelete()
        #expect(clients.confirmation == nil)
        #expect(host.toasts.count == toasts + 1)
        try repository.database.execute("ALTER TABLE invoices_invoice_elsewhere RENAME TO invoices_invoice")
        #expect(try repository.clients().map(\.name) == ["Acme"])
    }

    /// Deleting a client never deletes its recurring invoices with it: the window says why not.
    @Test func aClientWithRecurringInvoicesIsNotDeleted() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let acme = try repository.save(Client(name: "Acme", currency: .eur))
        _ = try repository.save(RecurringInvoice(clientID: acme.id, currency: .eur,
                                                 lines: [LineItem(description: "Retainer", quantity: 1, unitPrice: money("900.00"))],
                                                 startDate: .today()))
        page.openClients()
        let clients = try #require(page.clientsWindow)
        defer { clients.close() }
        clients.show(acme)
        clients.confirmDelete()
        let dialog = try #require(clients.confirmation)
        #expect(dialog.heading == "Acme Cannot Be Deleted Yet")
        dialog.respond("close")
        #expect(clients.confirmation == nil)
        #expect(try repository.clients().map(\.name) == ["Acme"])
        #expect(try repository.recurringInvoices().count == 1)
    }

    /// A client opens on a click on its row, and on Enter; coming back, no row looks chosen.
    @Test func clickingOrActivatingAClientRowOpensIt() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try repository.save(Client(name: "Acme", currency: .eur))
        _ = try repository.save(Client(name: "Globex", currency: .eur))
        page.openClients()
        let clients = try #require(page.clientsWindow)
        defer { clients.close() }
        #expect(await MainLoop.wait(until: { clients.rowTexts(at: 1)?.first == "Globex" }))
        try #require(clients.list.rowWidgets.first { $0.position == 1 }).simulateClick()
        #expect(clients.stack.visibleChildName == "client")
        #expect(clients.nameLabel.text == "Globex")

        clients.showList()
        #expect(clients.list.selectedIndex == nil)
        clients.list.activate(at: 0)
        #expect(clients.stack.visibleChildName == "client")
        #expect(clients.nameLabel.text == "Acme")
    }

    /// The search has the focus when the list shows; Escape in it clears a search, then closes.
    @Test func escapeInTheClientSearchClearsItThenCloses() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try repository.save(Client(name: "Acme", currency: .eur))
        page.openClients()
        let clients = try #require(page.clientsWindow)
        defer { clients.close() }
        #expect(await MainLoop.wait(until: { clients.focusedWidget?.isInside(clients.searchEntry) == true }))
        clients.searchEntry.text = "acme"
        clients.searchEntry.emit("stop-search")
        #expect(clients.searchEntry.text == "")
        #expect(clients.isVisible)
        clients.searchEntry.emit("stop-search")
        #expect(await MainLoop.wait(until: { !clients.isVisible }))
    }
}
