import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Plans
import PluginAPI
import Storage
import Graphics
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Billfold Pro, for tests: every feature allowed.
@MainActor
final class EveryFeature: Entitlements {
    var status: EntitlementStatus {
        EntitlementStatus(tier: .pro, features: Set(Feature.allCases), license: nil, condition: .active)
    }

    func observe(_ handler: @escaping @MainActor @Sendable () -> Void) -> ObservationToken { .inert() }
}

/// The Invoices page driven in-process as a person would: through its fields and buttons.
@Suite(.serialized, needsDisplay) @MainActor
struct InvoicesPageTests {
    let numbers = NumberFormatting()
    let moneyFormatter = MoneyFormatter()

    /// The plugin activated over a fresh in-memory database with a saved profile. Widgets are
    /// kept by each test's locals, so they go away on the main thread; the test keeps the host
    /// and the plugin alive as the shell would.
    func activate(profile currency: Currency = .eur, services: ServiceRegistry = ServiceRegistry()) throws
        -> (InvoicesPage, InvoiceRepository, TestHost, Invoices) {
        let host = TestHost()
        let plugin = Invoices()
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        try repository.saveProfile(BusinessProfile(name: "Studio Nord", defaultCurrency: currency, paymentTermsDays: 14,
                                                   defaultTaxRate: 19))
        try plugin.activate(in: host.context(for: "invoices", services: services, database: database))
        #expect(plugin.invoicesPage == nil)
        _ = try #require(plugin.page).widget
        let page = try #require(plugin.invoicesPage)
        return (page, repository, host, plugin)
    }

    @Test func theBusinessNameIsPublishedForOtherPlugins() throws {
        let services = ServiceRegistry()
        let (_, repository, host, plugin) = try activate(services: services)
        let context = host.context(for: "expenses", services: services)
        #expect(context.businessName == "Studio Nord")
        var profile = try repository.profile()
        profile.name = "Atelier Süd"
        try repository.saveProfile(profile)
        #expect(context.businessName == "Atelier Süd")
        plugin.deactivate()
        #expect(host.context(for: "expenses").businessName == "")
    }

    func amount(_ text: String, _ currency: Currency = .eur) -> String {
        moneyFormatter.string(from: money(text, currency))
    }

    func fill(_ line: LineItemEditor, _ description: String, quantity: String, price: String, tax: String) {
        line.descriptionView.text = description
        line.quantityEntry.text = numbers.string(from: decimal(quantity))
        line.priceEntry.text = moneyFormatter.string(from: money(price), showSymbol: false)
        line.taxEntry.text = numbers.string(from: decimal(tax))
    }

    @Test func createsAClientAndAnInvoiceWithThreeLinesThroughTheForm() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        #expect(page.listStack.visibleChildName == "empty")
        #expect(!page.detailPane.isVisible)   // one empty state, not two side by side
        page.newInvoice()
        let editor = try #require(page.editor)
        #expect(!editor.saveButton.isSensitive)

        // With no clients yet, the form offers "New Client…", which opens the client form.
        #expect(!editor.clientRow.isVisible)
        editor.newClientButton.click()
        let clientForm = try #require(editor.clientEditor)
        #expect(!clientForm.saveButton.isSensitive)
        clientForm.nameRow.text = "Acme GmbH"
        clientForm.emailRow.text = "billing@acme.example"
        #expect(clientForm.saveButton.isSensitive)
        #expect(clientForm.save() != nil)
        #expect(editor.clients.map(\.name) == ["Acme GmbH"])
        #expect(editor.clientRow.selectedIndex == 0)
        #expect(editor.clientRow.isVisible)
        #expect(!editor.newClientRow.isVisible)

        // With clients, "New Client…" is the combo's last choice; cancelling goes back.
        editor.clientRow.selectedIndex = editor.clients.count
        let second = try #require(editor.clientEditor)
        second.close()
        #expect(editor.clientRow.selectedIndex == 0)

        fill(editor.lineEditors[0], "Logo design\nthree drafts and the final artwork", quantity: "3", price: "100.00", tax: "19")
        editor.addLine()
        fill(editor.lineEditors[1], "Hosting", quantity: "12", price: "4.99", tax: "19")
        editor.addLine()
        fill(editor.lineEditors[2], "Style guide booklet", quantity: "1", price: "20.00", tax: "7")

