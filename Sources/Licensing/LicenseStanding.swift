import BillfoldCore
import Foundation
import Plans

/// How a verified licence stands at some moment, when it is in force.
public enum LicenseStanding: Sendable, Hashable {
    case valid
    /// Expired, but Pro keeps working until `endsAt`; `daysLeft` is rounded up.
    case gracePeriod(endsAt: Date, daysLeft: Int)
}

extension License {
    static let secondsPerDay: TimeInterval = 86_400

    /// How far a computer's clock may lag behind the vendor's before a fresh licence counts
    /// as not yet valid. Without it, a licence pasted the minute it was bought would be
    /// refused on a machine whose clock is a few minutes or a time zone behind.
    public static let clockSkewAllowance: TimeInterval = secondsPerDay

    /// The instant the licence starts to count, allowing for clock skew.
    public var startsAt: Date { issuedAt.addingTimeInterval(-Self.clockSkewAllowance) }

    /// When the grace period after expiry ends; `nil` for lifetime licences.
    public var graceEndsAt: Date? {
        expiresAt?.addingTimeInterval(TimeInterval(EntitlementLimits.gracePeriodDays) * Self.secondsPerDay)
    }

    /// Whether the licence is in force at `date`; throws `expired` or `notYetValid` if not.
    public func standing(at date: Date) throws(LicenseError) -> LicenseStanding {
        guard date >= startsAt else { throw .notYetValid(startsAt: issuedAt) }
        guard let expiresAt, let graceEndsAt, date >= expiresAt else { return .valid }
        guard date < graceEndsAt else {
            throw .expired(expiredAt: expiresAt, graceEndedAt: graceEndsAt)
        }
        let daysLeft = Int((graceEndsAt.timeIntervalSince(date) / Self.secondsPerDay).rounded(.up))
        return .gracePeriod(endsAt: graceEndsAt, daysLeft: daysLeft)
    }

    /// The first instant after `date` at which `standing(at:)` gives a different answer
    /// (including a change of `daysLeft`), or `nil` if it never changes again. The app arms
    /// a timer for it so open windows update when a licence runs out.
    public func nextStandingChange(after date: Date) -> Date? {
        if date < startsAt { return startsAt }
        guard let expiresAt, let graceEndsAt else { return nil }
        if date < expiresAt { return expiresAt }
        guard date < graceEndsAt else { return nil }
        // daysLeft drops each time a whole number of days remains.
        let remaining = graceEndsAt.timeIntervalSince(date)
        let wholeDays = (remaining / Self.secondsPerDay).rounded(.up) - 1
        return graceEndsAt.addingTimeInterval(-wholeDays * Self.secondsPerDay)
    }
}
