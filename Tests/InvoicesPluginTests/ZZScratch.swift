import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Storage
import Testing
import TestSupport
@testable import InvoicesPlugin

@Suite(.serialized, needsDisplay) @MainActor
struct ZZScratch {
    func shoot(_ name: String) {
        MainLoop.run(until: { false }, timeout: 1.5)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/import")
        p.arguments = ["-window", "root", "/tmp/einv-shot-\(name).png"]
        try? p.run(); p.waitUntilExit()
    }

    @Test func shots() throws {
        let host = TestHost()
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        var profile = EInvoiceFixtures.seller
        profile.countryCode = ""
        try repository.saveProfile(profile)
        let context = host.context(for: "invoices", database: database)
        let client = try repository.save(Client(name: "Stadt Musterstadt", email: "r@m.example", currency: .eur, postcode: "12345",
                                                city: "Musterstadt", countryCode: "DE", buyerReference: "991-12345-67", eInvoiceFormat: .xrechnung))
        let editor = InvoiceEditor(repository: repository, context: context, invoice: nil)
        let line = editor.lineEditors[0]
        line.descriptionView.text = "Beratung"
        line.priceEntry.text = "95.00"
        line.categoryRow.category = .exempt
        editor.window.setDefaultSize(width: 720, height: 2500)
        editor.present()
        shoot("editor-wide")
        editor.window.setDefaultSize(width: 360, height: 2500)
        shoot("editor-narrow")
        editor.window.close()
        let clientForm = ClientEditor(repository: repository, client: client, parent: nil, profile: profile)
        clientForm.window.setDefaultSize(width: 360, height: 2500)
        clientForm.present()
        shoot("client-narrow")
        clientForm.window.close()
        let view = BusinessProfileView(repository: repository) { nil }
        let window = PreferencesWindow(parent: nil)
        window.add(view.makePage())
        window.setDefaultSize(width: 400, height: 900)
        window.present()
        shoot("profile-narrow")
        window.close()
        _ = client
    }
}
