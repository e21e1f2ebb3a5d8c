import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Plans
import PluginAPI
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The Recurring Invoices window, its form, and Send Reminder, driven through their fields.
extension InvoicesPageTests {
    @Test func aRecurringInvoiceTypedIntoTheFormIssuesItsMissedMonthsAtOnce() throws {
        let services = ServiceRegistry()
        let pro = EveryFeature()
        services.register(pro, as: (any Entitlements).self)
        let (page, repository, host, plugin) = try activate(services: services)
        defer { withExtendedLifetime((host, plugin, pro)) {} }
        try repository.save(Client(name: "Acme & Sons", currency: .eur))

        page.menu.actions.activateAction(named: "recurring")
        let window = try #require(page.recurringWindow)
        defer { window.destroy() }
        #expect(window.listStack.visibleChildName == "empty")
        #expect(!window.planNote.isVisible)
        window.addButton.click()
        let editor = try #require(window.editor)
        #expect(editor.clientRow.selectedIndex == 0)

        // A start that cannot be read says why and keeps Save off; nothing is saved.
        editor.startRow.text = "7x"
        #expect(!editor.saveButton.isSensitive)
        #expect(editor.errorLabel.isVisible && editor.errorLabel.text.contains("First issue date"))
        let today = CalendarDay.today()
        let start = CalendarDay(year: today.month > 2 ? today.year : today.year - 1, month: (today.month + 9) % 12 + 1, day: 1)!
        editor.startRow.text = start.isoString
        editor.lineEditors[0].priceEntry.text = numbers.string(from: 500, minimumFractionDigits: 2)
        #expect(editor.saveButton.isSensitive, "\(editor.errorLabel.text)")
        editor.saveButton.click()

        #expect(window.statusLabel.text == "3 recurring invoices issued.")
        #expect(window.summaries.count == 1 && window.summaries[0].issuedCount == 3)
        #expect(page.model.ids.count == 3)
        let invoices = try page.model.ids.map { try #require(try repository.invoice($0)) }
        #expect(Set(invoices.map { $0.lines[0].description }).count == 3)
        #expect(invoices.allSatisfy { $0.lines[0].description.hasSuffix(String(today.year)) || $0.lines[0].description.hasSuffix(String(today.year - 1)) })

        // Pausing keeps it listed, says so, and issues nothing.
        window.setPaused(true, window.summaries[0].recurring)
        #expect(window.summaries[0].recurring.isPaused)
        #expect(try repository.invoiceCount() == 3)
    }

    /// A sent invoice, due 30 days ago, shown in the detail pane.
    func showOverdueInvoice(on page: InvoicesPage, _ repository: InvoiceRepository) throws -> Invoice {
        let client = try repository.save(Client(name: "Acme & Sons", currency: .eur))
        var invoice = try repository.save(Invoice(clientID: client.id, issueDate: .today().adding(days: -44),
                                                  dueDate: .today().adding(days: -30), currency: .eur,
                                                  lines: [line("Consulting", price: "1000.00", rate: "19")]))
        try invoice.markSent(on: .today().adding(days: -44))
        invoice = try repository.save(invoice)
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        return invoice
    }

    @Test func sendReminderPreviewsTheLetterAndRecordsItOnceOnTheInvoice() async throws {
        let services = ServiceRegistry()
        let pro = EveryFeature()
        services.register(pro, as: (any Entitlements).self)
        let (page, repository, host, plugin) = try activate(services: services)
        defer { withExtendedLifetime((host, plugin, pro)) {} }
        let invoice = try showOverdueInvoice(on: page, repository)
        let reminders = page.detail.reminders
        #expect(reminders.button.isVisible)
        #expect(!reminders.history.isVisible)

        reminders.button.click()
        let dialog = try #require(reminders.dialog)
        defer { dialog.destroy() }
        #expect(dialog.levelRow.selectedIndex == 0)
        dialog.levelRow.selectedIndex = 1
        dialog.feeRow.text = "x"
        #expect(!dialog.saveButton.isSensitive && dialog.errorLabel.isVisible)
        dialog.feeRow.text = numbers.string(from: 5, minimumFractionDigits: 2)
        dialog.rateRow.text = numbers.string(from: Decimal(string: "9.12")!, minimumFractionDigits: 2)
        // 1 190.00 × 9.12 % × 30 / 365 = 8.92.
        #expect(dialog.interestLabel.text == amount("8.92"))
        #expect(dialog.totalLabel.text == amount("1203.92"))
        #expect(await MainLoop.wait(until: { dialog.preview.state == .ready(pageCount: 1) }, timeout: 20))

        var letters: [Data] = []
        dialog.send { pdf, _ in letters.append(pdf) }
        dialog.send { pdf, _ in letters.append(pdf) }
        #expect(letters.count == 2 && letters[0] == letters[1])
        #expect(!dialog.feeRow.isSensitive)
        let recorded = try repository.reminders(for: try #require(invoice.id))
        #expect(recorded.map(\.level) == [.first] && recorded[0].fee == money("5.00"))
        #expect(reminders.history.isVisible)
    }

    @Test func onANarrowWindowTheFormAndTheLetterTakeTurns() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try showOverdueInvoice(on: page, repository)
        page.detail.reminders.button.click()
        let dialog = try #require(page.detail.reminders.dialog)
        defer { dialog.destroy() }
        dialog.setDefaultSize(width: 400, height: 700)
        #expect(await MainLoop.wait(until: { dialog.body.isFolded }, timeout: 5))
        #expect(dialog.letterToggle.isVisible)
        dialog.letterToggle.isActive = true
        #expect(dialog.body.visibleChild?.isSameObject(as: dialog.preview.widget) == true)
    }

    @Test func theRecurringAndReminderWindowsAreFreedAfterUse() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try showOverdueInvoice(on: page, repository)
        try expectFreedAfterUse({
            page.openRecurring()
            return page.recurringWindow
        }, use: { window in
            // The free plan says how recurring invoices count toward its limit.
            let note = (window as! RecurringInvoicesWindow).planNote
            #expect(note.isVisible && note.text.contains("5 invoices of the free version"))
        })
        page.openRecurring()
        let window = try #require(page.recurringWindow)
        try expectFreedAfterUse({
            window.edit(nil)
            return window.editor
        }, use: { window in
            let editor = window as! RecurringInvoiceEditor
            editor.startRow.text = "7x"
            editor.lineEditors[0].priceEntry.text = "7x"
        }, close: cancelDiscardingChanges)
        window.close()
        try expectFreedAfterUse({
            page.detail.reminders.button.click()
            return page.detail.reminders.dialog
        }, use: { window in
            let dialog = window as! ReminderDialog
            // The save, print and email helper holds the dialog as its parent until it closes.
            _ = dialog.actions()
            dialog.feeRow.text = "7x"
            dialog.rateRow.text = "7x"
        })
    }
}
