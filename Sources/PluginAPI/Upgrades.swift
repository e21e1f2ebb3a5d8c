import BillfoldCore
import Plans

/// Shows the user what Billfold Pro adds when they try a gated action. The Entitlements plugin
/// publishes it; other plugins reach it through `PluginContext.ensureAllowed(_:)`.
@MainActor
public protocol UpgradePrompting: AnyObject {
    /// `reason` says why the action stopped (a limit reached, say) before what Pro adds.
    func requestUpgrade(for feature: Feature, reason: String?)
}

extension PluginContext {
    /// The `Entitlements` service, or the free tier when no plugin publishes one (for example
    /// when the Entitlements plugin is turned off). Look it up when needed, not at activation.
    public var entitlements: any Entitlements {
        services.resolve((any Entitlements).self) ?? FreeTier()
    }

    /// Whether the user may use `feature` now. If not, the user is told why: the upgrade
    /// prompt when the Entitlements plugin runs, otherwise a toast. Call it before a gated
    /// action and go on only when it returns true.
    /// `reason` says why the action stopped, e.g. the free plan's limit with the count.
    @discardableResult
    public func ensureAllowed(_ feature: Feature, reason: String? = nil) -> Bool {
        if entitlements.allows(feature) { return true }
        if let prompt = services.resolve((any UpgradePrompting).self) {
            prompt.requestUpgrade(for: feature, reason: reason)
        } else {
            let message = String(format: tr("“%@” needs Billfold Pro, which is turned off in Preferences"), feature.title)
            showToast([reason, message].compactMap { $0 }.joined(separator: " "))
        }
        return false
    }
}
