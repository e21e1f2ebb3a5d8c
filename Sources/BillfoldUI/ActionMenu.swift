import BillfoldCore
import GtkKit

/// The menu at the end of a pane's header, beside its one suggested action: the pane's other
/// actions in sections, the destructive ones last. They are buttons, not menu items, so a Pro
/// badge can sit beside a label; the menu closes when one is chosen.
@MainActor
public final class ActionMenu {
    public let button: PopoverButton

    public init(sections: [[Button]]) {
        let content = Box(.vertical)
        for (index, section) in sections.enumerated() {
            if index > 0 { content.append(Separator(.horizontal)) }
            for action in section {
                // One padding for every item, whether a label or a label with a Pro badge.
                action.addCssClass("flat")
                action.addCssClass("text-button")
                action.alignContentToStart()
                content.append(action)
            }
        }
        button = PopoverButton(iconName: "view-more-symbolic", content: content, accessibleLabel: tr("More Actions"))
        for action in sections.joined() {
            action.onClicked { [weak button] in button?.popdown() }
        }
    }
}
