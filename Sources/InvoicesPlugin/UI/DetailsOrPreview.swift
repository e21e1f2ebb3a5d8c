import BillfoldCore
import GtkKit
import InvoicesCore

/// A document pane's body: its details, or its PDF as the client gets it, chosen by two linked
/// toggles on top. The details scroll within a readable width.
@MainActor
final class DetailsOrPreview {
    let detailsToggle = ToggleButton(label: tr("De_tails"))
    let previewToggle = ToggleButton(label: tr("P_review"))
    let stack = Stack()
    let widget: Widget

    init(details: Widget, preview: Widget) {
        let scroller = ScrolledWindow(child: Clamp(child: details, maximumWidth: 720))
        scroller.expandsVertically = true
        stack.add(scroller, named: "details")
        stack.add(preview, named: "preview")
        stack.visibleChildName = "details"
        stack.expandsVertically = true
        let switcher = Box(.horizontal, children: [detailsToggle, previewToggle])
        switcher.makeLinked()
        switcher.align(horizontal: .center)
        switcher.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        previewToggle.join(detailsToggle)
        detailsToggle.isActive = true
        widget = Box(.vertical, children: [switcher, Separator(.horizontal), stack])
        // The widgets, not this object, are captured: the pane may keep only `widget`.
        for (toggle, name) in [(detailsToggle, "details"), (previewToggle, "preview")] {
            toggle.onToggled { [weak toggle, weak stack] in
                guard let toggle, let stack, toggle.isActive else { return }
                stack.visibleChildName = name
            }
        }
    }
}
