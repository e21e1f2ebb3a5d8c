import BillfoldCore
import PluginAPI
import Testing
import TestSupport
@testable import InvoicesCore
@testable import InvoicesPlugin

/// Other plugins start new things in money (a trip) in the business's currency.
extension InvoicesPageTests {
    @Test func theBusinessCurrencyIsPublishedWithTheName() throws {
        let services = ServiceRegistry()
        let (_, repository, host, plugin) = try activate(profile: .chf, services: services)
        defer { withExtendedLifetime((host, plugin)) {} }
        let other = host.context(for: "expenses", services: services)
        #expect(other.businessCurrency == .chf)
        var profile = try repository.profile()
        profile.defaultCurrency = .jpy
        try repository.saveProfile(profile)
        #expect(other.businessCurrency == .jpy)
        // Without Invoices, the locale's currency.
        #expect(host.context(for: "expenses").businessCurrency == .forLocale())
    }
}
