import GObjectCore
import GtkKit
import Testing
@testable import ExpensesPlugin

/// Each Expenses dialog and window, used and closed as Cancel does, is freed with every handler it
/// connected, once nothing but its window held it.
extension ExpensesPageTests {
    func expectGoneAfterUse(_ open: () throws -> Window?, type: (Window) -> Void) throws {
        let handlersBefore = SignalClosureCounter.live
        var probe: FinalizationProbe?
        weak var opened: Window?
        do {
            let dialog = try #require(try open())
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

    @Test func everyExpensesDialogIsFreedAfterTypingAndCancel() throws {
        let f = try PageFixture()
        _ = try f.createTrip()
        try expectGoneAfterUse({ f.view.showNewTripDialog() }, type: { window in
            let dialog = window as! TripDialog
            dialog.nameRow.text = "7x"
            dialog.startRow.text = "7x"
            dialog.purposeRow.text = "7x"
        })
        try expectGoneAfterUse({ f.view.detail.showExpenseDialog(editing: nil) }, type: { window in
            let dialog = window as! ExpenseDialog
            dialog.vendorRow.text = "7x"
            dialog.amountRow.text = "7x"
            dialog.dateRow.text = "7x"
        })
        // Filled in from an e-invoice: its VAT rows and Remove VAT go with it.
        let invoice = try EInvoiceReader.read(EInvoiceSamples.cii())
        try expectGoneAfterUse({
            f.view.detail.showExpenseDialog(editing: nil, draft: invoice.expenseDetails(), note: "7x")
        }, type: { window in
            let dialog = window as! ExpenseDialog
            dialog.amountRow.text = "7x"
            dialog.removeVATButton.click()
        })
        try expectGoneAfterUse({ f.view.detail.showReport() }, type: { _ in })
    }
}
