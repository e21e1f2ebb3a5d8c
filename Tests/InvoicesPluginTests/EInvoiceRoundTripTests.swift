import BillfoldCore
import ExpensesCore
import ExpensesPlugin
import Foundation
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

/// What Billfold sends, Billfold reads back: each fixture exported as Factur-X (and XRechnung where
/// it is one) and imported as a supplier's e-invoice gives the same total and the same VAT per
/// category and rate, to the cent.
@Suite struct EInvoiceRoundTripTests {
    struct Share: Hashable, CustomStringConvertible {
        let category: String
        let taxable: Money
        let tax: Money
        var description: String { "\(category) \(taxable.minorUnits)+\(tax.minorUnits)" }
    }

    private func sent(_ document: InvoiceDocument) -> [Share] {
        document.totals.taxLines.map { Share(category: $0.category.rawValue, taxable: $0.taxableAmount, tax: $0.tax) }
    }

    private func received(_ invoice: EInvoice) -> [Share] {
        invoice.vatBreakdown.map { Share(category: $0.categoryCode, taxable: $0.taxableAmount, tax: $0.taxAmount) }
    }

    @Test(arguments: EInvoiceFixtures.all.map(\.name))
    func exportedThenImportedKeepsEveryAmount(_ name: String) throws {
        let fixture = try #require(EInvoiceFixtures.all.first { $0.name == name })
        let document = fixture.document
        var files: [(Data, ReceiptKind)] = []
        if fixture.formats.contains(.facturX) {
            files.append((try EInvoiceExport.facturXPDF(document).data, .pdf))
        }
        if fixture.formats.contains(.xrechnung) {
            files.append((try EInvoiceExport.ciiXML(document, format: .xrechnung), .xml))
        }
        #expect(!files.isEmpty)
        for (data, kind) in files {
            let invoice = try EInvoiceFile.read(data, kind: kind)
            #expect(invoice.number == document.invoice.number)
            #expect(invoice.currency == document.invoice.currency)
            #expect(invoice.grandTotal == document.totals.total)
            #expect(invoice.netTotal == document.totals.netTotal)
            #expect(invoice.vatTotal == document.totals.tax)
            #expect(Set(received(invoice)) == Set(sent(document)), "\(kind)")
            let expense = invoice.expenseDetails()
            #expect(expense.vat.map(\.taxAmount).reduce(0) { $0 + $1.minorUnits } == document.totals.tax.minorUnits)
        }
    }
}
