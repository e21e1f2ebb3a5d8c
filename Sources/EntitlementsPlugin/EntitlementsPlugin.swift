import BillfoldCore
import Foundation
import GObjectCore
import EntitlementsCore
import GtkKit
import Licensing
import Plans
import PluginAPI

/// Billfold Pro: keeps the offline licence, publishes the `Entitlements` service and the
/// upgrade prompt for other plugins, and shows the Billfold Pro page.
@MainActor
public final class BillfoldPro: Plugin {
    private let directory: @MainActor () -> URL
    private let publicKey: LicensePublicKey
    private let clock: @MainActor () -> Date

    public private(set) var page: PluginPage?
    private(set) var store: LicenseStore?
    private(set) var view: ProPageView?
    private(set) var actions: LicenseActions?
    private(set) var paywall: Paywall?
    private var observation: ObservationToken?
    /// Bumped to forget a pending refresh: GLib timeouts run to the end, so they check it.
    private var refreshGeneration = 0

    /// The app's plugin: the licence in the configuration folder, checked against the
    /// compiled-in vendor key.
    public init() {
        directory = { AppPaths.configDirectory }
        publicKey = TrustedKey.current
        clock = { Date() }
    }

    /// For tests: another folder, a test key pair's public key and a clock they move.
    init(directory: URL, publicKey: LicensePublicKey, clock: @escaping @MainActor () -> Date) {
        self.directory = { directory }
        self.publicKey = publicKey
        self.clock = clock
    }

    public var info: PluginInfo {
        PluginInfo(id: "entitlements", name: tr("Billfold Pro"),
                   summary: tr("Your plan, and entering or removing a Billfold Pro licence"),
                   iconName: "starred-symbolic")
    }

    public func activate(in context: PluginContext) throws {
        let store = LicenseStore(directory: directory(), publicKey: publicKey, clock: clock)
        let check = LicenseInputCheck(verifier: LicenseVerifier(publicKey: publicKey), clock: clock)
        let actions = LicenseActions(store: store, check: check, context: context)
        let paywall = Paywall(actions: actions) { [weak context] in context?.window }
        self.store = store
        self.actions = actions
        self.paywall = paywall
        context.services.register(store, as: (any Entitlements).self)
        context.services.register(paywall, as: (any UpgradePrompting).self)

        // Each change (a licence added or removed, or one running out) moves the next one.
        observation = store.observe { [weak self] in self?.scheduleRefresh() }
        scheduleRefresh()
        // Built when first shown: most starts never open this page.
        page = PluginPage(title: info.name, iconName: info.iconName, onShown: { [weak store] in store?.refresh() }) {
            [weak self] in
            let view = ProPageView(store: store, actions: actions, backButton: context.makeBackButton())
            self?.view = view
            return view.widget
        }
    }

    public func deactivate() {
        refreshGeneration += 1
        observation = nil
        paywall?.close()
        actions?.closeDialogs()
        paywall = nil
        actions = nil
        view = nil
        store = nil
        page = nil
    }

    /// Arms a GLib timeout for the next moment the licence's standing changes by itself.
    private func scheduleRefresh() {
        refreshGeneration += 1
        let generation = refreshGeneration
        guard let store, let delay = RefreshSchedule.delay(from: clock(), until: store.nextStatusChange(after: clock())) else {
            return
        }
        MainLoop.after(milliseconds: delay) { [weak self] in
            guard let self, self.refreshGeneration == generation, let store = self.store else { return }
            store.refresh()
            // A refresh that changed the status has already rescheduled through the observer.
            if self.refreshGeneration == generation { self.scheduleRefresh() }
        }
    }
}
