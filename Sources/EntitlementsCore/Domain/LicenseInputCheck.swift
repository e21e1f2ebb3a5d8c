import BillfoldCore
import Foundation
import Licensing
import Plans

/// What the Enter Licence dialog knows about what was pasted or chosen so far.
public enum LicenseInputOutcome: Equatable {
    /// Nothing entered yet: a hint, not an error.
    case empty
    /// A licence that would be accepted now (possibly in its grace period).
    case valid(LicenseSummary, LicenseStanding)
    /// Refused, with the reason to show.
    case invalid(LicenseError)

    public var isValid: Bool {
        if case .valid = self { return true }
        return false
    }
}

/// Checks licence input the way `LicenseStore.install` will, against the same key and clock,
/// so the Activate button is enabled exactly when activating would succeed.
public struct LicenseInputCheck {
    public let verifier: LicenseVerifier
    public let clock: @MainActor () -> Date

    public init(verifier: LicenseVerifier, clock: @escaping @MainActor () -> Date) {
        self.verifier = verifier
        self.clock = clock
    }

    @MainActor
    public func check(text: String) -> LicenseInputOutcome {
        // A huge paste is refused by size before anything looks for blank lines in it.
        if text.utf8.count <= LicenseArmor.maximumTextBytes, text.allSatisfy(\.isWhitespace) { return .empty }
        do throws(LicenseError) {
            let (signed, standing) = try verifier.validate(text: text, at: clock())
            return .valid(signed.license.summary, standing)
        } catch {
            return .invalid(error)
        }
    }

    /// Reads a chosen or dropped file. Gives the licence's clean text to show in the dialog, or
    /// the reason the file cannot be used.
    public func read(fileAt url: URL) -> Result<String, LicenseError> {
        do throws(LicenseError) {
            return .success(try verifier.verify(fileAt: url).armoredText)
        } catch {
            return .failure(error)
        }
    }

    /// What the dialog says about a valid licence, so the user sees whose it is before activating.
    public static func description(of summary: LicenseSummary, standing: LicenseStanding,
                            timeZone: TimeZone = .current, locale: Locale = UserLocale.time) -> String {
        let who = String(format: tr("Licence for %@ (%@)."), summary.licenseeName, summary.licenseeEmail)
        let term: String
        if let expiresAt = summary.expiresAt {
            term = String(format: tr("%@ plan, valid through %@."), summary.plan.title,
                          LicenseDates.lastValidDay(expiresAt: expiresAt, timeZone: timeZone, locale: locale))
        } else {
            term = tr("Lifetime licence, with no end date.")
        }
        var lines = [who, term]
        if case .gracePeriod(_, let daysLeft) = standing {
            lines.append(String(format: trn("It has expired: Billfold Pro will keep working for %d more day.",
                                            "It has expired: Billfold Pro will keep working for %d more days.", daysLeft),
                                daysLeft))
        }
        return lines.joined(separator: " ")
    }
}
