import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import TipSplitPlugin

@Suite(.serialized, needsDisplay) @MainActor
struct TipSplitViewTests {
    private func makeView() -> TipSplitView {
        let settings = TestSettings.make()
        settings?.set("tipsplit-currency", "USD")
        settings?.set("tipsplit-tip-percent", "15")
        settings?.set("tipsplit-round-up", false)
        return TipSplitView(settings: settings, backButton: Label(""))
    }

    @Test func typingABillUpdatesTheResultAtOnce() {
        let view = makeView()
        view.billRow.text = "100"
        view.presetButtons[3].click()  // 20 %
        view.partySpin.value = 3
        #expect(view.tipPercent == 20)
        #expect(view.result?.shares.map(\.minorUnits) == [4_000, 4_000, 4_000])
        #expect(view.totalLabel.text.contains("120"))
        #expect(!view.splitNote.isVisible)
    }

    @Test func garbageShowsAnInlineMessageAndNoResult() {
        let view = makeView()
        view.billRow.text = "12x"
        #expect(view.result == nil)
        #expect(view.billError.isVisible)
        #expect(!view.billError.text.isEmpty)
        #expect(view.billRow.hasCssClass("error"))
        #expect(view.perPersonLabel.text == "—")
        view.billRow.text = "12"
        #expect(!view.billError.isVisible)
        #expect(view.result != nil)
    }

    @Test func unevenSplitSaysWhoPaysMore() {
        let view = makeView()
        view.billRow.text = "100"
        view.setTipPercent(0)
        view.partySpin.value = 3
        #expect(view.splitNote.isVisible)
        #expect(view.result?.peoplePayingMore == 1)
    }

    @Test func customPercentMovesSliderAndDeselectsPresets() {
        let view = makeView()
        view.customSpin.value = 17.5
        #expect(view.tipPercent == Decimal(string: "17.5"))
        #expect(view.customSlider.value == 17.5)
        #expect(view.presetButtons.allSatisfy { !$0.isActive })
        view.presetButtons[0].click()
        #expect(view.customSpin.value == 10)
    }

    @Test func resetClearsTheBillButKeepsTheTip() {
        let view = makeView()
        view.billRow.text = "55"
        view.setTipPercent(18)
        view.partySpin.value = 4
        view.reset()
        #expect(view.billRow.text == "")
        #expect(view.partySpin.value == 1)
        #expect(view.tipPercent == 18)
    }

    @Test func theChosenCurrencyIsShownAndRemembered() {
        let view = makeView()
        #expect(view.selectedCurrency?.code == "USD")
        #expect(view.currencyRow.subtitle?.hasPrefix("USD") == true)
        view.currencyRow.choose(Currency(code: "JPY")!)
        #expect(view.selectedCurrency?.code == "JPY")
        #expect(view.currencyRow.subtitle?.hasPrefix("JPY") == true)
    }

    @Test func yenAmountsRefuseCents() async {
        let view = makeView()
        view.currencyRow.choose(Currency(code: "JPY")!)
        view.billRow.text = "100.5"
        #expect(view.result == nil)
        #expect(view.billError.isVisible)
    }

    @Test func roundingUpShowsTheExtraTip() {
        let view = makeView()
        view.billRow.text = "100"
        view.setTipPercent(18)
        view.partySpin.value = 3
        view.roundUpSwitch.isActive = true
        #expect(view.result?.roundingExtra.minorUnits == 200)
        #expect(view.roundingExtraLabel.text.contains("2"))
    }

    @Test func rememberedTipAndCurrencyAreRestored() {
        let settings = TestSettings.make()
        settings?.set("tipsplit-currency", "EUR")
        settings?.set("tipsplit-tip-percent", "22.5")
        let view = TipSplitView(settings: settings, backButton: Label(""))
        #expect(view.selectedCurrency?.code == "EUR")
        #expect(view.tipPercent == Decimal(string: "22.5"))
        view.setTipPercent(12)
        #expect(settings?.string("tipsplit-tip-percent") == "12")
    }
}
