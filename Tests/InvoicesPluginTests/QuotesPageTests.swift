import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The Quotes and Credit Notes lists beside the invoices, driven through their buttons.
extension InvoicesPageTests {
    func documents(_ plugin: Invoices) throws -> InvoicesDocumentsView {
        try #require(plugin.documentsView)
    }

    /// An invoice cancelled by a full credit note and a quote for its client, both listed.
    func listCreditNoteAndQuote(_ page: InvoicesPage, _ repository: InvoiceRepository, _ view: InvoicesDocumentsView)
        throws -> (Invoice, CreditNote, Quote) {
        let invoice = try showInvoice(on: page, repository)
        let note = try repository.issue(CreditNote.full(of: invoice, after: [], on: .today(), reason: "Order cancelled"))
        view.creditNoteIssued(note)
        let quote = try repository.save(Quote(clientID: invoice.clientID, issueDate: .today(), validUntil: .today(), currency: .eur,
                                              lines: [LineItem(description: "Concept", quantity: 1, unitPrice: money("90.00"))]))
        view.quotes.reload()
        view.creditNotes.reload()
        return (invoice, note, quote)
    }

    @Test func theSwitcherShowsEachList() throws {
        let (page, _, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        view.show(.quotes)
        #expect(view.widget.visibleChildName == "quotes")
        #expect(view.quotes.pane.listStack.visibleChildName == "empty")
        view.show(.creditNotes)
        #expect(view.widget.visibleChildName == "creditNotes")
        #expect(view.creditNotes.pane.listStack.visibleChildName == "empty")
        view.show(.invoices)
        #expect(view.widget.visibleChildName == "invoices")
        _ = page
    }

    @Test func aQuoteIsWrittenSentAcceptedAndConverted() throws {
        let (_, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        let client = try repository.save(Client(name: "Acme & Sons", currency: .eur))
        view.show(.quotes)
        let quotes = view.quotes
        quotes.openEditor(for: nil)
        let editor = try #require(quotes.editor)
        #expect(editor.isQuote && editor.dueRow.title == "Valid Until" && !editor.numberRow.isVisible)
        editor.lineEditors[0].descriptionView.text = "Website concept"
        editor.lineEditors[0].quantityEntry.text = "2"
        editor.lineEditors[0].priceEntry.text = numbers.string(from: Decimal(150))
        editor.update()
        #expect(editor.saveButton.isSensitive)
        _ = editor.save()
        // Saved means closed, with no question about discarding what was just saved.
        #expect(editor.discardQuestion == nil && !editor.isVisible)
        let id = try #require(quotes.selectedID)
        #expect(try repository.quote(id)?.clientID == client.id)
        #expect(quotes.pane.positions.count == 1)

        let detail = quotes.detail
        #expect(detail.sendButton.isVisible && !detail.convertButton.isVisible)
        detail.sendButton.click()
        #expect(detail.acceptButton.isVisible && detail.declineButton.isVisible)
        detail.acceptButton.click()
        #expect(detail.convertButton.isVisible && !detail.acceptButton.isVisible)
        detail.convertButton.click()

        let quote = try #require(try repository.quote(id))
        let invoiceID = try #require(quote.invoiceID)
        #expect(view.shown == .invoices && view.invoices.selectedID == invoiceID)
        #expect(view.invoices.detail.links.quoteRow.isVisible)
        #expect(view.invoices.detail.links.quoteRow.subtitle?.hasPrefix(quote.number) == true)
        #expect(host.toasts.last?.contains(quote.number) == true)

        view.showQuote(id)
        #expect(detail.invoiceRow.isVisible && !detail.convertButton.isVisible)
    }

    @Test func theShortcutsActOnTheListInView() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        let draft = try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                lines: [LineItem(description: "Work", quantity: 1, unitPrice: money("5.00"))]))
        page.reload(dataChanged: true)
        page.select(try #require(draft.id))
        let delete = try #require(host.shortcuts["Delete"])
        let new = try #require(host.shortcuts["<Control>n"])
        view.show(.quotes)
        // Delete while the quotes are shown leaves the invoice selected behind them alone.
        delete()
        #expect(try repository.invoiceCount() == 1)
        new()
        #expect(view.quotes.editor?.isQuote == true && page.editor == nil)
        view.quotes.editor?.close()
        view.show(.invoices)
        new()
        #expect(page.editor?.isQuote == false)
        page.editor?.close()
        delete()
        #expect(try repository.invoiceCount() == 0)
    }

