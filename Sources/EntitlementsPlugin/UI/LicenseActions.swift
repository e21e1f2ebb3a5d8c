import BillfoldCore
import EntitlementsCore
import GtkKit
import Licensing
import Plans
import PluginAPI

/// Entering and removing a licence, reached from the page, its banner and the paywall.
@MainActor
final class LicenseActions {
    private let store: LicenseStore
    private let check: LicenseInputCheck
    private let context: PluginContext
    /// The Enter Licence dialog while it is open; there is never more than one.
    private weak var lastEnterDialog: EnterLicenseDialog?
    /// The licence dialog while it is open; a closed one is never shown again.
    var enterDialog: EnterLicenseDialog? { lastEnterDialog.flatMap { $0.isVisible ? $0 : nil } }
    /// The removal confirmation while it is open.
    private(set) var removalDialog: MessageDialog?

    init(store: LicenseStore, check: LicenseInputCheck, context: PluginContext) {
        self.store = store
        self.check = check
        self.context = context
    }

    func enterLicense() {
        if let enterDialog {
            enterDialog.present()
            return
        }
        let dialog = EnterLicenseDialog(parent: context.window, check: check) { [weak self] text throws(LicenseError) in
            guard let self else { return }
            try self.store.install(text: text)
            self.context.showToast(tr("Billfold Pro is active. Thank you!"))
        }
        lastEnterDialog = dialog
        dialog.present()
    }

    /// Asks before removing: the user may not have the licence at hand to enter it again.
    /// Opens the shop's page in the browser; if no browser can, says where it is.
    func buy() {
        Launcher.open(uri: Purchase.address, parent: context.window) { [weak self] error in
            guard let error else { return }
            self?.context.showToast(String(format: tr("The shop at %@ could not be opened: %@"), Purchase.address,
                                           error.localizedDescription))
        }
    }

    func confirmRemoval() {
        if let removalDialog {
            removalDialog.present()
            return
        }
        let dialog = MessageDialog(parent: context.window, heading: tr("Remove Licence?"),
                                   body: tr("Billfold goes back to the free plan on this computer. Everything you made stays here, and you can enter the licence again at any time."))
        dialog.addResponse("cancel", label: tr("_Cancel"))
        dialog.addResponse("remove", label: tr("_Remove"), appearance: .destructive)
        dialog.setDefaultResponse("cancel")
        dialog.setCloseResponse("cancel")
        dialog.onResponse { [weak self] response in
            guard let self else { return }
            self.removalDialog = nil
            if response == "remove" { self.removeLicense() }
        }
        removalDialog = dialog
        dialog.present()
    }

    private func removeLicense() {
        do throws(LicenseError) {
            try store.remove()
            context.showToast(tr("Licence removed. Billfold is on the free plan."))
        } catch {
            context.showToast(error.localizedDescription)
        }
    }

    /// Closes any dialog this plugin opened, when the plugin is turned off.
    func closeDialogs() {
        enterDialog?.close()
        removalDialog?.destroy()
        removalDialog = nil
    }
}
