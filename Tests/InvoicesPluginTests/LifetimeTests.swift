import BillfoldCore
import BillfoldUI
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Swift state tied to a widget lives exactly as long as the widget: rows across searches, and
/// each dialog after it was used and closed.
extension InvoicesPageTests {
    @Test func rowControllersLiveOnlyAsLongAsTheirRows() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let acme = try repository.save(Client(name: "Acme", currency: .eur))
        let globex = try repository.save(Client(name: "Globex", currency: .eur))
        for index in 0..<60 {
            try repository.save(Invoice(clientID: (index.isMultiple(of: 2) ? acme : globex).id, issueDate: .today(),
                                        dueDate: .today(), currency: .eur,
                                        lines: [LineItem(description: "Work \(index)", quantity: 1, unitPrice: money("10.00"))]))
        }
        page.reload(dataChanged: true)
        let window = AdwaitaWindow()
        window.content = try #require(plugin.page).widget
        window.setDefaultSize(width: 1000, height: 700)
        window.present()
        defer { window.destroy() }

        var probes: [FinalizationProbe] = []
        func watchRows() {
            for row in page.listView.rowWidgets where !probes.contains(where: { $0.watches(row) }) {
                probes.append(FinalizationProbe(watching: row))
            }
        }
        for _ in 0..<5 {
            page.searchEntry.text = "globex"
            #expect(await MainLoop.wait(until: { page.positions.count == 30 }))
            _ = await MainLoop.wait(until: { false }, timeout: 0.1)
            watchRows()
            page.searchEntry.text = ""
            #expect(await MainLoop.wait(until: { page.positions.count == 60 }))
            _ = await MainLoop.wait(until: { false }, timeout: 0.1)
            watchRows()
        }
        // GTK made rows anew across the searches, and each row it tore down is gone.
        #expect(probes.count > page.listView.rowWidgetCount)
        let alive = probes.filter { !$0.isFinalized }.count
        #expect(alive == page.listView.rowWidgetCount)
    }

    @Test func everyInvoicesDialogIsFreedAfterTypingAndCancel() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try showInvoice(on: page, repository)

        try expectFreedAfterUse({
            page.detail.paymentButton.click()
            return page.detail.paymentDialog
        }, use: { window in
            let dialog = window as! PaymentDialog
            dialog.amountRow.text = "7x"
            dialog.dateRow.text = "7x"
            dialog.noteRow.text = "7x"
        }, close: cancelDiscardingChanges)
        try expectFreedAfterUse({
            page.newInvoice()
            return page.editor
        }, use: { window in
            let editor = window as! InvoiceEditor
            editor.lineEditors[0].descriptionView.text = "7x"
            editor.lineEditors[0].priceEntry.text = "7x"
        }, close: cancelDiscardingChanges)
        try expectFreedAfterUse({
            page.openClients()
            return page.clientsWindow
        }, use: { _ in })
        page.newInvoice()
        let editor = try #require(page.editor)
        try expectFreedAfterUse({
            editor.newClientButton.click()
            return editor.clientEditor
        }, use: { window in
            let client = window as! ClientEditor
            client.nameRow.text = "7x"
            client.emailRow.text = "7x"
        }, close: cancelDiscardingChanges)
        editor.close()
    }
}

/// Cancel on a form that was typed into asks first; the person discards what they typed.
@MainActor
func cancelDiscardingChanges(_ window: Window) {
    window.close()
    (window as? FormWindow)?.discardQuestion?.respond("discard")
}
