import BillfoldCore
import BillfoldUI
import Foundation
import GObjectCore
import GtkKit
import Licensing
import Plans
import PluginAPI
import Testing
import TestSupport
@testable import EntitlementsCore
@testable import EntitlementsPlugin

@Suite(.serialized, needsDisplay) @MainActor
struct BillfoldProPageTests {
    @Test func theFreshPageShowsTheFreePlan() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        let view = fixture.view
        #expect(view.planLabel.text == Tier.free.title)
        #expect(!view.licenseGroup.isVisible)
        #expect(!view.removeButton.isVisible)
        #expect(view.enterButton.hasCssClass("suggested-action"))
        #expect(view.freeCurrentBadge.isVisible)
        #expect(!view.proCurrentBadge.isVisible)
        #expect(!view.banner.isRevealed)
        #expect(fixture.plugin.page?.title == "Billfold Pro")
    }

    @Test func thePluginPublishesTheStoreAndThePaywall() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        let entitlements = fixture.context.entitlements
        #expect(entitlements === fixture.store)
        #expect(fixture.services.resolve((any UpgradePrompting).self) === fixture.paywall)
        #expect(entitlements.tier == .free)
    }

    @Test func enteringALicenceUpdatesThePageTheServiceAndBadgesAtOnce() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        let entitlements = fixture.context.entitlements
        var notifications = 0
        let token = entitlements.observe { notifications += 1 }
        let badge = ProBadge(feature: .exportInvoicePDF, entitlements: entitlements)
        #expect(badge.isShown)

        let dialog = fixture.openEnterDialog()
        #expect(!dialog.activateButton.isSensitive)
        dialog.textView.text = try fixture.licenses.text()
        #expect(dialog.outcome.isValid)
        #expect(dialog.activateButton.isSensitive)
        #expect(dialog.feedbackLabel.text.contains("Ada Lovelace"))
        dialog.activateButton.click()

        #expect(notifications == 1)
        #expect(entitlements.tier == .pro)
        #expect(fixture.context.entitlements.allows(.exportInvoicePDF))
        #expect(!badge.isShown)
        let view = fixture.view
        #expect(view.planLabel.text == Tier.pro.title)
        #expect(view.licenseGroup.isVisible)
        #expect(view.factValue("Licensed To") == "Ada Lovelace")
        #expect(view.factValue("Email") == "ada@example.com")
        #expect(view.factValue("Plan") == LicensePlan.annual.title)
        #expect(view.removeButton.isVisible)
        #expect(view.proCurrentBadge.isVisible)
        #expect(fixture.host.toasts == ["Billfold Pro is active. Thank you!"])
        #expect(fixture.actions.enterDialog == nil)
        // The licence is kept for the next start.
        #expect(FileManager.default.fileExists(atPath: fixture.store.fileURL.path))
        token.cancel()
    }

    @Test func removingTheLicenceAsksFirstThenReturnsToFree() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        try fixture.store.install(text: try fixture.licenses.text())
        let badge = ProBadge(feature: .unlimitedInvoices, entitlements: fixture.context.entitlements)
        #expect(!badge.isShown)

        fixture.view.removeButton.click()
        let confirmation = try #require(fixture.actions.removalDialog)
        confirmation.respond("cancel")
        #expect(fixture.store.tier == .pro)
        #expect(fixture.actions.removalDialog == nil)

        fixture.view.removeButton.click()
        try #require(fixture.actions.removalDialog).respond("remove")
        #expect(fixture.store.tier == .free)
        #expect(badge.isShown)
        #expect(fixture.view.planLabel.text == Tier.free.title)
        #expect(!fixture.view.licenseGroup.isVisible)
        #expect(!fixture.view.removeButton.isVisible)
        #expect(fixture.host.toasts.last == "Licence removed. Billfold is on the free plan.")
        #expect(!FileManager.default.fileExists(atPath: fixture.store.fileURL.path))
    }

    @Test func theGracePeriodShowsABannerThatOffersANewLicence() throws {
        let fixture = try PluginFixture(at: Instants.expires.addingTimeInterval(10 * Instants.day + 60))
        defer { fixture.close() }
        try fixture.store.install(text: try fixture.licenses.text())
        let banner = fixture.view.banner
        #expect(banner.isRevealed)
        #expect(banner.title == "Your licence has expired. Billfold Pro keeps working for 4 more days.")
        #expect(fixture.store.tier == .pro)
        banner.clickButton()
        #expect(fixture.actions.enterDialog != nil)
    }

    @Test func anUnusableLicenceFileShowsWhyAndCanBeRemoved() throws {
        let licenses = try TestLicenses()
        let other = try TestLicenses()
        let fixture = try PluginFixture(licenses: licenses)
        defer { fixture.close() }
        // A licence for another key in the folder, as a build for another vendor would leave it.
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        try Data(try other.text().utf8).write(to: fixture.store.fileURL)
        fixture.store.reload()
        let view = fixture.view
        #expect(view.planLabel.text == Tier.free.title)
        #expect(view.problemLabel.isVisible)
        #expect(view.problemLabel.text == LicenseError.unknownSigner.localizedDescription)
        #expect(view.removeButton.isVisible)
    }

    @Test func theStatusChangesOnTimeWhileTheAppStaysOpen() async throws {
        // Half a second before expiry: the plugin's timer fires a second later (its shortest wait).
        let fixture = try PluginFixture(at: Instants.expires.addingTimeInterval(-0.5))
        defer { fixture.close() }
        try fixture.store.install(text: try fixture.licenses.text())
        #expect(fixture.store.status.condition == .active)
        #expect(!fixture.view.banner.isRevealed)
        fixture.clock.now = Instants.expires.addingTimeInterval(0.5)
        let changed = await MainLoop.wait(until: { fixture.view.banner.isRevealed }, timeout: 10)
        #expect(changed)
        #expect(fixture.store.status.isInGracePeriod)
        #expect(fixture.store.tier == .pro)
    }

    @Test func turningThePluginOffClosesItsDialogs() throws {
        let fixture = try PluginFixture()
        defer { fixture.window.destroy() }
        let probe = FinalizationProbe(watching: fixture.openEnterDialog())
        fixture.context.ensureAllowed(.exportInvoicePDF)
        #expect(fixture.paywall.dialog != nil)
        fixture.plugin.deactivate()
        #expect(fixture.plugin.store == nil)
        #expect(fixture.plugin.page == nil)
        MainLoop.run(until: { probe.isFinalized }, timeout: 2)
        #expect(probe.isFinalized)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct EnterLicenceDialogTests {
    @Test func aTamperedPasteSaysWhyAndActivateStaysOff() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        let dialog = fixture.openEnterDialog()
        #expect(dialog.outcome == .empty)
        #expect(dialog.feedbackLabel.hasCssClass("dim-label"))

        let text = try fixture.licenses.text()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var line = Array(lines[3])
        line[10] = line[10] == "A" ? "B" : "A"
        lines[3] = String(line)
        dialog.textView.text = lines.joined(separator: "\n")

        #expect(dialog.outcome == .invalid(.signatureMismatch))
        #expect(dialog.feedbackLabel.text == LicenseError.signatureMismatch.localizedDescription)
        #expect(dialog.feedbackLabel.hasCssClass("error"))
        #expect(!dialog.activateButton.isSensitive)
        dialog.activateButton.click()
        #expect(fixture.store.tier == .free)
        #expect(fixture.host.toasts.isEmpty)
        #expect(fixture.actions.enterDialog != nil)
    }

    @Test func pastingWithMailDamageStillWorks() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        let dialog = fixture.openEnterDialog()
        let text = try fixture.licenses.text()
        dialog.textView.text = "Hello Ada, here it is:\r\n\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n    ")
        #expect(dialog.outcome.isValid)
        dialog.activateButton.click()
        #expect(fixture.store.tier == .pro)
    }

    @Test func anExpiredLicenceIsRefusedBeforeActivating() throws {
        let fixture = try PluginFixture(at: Instants.expires.addingTimeInterval(20 * Instants.day))
        defer { fixture.close() }
        let dialog = fixture.openEnterDialog()
        dialog.textView.text = try fixture.licenses.text()
        guard case .invalid(.expired) = dialog.outcome else {
            Issue.record("an expired licence was not refused: \(dialog.outcome)")
            return
        }
        #expect(!dialog.activateButton.isSensitive)
        #expect(dialog.feedbackLabel.text.contains("expired"))
    }

    @Test func aDroppedOrChosenFileFillsTheDialog() throws {
        // GTK's own chooser reads its GSettings, which fixes where GIO looks for schemas: point
        // it at the app's schema first, or suites that need the app's settings later find none.
        _ = TestSettings.make()
        let fixture = try PluginFixture()
        defer { fixture.close() }
        let folder = fixture.directory.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Ada Lovelace.billfold-license")
        let text = try fixture.licenses.text()
        try Data(text.utf8).write(to: file)
        let notALicence = folder.appendingPathComponent("notes.txt")
        try Data("Dear Ada".utf8).write(to: notALicence)

        let dialog = fixture.openEnterDialog()
        #expect(dialog.dropTarget.deliver(fileAt: file.path))
        #expect(dialog.textView.text == text)
        #expect(dialog.activateButton.isSensitive)

        // A file that is not a licence replaces what was there, and says why.
        #expect(dialog.dropTarget.deliver(fileAt: notALicence.path))
        #expect(dialog.textView.text.isEmpty)
        #expect(!dialog.activateButton.isSensitive)
        #expect(dialog.feedbackLabel.text == LicenseError.notALicense.localizedDescription)

        dialog.chooseFileButton.click()
        let chooser = try #require(dialog.fileChooser)
        chooser.respond(selecting: file.path)
        #expect(dialog.fileChooser == nil)
        #expect(dialog.activateButton.isSensitive)
        dialog.activateButton.click()
        #expect(fixture.store.status.license?.licenseeName == "Ada Lovelace")
    }

    @Test func cancelClosesWithoutChangingAnything() async throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        let dialog = fixture.openEnterDialog()
        dialog.textView.text = try fixture.licenses.text()
        dialog.cancelButton.click()
        // What was pasted is not thrown away without asking.
        try #require(dialog.discardQuestion).respond("discard")
        #expect(await MainLoop.wait(until: { fixture.actions.enterDialog == nil }))
        #expect(fixture.store.tier == .free)
        // Asking again opens a fresh, empty dialog.
        let again = fixture.openEnterDialog()
        #expect(again !== dialog)
        #expect(again.outcome == .empty)
    }
}

