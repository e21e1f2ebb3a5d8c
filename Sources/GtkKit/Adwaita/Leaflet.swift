import CGtk
import GObjectCore

/// An `AdwLeaflet`: panes side by side that fold into one at a time on a narrow window.
@MainActor
public final class Leaflet: Widget {
    public init() {
        super.init(adopting: untyped(adw_leaflet_new()))
        adw_leaflet_set_can_navigate_back(pointer(), 1)
        adw_leaflet_set_can_unfold(pointer(), 1)
    }

    public func append(_ child: Widget, navigatable: Bool = true) {
        let page = adw_leaflet_append(pointer(), child.widgetPointer)
        adw_leaflet_page_set_navigatable(page, navigatable ? 1 : 0)
    }

    public func remove(_ child: Widget) { adw_leaflet_remove(pointer(), child.widgetPointer) }

    /// True when only one pane fits.
    public var isFolded: Bool { adw_leaflet_get_folded(pointer()) != 0 }

    public var visibleChild: Widget? {
        get { adw_leaflet_get_visible_child(pointer()).map { Widget.wrapper(ofWidget: untyped($0)) } }
        set { if let newValue { adw_leaflet_set_visible_child(pointer(), newValue.widgetPointer) } }
    }

    /// Shows the previous pane when folded (the sidebar from a page).
    @discardableResult
    public func navigateBack() -> Bool { adw_leaflet_navigate(pointer(), ADW_NAVIGATION_DIRECTION_BACK) != 0 }

    /// The width below which the panes fold, in pixels (libadwaita folds by natural size;
    /// a minimum keeps the layout predictable).
    public var animatesTransitions: Bool {
        get { adw_leaflet_get_mode_transition_duration(pointer()) > 0 }
        set { adw_leaflet_set_mode_transition_duration(pointer(), newValue ? 250 : 0) }
    }

    @discardableResult
    public func onFoldedChanged(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        onNotify("folded", handler)
    }
}
