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
    let billRow = EntryRow(title: tr("Bill Amount"))
    let billCurrencyLabel = Label("", wraps: false, style: "dim-label")
    let billError = Label("", style: "error")
    let currencyRow: CurrencyRow
    let preTaxSwitch = Switch()
    let taxRow = EntryRow(title: tr("Tax Included in the Bill"))
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
    private let roundingExtraRow = ActionRow(title: tr("Extra Tip From Rounding Up"))
    /// What each person pays, one row per person, when the party is more than one.
    let sharesGroup = PreferencesGroup(title: tr("Shares"))
    private(set) var shareRows: [(row: ActionRow, amount: Label)] = []
    let scroller: ScrolledWindow
    private(set) lazy var sliderScrolling = ScrollController(attachedTo: customSlider)

    private var isUpdating = false
    private(set) var result: TipSplitResult?

    init(settings: Settings?, backButton: Widget) {
        self.settings = settings
        // The list of every currency is made when first opened: naming them all is costly.
        currencyRow = CurrencyRow(title: tr("Currency"), currency: Currency(code: settings?.string("tipsplit-currency") ?? "") ?? .forLocale())

        let header = HeaderBar(title: WindowTitle(tr("TipSplit")))
        header.packStart(backButton)
        let reset = Button(iconName: "edit-clear-all-symbolic", accessibleLabel: tr("Reset"))
        reset.tooltip = tr("Clear the bill, tip and party; the currency stays as chosen (Ctrl+R)")
        header.packEnd(reset)

        // Inputs and result side by side on a wide window, stacked on a narrow one.
        let inputs = Box(.vertical, spacing: 24)
        let results = Box(.vertical)
        results.align(vertical: .start)
        let columns = Columns(minimumColumnWidth: 340, spacing: 24, naturalWidth: 760)
        columns.append(inputs)
        columns.append(results)
        columns.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        scroller = ScrolledWindow(child: Clamp(child: columns, maximumWidth: 784, tighteningThreshold: 784))
        scroller.expandsVertically = true
        widget = Box(.vertical, children: [header, scroller])

        inputs.append(makeBillGroup())
        inputs.append(makeTipGroup())
        inputs.append(makeSplitGroup())
        results.append(makeResultCard())

        reset.onClicked { [weak self] in self?.reset() }
        // A wheel over the slider scrolls the page: GTK's slider would take it and change the tip.
        sliderScrolling.onScroll { [weak self] event in
            guard let self, !event.isControlPressed else { return false }
            let adjustment = self.scroller.verticalAdjustment
            adjustment.value += event.dy * pow(adjustment.pageSize, 2.0 / 3.0)
            return true
        }
        restoreRemembered()
        recalculate()
    }

    // MARK: Building

    private func makeBillGroup() -> Widget {
        let group = PreferencesGroup(title: tr("Bill"))
        billRow.addSuffix(billCurrencyLabel)
        billRow.onChanged { [weak self] in self?.recalculate() }
        group.add(billRow)
        let options = PreferencesGroup()

        currencyRow.onChanged { [weak self] in
            guard let self else { return }
            self.settings?.set("tipsplit-currency", self.currencyRow.currency.code)
            self.recalculate()
        }
        options.add(currencyRow)

        let preTaxRow = ActionRow(title: tr("Tip on the Amount Before Tax"),
                                  subtitle: tr("Enter the tax included in the bill; the tip leaves it out"))
        preTaxRow.addSuffix(preTaxSwitch)
        preTaxRow.activates(preTaxSwitch)
        preTaxSwitch.accessibleLabel = tr("Tip on the Amount Before Tax")
        preTaxSwitch.onToggled { [weak self] in
            guard let self else { return }
            self.taxRow.isVisible = self.preTaxSwitch.isActive
            self.taxErrorLine?.isVisible = self.preTaxSwitch.isActive
            self.recalculate()
        }
        options.add(preTaxRow)
        taxRow.isVisible = false
        taxRow.onChanged { [weak self] in self?.recalculate() }
        options.add(taxRow)

        // Each message sits right under its field, on a line kept for it (a zero-width character
        // holds the line's height), so showing one moves nothing.
        let lines = [billError, taxError].map { label in
            label.xAlign = 0
            label.expandsHorizontally = true
            label.isVisible = false
            let line = Box(.horizontal, children: [Label("\u{200B}", wraps: false), label])
            line.setMargins(top: 0, bottom: 0, start: 12, end: 12)
            return line
        }
        taxErrorLine = lines[1]
        taxErrorLine?.isVisible = false
        return Box(.vertical, spacing: 6, children: [group, lines[0], options, lines[1]])
    }

    /// The line under the tax field, there while the field is.
    private var taxErrorLine: Box?

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

        let customRow = ActionRow(title: tr("Custom Tip"), subtitle: tr("Any percentage from 0 to 100"))
        // Narrow enough for a 360 px window; it takes the row's spare width when there is some.
        customSlider.setSizeRequest(width: 64)
        customSlider.accessibleLabel = tr("Custom Tip Percentage")
        customSpin.accessibleLabel = tr("Custom Tip Percentage")
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
        // The presets span the column under the title: beside it they made the page wider
        // than a 360 px window, and the group's own header shortened the title ("Trin…").
        let title = Label(tr("Tip"), wraps: false, style: "heading")
        title.xAlign = 0
        presets.isHomogeneous = true
        return Box(.vertical, spacing: 12, children: [title, presets, group])
    }

    private func makeSplitGroup() -> Widget {
        let group = PreferencesGroup(title: tr("Split"))
        let partyRow = ActionRow(title: tr("People"), subtitle: tr("Between 1 and 50"))
        partySpin.accessibleLabel = tr("People")
        partySpin.value = 1
        partySpin.onValueChanged { [weak self] in self?.recalculate() }
        partyRow.addSuffix(partySpin)
        group.add(partyRow)

        let roundRow = ActionRow(title: tr("Round Each Share Up"),
                                 subtitle: tr("Everyone pays a whole amount; the extra goes to the tip"))
        roundUpSwitch.accessibleLabel = tr("Round Each Share Up")
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
        let caption = Label(tr("Each Person Pays"), wraps: true, style: "heading")
        perPersonLabel.isSelectable = true
        splitNote.isVisible = false
        for label in [caption, perPersonLabel, splitNote] { label.setJustification(.center) }
        let heroContent = Box(.vertical, spacing: 6, children: [caption, perPersonLabel, splitNote])
        heroContent.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        let hero = Box(.vertical, children: [heroContent])
        hero.addCssClass("card")

        let details = PreferencesGroup()
        for (title, label) in [(tr("Tip"), tipLabel), (tr("Total"), totalLabel), (tr("Tip per Person"), tipPerPersonLabel)] {
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
        sharesGroup.isVisible = false
        // Headed like the form's groups so the two columns line up.
        let heading = Label(tr("Result"), wraps: false, style: "heading")
        heading.xAlign = 0
        heading.setMargins(top: 7, bottom: 0, start: 0, end: 0)
        return Box(.vertical, spacing: 12, children: [heading, hero, details, sharesGroup])
    }

    // MARK: State

    var selectedCurrency: Currency? { currencyRow.currency }

    static let defaultTipPercent: Decimal = 15
    private(set) var tipPercent: Decimal = TipSplitView.defaultTipPercent

    private func restoreRemembered() {
        isUpdating = true
        defer { isUpdating = false }
        let percent = Decimal(string: settings?.string("tipsplit-tip-percent") ?? "", locale: Locale(identifier: "en_US_POSIX"))
        tipPercent = percent.flatMap { TipSplitInput.tipPercents.contains($0) ? $0 : nil } ?? Self.defaultTipPercent
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

    /// Starts again: the bill, tax, tip and party go back to how a first start has them. The
    /// currency and rounding up stay, since they are kept as the person's choice (the settings
    /// schema says TipSplit starts with them).
    func reset() {
        billRow.text = ""
        taxRow.text = ""
        preTaxSwitch.isActive = false
        partySpin.value = 1
        setTipPercent(Self.defaultTipPercent)
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
            showShares(nil)
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
        showShares(result)

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

    /// One row per person with what they pay, largest first, as the split note counts them.
    private func showShares(_ result: TipSplitResult?) {
        let shares = result?.shares ?? []
        sharesGroup.isVisible = shares.count > 1
        while shareRows.count > shares.count { sharesGroup.remove(shareRows.removeLast().row) }
        while shareRows.count < shares.count {
            let row = ActionRow(title: String(format: tr("Person %d"), shareRows.count + 1))
            let amount = Label("", wraps: false, style: "numeric")
            amount.isSelectable = true
            row.addSuffix(amount)
            sharesGroup.add(row)
            shareRows.append((row, amount))
        }
        for (share, row) in zip(shares, shareRows) { row.amount.text = moneyFormatter.string(from: share) }
    }
}
