import CGtk
import GObjectCore

/// An `AdwHeaderBar`.
@MainActor
public final class HeaderBar: Widget {
    public init(title: Widget? = nil) {
        super.init(adopting: untyped(adw_header_bar_new()))
        if let title { adw_header_bar_set_title_widget(pointer(), title.widgetPointer) }
    }

    /// The header of a dialog: no window buttons, Cancel at the start and the suggested action
    /// at the end, as GNOME's dialogs have them.
    public convenience init(dialogTitle: String, subtitle: String = "", cancel: Button, action: Button) {
        self.init(title: WindowTitle(dialogTitle, subtitle: subtitle))
        showsStartTitleButtons = false
        showsEndTitleButtons = false
        action.addCssClass("suggested-action")
        packStart(cancel)
        packEnd(action)
    }

    public func packStart(_ child: Widget) { adw_header_bar_pack_start(pointer(), child.widgetPointer) }
    public func packEnd(_ child: Widget) { adw_header_bar_pack_end(pointer(), child.widgetPointer) }
    public func remove(_ child: Widget) { adw_header_bar_remove(pointer(), child.widgetPointer) }

    public var titleWidget: Widget? {
        didSet { adw_header_bar_set_title_widget(pointer(), titleWidget?.widgetPointer) }
    }

    public var showsStartTitleButtons: Bool {
        get { adw_header_bar_get_show_start_title_buttons(pointer()) != 0 }
        set { adw_header_bar_set_show_start_title_buttons(pointer(), newValue ? 1 : 0) }
    }

    public var showsEndTitleButtons: Bool {
        get { adw_header_bar_get_show_end_title_buttons(pointer()) != 0 }
        set { adw_header_bar_set_show_end_title_buttons(pointer(), newValue ? 1 : 0) }
    }
}

/// An `AdwWindowTitle`: a title and an optional subtitle for a header bar.
@MainActor
public final class WindowTitle: Widget {
    public init(_ title: String, subtitle: String = "") {
        super.init(adopting: untyped(adw_window_title_new(title, subtitle)))
    }

    public var title: String {
        get { String(cString: adw_window_title_get_title(pointer())) }
        set { adw_window_title_set_title(pointer(), newValue) }
    }

    public var subtitle: String {
        get { String(cString: adw_window_title_get_subtitle(pointer())) }
        set { adw_window_title_set_subtitle(pointer(), newValue) }
    }
}

/// An `AdwClamp`: keeps content at a readable width in wide windows.
@MainActor
public final class Clamp: Widget {
    /// Below `tighteningThreshold` (two thirds of the maximum unless given) the child gets the
    /// full width; above it, the child grows more slowly up to `maximumWidth`.
    public init(child: Widget, maximumWidth: Int = 600, tighteningThreshold: Int? = nil) {
        super.init(adopting: untyped(adw_clamp_new()))
        adw_clamp_set_child(pointer(), child.widgetPointer)
        adw_clamp_set_maximum_size(pointer(), gint(maximumWidth))
        adw_clamp_set_tightening_threshold(pointer(), gint(tighteningThreshold ?? maximumWidth * 2 / 3))
    }
}

/// An `AdwClampScrollable`: a clamp that is itself scrollable, so a list view inside it still
/// makes rows only for what a scrolled window shows.
@MainActor
public final class ClampScrollable: Widget {
    public init(child: Widget, maximumWidth: Int = 600, tighteningThreshold: Int? = nil) {
        super.init(adopting: untyped(adw_clamp_scrollable_new()))
        adw_clamp_scrollable_set_child(pointer(), child.widgetPointer)
        adw_clamp_scrollable_set_maximum_size(pointer(), gint(maximumWidth))
        adw_clamp_scrollable_set_tightening_threshold(pointer(), gint(tighteningThreshold ?? maximumWidth * 2 / 3))
    }
}

/// An `AdwStatusPage`: an empty state or a full-page message.
@MainActor
public final class StatusPage: Widget {
    public init(iconName: String?, title: String, description: String? = nil, child: Widget? = nil) {
        super.init(adopting: untyped(adw_status_page_new()))
        adw_status_page_set_icon_name(pointer(), iconName)
        adw_status_page_set_title(pointer(), title)
        adw_status_page_set_description(pointer(), description)
        if let child { adw_status_page_set_child(pointer(), child.widgetPointer) }
    }

    public var title: String {
        get { String(cString: adw_status_page_get_title(pointer())) }
        set { adw_status_page_set_title(pointer(), newValue) }
    }

    public var pageDescription: String? {
        get { adw_status_page_get_description(pointer()).map { String(cString: $0) } }
        set { adw_status_page_set_description(pointer(), newValue) }
    }

    /// What sits under the description, e.g. the buttons of an empty state.
    public var child: Widget? {
        get { adw_status_page_get_child(pointer()).map { Widget.wrapper(ofWidget: untyped($0)) } }
        set { adw_status_page_set_child(pointer(), newValue?.widgetPointer) }
    }
}
