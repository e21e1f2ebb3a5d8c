import BillfoldCore
import BillfoldUI
import Foundation
import GObjectCore
import GtkKit

/// The TipSplit page: the bill, the tip, the party, and what each person pays, updated as
/// you type.
@MainActor
final class TipSplitView {
    let widget: Box
    private let settings: Settings?
    private let moneyFormatter = MoneyFormatter()
    private let numbers = NumberFormatting()

    // Inputs
    let billRow = EntryRow(title: tr("Bill amount"))
    let billCurrencyLabel = Label("", wraps: false, style: "dim-label")
    let billError = Label("", style: "error")
    let currencyRow: CurrencyRow
    let preTaxSwitch = Switch()
    let taxRow = EntryRow(title: tr("Tax included in the bill"))
    let taxError = Label("", style: "error")
    private(set) var presetButtons: [ToggleButton] = []
    let customSlider = Scale(range: 0...100, step: 0.5)
    let customSpin = SpinButton(range: 0...100, step: 0.5, digits: 1)
    let partySpin = SpinButton(range: 1...50, step: 1)
    let roundUpSwitch = Switch()

    // Results
    let perPersonLabel = Label("", wraps: true, style: "title-1")
    let splitNote = Label("", style: "dim-label")
    let tipLabel = Label("", wraps: false)
    let totalLabel = Label("", wraps: false)
    let tipPerPersonLabel = Label("", wraps: false)
    let roundingExtraLabel = Label("", wraps: false)
    private let roundingExtraRow = ActionRow(title: tr("Extra tip from rounding up"))

    private var isUpdating = false
    private(set) var result: TipSplitResult?

    init(settings: Settings?, backButton: Widget) {
        self.settings = settings
        // The list of every currency is made when first opened: naming them all is costly.
        currencyRow = CurrencyRow(title: tr("Currency"), currency: Currency(code: settings?.string("tipsplit-currency") ?? "") ?? .forLocale())

        let header = HeaderBar(title: WindowTitle(tr("TipSplit")))
        header.packStart(backButton)
        let reset = Button(label: tr("_Reset"))
        reset.tooltip = tr("Clear the bill and start again")
        header.packEnd(reset)

        // Inputs and result side by side on a wide window, stacked on a narrow one.
        let inputs = Box(.vertical, spacing: 24)
        let results = Box(.vertical)
        results.align(vertical: .start)
        let columns = Columns(minimumColumnWidth: 340, spacing: 24, naturalWidth: 760)
        columns.append(inputs)
        columns.append(results)
        columns.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        let scroller = ScrolledWindow(child: Clamp(child: columns, maximumWidth: 784, tighteningThreshold: 784))
        scroller.expandsVertically = true
        widget = Box(.vertical, children: [header, scroller])

        inputs.append(makeBillGroup())
        inputs.append(makeTipGroup())
        inputs.append(makeSplitGroup())
        results.append(makeResultCard())

        reset.onClicked { [weak self] in self?.reset() }
        restoreRemembered()
        recalculate()
    }

    // MARK: Building

    private func makeBillGroup() -> Widget {
        let group = PreferencesGroup(title: tr("Bill"))
        billRow.addSuffix(billCurrencyLabel)
        billRow.onChanged { [weak self] in self?.recalculate() }
        group.add(billRow)

        currencyRow.onChanged { [weak self] in
            guard let self else { return }
            self.settings?.set("tipsplit-currency", self.currencyRow.currency.code)
            self.recalculate()
        }
        group.add(currencyRow)

        let preTaxRow = ActionRow(title: tr("Tip on the amount before tax"),
                                  subtitle: tr("Enter the tax included in the bill; the tip leaves it out"))
        preTaxRow.addSuffix(preTaxSwitch)
        preTaxRow.activates(preTaxSwitch)
        preTaxSwitch.accessibleLabel = tr("Tip on the amount before tax")
        preTaxSwitch.onToggled { [weak self] in
            guard let self else { return }
            self.taxRow.isVisible = self.preTaxSwitch.isActive
            self.recalculate()
        }
        group.add(preTaxRow)
        taxRow.isVisible = false
        taxRow.onChanged { [weak self] in self?.recalculate() }
        group.add(taxRow)

        let box = Box(.vertical, spacing: 6, children: [group, billError, taxError])
        for label in [billError, taxError] {
            label.xAlign = 0
            label.isVisible = false
            label.setMargins(top: 0, bottom: 0, start: 12, end: 12)
        }
        return box
    }

