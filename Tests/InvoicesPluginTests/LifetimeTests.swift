import BillfoldCore
import GObjectCore
import GtkKit
import Testing
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
        window.content = page.widget
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

    /// Opens a dialog, types into it, closes it as Cancel does, and requires the window, its
    /// wrapper and every handler it connected to be gone once nothing else holds them.
    func expectGoneAfterUse(_ open: () throws -> Window?, type: (Window) -> Void) throws {
        let handlersBefore = SignalClosureCounter.live
        var probe: FinalizationProbe?
        weak var opened: Window?
        do {
            let dialog = try #require(try open())
            #expect(dialog.isVisible)
            type(dialog)
            probe = FinalizationProbe(watching: dialog)
            opened = dialog
            dialog.close()
        }
        let finalized = MainLoop.run(until: { probe?.isFinalized == true }, timeout: 5)
        #expect(finalized)
        #expect(probe?.wasFinalizedOnMainActor == true)
        #expect(opened == nil)
        #expect(SignalClosureCounter.live == handlersBefore)
    }

    @Test func everyInvoicesDialogIsFreedAfterTypingAndCancel() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try showInvoice(on: page, repository)

        try expectGoneAfterUse({
            page.detail.paymentButton.click()
            return page.detail.paymentDialog
        }, type: { window in
            let dialog = window as! PaymentDialog
            dialog.amountRow.text = "7x"
            dialog.dateRow.text = "7x"
            dialog.noteRow.text = "7x"
        })
        try expectGoneAfterUse({
            page.newInvoice()
            return page.editor
        }, type: { window in
            let editor = window as! InvoiceEditor
            editor.lineEditors[0].descriptionView.text = "7x"
            editor.lineEditors[0].priceEntry.text = "7x"
        })
        try expectGoneAfterUse({
            page.openClients()
            return page.clientsWindow
        }, type: { _ in })
        page.newInvoice()
        let editor = try #require(page.editor)
        try expectGoneAfterUse({
            editor.newClientButton.click()
            return editor.clientEditor
        }, type: { window in
            let client = window as! ClientEditor
            client.nameRow.text = "7x"
            client.emailRow.text = "7x"
        })
        editor.close()
    }
}
