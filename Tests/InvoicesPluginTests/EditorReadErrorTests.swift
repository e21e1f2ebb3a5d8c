import BillfoldCore
import Foundation
import GtkKit
import PluginAPI
import Storage
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// A library whose clients cannot be read never looks like one without clients in the form.
@Suite(.serialized, needsDisplay) @MainActor
struct EditorReadErrorTests {
    @Test func clientsThatCannotBeReadAreNamedAndSaveStaysOff() throws {
        let host = TestHost()
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        try repository.saveProfile(EInvoiceFixtures.seller)
        _ = try repository.save(Client(name: "Acme", currency: .eur))
        try database.execute("ALTER TABLE invoices_client RENAME TO invoices_client_elsewhere")
        let context = host.context(for: "invoices", database: database)

        let editor = InvoiceEditor(repository: repository, context: context, invoice: nil)
        defer { editor.close() }
        #expect(editor.invoiceErrors.isVisible)
        #expect(editor.invoiceErrors.text.hasPrefix("The clients could not be read: "))
        let line = try #require(editor.lineEditors.first)
        line.descriptionView.text = "Design"
        line.priceEntry.text = MoneyFormatter().string(from: money("95.00"), showSymbol: false)
        #expect(!editor.saveButton.isSensitive)
    }
}
