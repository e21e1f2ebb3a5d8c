import BillfoldCore
import Foundation
import GtkKit
import Storage
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// The business profile page saves what is valid as it is typed and says why otherwise.
@Suite(.serialized, needsDisplay) @MainActor
struct BusinessProfilePageTests {
    /// A profile that cannot be read is named on the page, and nothing typed or stored writes
    /// an empty profile over the real one.
    @Test func aProfileThatCannotBeReadIsNamedAndNeverOverwritten() throws {
        let database = try Database.inMemory()
        let repository = try InvoiceRepository(database: database)
        var saved = BusinessProfile.initial()
        saved.name = "Studio Nord"
        saved.address = "Hafenstraße 1"
        try repository.saveProfile(saved)
        try database.execute("UPDATE invoices_profile SET currency = 'not a currency'")

        let view = BusinessProfileView(repository: repository) { nil }
        let page = view.makePage()
        let problem = try #require(view.readProblem)
        #expect(!problem.isEmpty)
        view.nameRow.text = "Someone Else"
        view.store()

        try database.execute("UPDATE invoices_profile SET currency = 'EUR'")
        #expect(try repository.profile().name == "Studio Nord")
        #expect(try repository.profile().address == "Hafenstraße 1")
        _ = page
    }

    @Test func savesValidChangesAndExplainsInvalidOnes() throws {
        let directory = try TemporaryDirectory()
        let repository = try InvoiceRepository(database: try Database.inMemory(),
                                               logos: LogoStore(directory: directory.url.appendingPathComponent("logos")))
        let view = BusinessProfileView(repository: repository) { nil }
        let page = view.makePage()
        #expect(!(try repository.hasProfile()))

        view.nameRow.text = "Studio Nord"
        #expect(try repository.profile().name == "Studio Nord")
        #expect(!view.errorLabel.isVisible)

        view.ibanRow.text = "DE89 3704 0044 0532 0130 01"
        #expect(view.errorLabel.isVisible)
        #expect(view.errorLabel.text.contains("check digits"))
        #expect(view.ibanRow.hasCssClass("error"))
        #expect(try repository.profile().iban.isEmpty)
        view.ibanRow.text = "DE89 3704 0044 0532 0130 00"
        #expect(!view.errorLabel.isVisible)
        #expect(!view.ibanRow.hasCssClass("error"))
        #expect(try repository.profile().iban == "DE89 3704 0044 0532 0130 00")

        #expect(view.paymentCodeSwitch.isActive)
        view.paymentCodeSwitch.isActive = false
        #expect(try repository.profile().printsPaymentQRCode == false)
        view.paymentCodeSwitch.isActive = true
        #expect(try repository.profile().printsPaymentQRCode == true)

        view.taxRow.text = "19x"
        #expect(view.taxRow.hasCssClass("error"))
        #expect(view.errorLabel.text.contains("Default tax rate"))
        view.taxRow.text = NumberFormatting().string(from: Decimal(string: "7.5")!)
        #expect(try repository.profile().defaultTaxRate == Decimal(string: "7.5")!)

        view.patternRow.text = "INV-{YYYY}"
        #expect(view.patternRow.hasCssClass("error"))
        view.patternRow.text = "R-{YYYY}-{NNN}"
        #expect(try repository.profile().numberPattern == "R-{YYYY}-{NNN}")
        #expect(view.patternRow.title.contains("R-"))

        #expect(view.quotePatternRow.text == "QUO-{YYYY}-{NNNN}" && view.creditNotePatternRow.text == "CN-{YYYY}-{NNNN}")
        view.quotePatternRow.text = "Q-{NN"
        #expect(view.quotePatternRow.hasCssClass("error"))
        #expect(try repository.profile().quoteNumberPattern == "QUO-{YYYY}-{NNNN}")
        view.quotePatternRow.text = "Q-{NN}"
        view.creditNotePatternRow.text = "G-{YY}-{NNN}"
        #expect(try repository.profile().quoteNumberPattern == "Q-{NN}")
        #expect(try repository.profile().creditNoteNumberPattern == "G-{YY}-{NNN}")
        #expect(view.quotePatternRow.title.contains("Q-01") && !view.quotePatternRow.hasCssClass("error"))

        let png = directory.url.appendingPathComponent("logo.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: png)
        view.importLogo(from: png)
        let logo = try #require(try repository.profile().logoFileName)
        #expect(logo.hasSuffix(".png"))
        #expect(view.removeLogoButton.isVisible)
        view.removeLogoButton.click()
        #expect(try repository.profile().logoFileName == nil)

        let text = directory.url.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        view.importLogo(from: text)
        #expect(view.errorLabel.text == InvoiceError.logoNotAnImage.errorDescription)
        withExtendedLifetime(page) {}
    }
}
