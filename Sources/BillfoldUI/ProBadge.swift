import BillfoldCore
import GtkKit
import Plans

/// The small "Pro" mark on a control that needs Billfold Pro. It shows only while the feature
/// is not allowed, and hides or reappears the moment a licence is added or removed.
///
/// Keep the badge itself (not only its widget) for as long as the control is on screen: it
/// follows licence changes only while it lives.
@MainActor
public final class ProBadge {
    public let feature: Feature
    public let widget: Label
    private let entitlements: any Entitlements
    private var observation: ObservationToken?

    public init(feature: Feature, entitlements: any Entitlements) {
        self.feature = feature
        self.entitlements = entitlements
        widget = Label(tr("Pro"), wraps: false, style: "pro-badge")
        widget.align(vertical: .center)
        widget.tooltip = String(format: tr("“%@” needs Billfold Pro"), feature.title)
        widget.accessibleDescription = widget.tooltip
        observation = entitlements.observe { [weak self] in self?.update() }
        update()
    }

    /// Whether the badge is showing, that is the feature is not allowed now.
    public var isShown: Bool { widget.isVisible }

    /// A button reading `label` with this badge after it, for a gated action.
    public func makeButton(label: String) -> Button {
        let content = Box(.horizontal, spacing: 6, children: [Label(label, wraps: false), widget])
        content.align(horizontal: .center)
        let button = Button(child: content)
        button.accessibleLabel = label
        return button
    }

    private func update() {
        widget.isVisible = !entitlements.allows(feature)
    }
}
