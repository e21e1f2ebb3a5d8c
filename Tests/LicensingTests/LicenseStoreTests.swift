import BillfoldCore
import Foundation
@testable import Licensing
import Plans
import Testing

@MainActor
@Suite("Licence store")
final class LicenseStoreTests {
    let directory: TemporaryDirectory
    let configDirectory: URL
    let key: LicenseSigningKey
    let clock = TestClock(Instants.midTerm)
    let signed: SignedLicense

    init() throws {
        directory = try TemporaryDirectory()
        // Not created yet: the first install creates it, as on a first run.
        configDirectory = directory.url.appendingPathComponent("config/billfold")
        key = try TestKeys.make()
        signed = SignedLicense(signing: try makeLicense(), with: key)
    }

    deinit { directory.remove() }

    private func makeStore() -> LicenseStore {
        LicenseStore(directory: configDirectory, publicKey: key.publicKey, clock: { [clock] in clock.now })
    }

    private func filesInConfig() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: configDirectory.path)) ?? []).sorted()
    }

    @Test("with nothing installed the tier is free")
    func startsFree() {
        let store = makeStore()
        #expect(store.installed == .none)
        #expect(store.status == .free)
        #expect(store.tier == .free)
        #expect(!store.allows(.exportInvoicePDF))
        #expect(!store.allows(.unlimitedInvoices))
        #expect(store.invoiceLimit == EntitlementLimits.freeInvoices)
        #expect(store.nextStatusChange(after: clock.now) == nil)
    }

    @Test("install, load in a new store, remove: a full round trip")
    func roundTrip() throws {
        let store = makeStore()
        try store.install(text: signed.armoredText)
        #expect(store.tier == .pro)
        #expect(store.allows(.exportInvoicePDF))
        #expect(store.allows(.unlimitedInvoices))
        #expect(store.invoiceLimit == nil)
        #expect(store.status.condition == .active)
        #expect(store.status.license == signed.license.summary)
        #expect(filesInConfig() == [LicenseStore.fileName])
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let reopened = makeStore()
        #expect(reopened.installed == .license(signed))
        #expect(reopened.status == store.status)

        try reopened.remove()
        #expect(reopened.status == .free)
        #expect(!FileManager.default.fileExists(atPath: reopened.fileURL.path))
        #expect(makeStore().status == .free)
        try reopened.remove() // removing nothing is fine
    }

    @Test("a damaged paste is stored in its clean canonical form")
    func storesCanonicalText() throws {
        let store = makeStore()
        let pasted = "Your licence:\r\n" + signed.armoredText.replacingOccurrences(of: "\n", with: "\r\n  ")
        try store.install(text: pasted)
        let stored = try String(contentsOf: store.fileURL, encoding: .utf8)
        #expect(stored == signed.armoredText)
    }

    @Test("installing from a file, replacing the licence before")
    func installFromFile() throws {
        let store = makeStore()
        try store.install(text: signed.armoredText)
        let lifetime = SignedLicense(signing: try makeLicense(plan: .lifetime, name: "Grace Hopper"), with: key)
        let file = directory.url.appendingPathComponent("grace.billfold-license")
        try Data(lifetime.armoredText.utf8).write(to: file)
        let installed = try store.install(fileAt: file)
        #expect(installed == lifetime)
        #expect(store.status.license?.licenseeName == "Grace Hopper")
        #expect(store.status.license?.plan == .lifetime)
        #expect(makeStore().installed == .license(lifetime))
        #expect(filesInConfig() == [LicenseStore.fileName])
    }

    @Test("a refused licence changes nothing and notifies no one")
    func refusedInstall() throws {
        let store = makeStore()
        try store.install(text: signed.armoredText)
        var notifications = 0
        let token = store.observe { notifications += 1 }
        let other = SignedLicense(signing: try makeLicense(name: "Mallory"), with: try TestKeys.make())
        #expect(throws: LicenseError.unknownSigner) { try store.install(text: other.armoredText) }
        #expect(throws: LicenseError.notALicense) { try store.install(text: "hello") }
        #expect(store.installed == .license(signed))
        #expect(makeStore().installed == .license(signed))
        #expect(notifications == 0)
        token.cancel()
    }

    @Test("a licence past its grace period or not yet valid cannot be installed")
    func refusedByDate() throws {
        let store = makeStore()
        clock.now = Instants.graceEnd
        #expect(throws: LicenseError.expired(expiredAt: Instants.expires, graceEndedAt: Instants.graceEnd)) {
            try store.install(text: signed.armoredText)
        }
        clock.now = Instants.issued.addingTimeInterval(-30 * Instants.day)
        #expect(throws: LicenseError.notYetValid(startsAt: Instants.issued)) {
            try store.install(text: signed.armoredText)
        }
        #expect(store.installed == .none)
        #expect(filesInConfig().isEmpty)
        // In its grace period it can still be installed.
        clock.now = Instants.expires.addingTimeInterval(3 * Instants.day)
        try store.install(text: signed.armoredText)
        #expect(store.status.graceDaysLeft == 11)
    }

    @Test("time passing: active, grace with a daily countdown, then free; nothing deleted")
    func expiryOverTime() throws {
        let store = makeStore()
        try store.install(text: signed.armoredText)
        var notifications = 0
        let token = store.observe { notifications += 1 }

        clock.now = Instants.expires.addingTimeInterval(-1)
        store.refresh()
        #expect(notifications == 0)
        #expect(store.nextStatusChange(after: clock.now) == Instants.expires)

        clock.now = Instants.expires
        store.refresh()
        #expect(notifications == 1)
        #expect(store.tier == .pro)
        #expect(store.status.isInGracePeriod)
        #expect(store.status.graceDaysLeft == 14)
        #expect(store.status.condition == .gracePeriod(endsAt: Instants.graceEnd, daysLeft: 14))

        clock.now = Instants.expires.addingTimeInterval(Instants.day)
        store.refresh()
        #expect(notifications == 2)
        #expect(store.status.graceDaysLeft == 13)

        clock.now = Instants.graceEnd
        store.refresh()
        #expect(notifications == 3)
        #expect(store.tier == .free)
        #expect(!store.allows(.exportInvoicePDF))
        #expect(store.invoiceLimit == EntitlementLimits.freeInvoices)
        #expect(store.status.condition == .expired(graceEndedAt: Instants.graceEnd))
        #expect(store.status.license == signed.license.summary)
        #expect(store.nextStatusChange(after: clock.now) == nil)
        // The licence file stays; a new store reads the same expired state.
        #expect(FileManager.default.fileExists(atPath: store.fileURL.path))
        #expect(makeStore().status == store.status)
        token.cancel()
    }

    @Test("a clock behind the issue date shows the licence as not yet valid")
    func clockBehind() throws {
        let store = makeStore()
        try store.install(text: signed.armoredText)
        clock.now = Instants.issued.addingTimeInterval(-10 * Instants.day)
        store.refresh()
        #expect(store.tier == .free)
        #expect(store.status.condition == .notYetValid(startsAt: Instants.issued))
        #expect(store.status.license != nil)
        #expect(store.nextStatusChange(after: clock.now) == signed.license.startsAt)
    }

    @Test("a damaged licence file is reported, kept, and gives the free tier")
    func damagedFile() throws {
        try makeStore().install(text: signed.armoredText)
        let file = configDirectory.appendingPathComponent(LicenseStore.fileName)
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "-----END BILLFOLD LICENSE-----", with: "")
        try Data(text.utf8).write(to: file)

        let store = makeStore()
        #expect(store.installed == .unusable(.truncated))
        #expect(store.tier == .free)
        #expect(store.status.condition == .unusable(reason: LicenseError.truncated.errorDescription!))
        #expect(FileManager.default.fileExists(atPath: file.path))
        try store.remove()
        #expect(store.status == .free)
    }

    @Test("a licence file signed for another build is unusable here")
    func otherKeysFile() throws {
        try makeStore().install(text: signed.armoredText)
        let store = LicenseStore(directory: configDirectory, publicKey: try TestKeys.make().publicKey,
                                 clock: { [clock] in clock.now })
        #expect(store.installed == .unusable(.unknownSigner))
        #expect(store.tier == .free)
    }

    @Test("reload picks up a file changed by another copy of the app")
    func reload() throws {
        let store = makeStore()
        var notifications = 0
        let token = store.observe { notifications += 1 }
        try makeStore().install(text: signed.armoredText)
        #expect(store.tier == .free)
        store.reload()
        #expect(store.tier == .pro)
        #expect(notifications == 1)
        token.cancel()
    }

    @Test("observers hear every change until their token is cancelled or released")
    func observers() throws {
        let store = makeStore()
        var first = 0, second = 0
        let firstToken = store.observe { first += 1 }
        var secondToken: ObservationToken? = store.observe { second += 1 }
        try store.install(text: signed.armoredText)
        #expect((first, second) == (1, 1))
        try store.install(text: signed.armoredText) // same licence: no change, no notification
        #expect((first, second) == (1, 1))
        secondToken = nil
        try store.remove()
        #expect((first, second) == (2, 1))
        firstToken.cancel()
        try store.install(text: signed.armoredText)
        #expect((first, second) == (2, 1))
        _ = secondToken
    }

    @Test("a configuration path that cannot be a folder gives a save error")
    func cannotSave() throws {
        let blocker = directory.url.appendingPathComponent("config")
        try Data("not a folder".utf8).write(to: blocker)
        let store = makeStore()
        guard case .cannotSave? = licenseError({ () throws(LicenseError) in
            try store.install(text: signed.armoredText)
        }) else {
            Issue.record("installing under a file must fail with cannotSave")
            return
        }
        #expect(store.installed == .none)
    }

    @Test("a huge file is refused when installing")
    func hugeFile() throws {
        let file = directory.url.appendingPathComponent("huge.billfold-license")
        try Data(repeating: 0x41, count: 10_000_000).write(to: file)
        let store = makeStore()
        #expect(throws: LicenseError.tooLarge(byteCount: 10_000_000, limit: LicenseArmor.maximumTextBytes)) {
            try store.install(fileAt: file)
        }
    }
}
