import BillfoldCore
import Foundation
import GtkKit
import Licensing
import Plans
import PluginAPI
import TestSupport
@testable import EntitlementsCore
@testable import EntitlementsPlugin

/// Fixed instants, so no test depends on today's date.
enum Instants {
    /// 2026-01-01T00:00:00Z
    static let issued = Date(timeIntervalSince1970: 1_767_225_600)
    /// 2027-01-01T00:00:00Z: the licence is valid through 31 December 2026.
    static let expires = Date(timeIntervalSince1970: 1_798_761_600)
    static let day: TimeInterval = 86_400
    static let midTerm = issued.addingTimeInterval(100 * day)
}

/// A clock the plugin reads; tests move it.
@MainActor
final class TestClock {
    var now: Date
    init(_ now: Date) { self.now = now }
}

/// Licences signed by a key pair made for the test; the vendor's secret key is never used.
struct TestLicenses {
    let key: LicenseSigningKey

    init() throws { key = try LicenseSigningKey.generate() }

    func text(plan: LicensePlan = .annual, name: String = "Ada Lovelace", email: String = "ada@example.com",
              issued: Date = Instants.issued, expires: Date? = Instants.expires,
              features: Set<Feature> = Set(Feature.allCases)) throws -> String {
        let license = try License(id: "BF-TEST-1", licenseeName: name, licenseeEmail: email, plan: plan,
                                  issuedAt: issued, expiresAt: plan == .lifetime ? nil : expires, features: features)
        return SignedLicense(signing: license, with: key).armoredText
    }
}

/// One activated Billfold Pro plugin with a test host, a window for its dialogs, a temporary
/// configuration folder and a clock. `close()` ends it.
@MainActor
final class PluginFixture {
    let licenses: TestLicenses
    let clock: TestClock
    let directory: URL
    let window = AdwaitaWindow()
    let host: TestHost
    let services = ServiceRegistry()
    let context: PluginContext
    let plugin: BillfoldPro

    init(at now: Date = Instants.midTerm, licenses: TestLicenses? = nil) throws {
        self.licenses = try licenses ?? TestLicenses()
        clock = TestClock(now)
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("billfold-pro-tests-\(UUID().uuidString)/config/billfold")
        host = TestHost(window: window)
        context = host.context(for: "entitlements", services: services)
        plugin = BillfoldPro(directory: directory, publicKey: self.licenses.key.publicKey,
                             clock: { [clock] in clock.now })
        try plugin.activate(in: context)
    }

    var store: LicenseStore { plugin.store! }
    /// The page as the shell shows it: built on first use.
    var view: ProPageView {
        _ = plugin.page?.widget
        return plugin.view!
    }
    var actions: LicenseActions { plugin.actions! }
    var paywall: Paywall { plugin.paywall! }

    /// Opens the Enter Licence dialog as the page's button does.
    func openEnterDialog() -> EnterLicenseDialog {
        view.enterButton.click()
        return actions.enterDialog!
    }

    func close() {
        plugin.deactivate()
        window.destroy()
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent().deletingLastPathComponent())
    }
}
