import BillfoldCore
import GtkKit
import PluginAPI

/// Splits a bill and its tip between people, to the cent.
@MainActor
public final class TipSplit: Plugin {
    public init() {}

    public var info: PluginInfo {
        PluginInfo(id: "tipsplit", name: tr("TipSplit"),
                   summary: tr("Work out the tip and what each person pays"),
                   iconName: "view-grid-symbolic")
    }

    public private(set) var page: PluginPage?

    public func activate(in context: PluginContext) throws {
        let label = Label("TipSplit")
        page = PluginPage(title: info.name, iconName: info.iconName, widget: label)
    }
}
