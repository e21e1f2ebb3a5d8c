import BillfoldCore
import Foundation
import GtkKit
import Plans
import PluginAPI
import Storage
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The window's Save PDF and Email: a client marked for Factur-X gets the Factur-X PDF, others
/// the plain one; print is always the plain pages.
@Suite(.serialized, needsDisplay) @MainActor
struct FacturXExportPageTests {
    func showInvoice(client: Client, profile: BusinessProfile) throws -> (InvoicesPage, TestHost, Invoices, EveryFeature) {
        let host = TestHost()
        let plugin = Invoices()
        let pro = EveryFeature()
        let services = ServiceRegistry()
        services.register(pro, as: (any Entitlements).self)
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        try repository.saveProfile(profile)
        try plugin.activate(in: host.context(for: "invoices", services: services, database: database))
        _ = try #require(plugin.page).widget
        let page = try #require(plugin.invoicesPage)
        let saved = try repository.save(client)
        var invoice = try repository.save(Invoice(clientID: saved.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                                  lines: [EInvoiceFixtures.line("Design", "3", "100.00")]))
        try invoice.markSent(on: .today())
        invoice = try repository.save(invoice)
        page.reload(dataChanged: true)
        page.select(try #require(invoice.id))
        return (page, host, plugin, pro)
    }

    static let client = Client(name: "Kunde GmbH", email: "buchhaltung@kunde.example", address: "Marktplatz 5", currency: .eur,
                               vatID: "DE987654321", postcode: "50667", city: "Köln", countryCode: "DE",
                               eInvoiceFormat: .facturX)

    static func isFacturX(_ pdf: Data) -> Bool {
        let text = String(decoding: pdf, as: UTF8.self)
        return text.contains("(factur-x.xml)") && text.contains("/AFRelationship /Data") && text.contains("pdfaid:part>3<")
    }

    @Test func aClientMarkedForFacturXGetsIt() throws {
        let (page, host, plugin, pro) = try showInvoice(client: Self.client, profile: EInvoiceFixtures.seller)
        defer { withExtendedLifetime((host, plugin, pro)) {} }
        #expect(Self.isFacturX(try #require(page.detail.currentPDF())))
        #expect(!Self.isFacturX(try #require(page.detail.currentPDF(sending: false))))
    }

    @Test func otherClientsGetThePlainPDF() throws {
        var client = Self.client
        client.eInvoiceFormat = nil
        let (page, host, plugin, pro) = try showInvoice(client: client, profile: EInvoiceFixtures.seller)
        defer { withExtendedLifetime((host, plugin, pro)) {} }
        let pdf = try #require(page.detail.currentPDF())
        #expect(!Self.isFacturX(pdf))
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
    }

    @Test func anEInvoiceThatIsNotReadySaysWhatIsMissing() throws {
        var profile = EInvoiceFixtures.seller
        profile.vatID = ""
        profile.taxID = ""
        let (page, host, plugin, pro) = try showInvoice(client: Self.client, profile: profile)
        defer { withExtendedLifetime((host, plugin, pro)) {} }
        #expect(page.detail.currentPDF() == nil)
        let dialog = try #require(page.detail.eInvoices.problemDialog)
        defer { dialog.close() }
        #expect(dialog.heading == "Not Ready to Be an E-Invoice")
        #expect(page.detail.eInvoices.problemList.contains("• Enter your VAT ID or tax number in Preferences › Business."))
    }

    /// Save XRechnung makes the invoice's XRechnung XML; one that is not ready says what is missing.
    @Test func anInvoiceSavesAsXRechnungOnceItIsReady() throws {
        var client = Self.client
        client.eInvoiceFormat = .xrechnung
        let (page, host, plugin, pro) = try showInvoice(client: client, profile: EInvoiceFixtures.seller)
        defer { withExtendedLifetime((host, plugin, pro)) {} }
        #expect(page.detail.xRechnungXML() == nil)
        let dialog = try #require(page.detail.eInvoices.problemDialog)
        #expect(page.detail.eInvoices.problemList.contains("Leitweg-ID"))
        dialog.close()

        let repository = try #require(plugin.repository)
        let id = try #require(page.detail.invoice?.id)
        try repository.database.execute("UPDATE invoices_invoice SET buyer_reference = '991-12345-67' WHERE id = ?", [id])
        page.detail.show(try repository.invoice(id))
        let xml = String(decoding: try #require(page.detail.xRechnungXML()), as: UTF8.self)
        #expect(xml.contains("urn:xeinkauf.de:kosit:xrechnung_3.0"))
        #expect(xml.contains("<ram:BuyerReference>991-12345-67</ram:BuyerReference>"))
    }
}
