import BillfoldCore
import ExpensesCore
import Foundation
import GtkKit

/// Supplier e-invoices into the trip: a Factur-X / ZUGFeRD PDF or an XRechnung / EN 16931 XML,
/// chosen or dropped, becomes an expense; any other receipt opens Add Expense with it attached
/// and a note saying why nothing was read.
extension TripDetailView {
    /// Opens the file chooser for an e-invoice.
    @discardableResult
    func chooseInvoice() -> FileChooser {
        let chooser = FileChooser(title: tr("Add from an E-Invoice"), parent: context.window, acceptLabel: tr("_Add"), filters: [
            FileFilter(name: tr("E-invoices (Factur-X, ZUGFeRD, XRechnung)"), suffixes: ["pdf", "xml"]),
            FileFilter(name: tr("Receipts (JPEG, PNG, WebP, PDF)"), suffixes: ["jpg", "jpeg", "png", "webp", "pdf"]),
        ])
        invoiceChooser = chooser
        chooser.open { [weak self] path in
            guard let self, let path else { return }
            self.importInvoice(from: URL(fileURLWithPath: path))
        }
        return chooser
    }

    /// Stores the file as a receipt and reads its e-invoice off the main thread. An invoice in
    /// the trip's currency is added at once (with Undo); one in another currency opens Add
    /// Expense filled in, to take the exchange rate; any other file opens it with the receipt.
    func importInvoice(from url: URL) {
        guard let trip else { return }
        let repository = self.repository
        isImportingInvoice = true
        importButton.isSensitive = false
        Task { [weak self] in
            let result = await Task.detached { () -> Result<InvoiceFileImport, any Error> in
                Result { try repository.importInvoiceFile(from: url) }
            }.value
            guard let self else { return }
            self.isImportingInvoice = false
            self.importButton.isSensitive = true
            switch result {
            case .failure(let error):
                self.context.showToast(error.localizedDescription)
            case .success(let imported):
                self.add(imported, to: trip)
            }
        }
    }

    private func add(_ imported: InvoiceFileImport, to trip: Trip) {
        do {
            if let existing = try repository.expense(withReceipt: imported.receipt.reference, in: trip.id) {
                context.showToast(String(format: tr("This file is already the receipt of “%@” in this trip."),
                                         existing.vendor.isEmpty ? existing.category.localizedName : existing.vendor))
                return
            }
        } catch {
            context.showToast(error.localizedDescription)
            return
        }
        let details = imported.details(for: trip.details)
        switch imported.invoice {
        case .failure(let problem):
            showExpenseDialog(editing: nil, draft: details, note: problem.localizedDescription, noteIsWarning: true)
        case .success(let invoice) where invoice.currency != trip.currency:
            showExpenseDialog(editing: nil, draft: details, note: String(
                format: tr("Read from invoice %@ of %@. It is in %@: enter the exchange rate, then add it."),
                invoice.number, invoice.sellerName, invoice.currency.code))
        case .success(let invoice):
            do {
                let expense = try repository.addExpense(details, to: trip.id)
                refresh()
                onTripChanged?()
                context.showToast(String(format: tr("Added invoice %@ of %@"), invoice.number, invoice.sellerName),
                                  undoLabel: tr("_Undo")) { [weak self] in self?.undoImport(expense.id) }
            } catch {
                showExpenseDialog(editing: nil, draft: details, note: error.localizedDescription, noteIsWarning: true)
            }
        }
    }

    private func undoImport(_ id: ExpenseID) {
        do {
            try repository.deleteExpense(id)
        } catch {
            context.showToast(error.localizedDescription)
        }
        refresh()
        onTripChanged?()
    }
}
