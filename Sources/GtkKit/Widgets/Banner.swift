import CGtk
import GObjectCore

/// A strip under a header bar with a message and an optional button, sliding in and out: what
/// `AdwBanner` does in libadwaita 1.3, built from a `GtkRevealer` for libadwaita 1.2. The strip
/// carries the `banner` style class (and `warning` or `error`); the app's style sheet colours it.
@MainActor
public final class Banner: Widget {
    public enum Style: Sendable {
        case info, warning, error
    }

    private let strip: Box
    private let label = Label("", wraps: true)
    private let button = Button(label: "")

    public init(title: String = "", buttonLabel: String? = nil) {
        strip = Box(.horizontal, spacing: 12)
        super.init(adopting: untyped(gtk_revealer_new()))
        gtk_revealer_set_transition_type(pointer(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)
        strip.addCssClass("banner")
        strip.setMargins(0)
        label.xAlign = 0.5
        label.setJustification(.center)
        label.expandsHorizontally = true
        label.align(vertical: .center)
        button.align(vertical: .center)
        strip.append(label)
        strip.append(button)
        gtk_revealer_set_child(pointer(), strip.widgetPointer)
        label.text = title
        self.buttonLabel = buttonLabel
        showButton()
        // A revealer measures its child even while closed, and a wrapping label is measured at
        // many widths: a closed banner is hidden once it has slid out, so it costs nothing.
        isVisible = false
        onNotify("child-revealed") { [weak self] in
            guard let self, !self.isRevealed, gtk_revealer_get_child_revealed(self.pointer()) == 0 else { return }
            self.isVisible = false
        }
    }

    public var title: String {
        get { label.text }
        set { label.text = newValue }
    }

    /// The button's label; `nil` shows no button.
    public var buttonLabel: String? {
        didSet { showButton() }
    }

    private func showButton() {
        button.label = buttonLabel ?? ""
        button.isVisible = buttonLabel != nil
    }

    public var style: Style = .info {
        didSet {
            strip.setCssClass("warning", enabled: style == .warning)
            strip.setCssClass("error", enabled: style == .error)
        }
    }

    /// Whether the banner is shown; changing it slides the banner in or out.
    public var isRevealed: Bool {
        get { gtk_revealer_get_reveal_child(pointer()) != 0 }
        set {
            if newValue { isVisible = true }
            gtk_revealer_set_reveal_child(pointer(), newValue ? 1 : 0)
        }
    }

    /// Slides in and out at once, e.g. when a page is first shown.
    public var animatesTransitions: Bool {
        get { gtk_revealer_get_transition_duration(pointer()) > 0 }
        set { gtk_revealer_set_transition_duration(pointer(), newValue ? 250 : 0) }
    }

    @discardableResult
    public func onButtonClicked(_ handler: @escaping @MainActor () -> Void) -> SignalHandler {
        button.onClicked(handler)
    }

    /// Whether the banner shows a button with a label.
    public var buttonIsShown: Bool { button.isVisible && !(button.label ?? "").isEmpty }

    /// Clicks the banner's button, as a pointer click would.
    public func clickButton() { button.click() }
}
