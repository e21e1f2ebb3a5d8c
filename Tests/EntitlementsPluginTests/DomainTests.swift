import BillfoldCore
import Foundation
import Licensing
import Plans
import Testing
@testable import EntitlementsCore
@testable import EntitlementsPlugin

private let utc = TimeZone(identifier: "UTC")!
private let english = Locale(identifier: "en_GB")

@Suite("Licence dates")
struct LicenseDatesTests {
    @Test("a licence through a day shows that day in every time zone")
    func lastValidDayIsTheSameEverywhere() {
        // `billfold-license issue --expires 2026-12-31` writes midnight UTC on 1 January 2027.
        for zone in ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin", "America/New_York"] {
            let day = LicenseDates.lastValidDay(expiresAt: Instants.expires, timeZone: TimeZone(identifier: zone)!,
                                                locale: english)
            #expect(day == "31 December 2026", "in \(zone)")
        }
    }

    @Test("an expiry at another instant names the local day of its last second")
    func otherInstantsUseTheLocalDay() {
        // 2026-12-31T12:00:00Z
        let noon = Date(timeIntervalSince1970: 1_798_718_400)
        #expect(LicenseDates.lastValidDay(expiresAt: noon, timeZone: utc, locale: english) == "31 December 2026")
        #expect(LicenseDates.lastValidDay(expiresAt: noon, timeZone: TimeZone(identifier: "Pacific/Kiritimati")!,
                                          locale: english) == "1 January 2027")
    }
}

@Suite("Refresh schedule")
struct RefreshScheduleTests {
    let now = Instants.midTerm

    @Test("nothing to wait for when the status never changes by itself")
    func noChange() {
        #expect(RefreshSchedule.delay(from: now, until: nil) == nil)
    }

    @Test("a change soon is waited for exactly, rounded up to the millisecond")
    func soon() {
        #expect(RefreshSchedule.delay(from: now, until: now.addingTimeInterval(90.0004)) == 90_001)
    }

    @Test("far-off changes are approached an hour at a time; due ones wait a second")
    func clamped() {
        #expect(RefreshSchedule.delay(from: now, until: now.addingTimeInterval(200 * 86_400)) == 3_600_000)
        #expect(RefreshSchedule.delay(from: now, until: now) == 1_000)
        #expect(RefreshSchedule.delay(from: now, until: now.addingTimeInterval(-50)) == 1_000)
    }
}

@Suite("What the page says")
@MainActor
struct ProStatusPresentationTests {
    let summary = LicenseSummary(id: "BF-1", licenseeName: "Ada Lovelace", licenseeEmail: "ada@example.com",
                                 plan: .annual, issuedAt: Instants.issued, expiresAt: Instants.expires)

    private func present(_ status: EntitlementStatus, file: Bool = true) -> ProStatusPresentation {
        ProStatusPresentation(status: status, hasLicenseFile: file, timeZone: utc, locale: english)
    }

    @Test("with no licence: free, nothing to remove, no licence facts")
    func unlicensed() {
        let page = present(.free, file: false)
        #expect(page.title == Tier.free.title)
        #expect(page.mood == .free)
        #expect(page.facts.isEmpty)
        #expect(!page.canRemove)
        #expect(page.banner == nil)
        #expect(page.problem == nil)
    }

    @Test("an active licence lists who, plan, last valid day and number")
    func active() {
        let page = present(EntitlementStatus(tier: .pro, features: Set(Feature.allCases), license: summary,
                                             condition: .active))
        #expect(page.title == Tier.pro.title)
        #expect(page.mood == .pro)
        #expect(page.facts.map(\.value) == ["Ada Lovelace", "ada@example.com", "Annual", "31 December 2026", "BF-1"])
        #expect(page.canRemove)
        #expect(page.banner == nil)
    }

    @Test("a lifetime licence has no end date")
    func lifetime() {
        var lifetime = summary
        lifetime.plan = .lifetime
        lifetime.expiresAt = nil
        let page = present(EntitlementStatus(tier: .pro, features: [], license: lifetime, condition: .active))
        #expect(page.facts.first { $0.title == "Valid Through" }?.value == "No end date")
    }

    @Test("the grace period shows a banner with the days left and the last day of grace")
    func grace() {
        let endsAt = Instants.expires.addingTimeInterval(14 * Instants.day)
        let page = present(EntitlementStatus(tier: .pro, features: Set(Feature.allCases), license: summary,
                                             condition: .gracePeriod(endsAt: endsAt, daysLeft: 3)))
        #expect(page.tier == .pro)
        #expect(page.mood == .warning)
        #expect(page.banner == "Your licence has expired. Billfold Pro keeps working for 3 more days.")
        #expect(page.summary.contains("14 January 2027"))
        let oneDay = present(EntitlementStatus(tier: .pro, features: [], license: summary,
                                               condition: .gracePeriod(endsAt: endsAt, daysLeft: 1)))
        #expect(oneDay.banner == "Your licence has expired. Billfold Pro keeps working for 1 more day.")
    }

    @Test("after the grace period: free again, the licence still shown and removable")
    func expired() {
        let page = present(EntitlementStatus(tier: .free, features: [], license: summary,
                                             condition: .expired(graceEndedAt: Instants.expires)))
        #expect(page.title == Tier.free.title)
        #expect(page.banner == nil)
        #expect(page.summary.contains("Everything you made is still here"))
        #expect(page.facts.count == 5)
        #expect(page.canRemove)
    }

