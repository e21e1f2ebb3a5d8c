/// Who the user's business is, as entered in the business profile: the Invoices plugin publishes
/// it, and other plugins (an expense report's traveller) read it without knowing Invoices.
@MainActor
public protocol BusinessIdentity: AnyObject {
    /// The business or person's name; empty until the profile is filled in.
    var name: String { get }
}

extension PluginContext {
    /// The business name from the profile, or "" when no plugin publishes one.
    public var businessName: String {
        services.resolve((any BusinessIdentity).self)?.name ?? ""
    }
}
