import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The invoice pane's layout: one next step in the header, the rest in its menu, and the
/// amounts as the PDF shows them.
extension InvoicesPageTests {
    @Test func theHeaderOffersOneNextStepAndTheMenuTheRest() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        let invoice = try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                  lines: [line(price: "50.00")]))
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        let detail = page.detail
        func primary() -> [String] {
            [(detail.sendButton, "send"), (detail.paymentButton, "payment"), (detail.primarySavePDFButton, "save")]
                .filter { $0.0.isVisible }.map(\.1)
        }
        #expect(detail.headerActions.isVisible)
        // In the header beside the list; under the number when the window is narrow.
        detail.placeActions(inHeader: page.detailHeader, folded: false)
        #expect(detail.headerActions.isInside(page.detailHeader))
        detail.placeActions(inHeader: page.detailHeader, folded: true)
        #expect(detail.headerActions.isInside(detail.narrowActionsSlot) && !detail.headerActions.isInside(page.detailHeader))
        detail.placeActions(inHeader: page.detailHeader, folded: false)
        #expect(detail.headerActions.isInside(page.detailHeader))
        #expect(primary() == ["send"])
        #expect(detail.deleteButton.isInside(detail.moreActions))
        #expect(detail.savePDFButton.isInside(detail.moreActions) && detail.savePDFButton.isVisible)

        detail.sendButton.click()
        #expect(primary() == ["payment"])
        detail.paidButton.click()
        #expect(primary() == ["save"])
        #expect(!detail.savePDFButton.isVisible)

        detail.show(nil)
        #expect(!detail.headerActions.isVisible)
    }

    @Test func deletingFromTheMenuAsksFirst() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        // A sent invoice stays on record: its menu offers no Delete. A draft's asks first.
        let sent = try showInvoice(on: page, repository)
        #expect(!page.detail.deleteButton.isVisible)
        let invoice = try repository.save(Invoice(clientID: sent.clientID, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                  lines: [line("Logo design", price: "100.00")]))
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        #expect(page.detail.deleteButton.isVisible)
        page.detail.deleteButton.click()
        let question = try #require(page.detail.deleteConfirmation)
        question.respond("keep")
        #expect(try repository.invoiceCount() == 2)

        page.detail.deleteButton.click()
        try #require(page.detail.deleteConfirmation).respond("delete")
        #expect(try repository.invoiceCount() == 1)
        #expect(host.toasts.last == String(format: "Invoice %@ deleted", invoice.number))
    }

    @Test func theAmountsShowTheNetAndTaxOfEachRate() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try showInvoice(on: page, repository)
        let detail = page.detail
        // 300.00 + 59.88 at 19 % and 20.00 at 7 %.
        #expect(detail.subtotalLabel.text == amount("379.88"))
        #expect(!detail.discountRow.isVisible)
        let rates = detail.taxRows.map(\.title)
        #expect(rates.count == 2)
        #expect(rates[0].contains(numbers.percentString(from: 7)) && rates[0].contains(amount("20.00")))
        #expect(rates[1].contains(numbers.percentString(from: 19)) && rates[1].contains(amount("359.88")))
        #expect(detail.totalLabel.text == amount("449.66"))
        #expect(detail.balanceLabel.text == amount("449.66"))
    }

    @Test func lineSubtitlesHaveOneSpaceAndLongDescriptionsStopAfterThreeLines() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        let long = String(repeating: "A long description. ", count: 100)
        let invoice = try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                  lines: [line(long, price: "20.00")]))
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        let row = try #require(page.detail.lines.rows.first)
        #expect(row.subtitle == "1 × " + amount("20.00"))
        #expect(row.titleLines == 3)
    }
}
