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
        let view = TipSplitView(settings: context.settings, backButton: context.makeBackButton())
        self.view = view
        context.addShortcut("<Control>r", title: tr("Reset")) { [weak view] in view?.reset() }
        page = PluginPage(title: info.name, iconName: info.iconName, widget: view.widget,
                          onShown: { [weak view] in view?.focusFirstField() })
    }

    public func deactivate() {
        view = nil
        page = nil
    }
}
