import BillfoldCore
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Until the business profile has the name and address every invoice prints, the page points to it.
extension InvoicesPageTests {
    @Test func aProfileIsReadyWithANameAndAnAddress() {
        var profile = BusinessProfile.initial()
        #expect(!profile.isReadyForInvoices)
        profile.name = "Studio Nord"
        #expect(!profile.isReadyForInvoices)
        profile.city = "Hamburg"
        #expect(profile.isReadyForInvoices)
    }

    @Test func theFirstInvoiceIsGuidedThroughTheProfile() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        // “Studio Nord” has no address yet.
        #expect(page.emptyPage.title == "Welcome to Invoices")
        #expect(page.setUpProfileButton.isVisible && page.setUpProfileButton.hasCssClass("suggested-action"))
        #expect(!page.newFromEmpty.hasCssClass("suggested-action"))
        page.setUpProfileButton.click()
        #expect(host.preferencesShown == [BusinessProfile.preferencesPageName])

        var profile = try repository.profile()
        profile.address = "Hafenstraße 1\n20359 Hamburg"
        try repository.saveProfile(profile)
        page.profileChanged()
        #expect(page.emptyPage.title == "No Invoices")
        #expect(!page.setUpProfileButton.isVisible)
        #expect(page.newFromEmpty.hasCssClass("suggested-action"))
        #expect(!page.profileBanner.isRevealed)
    }

    @Test func withInvoicesTheBannerPointsToAnIncompleteProfile() throws {
        let (page, repository, host, plugin) = try activate()
        defer { withExtendedLifetime((host, plugin)) {} }
        let client = try repository.save(Client(name: "Acme", currency: .eur))
        try repository.save(Invoice(clientID: client.id, issueDate: .today(), dueDate: .today(), currency: .eur,
                                    lines: [LineItem(description: "Work", quantity: 1, unitPrice: money("10.00"))]))
        page.reload(dataChanged: true)
        #expect(page.profileBanner.isRevealed)
        page.profileBanner.clickButton()
        #expect(host.preferencesShown == [BusinessProfile.preferencesPageName])
    }
}
