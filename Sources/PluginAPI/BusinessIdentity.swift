import BillfoldCore

/// Who the user's business is, as entered in the business profile: the Invoices plugin publishes
/// it, and other plugins (an expense report's traveller) read it without knowing Invoices.
@MainActor
public protocol BusinessIdentity: AnyObject {
    /// The business or person's name; empty until the profile is filled in.
    var name: String { get }
    /// The currency the business works in (its invoices' default), or nil when it cannot be read.
    var currency: Currency? { get }
}

extension PluginContext {
    /// The business name from the profile, or "" when no plugin publishes one.
    public var businessName: String {
        services.resolve((any BusinessIdentity).self)?.name ?? ""
    }

    /// The business's currency, else the locale's: what new things in money start in.
    public var businessCurrency: Currency {
        services.resolve((any BusinessIdentity).self)?.currency ?? .forLocale()
    }
}