        // 300.00 + 59.88 + 20.00; 19 % of 359.88 is 68.38 and 7 % of 20.00 is 1.40.
        #expect(editor.subtotalLabel.text == amount("379.88"))
        #expect(editor.totalLabel.text == amount("449.66"))
        #expect(editor.lineEditors[1].amountLabel.text == amount("59.88"))
        #expect(editor.currentTotals?.taxLines.map(\.tax) == [money("1.40"), money("68.38")])
        #expect(editor.saveButton.isSensitive)

        let saved = try #require(editor.save())
        #expect(saved.lines.count == 3)
        #expect(saved.lines[0].description == "Logo design\nthree drafts and the final artwork")
        let savedID = try #require(saved.id)
        #expect(try repository.invoice(savedID)?.totals().total == money("449.66"))
        #expect(page.listStack.visibleChildName == "list")
        #expect(page.detailPane.isVisible)
        #expect(page.positions.count == 1)
        #expect(page.selectedID == saved.id)
        #expect(page.detail.balanceLabel.text == amount("449.66"))
        #expect(page.detail.sendButton.isVisible)
    }

    @Test func badValuesSayWhyAndKeepSaveOff() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Globex", currency: .eur))
        page.newInvoice()
        let editor = try #require(page.editor)
        editor.clientRow.selectedIndex = editor.clients.firstIndex { $0.id == client.id }
        let line = editor.lineEditors[0]
        fill(line, "Consulting", quantity: "2", price: "80.00", tax: "19")
        #expect(editor.saveButton.isSensitive)

        line.priceEntry.text = "12x"
        #expect(!editor.saveButton.isSensitive)
        #expect(line.errorLabel.isVisible)
        #expect(line.errorLabel.text.contains("cannot be part of an amount"))
        #expect(line.priceEntry.hasCssClass("error"))
        #expect(editor.totalLabel.text == "—")

        line.priceEntry.text = moneyFormatter.string(from: money("80.00"), showSymbol: false)
        #expect(editor.saveButton.isSensitive)
        #expect(!line.errorLabel.isVisible)

        editor.issueRow.text = "not a date"
        #expect(!editor.saveButton.isSensitive)
        #expect(editor.invoiceErrors.isVisible)
        #expect(editor.invoiceErrors.text.contains("Enter a date like"))

        // A due date before the issue date is a rule the domain checks; the form shows it.
        let issue = CalendarDay.today()
        editor.issueRow.text = issue.formatted(.short)
        editor.dueRow.text = issue.adding(days: -3).formatted(.short)
        #expect(!editor.saveButton.isSensitive)
        #expect(editor.invoiceErrors.text.contains("The due date cannot be before the issue date."))

        line.quantityEntry.text = "0"
        editor.dueRow.text = issue.formatted(.short)
        #expect(line.errorLabel.text.contains("Enter a quantity above zero."))
        #expect(!editor.saveButton.isSensitive)
        #expect(try repository.invoiceCount() == 0)
    }

    @Test func theDueDateFollowsTheClientsTermsUntilItIsTyped() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Initech", currency: .usd, paymentTermsDays: 30))
        page.newInvoice()
        let editor = try #require(page.editor)
        editor.clientRow.selectedIndex = editor.clients.firstIndex { $0.id == client.id }
        let issue = CalendarDay.today()
        #expect(editor.dueRow.text == issue.adding(days: 30).formatted(.short))
        #expect(editor.currencyRow.currency == .usd)
        editor.issueRow.text = issue.adding(days: 1).formatted(.short)
        #expect(editor.dueRow.text == issue.adding(days: 31).formatted(.short))
        editor.dueRow.text = issue.adding(days: 5).formatted(.short)
        editor.issueRow.text = issue.adding(days: 2).formatted(.short)
        #expect(editor.dueRow.text == issue.adding(days: 5).formatted(.short))
    }

    @Test func filterChipsAndSearchChangeTheList() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let acme = try repository.save(Client(name: "Acme", currency: .eur))
        let globex = try repository.save(Client(name: "Globex", currency: .eur))
        let today = CalendarDay.today()
        func save(_ client: Client, _ description: String, sent: Bool, issued: CalendarDay = today) throws {
            var invoice = Invoice(clientID: client.id, issueDate: issued, dueDate: issued.adding(days: 14), currency: .eur,
                                  lines: [LineItem(description: description, quantity: 1, unitPrice: money("10.00"))])
            invoice = try repository.save(invoice)
            if sent {
                try invoice.markSent(on: issued)
                try repository.save(invoice)
            }
        }
        try save(acme, "Website", sent: false)
        try save(acme, "Hosting", sent: true)
        try save(globex, "Audit", sent: true, issued: today.adding(days: -60))
        page.reload(dataChanged: true)
        #expect(page.positions.count == 3)
        #expect(page.outstandingLabel.text == amount("20.00"))
        #expect(page.overdueLabel.text == amount("10.00"))

        page.filterButtons[.draft]?.isActive = true
        #expect(page.positions.count == 1)
        page.filterButtons[.overdue]?.isActive = true
        #expect(page.positions.count == 1)
        page.filterButtons[.sent]?.isActive = true
        #expect(page.positions.count == 1)
        page.filterButtons[.paid]?.isActive = true
        #expect(page.positions.count == 0)
        #expect(page.listStack.visibleChildName == "no-results")
        page.filterButtons[.all]?.isActive = true
        #expect(page.positions.count == 3)

        page.searchEntry.text = "acme"
        #expect(await MainLoop.wait(until: { page.positions.count == 2 }))
        page.searchEntry.text = "acme host"
        #expect(await MainLoop.wait(until: { page.positions.count == 1 }))
        page.searchEntry.text = ""
        #expect(await MainLoop.wait(until: { page.positions.count == 3 }))

        page.sortButtons[.issueDate]?.isActive = true
        let byDate = page.model.ids
        page.sortButtons[.dueDate]?.isActive = true
        #expect(page.model.query.sort == .dueDate)
        #expect(Set(page.model.ids) == Set(byDate))
    }

    /// Rows are recycled and bound by position: after a search each row on screen shows the
    /// invoice now at its position, and after an edit the changed amount.
    @Test func rowsOnScreenFollowTheSearchAndTheData() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let acme = try repository.save(Client(name: "Acme", currency: .eur))
        let globex = try repository.save(Client(name: "Globex", currency: .eur))
        let today = CalendarDay.today()
        var saved: [Invoice] = []
        for (index, client) in [acme, globex, acme, globex].enumerated() {
            saved.append(try repository.save(Invoice(clientID: client.id, issueDate: today.adding(days: -index),
                                                     dueDate: today.adding(days: 14), currency: .eur,
                                                     lines: [LineItem(description: "Work", quantity: 1, unitPrice: money("10.00"))])))
        }
        page.reload(dataChanged: true)
        let window = AdwaitaWindow()
        // The page shows beside the quotes and credit notes; the window holds them all.
        window.content = try #require(plugin.page).widget
        window.setDefaultSize(width: 1000, height: 700)
        window.present()
        defer { window.destroy() }
        // What the rows paint, once a frame has painted them.
        func painted(_ position: Int, _ expected: [String]) async -> Bool {
            await MainLoop.wait(until: { page.rowTexts(at: position).map { Array($0.prefix(expected.count)) } == expected })
        }
        #expect(await painted(0, [saved[0].number, "Acme", amount("10.00")]))
        #expect(await painted(1, [saved[1].number, "Globex"]))

        page.searchEntry.text = "globex"
        #expect(await MainLoop.wait(until: { page.positions.count == 2 }))
        #expect(await painted(0, [saved[1].number, "Globex"]))
        #expect(await painted(1, [saved[3].number, "Globex"]))

        var changed = saved[1]
        changed.lines[0].unitPrice = money("25.00")
        try repository.save(changed)
        page.invoiceChanged(try #require(changed.id))
        #expect(await painted(0, [saved[1].number, "Globex", amount("25.00")]))
    }

    @Test func deleteOffersUndo() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        let invoice = try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                  lines: [LineItem(description: "Work", quantity: 1, unitPrice: money("5.00"))]))
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        #expect(page.selectedID == invoice.id)
        page.deleteSelected()
        #expect(page.positions.count == 0)
        #expect(try repository.invoiceCount() == 0)
        #expect(host.toasts.last == String(format: "Invoice %@ deleted", invoice.number))
        let undo = try #require(host.undoHandlers.last)
        undo()
        #expect(try repository.invoiceCount() == 1)
        #expect(page.positions.count == 1)
        #expect(page.selectedID == invoice.id)
    }

    @Test func aPaymentCanBeRecordedFromTheDetailPane() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        var invoice = try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                  lines: [LineItem(description: "Work", quantity: 1, unitPrice: money("50.00"))]))
        page.reload(dataChanged: true)
        let id = try #require(invoice.id)
        page.select(id)
        page.detail.sendButton.click()
        invoice = try #require(try repository.invoice(id))
        #expect(invoice.status == .sent)
        #expect(page.detail.paymentButton.isVisible)

        // Opened as a person opens it: nothing but the window keeps the dialog alive.
        page.detail.paymentButton.click()
        let shown = MainLoop.run(until: { page.detail.paymentDialog?.isVisible == true })
        #expect(shown)
        let dialog = try #require(page.detail.paymentDialog)
        dialog.amountRow.text = moneyFormatter.string(from: money("60.00"), showSymbol: false)
        #expect(!dialog.recordButton.isSensitive)
        #expect(dialog.errorLabel.text.contains("more than"))
        dialog.amountRow.text = moneyFormatter.string(from: money("20.00"), showSymbol: false)
        dialog.noteRow.text = "Bank transfer"
        #expect(dialog.recordButton.isSensitive)
        dialog.recordButton.click()
        #expect(try repository.invoice(id)?.totals().balanceDue == money("30.00"))
        #expect(page.detail.balanceLabel.text == amount("30.00"))
        #expect(!dialog.isVisible)
    }

    @Test func theFreeTierStopsAtItsLimitAndSaysWhy() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        for _ in 0..<EntitlementLimits.freeInvoices {
            try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur))
        }
        page.reload(dataChanged: true)
        page.newInvoice()
        #expect(page.editor == nil)
        #expect(host.toasts.last?.contains("needs Billfold Pro") == true)
        #expect(host.shortcuts["<Control>n"] != nil)
        #expect(host.shortcuts["<Control>f"] != nil)
    }

    @Test func clientsShowTheirInvoicesAndDeletingOneAsksAboutThem() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let acme = try repository.save(Client(name: "Acme", currency: .eur))
        _ = try repository.save(Client(name: "Globex", currency: .eur))
        var invoice = try repository.save(Invoice(clientID: acme.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                  lines: [LineItem(description: "Work", quantity: 2, unitPrice: money("15.00"))]))
        try invoice.markSent(on: .today())
        invoice = try repository.save(invoice)
        page.reload(dataChanged: true)

        page.openClients()
        let clients = try #require(page.clientsWindow)
        #expect(clients.summaries.map(\.client.name) == ["Acme", "Globex"])
        clients.searchEntry.text = "glob"
        #expect(await MainLoop.wait(until: { clients.summaries.count == 1 }))
        clients.searchEntry.text = ""
        #expect(await MainLoop.wait(until: { clients.summaries.count == 2 }))

        clients.show(acme)
        #expect(clients.stack.visibleChildName == "client")
        #expect(clients.owedLabel.text == amount("30.00"))

        clients.confirmDelete()
        let dialog = try #require(clients.confirmation)
        dialog.respond("keep")
        #expect(try repository.clients().map(\.name) == ["Globex"])
        #expect(try repository.invoiceCount() == 1)
        #expect(host.toasts.last == "Client deleted; its 1 invoice was kept")
        #expect(clients.stack.visibleChildName == "list")
        #expect(page.positions.count == 1)
    }

    /// A client and a sent invoice with three lines, shown in the detail pane.
    func showInvoice(on page: InvoicesPage, _ repository: InvoiceRepository) throws -> Invoice {
        let client = try repository.save(Client(name: "Acme & Sons", currency: .eur))
        var invoice = try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur, lines: [
            line("Logo design", quantity: "3", price: "100.00", rate: "19"),
            line("Hosting", quantity: "12", price: "4.99", rate: "19"),
            line("Style guide", quantity: "1", price: "20.00", rate: "7"),
        ]))
        try invoice.markSent(on: .today())
        invoice = try repository.save(invoice)
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        return invoice
    }

    @Test func theFreeTierShowsTheInvoiceButAsksBeforeExporting() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try showInvoice(on: page, repository)
        #expect(page.detail.saveBadge.isShown)
        #expect(page.detail.printBadge.isShown)
        #expect(page.detail.emailBadge.isShown)

        // The preview always works.
        #expect(await MainLoop.wait(until: { page.detail.preview.state == .ready(pageCount: 1) }, timeout: 20))

        page.detail.savePDFButton.click()
        #expect(host.toasts.last?.contains("needs Billfold Pro") == true)
        let toasts = host.toasts.count
        let saveShortcut = try #require(host.shortcuts["<Control>s"])
        saveShortcut()
        #expect(host.toasts.count == toasts + 1)
        page.detail.emailButton.click()
        #expect(host.toasts.count == toasts + 2)
    }

    @Test func withProThePDFCarriesTheInvoice() async throws {
        let services = ServiceRegistry()
        let pro = EveryFeature()
        services.register(pro, as: (any Entitlements).self)
        let (page, repository, host, plugin) = try activate(services: services)
        defer { withExtendedLifetime((host, plugin, pro)) {} }
        let invoice = try showInvoice(on: page, repository)
        #expect(!page.detail.saveBadge.isShown)

        let pdf = try #require(page.detail.currentPDF())
        // Poppler reads a no-break space back as a plain one.
        func plain(_ text: String) -> String {
            text.replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
        }
        let text = plain(try PDFDocument(data: pdf).page(at: 0).text())
        #expect(text.contains(invoice.number))
        #expect(text.contains("Acme & Sons"))
        #expect(text.contains("Total" + plain(amount("449.66"))))

        #expect(await MainLoop.wait(until: { page.detail.preview.state == .ready(pageCount: 1) }, timeout: 20))
        #expect(page.detail.preview.pdfData != nil)

        // A new business name shows in the preview at once.
        var profile = try repository.profile()
        profile.name = "Studio Süd"
        try repository.saveProfile(profile)
        page.profileChanged()
        func previewText() -> String {
            guard let data = page.detail.preview.pdfData, let document = try? PDFDocument(data: data),
                  let first = try? document.page(at: 0) else { return "" }
            return first.text()
        }
        #expect(await MainLoop.wait(until: { previewText().contains("Studio Süd") }, timeout: 20))
    }

    @Test func aSentInvoiceIsCorrectedByACreditNoteNotEdited() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let invoice = try showInvoice(on: page, repository)
        for button in [page.detail.editButton, page.detail.deleteButton, page.detail.cancelButton] {
            #expect(!button.isVisible)
        }
        #expect(page.detail.links.creditNoteButton.isVisible)
        page.detail.links.creditNoteButton.click()
        let dialog = try #require(page.detail.links.creditNoteDialog)
        // Everything is credited unless told otherwise; a quantity above what was billed is refused.
        #expect(dialog.quantityRows.map(\.text) == ["3", "12", "1"])
        dialog.quantityRows[1].text = "13"
        #expect(!dialog.issueButton.isSensitive)
        #expect(dialog.errorLabel.text == "Line 2 has only 12 left to credit. Enter at most that quantity.")
        dialog.quantityRows[1].text = "0"
        dialog.quantityRows[2].text = "0"
        dialog.quantityRows[0].text = "1"
        #expect(dialog.issueButton.isSensitive)
        #expect(dialog.totalLabel.text == amount("119.00"))
        dialog.issue()
        let id = try #require(invoice.id)
        let credited = try #require(try repository.invoice(id))
        #expect(try credited.totals().balanceDue == invoice.totals().balanceDue.subtracting(money("119.00")))
        #expect(page.detail.links.creditedRow.isVisible)
        #expect(page.detail.links.creditedLabel.text == amount("-119.00"))
        #expect(page.detail.balanceLabel.text == amount("330.66"))
        #expect(host.toasts.last?.hasPrefix("Credit note CN-") == true)
    }

    @Test func aCreditNoteTakesOffAnAmountInAVATGroup() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let invoice = try showInvoice(on: page, repository)
        page.detail.links.creditNoteButton.click()
        let dialog = try #require(page.detail.links.creditNoteDialog)
        #expect(!dialog.creditsAnAmount && dialog.linesGroup.isVisible && !dialog.amountGroup.isVisible)
        dialog.creditRow.selectedIndex = 1
        #expect(dialog.creditsAnAmount)
        #expect(dialog.amountGroup.isVisible && !dialog.linesGroup.isVisible)
        // Nothing typed yet: nothing to issue, and it says why.
        #expect(!dialog.issueButton.isSensitive && dialog.errorLabel.text == "Enter the amount to take off.")
        // Two VAT groups, lowest rate first: 20.00 was billed at 7 %.
        #expect(dialog.amountVATRow.isVisible && dialog.amountVATRow.selectedIndex == 0)
        dialog.amountRow.text = moneyFormatter.string(from: money("20.01"), showSymbol: false)
        #expect(!dialog.issueButton.isSensitive)
        #expect(dialog.errorLabel.text.hasPrefix("Only \(amount("20.00")) billed at 7% VAT is left to credit"))
        dialog.amountRow.text = moneyFormatter.string(from: money("10.00"), showSymbol: false)
        #expect(dialog.issueButton.isSensitive && dialog.totalLabel.text == amount("10.70"))
        dialog.amountVATRow.selectedIndex = 1
        #expect(dialog.totalLabel.text == amount("11.90"))
        dialog.amountDescriptionRow.text = "Delivered a week late"
        dialog.issue()
        let id = try #require(invoice.id)
        let note = try #require(try repository.creditNotes(forInvoice: id).first)
        #expect(note.lines.isEmpty)
        #expect(note.amounts == [CreditedAmount(description: "Delivered a week late", net: money("10.00"),
                                                vatCategory: .standard, taxRate: 19)])
        #expect(page.detail.balanceLabel.text == amount("437.76"))
        #expect(try repository.invoice(id)?.status == .sent)
    }

    @Test func aPaidInvoiceCreditedShowsTheRefundDue() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        var invoice = try showInvoice(on: page, repository)
        try invoice.markPaid(on: .today())
        invoice = try repository.save(invoice)
        let id = try #require(invoice.id)
        page.reload(dataChanged: true)
        page.select(id)
        #expect(page.detail.balanceRow.title == "Balance Due")
        #expect(page.detail.balanceLabel.text == amount("0.00"))

        page.detail.links.creditNoteButton.click()
        let dialog = try #require(page.detail.links.creditNoteDialog)
        dialog.quantityRows[0].text = "1"
        dialog.quantityRows[1].text = "0"
        dialog.quantityRows[2].text = "0"
        dialog.issue()
        #expect(try repository.invoice(id)?.status == .paid)
        #expect(page.detail.balanceRow.title == "Refund Due")
        #expect(page.detail.balanceLabel.text == amount("119.00"))
        // Paying it back is the next step, before saving the PDF.
        #expect(page.detail.refundButton.isVisible && !page.detail.primarySavePDFButton.isVisible)

        page.detail.refundButton.click()
        let shown = MainLoop.run(until: { page.detail.paymentDialog?.isVisible == true })
        #expect(shown)
        let refund = try #require(page.detail.paymentDialog)
        #expect(refund.kind == .refund)
        #expect(refund.amountRow.text == moneyFormatter.string(from: money("119.00"), showSymbol: false))
        refund.amountRow.text = moneyFormatter.string(from: money("119.01"), showSymbol: false)
        #expect(!refund.recordButton.isSensitive)
        #expect(refund.errorLabel.text == "The refund is more than the \(amount("119.00")) due to the client. Enter at most that amount.")
        refund.amountRow.text = moneyFormatter.string(from: money("119.00"), showSymbol: false)
        refund.noteRow.text = "Bank transfer"
        refund.recordButton.click()
        #expect(!refund.isVisible)
        let refunded = try #require(try repository.invoice(id))
        #expect(refunded.payments.last?.amount == money("-119.00") && refunded.status == .paid)
        #expect(page.detail.balanceRow.title == "Balance Due")
        #expect(page.detail.balanceLabel.text == amount("0.00"))
        #expect(!page.detail.refundButton.isVisible && page.detail.primarySavePDFButton.isVisible)
        #expect(!page.detail.reopenButton.isVisible)
    }
}
