import BillfoldCore
import EntitlementsCore
import GtkKit
import Plans
import PluginAPI

/// The `UpgradePrompting` service: when a gated action is tried on the free plan, a dialog
/// names the feature, says what Pro adds and offers Enter Licence… or Not Now.
@MainActor
final class Paywall: UpgradePrompting {
    private let actions: LicenseActions
    private let parent: @MainActor () -> Window?
    /// The dialog while it is open, and the feature it is about.
    private(set) var dialog: MessageDialog?
    private(set) var feature: Feature?

    init(actions: LicenseActions, parent: @escaping @MainActor () -> Window?) {
        self.actions = actions
        self.parent = parent
    }

    func requestUpgrade(for feature: Feature, reason: String?) {
        dialog?.destroy()
        let heading = reason == nil ? tr("Upgrade to Billfold Pro") : tr("Free Plan Limit Reached")
        let dialog = MessageDialog(parent: parent(), heading: heading, body: Self.body(for: feature, reason: reason))
        dialog.addResponse("not-now", label: tr("_Not Now"))
        dialog.addResponse("buy", label: tr("_Buy Billfold Pro"))
        dialog.addResponse("enter", label: tr("_Enter Licence…"), appearance: .suggested)
        dialog.setDefaultResponse("enter")
        dialog.setCloseResponse("not-now")
        dialog.onResponse { [weak self] response in
            guard let self else { return }
            self.dialog = nil
            self.feature = nil
            if response == "enter" { self.actions.enterLicense() }
            if response == "buy" { self.actions.buy() }
        }
        self.dialog = dialog
        self.feature = feature
        dialog.present()
    }

    func close() {
        dialog?.destroy()
        dialog = nil
        feature = nil
    }

    /// Says why the action stopped (when there is a reason), names the feature, then what else
    /// Pro adds, the promise that nothing is taken away, and where Pro is sold.
    static func body(for feature: Feature, reason: String? = nil) -> String {
        let others = Feature.allCases.filter { $0 != feature }.map(\.title)
        var body = reason.map { $0 + "\n\n" } ?? ""
        body += String(format: tr("“%@” is part of Billfold Pro."), feature.title)
        if !others.isEmpty {
            body += " " + tr("Pro also adds:") + "\n" + others.map { "• " + $0 }.joined(separator: "\n")
        }
        return body + "\n\n" + tr("On the free plan, everything you made stays available.") + "\n\n"
            + String(format: tr("Billfold Pro is sold monthly, yearly or for life at %@."), Purchase.shownAddress)
    }
}