    private func makeTipGroup() -> Widget {
        let group = PreferencesGroup()
        let presets = Box(.horizontal)
        presets.makeLinked()
        presets.align(vertical: .center)
        for percent in TipSplitInput.presetPercents {
            let button = ToggleButton(label: numbers.percentString(from: percent))
            button.accessibleDescription = String(format: tr("Tip %@"), numbers.percentString(from: percent))
            if let first = presetButtons.first { button.join(first) }
            button.onToggled { [weak self, weak button] in
                guard let self, let button else { return }
                guard button.isActive, !self.isUpdating else { return }
                self.setTipPercent(percent)
            }
            presetButtons.append(button)
            presets.append(button)
        }

        let customRow = ActionRow(title: tr("Custom tip"), subtitle: tr("Any percentage from 0 to 100"))
        customSlider.setSizeRequest(width: 100)
        customSlider.accessibleLabel = tr("Custom tip percentage")
        customSpin.accessibleLabel = tr("Custom tip percentage")
        customRow.addSuffix(customSlider)
        customRow.addSuffix(customSpin)
        customSlider.onValueChanged { [weak self] in
            guard let self else { return }
            guard !self.isUpdating else { return }
            self.setTipPercent(Self.decimal(self.customSlider.value))
        }
        customSpin.onValueChanged { [weak self] in
            guard let self else { return }
            guard !self.isUpdating else { return }
            self.setTipPercent(Self.decimal(self.customSpin.value))
        }
        group.add(customRow)
        // The group's own header would shorten its title to fit the presets ("Trin…" in
        // German); a header of our own keeps the whole word and the presets beside it.
        let title = Label(tr("Tip"), wraps: false, style: "heading")
        title.xAlign = 0
        title.expandsHorizontally = true
        let header = Box(.horizontal, spacing: 12, children: [title, presets])
        return Box(.vertical, spacing: 12, children: [header, group])
    }

    private func makeSplitGroup() -> Widget {
        let group = PreferencesGroup(title: tr("Split"))
        let partyRow = ActionRow(title: tr("People"), subtitle: tr("Between 1 and 50"))
        partySpin.accessibleLabel = tr("People")
        partySpin.value = 1
        partySpin.onValueChanged { [weak self] in self?.recalculate() }
        partyRow.addSuffix(partySpin)
        group.add(partyRow)

        let roundRow = ActionRow(title: tr("Round each share up"),
                                 subtitle: tr("Everyone pays a whole amount; the extra goes to the tip"))
        roundUpSwitch.accessibleLabel = tr("Round each share up")
        roundRow.addSuffix(roundUpSwitch)
        roundRow.activates(roundUpSwitch)
        roundUpSwitch.onToggled { [weak self] in
            guard let self else { return }
            self.settings?.set("tipsplit-round-up", self.roundUpSwitch.isActive)
            self.recalculate()
        }
        group.add(roundRow)
        return group
    }

    private func makeResultCard() -> Widget {
        let caption = Label(tr("Each person pays"), wraps: true, style: "heading")
        perPersonLabel.isSelectable = true
        splitNote.isVisible = false
        for label in [caption, perPersonLabel, splitNote] { label.setJustification(.center) }
        let heroContent = Box(.vertical, spacing: 6, children: [caption, perPersonLabel, splitNote])
        heroContent.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        let hero = Box(.vertical, children: [heroContent])
        hero.addCssClass("card")

        let details = PreferencesGroup()
        for (title, label) in [(tr("Tip"), tipLabel), (tr("Total"), totalLabel), (tr("Tip per person"), tipPerPersonLabel)] {
            let row = ActionRow(title: title)
            label.isSelectable = true
            label.addCssClass("numeric")
            row.addSuffix(label)
            details.add(row)
        }
        roundingExtraLabel.addCssClass("numeric")
        roundingExtraRow.addSuffix(roundingExtraLabel)
        roundingExtraRow.isVisible = false
        details.add(roundingExtraRow)
        // Headed like the form's groups so the two columns line up.
        let heading = Label(tr("Result"), wraps: false, style: "heading")
        heading.xAlign = 0
        heading.setMargins(top: 7, bottom: 0, start: 0, end: 0)
        return Box(.vertical, spacing: 12, children: [heading, hero, details])
    }

    // MARK: State

    var selectedCurrency: Currency? { currencyRow.currency }

    private(set) var tipPercent: Decimal = 15

    private func restoreRemembered() {
        isUpdating = true
        defer { isUpdating = false }
        let percent = Decimal(string: settings?.string("tipsplit-tip-percent") ?? "", locale: Locale(identifier: "en_US_POSIX"))
        tipPercent = percent.flatMap { TipSplitInput.tipPercents.contains($0) ? $0 : nil } ?? 15
        roundUpSwitch.isActive = settings?.bool("tipsplit-round-up") ?? false
        syncTipControls()
    }

