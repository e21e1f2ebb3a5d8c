import BillfoldUI
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import ExpensesCore
@testable import ExpensesPlugin

/// Each Expenses dialog and window, used and closed as Cancel does, is freed with every handler it
/// connected, once nothing but its window held it.
extension ExpensesPageTests {
    @Test func everyExpensesDialogIsFreedAfterTypingAndCancel() throws {
        let f = try PageFixture()
        _ = try f.createTrip()
        try expectFreedAfterUse({ f.view.showNewTripDialog() }, use: { window in
            let dialog = window as! TripDialog
            dialog.nameRow.text = "7x"
            dialog.startRow.text = "7x"
            dialog.purposeRow.text = "7x"
        }, close: cancelDiscardingChanges)
        try expectFreedAfterUse({ f.view.detail.showExpenseDialog(editing: nil) }, use: { window in
            let dialog = window as! ExpenseDialog
            dialog.vendorRow.text = "7x"
            dialog.amountRow.text = "7x"
            dialog.dateRow.text = "7x"
        }, close: cancelDiscardingChanges)
        // Filled in from an e-invoice: its VAT rows and Remove VAT go with it.
        let invoice = try EInvoiceReader.read(EInvoiceSamples.cii())
        try expectFreedAfterUse({
            f.view.detail.showExpenseDialog(editing: nil, draft: invoice.expenseDetails(), note: "7x")
        }, use: { window in
            let dialog = window as! ExpenseDialog
            dialog.amountRow.text = "7x"
            dialog.removeVATButton.click()
        }, close: cancelDiscardingChanges)
        try expectFreedAfterUse({ f.view.detail.showReport() }, use: { _ in })
    }
}

/// Cancel on a form that was typed into asks first; the person discards what they typed.
@MainActor
private func cancelDiscardingChanges(_ window: Window) {
    window.close()
    (window as? FormWindow)?.discardQuestion?.respond("discard")
}
