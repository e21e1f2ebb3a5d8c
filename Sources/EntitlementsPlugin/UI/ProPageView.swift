import BillfoldCore
import EntitlementsCore
import GtkKit
import Licensing
import Plans

/// The Billfold Pro page: the current plan and licence, the buttons to enter or remove a
/// licence, and what Free and Pro include. It follows the licence store as it changes.
@MainActor
final class ProPageView {
    let widget: Box
    let banner = Banner(buttonLabel: tr("Enter _New Licence…"))
    let statusIcon = Image(iconName: "starred-symbolic", pixelSize: 64)
    let planCaption = Label(tr("Your Plan"), wraps: false, style: "dim-label")
    let planLabel = Label("", style: "title-1")
    let summaryLabel = Label("")
    let problemLabel = Label("", style: "error")
    let enterButton = Button(label: tr("_Enter Licence…"))
    /// Opens the shop where Pro is sold, at the address the vendor set.
    let buyRow = ActionRow(title: tr("Buy Billfold Pro"), subtitle: Purchase.shownAddress)
    let removeButton = Button(label: tr("_Remove Licence"))
    let licenseGroup = PreferencesGroup(title: tr("Licence"))
    /// One row per licence fact, in the order of `ProStatusPresentation.facts`.
    private(set) var factRows: [ActionRow] = []
    let freeCurrentBadge = ProPageView.currentPlanBadge()
    let proCurrentBadge = ProPageView.currentPlanBadge()

    private let store: LicenseStore
    private var observation: ObservationToken?
    private(set) var presentation: ProStatusPresentation

    init(store: LicenseStore, actions: LicenseActions, backButton: Widget) {
        self.store = store
        presentation = ProStatusPresentation(status: store.status, hasLicenseFile: store.installed != .none)

        let header = HeaderBar(title: WindowTitle(tr("Billfold Pro")))
        header.packStart(backButton)
        banner.style = .warning

        let content = Box(.vertical, spacing: 24)
        content.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: content, maximumWidth: 600))
        scroller.expandsVertically = true
        widget = Box(.vertical, children: [header, banner, scroller])
        content.append(makeStatus())
        content.append(makeLicenseGroup())
        content.append(makePlans())

        banner.onButtonClicked { [weak actions] in actions?.enterLicense() }
        enterButton.onClicked { [weak actions] in actions?.enterLicense() }
        buyRow.onActivated { [weak actions] in actions?.buy() }
        removeButton.onClicked { [weak actions] in actions?.confirmRemoval() }
        observation = store.observe { [weak self] in self?.update() }
        // Show the page's first state without a slide; later changes animate.
        banner.animatesTransitions = false
        update()
        banner.animatesTransitions = true
    }

    // MARK: Building

    private func makeStatus() -> Widget {
        for label in [planCaption, planLabel, summaryLabel, problemLabel] {
            label.setJustification(.center)
        }
        planCaption.addCssClass("caption-heading")
        enterButton.addCssClass("pill")
        removeButton.addCssClass("pill")
        let buttons = Box(.horizontal, spacing: 12, children: [enterButton, removeButton])
        buttons.align(horizontal: .center)
        buttons.setMargins(top: 12)
        let titles = Box(.vertical, spacing: 2, children: [planCaption, planLabel])
        let status = Box(.vertical, spacing: 12, children: [statusIcon, titles, summaryLabel, problemLabel, buttons])
        return status
    }

    private func makeLicenseGroup() -> Widget {
        let titles = [tr("Licensed To"), tr("Email"), tr("Plan"), tr("Valid Through"), tr("Licence Number")]
        for title in titles {
            // Property rows (the value under a small caption) fit any width without cutting a
            // long name or email short.
            let row = ActionRow(title: title, subtitle: "")
            row.addCssClass("property")
            licenseGroup.add(row)
            factRows.append(row)
        }
        return licenseGroup
    }

    private func makePlans() -> Widget {
        let free = PreferencesGroup(title: Tier.free.title, description: tr("No licence needed"))
        free.setHeaderSuffix(freeCurrentBadge)
        for item in PlanComparison.free {
            free.add(Self.includedRow(item, iconName: "object-select-symbolic"))
        }

        let pro = PreferencesGroup(title: Tier.pro.title, description: tr("Everything in Free, and:"))
        pro.setHeaderSuffix(proCurrentBadge)
        for item in PlanComparison.proAdds {
            pro.add(Self.includedRow(item, iconName: "starred-symbolic"))
        }
        pro.add(ActionRow(title: tr("Plans"), subtitle: PlanComparison.plans))
        buyRow.addSuffix(Image(iconName: "adw-external-link-symbolic"))
        buyRow.tooltip = Purchase.address
        pro.add(buyRow)

        let promise = Label(PlanComparison.nothingLockedAway, style: "dim-label")
        promise.xAlign = 0
        promise.setMargins(start: 12, end: 12)
        return Box(.vertical, spacing: 24, children: [free, pro, promise])
    }

    private static func includedRow(_ title: String, iconName: String) -> Widget {
        let row = ActionRow(title: title)
        let icon = Image(iconName: iconName)
        icon.addCssClass("accent")
        row.addPrefix(icon)
        return row
    }

    private static func currentPlanBadge() -> Label {
        let badge = Label(tr("Current Plan"), wraps: false, style: "plan-badge")
        badge.align(vertical: .center)
        return badge
    }

    // MARK: State

    /// The value shown for a licence fact, for tests and the accessibility tree.
    func factValue(_ title: String) -> String? {
        guard licenseGroup.isVisible else { return nil }
        return factRows.first { $0.title == title }?.subtitle
    }

    func update() {
        let presentation = ProStatusPresentation(status: store.status, hasLicenseFile: store.installed != .none)
        self.presentation = presentation
        planLabel.text = presentation.title
        summaryLabel.text = presentation.summary
        problemLabel.text = presentation.problem ?? ""
        problemLabel.isVisible = presentation.problem != nil

        let (icon, style): (String, String?) = switch presentation.mood {
        case .pro: ("starred-symbolic", "accent")
        // The page's star in the accent colour: Adwaita's outline star is drawn at a third of
        // its colour, which, dimmed again, was grey on grey in the dark style.
        case .free: ("starred-symbolic", "accent")
        case .warning: ("dialog-warning-symbolic", "warning")
        case .problem: ("dialog-error-symbolic", "error")
        }
        statusIcon.iconName = icon
        for name in ["accent", "dim-label", "warning", "error"] {
            statusIcon.setCssClass(name, enabled: name == style)
        }

        licenseGroup.isVisible = !presentation.facts.isEmpty
        for fact in presentation.facts {
            factRows.first { $0.title == fact.title }?.subtitle = fact.value
        }

        removeButton.isVisible = presentation.canRemove
        enterButton.setCssClass("suggested-action", enabled: presentation.tier == .free)
        freeCurrentBadge.isVisible = presentation.tier == .free
        proCurrentBadge.isVisible = presentation.tier == .pro

        banner.title = presentation.banner ?? ""
        banner.isRevealed = presentation.banner != nil
    }
}