    func setTipPercent(_ percent: Decimal) {
        tipPercent = min(max(percent, 0), 100)
        settings?.set("tipsplit-tip-percent", "\(tipPercent)")
        syncTipControls()
        recalculate()
    }

    private func syncTipControls() {
        let wasUpdating = isUpdating
        isUpdating = true
        defer { isUpdating = wasUpdating }
        let value = NSDecimalNumber(decimal: tipPercent).doubleValue
        customSlider.value = value
        customSpin.value = value
        for (button, preset) in zip(presetButtons, TipSplitInput.presetPercents) {
            button.isActive = preset == tipPercent
        }
    }

    /// Clears the bill, tax and party; the currency and tip stay as remembered.
    func reset() {
        billRow.text = ""
        taxRow.text = ""
        preTaxSwitch.isActive = false
        partySpin.value = 1
        recalculate()
        billRow.grabFocus()
    }

    func focusFirstField() { billRow.grabFocus() }

    private static func decimal(_ value: Double) -> Decimal {
        // Controls step by 0.5: keep one decimal, exactly.
        Decimal(Int((value * 10).rounded())) / 10
    }

    // MARK: Calculation

    func recalculate() {
        guard let currency = selectedCurrency else { return }
        billCurrencyLabel.text = moneyFormatter.symbol(for: currency)
        let bill = read(billRow, error: billError, currency: currency)
        let tax = preTaxSwitch.isActive ? read(taxRow, error: taxError, currency: currency) : .zero(currency)
        if !preTaxSwitch.isActive { show(nil, in: taxError, row: taxRow) }
        guard let bill, let tax else { showResult(nil, currency: currency); return }
        let input = TipSplitInput(bill: bill, taxIncluded: tax, tipPercent: tipPercent,
                                  partySize: Int(partySpin.value), roundsSharesUp: roundUpSwitch.isActive)
        do {
            let result = try TipSplitCalculator.split(input)
            showResult(result, currency: currency)
        } catch {
            let isTaxProblem = error == .taxNotBelowBill
            show(error.localizedDescription, in: isTaxProblem ? taxError : billError, row: isTaxProblem ? taxRow : billRow)
            showResult(nil, currency: currency)
        }
    }

    /// Reads an amount field: empty is zero; anything unreadable shows why and gives nil.
    private func read(_ row: EntryRow, error errorLabel: Label, currency: Currency) -> Money? {
        let text = row.text
        if text.allSatisfy(\.isWhitespace) {
            show(nil, in: errorLabel, row: row)
            return .zero(currency)
        }
        do {
            let amount = try moneyFormatter.money(from: text, currency: currency)
            if amount.isNegative {
                show(tr("The amount cannot be negative."), in: errorLabel, row: row)
                return nil
            }
            show(nil, in: errorLabel, row: row)
            return amount
        } catch {
            show(error.localizedDescription, in: errorLabel, row: row)
            return nil
        }
    }

    private func show(_ message: String?, in label: Label, row: Widget) {
        label.text = message ?? ""
        label.isVisible = message != nil
        row.setCssClass("error", enabled: message != nil)
    }

    private func showResult(_ result: TipSplitResult?, currency: Currency) {
        self.result = result
        guard let result else {
            for label in [perPersonLabel, tipLabel, totalLabel, tipPerPersonLabel] { label.text = "—" }
            splitNote.isVisible = false
            roundingExtraRow.isVisible = false
            return
        }
        perPersonLabel.text = moneyFormatter.string(from: result.largestShare)
        tipLabel.text = moneyFormatter.string(from: result.tip)
        totalLabel.text = moneyFormatter.string(from: result.total)
        tipPerPersonLabel.text = result.tipShares.first == result.tipShares.last
            ? moneyFormatter.string(from: result.tipShares[0])
            : String(format: tr("%@ or %@"), moneyFormatter.string(from: result.tipShares.last!),
                     moneyFormatter.string(from: result.tipShares[0]))
        roundingExtraRow.isVisible = !result.roundingExtra.isZero
        roundingExtraLabel.text = moneyFormatter.string(from: result.roundingExtra)

        let more = result.peoplePayingMore
        splitNote.isVisible = more > 0
        if more > 0 {
            let people = result.shares.count
            let difference = Money(minorUnits: result.largestShare.minorUnits - result.smallestShare.minorUnits,
                                   currency: currency)
            perPersonLabel.text = String(format: tr("%@ or %@"), moneyFormatter.string(from: result.smallestShare),
                                         moneyFormatter.string(from: result.largestShare))
            splitNote.text = String(format: trn("%d of %d people pays %@ more, so the shares add up to the total exactly.",
                                                "%d of %d people pay %@ more, so the shares add up to the total exactly.", more),
                                    more, people, moneyFormatter.string(from: difference))
        }
    }
}