@Suite(.serialized, needsDisplay) @MainActor
struct GatedActionTests {
    @Test func aFreeUserTryingAProFeatureSeesThePaywall() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        #expect(!fixture.context.ensureAllowed(.exportInvoicePDF))
        let paywall = fixture.paywall
        let dialog = try #require(paywall.dialog)
        #expect(paywall.feature == .exportInvoicePDF)
        #expect(Paywall.body(for: .exportInvoicePDF) == """
            “Save, print and email invoices as PDF” is part of Billfold Pro. Pro also adds:
            • Unlimited invoices

            On the free plan, everything you made stays available.

            Billfold Pro is sold monthly, yearly or for life at \(Purchase.shownAddress).
            """)
        #expect(fixture.host.toasts.isEmpty)

        dialog.respond("not-now")
        #expect(paywall.dialog == nil)
        #expect(fixture.actions.enterDialog == nil)

        #expect(!fixture.context.ensureAllowed(.unlimitedInvoices))
        try #require(paywall.dialog).respond("enter")
        #expect(fixture.actions.enterDialog != nil)
    }

    @Test func theLimitSaysTheCountTheLimitAndWhereToBuy() {
        let body = Paywall.body(for: .unlimitedInvoices, reason: "You have 5 invoices. The free plan holds at most 5 invoices.")
        #expect(body.hasPrefix("You have 5 invoices. The free plan holds at most 5 invoices.\n\n“Unlimited invoices” is part of Billfold Pro."))
        #expect(body.contains("everything you made stays available"))
        #expect(body.hasSuffix("at \(Purchase.shownAddress)."))
        #expect(Purchase.address.hasSuffix(Purchase.shownAddress) && !Purchase.shownAddress.hasPrefix("https://"))
    }

    @Test func aProUserGoesStraightThrough() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        try fixture.store.install(text: try fixture.licenses.text())
        #expect(fixture.context.ensureAllowed(.exportInvoicePDF))
        #expect(fixture.context.ensureAllowed(.unlimitedInvoices))
        #expect(fixture.paywall.dialog == nil)
    }

    @Test func aLicenceWithoutAFeatureStillGatesIt() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        try fixture.store.install(text: try fixture.licenses.text(features: [.unlimitedInvoices]))
        #expect(fixture.context.ensureAllowed(.unlimitedInvoices))
        #expect(!fixture.context.ensureAllowed(.exportInvoicePDF))
        #expect(fixture.paywall.feature == .exportInvoicePDF)
    }

    @Test func withThePluginOffItIsTheFreeTierAndAToast() {
        let host = TestHost()
        let context = host.context(for: "invoices")
        #expect(context.entitlements.tier == .free)
        #expect(!context.ensureAllowed(.exportInvoicePDF))
        #expect(host.toasts == ["“Save, print and email invoices as PDF” needs Billfold Pro, which is turned off in Preferences"])
        let badge = ProBadge(feature: .exportInvoicePDF, entitlements: context.entitlements)
        #expect(badge.isShown)
    }

    @Test func aBadgedButtonReadsItsLabel() {
        let badge = ProBadge(feature: .exportInvoicePDF, entitlements: FreeTier())
        let button = badge.makeButton(label: "Save PDF…")
        #expect(button.accessibleLabel == "Save PDF…")
        #expect(badge.widget.isInside(button))
        #expect(badge.widget.text == "Pro")
    }
}