    @Test func aDeclinedQuoteIsReopened() throws {
        let (_, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        var quote = try repository.save(Quote(clientID: client.id, issueDate: .today(), validUntil: CalendarDay.today().adding(days: 30),
                                              currency: .eur, lines: [LineItem(description: "Work", quantity: 1, unitPrice: money("10.00"))]))
        try quote.markSent(on: .today())
        quote = try repository.save(quote)
        view.showQuote(try #require(quote.id))
        let detail = view.quotes.detail
        // Lines read as on an invoice: no unit, no double space.
        #expect(detail.lines.rows.map(\.subtitle) == ["1 × " + amount("10.00")])
        detail.declineButton.click()
        #expect(detail.reopenButton.isVisible && detail.heading.badge.text == "Declined")
        detail.reopenButton.click()
        #expect(detail.heading.badge.text == "Draft" && detail.editButton.isVisible)
    }

    @Test func theCreditNoteListShowsWhatWasIssued() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        let invoice = try showInvoice(on: page, repository)
        let note = try repository.issue(CreditNote.full(of: invoice, after: [], on: .today(), reason: "Order cancelled"))
        view.creditNoteIssued(note)
        #expect(page.detail.heading.badge.text == "Cancelled")
        view.showCreditNote(try #require(note.id))
        let notes = view.creditNotes
        #expect(notes.pane.positions.count == 1)
        #expect(notes.heading.numberLabel.text.contains(note.number) && notes.invoiceRow.subtitle == invoice.number)
        #expect(notes.reasonRow.subtitle == "Order cancelled")
        #expect(notes.lines.rows.count == invoice.lines.count && notes.lines.rows.allSatisfy { $0.titleLines == 3 })
        #expect(notes.pane.detailStack.visibleChildName == "credit-note")
    }

    /// Quote and credit note rows that cannot be read say why in the row, as invoice rows do,
    /// instead of standing blank with a toast for every row the list binds.
    @Test func quoteAndCreditNoteRowsThatCannotBeReadSayWhy() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        let (_, note, _) = try listCreditNoteAndQuote(page, repository, view)
        #expect(view.quotes.rowContent(at: 0)?.subtitle == "Acme & Sons")
        #expect(view.creditNotes.rowContent(at: 0)?.title == note.number)

        try repository.database.execute("ALTER TABLE invoices_client RENAME TO invoices_client_elsewhere")
        view.quotes.reload()
        view.creditNotes.reload()
        let toasts = host.toasts.count
        let quoteRow = try #require(view.quotes.rowContent(at: 0))
        #expect(quoteRow.title == "—" && quoteRow.subtitle.hasPrefix("The quote could not be read: "))
        let noteRow = try #require(view.creditNotes.rowContent(at: 0))
        #expect(noteRow.title == "—" && noteRow.subtitle.hasPrefix("The credit note could not be read: "))
        #expect(host.toasts.count == toasts)

        try repository.database.execute("ALTER TABLE invoices_client_elsewhere RENAME TO invoices_client")
        #expect(view.quotes.rowContent(at: 0)?.subtitle == "Acme & Sons")
        #expect(view.creditNotes.rowContent(at: 0)?.title == note.number)
    }

    /// The quote and credit note lists paint their rows as the invoice list does; a row that
    /// cannot be read paints its reason, and its tooltip holds the reason whole.
    @Test func quoteAndCreditNoteRowsArePainted() async throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        let (invoice, note, quote) = try listCreditNoteAndQuote(page, repository, view)
        let window = AdwaitaWindow()
        window.content = try #require(plugin.page).widget
        window.setDefaultSize(width: 1000, height: 700)
        window.present()
        defer { window.destroy() }

        view.show(.quotes)
        let quotes = view.quotes.pane
        #expect(await MainLoop.wait(until: { quotes.rowTexts(at: 0)?.first == quote.number }))
        let quoteTexts = try #require(quotes.rowTexts(at: 0))
        #expect(quoteTexts[1] == "Acme & Sons" && quoteTexts[3].hasPrefix("Valid until ") && quoteTexts[4] == "Draft")

        view.show(.creditNotes)
        let notes = view.creditNotes.pane
        #expect(await MainLoop.wait(until: { notes.rowTexts(at: 0)?.first == note.number }))
        #expect(notes.rowTexts(at: 0)?[3] == "For invoice \(invoice.number)" && notes.rowTexts(at: 0)?[4] == "")

        try repository.database.execute("ALTER TABLE invoices_client RENAME TO invoices_client_elsewhere")
        defer { _ = try? repository.database.execute("ALTER TABLE invoices_client_elsewhere RENAME TO invoices_client") }
        view.creditNotes.reload()
        #expect(await MainLoop.wait(until: { notes.rowTexts(at: 0)?.first == "—" }))
        #expect(notes.rowTexts(at: 0)?[1].hasPrefix("The credit note could not be read: ") == true)
        let row = try #require(notes.listView.rowWidgets.first { $0.position == 0 })
        #expect(row.tooltip == notes.rowTexts(at: 0)?[1])
    }

