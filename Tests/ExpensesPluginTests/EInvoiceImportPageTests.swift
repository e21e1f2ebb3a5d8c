import BillfoldCore
import Documents
import Foundation
import GObjectCore
import Graphics
import GtkKit
import Testing
import TestSupport
@testable import ExpensesCore
@testable import ExpensesPlugin

/// Supplier e-invoices dropped on a trip, as a person would: the file manager's drop, the
/// toast, the expense dialog, the receipt viewer and the report.
@Suite(.serialized, needsDisplay) @MainActor
struct EInvoiceImportPageTests {
    private func drop(_ url: URL, on f: PageFixture) async -> Bool {
        let detail = f.view.detail
        guard let target = detail.dropTarget, target.deliver(fileAt: url.path) else { return false }
        return await MainLoop.wait(until: { !detail.isImportingInvoice }, timeout: 10)
    }

    @Test func anInvoiceInTheTripsCurrencyBecomesAnExpenseWithItsVAT() async throws {
        let f = try PageFixture()
        let trip = try f.createTrip(from: "2026-03-10", to: "2026-03-12")
        let code = trip.currency.code
        let money = { (minor: Int64) in Money(minorUnits: minor, currency: trip.currency) }
        let url = try f.directory.write(EInvoiceSamples.cii(currency: code), named: "RE-2026-0042.xml")
        #expect(await drop(url, on: f))

        let detail = f.view.detail
        let expense = try #require(detail.expenses.first)
        #expect(detail.expenses.count == 1)
        #expect(expense.vendor == "Papeterie Müller GmbH" && expense.date == day("2026-03-11"))
        #expect(expense.originalAmount == money(17_250))
        #expect(expense.vat.map(\.taxAmount) == [money(1_900), money(350)])
        #expect(detail.receiptIndicators == [.invoiceXML])
        #expect(detail.totalLabel.text == f.money.string(from: money(17_250)))
        #expect(f.host.toasts.last == String(format: tr("Added invoice %@ of %@"), "RE-2026-0042", "Papeterie Müller GmbH"))

        // Dropped again, it is not counted twice.
        #expect(await drop(url, on: f))
        #expect(detail.expenses.count == 1)
        #expect(f.host.toasts.last == String(format: tr("This file is already the receipt of “%@” in this trip."),
                                             "Papeterie Müller GmbH"))

        // The dialog shows the VAT per rate; the bare XML opens as a page laid out from it.
        let dialog = try #require(detail.showExpenseDialog(editing: expense))
        #expect(dialog.vatGroup.isVisible && dialog.vat.count == 2)
        #expect(!dialog.importNote.isVisible)
        let viewer = try #require(dialog.viewReceipt())
        let document = try #require(viewer.document)
        #expect(await MainLoop.wait(until: { document.pageCount == 1 }, timeout: 10))
        viewer.close()
        dialog.close()

        // The report's receipt page is the invoice, readable.
        let report = try #require(detail.showReport())
        await report.generation?.value
        let target = f.directory.file("report.pdf")
        #expect(await report.save(to: target))
        let pdf = try PDFDocument(data: try Data(contentsOf: target))
        let texts = try (0..<pdf.pageCount).map { try pdf.page(at: $0).text() }
        #expect(texts.last?.contains("Printer paper") == true)
        #expect(texts.last?.contains("RE-2026-0042") == true)
        #expect(texts.contains { $0.contains(tr("VAT on suppliers’ invoices")) })
        report.close()

        // Undo takes it out again.
        let undo = try #require(f.host.undoHandlers.first)
        undo()
        #expect(detail.expenses.isEmpty)
    }

    @Test func aFacturXPDFInAnotherCurrencyAsksForTheRate() async throws {
        let f = try PageFixture()
        let trip = try f.createTrip()
        let other = trip.currency == .eur ? "USD" : "EUR"
        let invoiceCurrency = try #require(Currency(code: other))
        let pdf = try EInvoiceSamples.pdf(attaching: [("factur-x.xml", EInvoiceSamples.cii(currency: other))])
        #expect(await drop(try f.directory.write(pdf, named: "invoice.pdf"), on: f))

        #expect(f.view.detail.expenses.isEmpty)
        let dialog = try #require(f.view.detail.expenseDialog)
        #expect(dialog.importNote.isVisible && dialog.importNote.text.contains(other))
        #expect(dialog.vendorRow.text == "Papeterie Müller GmbH")
        #expect(dialog.amountRow.text == f.amountText(17_250, invoiceCurrency))
        #expect(dialog.receipt?.kind == .pdf)
        #expect(dialog.vatGroup.isVisible)
        #expect(!dialog.saveButton.isSensitive)

        // The VAT is in the invoice's currency: another currency is refused until it goes.
        dialog.currencyRow.choose(trip.currency)
        #expect(dialog.visibleMessages.contains(ExpenseValidationError.vatInOtherCurrency(invoiceCurrency).localizedDescription))
        dialog.currencyRow.choose(invoiceCurrency)
        #expect(!dialog.visibleMessages.contains(ExpenseValidationError.vatInOtherCurrency(invoiceCurrency).localizedDescription))

        dialog.rateRow.text = f.numbers.string(from: dec("1.08"))
        let saved = try #require(dialog.save())
        #expect(saved.vat.count == 2 && saved.vat.allSatisfy { $0.currency == invoiceCurrency })
        #expect(saved.convertedAmount == Money(minorUnits: 18_630, currency: trip.currency))
    }

    @Test func aFileThatIsNotAnInvoiceIsStillAReceiptWithTheReason() async throws {
        let f = try PageFixture()
        _ = try f.createTrip()
        #expect(await drop(try f.directory.write(try EInvoiceSamples.pdf(), named: "scan.pdf"), on: f))
        let dialog = try #require(f.view.detail.expenseDialog)
        #expect(dialog.receipt?.kind == .pdf)
        #expect(dialog.visibleMessages == [EInvoiceError.noInvoiceInPDF(attachments: []).localizedDescription])
        #expect(dialog.importNote.hasCssClass("warning"))
        #expect(!dialog.vatGroup.isVisible)
        dialog.close()

        // A broken XML is kept too, and says where it breaks.
        let broken = try f.directory.write(EInvoiceSamples.cii().prefix(700), named: "broken.xml")
        #expect(await drop(broken, on: f))
        let second = try #require(f.view.detail.expenseDialog)
        #expect(second !== dialog)
        #expect(second.receipt?.kind == .xml)
        #expect(second.importNote.text.contains(String(format: tr("The e-invoice XML is damaged at line %d (%@), so it could not be read. Ask the supplier for the invoice again."), 0, "").prefix(20)))
        second.close()

        // Not a receipt at all: nothing is opened, a toast says why.
        let text = try f.directory.write(Data("just words".utf8), named: "notes.txt")
        #expect(await drop(text, on: f))
        #expect(f.view.detail.expenseDialog === second)
        #expect(f.host.toasts.last == ReceiptError.unsupportedType(fileName: "notes.txt").localizedDescription)
    }
}
