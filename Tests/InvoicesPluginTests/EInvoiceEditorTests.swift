import BillfoldCore
import Foundation
import GtkKit
import PluginAPI
import Storage
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The editor's e-invoice fields and the check that says, before any export, what is missing.
@Suite(.serialized, needsDisplay) @MainActor
struct EInvoiceEditorTests {
    @Test func theFormSaysWhatAnEInvoiceStillNeedsAndWhenItIsReady() throws {
        let host = TestHost()
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        var profile = EInvoiceFixtures.seller
        profile.countryCode = ""
        try repository.saveProfile(profile)
        let context = host.context(for: "invoices", database: database)

        // The client form keeps what an e-invoice needs.
        let clientForm = ClientEditor(repository: repository, client: nil, parent: nil, profile: profile)
        clientForm.nameRow.text = "Stadt Musterstadt"
        clientForm.emailRow.text = "rechnung@musterstadt.example"
        clientForm.vatIDRow.text = "DE 987"
        #expect(!clientForm.saveButton.isSensitive)
        #expect(clientForm.errorLabel.text.contains("VAT ID"))
        clientForm.vatIDRow.text = ""
        clientForm.postcodeRow.text = "12345"
        clientForm.cityRow.text = "Musterstadt"
        clientForm.countryRow.code = "DE"
        clientForm.formatRow.selectedIndex = 2
        clientForm.buyerReferenceRow.text = "991-12345-67"
        let client = try #require(clientForm.save())
        #expect(client.eInvoiceFormat == .xrechnung && client.countryCode == "DE" && client.buyerReference == "991-12345-67")

        let editor = InvoiceEditor(repository: repository, context: context, invoice: nil)
        #expect(editor.buyerReferenceRow.text == "991-12345-67")
        let line = try #require(editor.lineEditors.first)
        #expect(line.categoryRow.category == .standard && line.unitRow.selectedIndex == 0)
        line.descriptionView.text = "Beratung"
        line.priceEntry.text = MoneyFormatter().string(from: money("95.00"), showSymbol: false)
        #expect(editor.saveButton.isSensitive)
        #expect(editor.eInvoiceStatus.isVisible)
        #expect(editor.eInvoiceStatus.text.contains("XRechnung"))
        #expect(editor.eInvoiceStatus.text.contains("Choose your country in Preferences › Business."))

        // Exempt lines have no rate to type and ask for the reason.
        line.categoryRow.category = .exempt
        #expect(!line.taxEntry.isSensitive)
        #expect(editor.exemptionRow.isVisible)
        #expect(editor.eInvoiceStatus.text.contains("VAT Exemption Reason"))
        editor.exemptionRow.text = "Steuerfrei nach § 4 Nr. 21 UStG."
        #expect(!editor.eInvoiceStatus.text.contains("VAT Exemption Reason"))

        profile.countryCode = "DE"
        try repository.saveProfile(profile)
        editor.orderRow.text = "PO-1"
        #expect(editor.eInvoiceStatus.text.hasPrefix("Ready to send as an e-invoice"), "\(editor.eInvoiceStatus.text)")

        // Back to standard rate: the profile's rate comes back; typing 0 % makes it zero-rated.
        line.categoryRow.category = .standard
        #expect(line.taxEntry.isSensitive && line.taxEntry.text == NumberFormatting().string(from: 19))
        line.taxEntry.text = NumberFormatting().string(from: 0)
        #expect(line.categoryRow.category == .zeroRated && line.taxEntry.isSensitive)
        line.taxEntry.text = NumberFormatting().string(from: 7)
        #expect(line.categoryRow.category == .standard)
        line.categoryRow.category = .exempt
        editor.deliveryRow.text = "yesterday-ish"
        #expect(!editor.saveButton.isSensitive && editor.deliveryRow.hasCssClass("error"))
        editor.deliveryRow.text = CalendarDay(isoString: "2026-02-27")!.formatted(.short)
        let saved = try #require(editor.save())
        #expect(saved.lines[0].vatCategory == .exempt && saved.lines[0].taxRate == 0 && saved.lines[0].unitCode == .hour)
        #expect(saved.deliveryDate == day("2026-02-27") && saved.purchaseOrderReference == "PO-1")
        #expect(saved.exemptionReason == "Steuerfrei nach § 4 Nr. 21 UStG.")

        // A client that takes PDFs is not told about e-invoices.
        let pdfClient = try repository.save(Client(name: "Meyer", currency: .eur))
        let other = InvoiceEditor(repository: repository, context: context, invoice: nil)
        let pdfClientIndex = try #require(other.clients.firstIndex { $0.id == pdfClient.id })
        other.clientRow.selectedIndex = pdfClientIndex
        other.lineEditors[0].descriptionView.text = "Design"
        #expect(other.saveButton.isSensitive && !other.eInvoiceStatus.isVisible)
        withExtendedLifetime((host, clientForm, editor, other)) {}
    }

    @Test func aUnitTypedBeforeUnitsHadCodesStaysAsItWas() throws {
        let old = LineItem(description: "Proofreading", quantity: 3, unit: "Seite", unitPrice: money("7.50"), taxRate: 7)
        let editor = LineItemEditor(line: old, standardRate: 19) {}
        #expect(editor.unitRow.selectedIndex == 0)
        let (read, problems) = editor.read(currency: .eur)
        #expect(problems.isEmpty)
        #expect(read == old)
        editor.unitRow.selectedIndex = 1 + UnitCode.common.firstIndex(of: .day)!
        #expect(editor.read(currency: .eur).0?.unitCode == .day)
        #expect(editor.read(currency: .eur).0?.unit == UnitCode.day.word)
    }

    @Test func theBusinessProfileKeepsTheNewDetails() throws {
        let repository = try InvoiceRepository(database: try Database.inMemory())
        let view = BusinessProfileView(repository: repository) { nil }
        let page = view.makePage()
        view.nameRow.text = "Studio Nord"
        view.vatIDRow.text = "123"
        #expect(view.vatIDRow.hasCssClass("error") && view.errorLabel.text.contains("VAT ID"))
        view.vatIDRow.text = "DE123456789"
        view.countryRow.code = "DE"
        view.postcodeRow.text = "20457"
        view.cityRow.text = "Hamburg"
        view.contactRow.text = "Jana Nord"
        view.electronicAddressRow.text = "0204:991-1"
        let profile = try repository.profile()
        #expect(profile.vatID == "DE123456789" && profile.countryCode == "DE" && profile.city == "Hamburg")
        #expect(profile.contactName == "Jana Nord" && profile.electronicAddress == "0204:991-1")
        // Typing a rate makes new lines standard-rated; choosing exempt asks for the reason.
        view.taxRow.text = NumberFormatting().string(from: 19)
        #expect(try repository.profile().defaultVATCategory == .standard)
        view.categoryRow.category = .exempt
        #expect(view.exemptionRow.isVisible)
        view.exemptionRow.text = "§ 19 UStG"
        #expect(try repository.profile().defaultExemptionReason == "§ 19 UStG")
        withExtendedLifetime(page) {}
    }
}
