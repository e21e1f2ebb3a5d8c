import BillfoldCore
import GtkKit
import PluginAPI

/// Splits a bill and its tip between people, to the cent.
@MainActor
public final class TipSplit: Plugin {
    private var view: TipSplitView?

    public init() {}

    public var info: PluginInfo {
        PluginInfo(id: "tipsplit", name: tr("TipSplit"),
                   summary: tr("Work out the tip and what each person pays"),
                   iconName: "system-users-symbolic")
    }

    public private(set) var page: PluginPage?

    public func activate(in context: PluginContext) throws {
        context.addShortcut("<Control>r", title: tr("Reset")) { [weak self] in self?.view?.reset() }
        // Built when first shown, so a start on another page does not pay for it.
        page = PluginPage(title: info.name, iconName: info.iconName,
                          onShown: { [weak self] in self?.view?.focusFirstField() }) { [weak self] in
            let view = TipSplitView(settings: context.settings, backButton: context.makeBackButton())
            self?.view = view
            return view.widget
        }
    }

    public func deactivate() {
        view = nil
        page = nil
    }
}