    /// A credit note saves as XRechnung once its invoice could be one; until then it says what is missing.
    @Test func aCreditNoteSavesAsXRechnung() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let view = try documents(plugin)
        let invoice = try showInvoice(on: page, repository)
        let note = try repository.issue(CreditNote.full(of: invoice, after: [], on: .today(), reason: "Order cancelled"))
        view.creditNoteIssued(note)
        view.showCreditNote(try #require(note.id))
        let notes = view.creditNotes
        #expect(notes.xRechnungXML() == nil)
        let dialog = try #require(notes.eInvoices.problemDialog)
        #expect(dialog.heading == "Not Ready to Be an E-Invoice")
        #expect(notes.eInvoices.problemList.contains("Leitweg-ID"))
        dialog.close()

        try repository.saveProfile(EInvoiceFixtures.seller)
        let buyer = EInvoiceFixtures.germanAuthority
        // The sent invoice keeps the client's details as they were; a credit note bills the same.
        try repository.database.execute(
            "UPDATE invoices_invoice SET buyer_reference = '991-12345-67', bill_to_name = ?, bill_to_address = ?, bill_to_email = ?, bill_to_postcode = ?, bill_to_city = ?, bill_to_country = ?",
            [buyer.name, buyer.address, buyer.email, buyer.postcode, buyer.city, buyer.countryCode])
        let xml = String(decoding: try #require(notes.xRechnungXML(), "\(notes.eInvoices.problemList)"), as: UTF8.self)
        #expect(xml.contains("<ram:TypeCode>381</ram:TypeCode>"))
        #expect(xml.contains(invoice.number))
    }

    @Test func theQuoteFormAndTheCreditNoteDialogAreFreedAfterTypingAndCancel() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        _ = try showInvoice(on: page, repository)
        let quotes = try documents(plugin).quotes
        try expectFreedAfterUse({
            quotes.openEditor(for: nil)
            return quotes.editor
        }, use: { window in
            let editor = window as! InvoiceEditor
            editor.lineEditors[0].descriptionView.text = "7x"
            editor.lineEditors[0].priceEntry.text = "7x"
            editor.dueRow.text = "7x"
        }, close: cancelDiscardingChanges)
        try expectFreedAfterUse({
            page.detail.links.creditNoteButton.click()
            return page.detail.links.creditNoteDialog
        }, use: { window in
            let dialog = window as! CreditNoteDialog
            dialog.quantityRows[0].text = "7x"
            dialog.reasonRow.text = "7x"
        })
    }
}
