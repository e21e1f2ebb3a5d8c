import Documents
import GObjectCore
import GtkKit
import Testing
import TestSupport
@testable import BillfoldUI

@Suite(.serialized, needsDisplay) @MainActor
struct ChartViewTests {
    private let spending = Chart(kind: .bar, categories: ["Travel", "Hotel", "Meals"],
                                 series: [ChartSeries("Spent", values: [412.5, 680, 168.5])])

    @Test func describesItsValuesForScreenReaders() {
        let view = ChartView(chart: spending, title: "Spending by category")
        #expect(view.widget.accessibleLabel == "Spending by category")
        #expect(view.widget.accessibleDescription == "Bar chart. Travel: 412.50, Hotel: 680, Meals: 168.50.")
        view.chart = Chart(kind: .line, categories: ["Jan", "Feb"],
                           series: [ChartSeries("2023", values: [1, 2]), ChartSeries("2024", values: [3, 4])])
        #expect(view.widget.accessibleDescription == "Line chart. 2023: Jan: 1, Feb: 2; 2024: Jan: 3, Feb: 4.")
        view.chart = Chart(kind: .bar, categories: [], series: [])
        #expect(view.widget.accessibleDescription == "Bar chart. No values.")
    }

    @Test func redrawsWhenTheStyleTurnsDark() {
        StyleManager.colorScheme = .light
        defer { StyleManager.colorScheme = .followSystem }
        let view = ChartView(chart: spending, title: "Spending")
        let host = TestWindow(content: view.widget, width: 500, height: 300)
        defer { host.close() }
        let before = view.drawCount
        #expect(before >= 1)
        StyleManager.colorScheme = .dark
        host.settle()
        #expect(StyleManager.isDark)
        #expect(view.drawCount > before)
    }

    @Test func theWidgetDrawsAfterTheViewIsGone() {
        var view: ChartView? = ChartView(chart: spending, title: "Spending")
        let widget = view!.widget
        view = nil
        let host = TestWindow(content: widget, width: 400, height: 250)
        defer { host.close() }
        #expect(widget.width > 0)
    }
}
