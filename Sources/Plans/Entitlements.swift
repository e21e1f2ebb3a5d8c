import BillfoldCore
import Foundation

// The Entitlements service: what the user's tier lets them do. Plugins ask it before a gated
// action; the Entitlements plugin publishes it, and without that plugin `FreeTier` stands in.
// It carries no GTK so domain code and tests can use it without a display.

/// The two tiers of Billfold.
public enum Tier: String, Sendable, Hashable, CaseIterable {
    case free
    case pro

    /// The tier's name as shown to the user.
    public var title: String {
        switch self {
        case .free: tr("Free")
        case .pro: tr("Billfold Pro")
        }
    }
}

/// Something the Pro tier unlocks. The raw value is the name written in a licence, so it
/// never changes once shipped.
public enum Feature: String, Sendable, Hashable, CaseIterable {
    /// More than `EntitlementLimits.freeInvoices` invoices.
    case unlimitedInvoices = "unlimited-invoices"
    /// Saving, printing and emailing an invoice as PDF (the preview stays free).
    case exportInvoicePDF = "export-invoice-pdf"

    /// The feature's name as shown in a paywall or a plan comparison.
    public var title: String {
        switch self {
        case .unlimitedInvoices: tr("Unlimited invoices")
        case .exportInvoicePDF: tr("Save, print and email invoices as PDF")
        }
    }
}

/// How a licence is sold. The raw value is the name written in a licence.
public enum LicensePlan: String, Sendable, Hashable, CaseIterable {
    case monthly
    case annual
    case lifetime

    public var title: String {
        switch self {
        case .monthly: tr("Monthly")
        case .annual: tr("Annual")
        case .lifetime: tr("Lifetime")
        }
    }
}

/// Limits of the free tier.
public enum EntitlementLimits {
    /// How many invoices a free user can keep; older ones always stay readable.
    public static let freeInvoices = 5
    /// How long an expired licence keeps working, so a renewal can arrive without a gap.
    public static let gracePeriodDays = 14
}

/// What the UI shows about an installed licence; no secrets, just the facts on it.
public struct LicenseSummary: Sendable, Hashable {
    public var id: String
    public var licenseeName: String
    public var licenseeEmail: String
    public var plan: LicensePlan
    public var issuedAt: Date
    /// `nil` for a lifetime licence.
    public var expiresAt: Date?

    public init(id: String, licenseeName: String, licenseeEmail: String, plan: LicensePlan,
                issuedAt: Date, expiresAt: Date?) {
        self.id = id
        self.licenseeName = licenseeName
        self.licenseeEmail = licenseeEmail
        self.plan = plan
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// The current entitlement: the tier, the features it unlocks and why.
public struct EntitlementStatus: Sendable, Hashable {
    /// Why the status is what it is; the UI picks its banner and wording from this.
    public enum Condition: Sendable, Hashable {
        /// No licence is installed.
        case unlicensed
        /// A licence is installed and in force.
        case active
        /// The licence expired; Pro keeps working until `endsAt`.
        case gracePeriod(endsAt: Date, daysLeft: Int)
        /// The licence and its grace period are over; the tier is free again.
        case expired(graceEndedAt: Date)
        /// The licence starts later (or the computer's clock is behind).
        case notYetValid(startsAt: Date)
        /// A licence file is installed but cannot be used; `reason` is already translated.
        case unusable(reason: String)
    }

    public var tier: Tier
    /// The features in force now; empty on the free tier.
    public var features: Set<Feature>
    /// The installed licence, shown even when it is not in force (expired, not yet valid).
    public var license: LicenseSummary?
    public var condition: Condition

    public init(tier: Tier, features: Set<Feature>, license: LicenseSummary?, condition: Condition) {
        self.tier = tier
        self.features = tier == .pro ? features : []
        self.license = license
        self.condition = condition
    }

    /// The status when nothing is installed.
    public static let free = EntitlementStatus(tier: .free, features: [], license: nil,
                                               condition: .unlicensed)

    /// The most invoices the user may keep, or `nil` when unlimited.
    public var invoiceLimit: Int? {
        features.contains(.unlimitedInvoices) ? nil : EntitlementLimits.freeInvoices
    }

    public var isInGracePeriod: Bool {
        if case .gracePeriod = condition { return true }
        return false
    }

    /// Whole days of grace left (rounded up), or `nil` outside the grace period.
    public var graceDaysLeft: Int? {
        if case .gracePeriod(_, let days) = condition { return days }
        return nil
    }
}

/// Keeps a change handler registered; cancelling it (or letting it go) unregisters the handler.
public final class ObservationToken: Sendable {
    private let onCancel: @Sendable () -> Void

    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// A token for a value that never changes.
    public static func inert() -> ObservationToken { ObservationToken(onCancel: {}) }

    public func cancel() { onCancel() }

    deinit { onCancel() }
}

/// The handlers registered with `Entitlements.observe`. Removal may come from a token's
/// `deinit` on any thread, so the list is behind a lock; handlers run on the main actor.
public final class EntitlementObservers: @unchecked Sendable {
    public typealias Handler = @MainActor @Sendable () -> Void

    private let lock = NSLock()
    private var handlers: [UInt64: Handler] = [:]
    private var nextID: UInt64 = 0

    public init() {}

    /// Registers `handler` until the returned token is cancelled or released.
    public func add(_ handler: @escaping Handler) -> ObservationToken {
        let id = lock.withLock {
            nextID += 1
            handlers[nextID] = handler
            return nextID
        }
        return ObservationToken { [weak self] in self?.remove(id) }
    }

    public var count: Int { lock.withLock { handlers.count } }

    /// Calls every handler, in registration order. A handler may cancel tokens while it runs.
    @MainActor public func notifyAll() {
        let snapshot = lock.withLock { handlers.sorted { $0.key < $1.key } }
        for (id, handler) in snapshot where lock.withLock({ handlers[id] != nil }) {
            handler()
        }
    }

    private func remove(_ id: UInt64) {
        _ = lock.withLock { handlers.removeValue(forKey: id) }
    }
}

/// The service every plugin asks before a gated action. Main-actor isolated: it is read by UI
/// code, and its changes are announced to open windows on the main actor.
@MainActor
public protocol Entitlements: AnyObject {
    /// Everything about the current entitlement, for the Pro page and banners.
    var status: EntitlementStatus { get }
    /// Registers `handler` to run after every change of `status`; keep the token as long as
    /// the handler should run.
    func observe(_ handler: @escaping @MainActor @Sendable () -> Void) -> ObservationToken

    var tier: Tier { get }
    func allows(_ feature: Feature) -> Bool
    /// The most invoices the user may keep, or `nil` when unlimited.
    var invoiceLimit: Int? { get }
}

extension Entitlements {
    public var tier: Tier { status.tier }

    public func allows(_ feature: Feature) -> Bool { status.features.contains(feature) }

    public var invoiceLimit: Int? { status.invoiceLimit }

}

/// The free tier, for when no plugin publishes an `Entitlements` service (for example the
/// Entitlements plugin is turned off). It never changes.
@MainActor
public final class FreeTier: Entitlements {
    public init() {}

    public var status: EntitlementStatus { .free }

    public func observe(_ handler: @escaping @MainActor @Sendable () -> Void) -> ObservationToken {
        .inert()
    }
}
