import CGtk
import GObjectCore

/// An `AdwToastOverlay`: brief feedback over the content, optionally with an Undo button.
@MainActor
public final class ToastOverlay: Widget {
    public init(child: Widget? = nil) {
        super.init(adopting: untyped(adw_toast_overlay_new()))
        adw_toast_overlay_set_child(pointer(), child?.widgetPointer)
    }

    public var child: Widget? {
        get { adw_toast_overlay_get_child(pointer()).map { Widget.wrapper(ofWidget: untyped($0)) } }
        set { adw_toast_overlay_set_child(pointer(), newValue?.widgetPointer) }
    }

    /// The last toast shown, for tests and accessibility checks.
    public private(set) var lastToastTitle: String?

    public func show(_ title: String, buttonLabel: String? = nil, timeout: Int = 5,
                     onButton: (@MainActor () -> Void)? = nil) {
        let toast = adw_toast_new(title)
        adw_toast_set_timeout(toast, guint(timeout))
        if let buttonLabel, let onButton {
            adw_toast_set_button_label(toast, buttonLabel)
            let wrapper = Object(retaining: untyped(toast))
            wrapper.connect("button-clicked", onButton)
        }
        lastToastTitle = title
        adw_toast_overlay_add_toast(pointer(), toast)
    }
}