    @Test("an unusable file shows its reason and can be removed")
    func unusable() {
        let reason = LicenseError.signatureMismatch.localizedDescription
        let page = present(EntitlementStatus(tier: .free, features: [], license: nil, condition: .unusable(reason: reason)))
        #expect(page.mood == .problem)
        #expect(page.problem == reason)
        #expect(page.canRemove)
        #expect(page.facts.isEmpty)
    }

    @Test("a licence from the future says when it starts")
    func notYetValid() {
        let page = present(EntitlementStatus(tier: .free, features: [], license: summary,
                                             condition: .notYetValid(startsAt: Instants.issued)))
        #expect(page.mood == .warning)
        #expect(page.problem?.contains("1 January 2026") == true)
    }
}

@Suite("Checking what was entered")
@MainActor
struct LicenseInputCheckTests {
    let licenses: TestLicenses
    let check: LicenseInputCheck

    init() throws {
        licenses = try TestLicenses()
        check = LicenseInputCheck(verifier: LicenseVerifier(publicKey: licenses.key.publicKey),
                                  clock: { Instants.midTerm })
    }

    @Test("blank input is a hint, not an error")
    func blank() {
        #expect(check.check(text: "") == .empty)
        #expect(check.check(text: " \n\t\r\n") == .empty)
    }

    @Test("a good licence is valid, with its summary")
    func valid() throws {
        let outcome = check.check(text: try licenses.text())
        guard case .valid(let summary, let standing) = outcome else {
            Issue.record("expected a valid licence, got \(outcome)")
            return
        }
        #expect(summary.licenseeName == "Ada Lovelace")
        #expect(standing == .valid)
        let description = LicenseInputCheck.description(of: summary, standing: standing, timeZone: utc, locale: english)
        #expect(description == "Licence for Ada Lovelace (ada@example.com). Annual plan, valid through 31 December 2026.")
    }

    @Test("a licence in its grace period is valid and says so")
    func grace() throws {
        let late = LicenseInputCheck(verifier: check.verifier, clock: { Instants.expires.addingTimeInterval(2 * Instants.day) })
        guard case .valid(let summary, let standing) = late.check(text: try licenses.text()) else {
            Issue.record("expected a valid licence in its grace period")
            return
        }
        #expect(LicenseInputCheck.description(of: summary, standing: standing, timeZone: utc, locale: english)
            .hasSuffix("It has expired: Billfold Pro will keep working for 12 more days."))
    }

    @Test("tampering, another key, expiry and a huge paste are refused with their reason")
    func refusals() throws {
        let text = try licenses.text()
        var lines = text.split(separator: "\n").map(String.init)
        var line = Array(lines[2])
        line[5] = line[5] == "A" ? "B" : "A"
        lines[2] = String(line)
        #expect(check.check(text: lines.joined(separator: "\n")) == .invalid(.signatureMismatch))

        let otherKey = try TestLicenses()
        #expect(check.check(text: try otherKey.text()) == .invalid(.unknownSigner))

        let expired = LicenseInputCheck(verifier: check.verifier, clock: { Instants.expires.addingTimeInterval(30 * Instants.day) })
        guard case .invalid(.expired) = expired.check(text: text) else {
            Issue.record("an expired licence was not refused as expired")
            return
        }
        let huge = String(repeating: " ", count: 10 * 1024 * 1024)
        guard case .invalid(.tooLarge) = check.check(text: huge) else {
            Issue.record("a 10 MB paste was not refused as too large")
            return
        }
        #expect(check.check(text: "hello") == .invalid(.notALicense))
    }

    @Test("a licence file is read into its clean text; a bad file says why")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("billfold-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try licenses.text()
        let good = directory.appendingPathComponent("good.billfold-license")
        try Data(("Your licence:\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n")).utf8).write(to: good)
        #expect(try check.read(fileAt: good).get() == text)

        let photo = directory.appendingPathComponent("photo.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE, 0x00]).write(to: photo)
        #expect(throws: LicenseError.notALicense) { try check.read(fileAt: photo).get() }
        let missing = directory.appendingPathComponent("missing.billfold-license")
        guard case .failure(.unreadableFile) = check.read(fileAt: missing) else {
            Issue.record("a missing file was not reported as unreadable")
            return
        }
    }
}

#if DEBUG
@Suite("The test key hook")
struct TrustedKeyTests {
    @Test("debug builds read a test key from the environment, and ignore a bad one")
    func testKey() throws {
        let key = try LicenseSigningKey.generate().publicKey
        let file = LicenseKeyFile.publicKeyText(key)
        #expect(TrustedKey.testKey(in: [TrustedKey.testKeyEnvironmentVariable: key.base64]) == key)
        #expect(TrustedKey.testKey(in: [TrustedKey.testKeyEnvironmentVariable: file]) == key)
        #expect(TrustedKey.testKey(in: [TrustedKey.testKeyEnvironmentVariable: "not a key"]) == nil)
        #expect(TrustedKey.testKey(in: [:]) == nil)
    }
}
#endif
