import BillfoldCore
import Foundation
@testable import Licensing
import Testing

@Suite("Licence validity over time")
struct LicenseStandingTests {
    let license: License

    init() throws {
        license = try makeLicense()
    }

    private func standing(at date: Date) -> Result<LicenseStanding, LicenseError> {
        Result { () throws(LicenseError) in try license.standing(at: date) }
    }

    @Test("in force from issue to expiry")
    func valid() {
        #expect(standing(at: Instants.issued) == .success(.valid))
        #expect(standing(at: Instants.midTerm) == .success(.valid))
        #expect(standing(at: Instants.expires.addingTimeInterval(-1)) == .success(.valid))
    }

    @Test("expired: 14 days of grace, counted down in whole days, then refused")
    func grace() {
        let end = Instants.graceEnd
        #expect(standing(at: Instants.expires) == .success(.gracePeriod(endsAt: end, daysLeft: 14)))
        #expect(standing(at: Instants.expires.addingTimeInterval(1)) == .success(.gracePeriod(endsAt: end, daysLeft: 14)))
        #expect(standing(at: Instants.expires.addingTimeInterval(Instants.day)) == .success(.gracePeriod(endsAt: end, daysLeft: 13)))
        #expect(standing(at: end.addingTimeInterval(-1)) == .success(.gracePeriod(endsAt: end, daysLeft: 1)))
        #expect(standing(at: end) == .failure(.expired(expiredAt: Instants.expires, graceEndedAt: end)))
        #expect(standing(at: end.addingTimeInterval(365 * Instants.day)) == .failure(.expired(expiredAt: Instants.expires, graceEndedAt: end)))
    }

    @Test("not yet valid before its issue date, allowing a day of clock skew")
    func notYetValid() {
        #expect(standing(at: Instants.issued.addingTimeInterval(-3600)) == .success(.valid))
        #expect(standing(at: Instants.issued.addingTimeInterval(-Instants.day)) == .success(.valid))
        #expect(standing(at: Instants.issued.addingTimeInterval(-Instants.day - 1)) == .failure(.notYetValid(startsAt: Instants.issued)))
        #expect(standing(at: Instants.issued.addingTimeInterval(-400 * Instants.day)) == .failure(.notYetValid(startsAt: Instants.issued)))
    }

    @Test("a lifetime licence never expires")
    func lifetime() throws {
        let lifetime = try makeLicense(plan: .lifetime)
        #expect(lifetime.graceEndsAt == nil)
        #expect(try lifetime.standing(at: Date(timeIntervalSince1970: 253_402_300_000)) == .valid)
        #expect(lifetime.nextStandingChange(after: Instants.midTerm) == nil)
    }

    @Test("the next change is each boundary in turn, and the standing changes exactly there")
    func nextChanges() {
        var date = Instants.issued.addingTimeInterval(-10 * Instants.day)
        var changes: [Date] = []
        while let next = license.nextStandingChange(after: date) {
            #expect(next > date)
            #expect(standing(at: next) != standing(at: next.addingTimeInterval(-1)))
            changes.append(next)
            date = next
        }
        // Start, expiry, 13 daily countdown steps, end of grace.
        #expect(changes.first == license.startsAt)
        #expect(changes[1] == Instants.expires)
        #expect(changes.count == 2 + 13 + 1)
        #expect(changes.last == Instants.graceEnd)
        #expect(changes.dropFirst(2).dropLast().enumerated().allSatisfy { index, change in
            change == Instants.expires.addingTimeInterval(TimeInterval(index + 1) * Instants.day)
        })
    }

    @Test("pasting checks validity against the clock")
    func validateText() throws {
        let key = try TestKeys.make()
        let verifier = LicenseVerifier(publicKey: key.publicKey)
        let text = SignedLicense(signing: license, with: key).armoredText
        #expect(try verifier.validate(text: text, at: Instants.midTerm).1 == .valid)
        #expect(licenseError { () throws(LicenseError) in try verifier.validate(text: text, at: Instants.graceEnd) }
                == .expired(expiredAt: Instants.expires, graceEndedAt: Instants.graceEnd))
        #expect(licenseError { () throws(LicenseError) in
            try verifier.validate(text: text, at: Instants.issued.addingTimeInterval(-2 * Instants.day))
        } == .notYetValid(startsAt: Instants.issued))
    }
}
