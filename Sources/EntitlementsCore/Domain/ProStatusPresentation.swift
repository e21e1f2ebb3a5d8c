import BillfoldCore
import Foundation
import Plans

/// What the Billfold Pro page says about the current entitlement, worked out without GTK so
/// each condition's wording can be tested on its own.
public struct ProStatusPresentation: Equatable {
    /// One fact about the installed licence, such as "Licensed to — Ada Lovelace".
    public struct Fact: Equatable {
        public var title: String
        public var value: String
    }

    public enum Mood: Equatable {
        /// Pro in force.
        case pro
        /// Free, nothing wrong.
        case free
        /// Pro for a few more days, or a licence that is not valid yet.
        case warning
        /// A licence file is there but cannot be used.
        case problem
    }

    /// "Free" or "Billfold Pro".
    public var title: String
    public var summary: String
    /// Why the installed licence does not count, already translated; shown as an error.
    public var problem: String?
    public var mood: Mood
    /// The installed licence's details; empty without one.
    public var facts: [Fact]
    /// The grace period warning, shown as a banner under the header bar.
    public var banner: String?
    /// Whether there is a licence file to remove (also an expired or unusable one).
    public var canRemove: Bool
    public var tier: Tier

    public init(status: EntitlementStatus, hasLicenseFile: Bool, timeZone: TimeZone = .current, locale: Locale = UserLocale.time) {
        tier = status.tier
        title = status.tier.title
        canRemove = hasLicenseFile
        problem = nil
        banner = nil
        switch status.condition {
        case .unlicensed:
            mood = .free
            summary = tr("You are using Billfold for free. Billfold Pro adds unlimited invoices and invoice PDFs.")
        case .active:
            mood = .pro
            summary = tr("All Pro features are on. Thank you for supporting Billfold.")
        case .gracePeriod(let endsAt, let daysLeft):
            mood = .warning
            summary = String(format: tr("Your licence has expired. Pro features keep working through %@; renew the licence to keep them."),
                             LicenseDates.lastValidDay(expiresAt: endsAt, timeZone: timeZone, locale: locale))
            banner = String(format: trn("Your licence has expired. Billfold Pro keeps working for %d more day.",
                                        "Your licence has expired. Billfold Pro keeps working for %d more days.", daysLeft),
                            daysLeft)
        case .expired:
            mood = .free
            summary = tr("Your licence has ended, so Billfold is on the free plan. Everything you made is still here; enter a new licence to use Pro again.")
        case .notYetValid(let startsAt):
            mood = .warning
            summary = tr("Your licence is not valid yet, so Billfold is on the free plan for now.")
            problem = String(format: tr("This licence is valid from %@. If that date has passed, check your computer's date and time."),
                             LicenseDates.longDate(startsAt, timeZone: timeZone, locale: locale))
        case .unusable(let reason):
            mood = .problem
            summary = tr("The installed licence cannot be used, so Billfold is on the free plan. Enter the licence again, or remove it.")
            problem = reason
        }
        facts = status.license.map { Self.facts(for: $0, timeZone: timeZone, locale: locale) } ?? []
    }

    private static func facts(for license: LicenseSummary, timeZone: TimeZone, locale: Locale) -> [Fact] {
        let validity = license.expiresAt.map { LicenseDates.lastValidDay(expiresAt: $0, timeZone: timeZone, locale: locale) }
            ?? tr("No end date")
        return [
            Fact(title: tr("Licensed To"), value: license.licenseeName),
            Fact(title: tr("Email"), value: license.licenseeEmail),
            Fact(title: tr("Plan"), value: license.plan.title),
            Fact(title: tr("Valid Through"), value: validity),
            Fact(title: tr("Licence Number"), value: license.id),
        ]
    }
}
