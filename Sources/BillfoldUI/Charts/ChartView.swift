import BillfoldCore
import Documents
import Graphics
import GtkKit

/// A bar or line chart on screen, drawn by the same `ChartPainter` that draws it in PDFs, in
/// the light or dark style as the app is right now (and redrawn when that changes). Assistive
/// technologies read the values from its description.
@MainActor
public final class ChartView {
    public let widget: DrawingArea
    private let state: ChartState

    /// `title` names the chart for assistive technologies (e.g. "Spending by category").
    public init(chart: Chart, title: String, height: Int = 220) {
        state = ChartState(chart: chart)
        widget = DrawingArea()
        widget.contentHeight = height
        widget.expandsHorizontally = true
        widget.accessibleLabel = title
        // The closure holds the state, not this view: the widget draws for as long as it lives.
        widget.setDrawFunction { [state] cairo, width, height in
            state.drawCount += 1
            let style = StyleManager.isDark ? ChartStyle.dark : ChartStyle.light
            ChartPainter(chart: state.chart, style: style)
                .draw(in: DrawingContext(borrowing: cairo.pointer), rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        }
        widget.onDarkStyleChanged { $0.queueDraw() }
        updateDescription()
    }

    public var chart: Chart {
        get { state.chart }
        set {
            state.chart = newValue
            widget.queueDraw()
            updateDescription()
        }
    }

    /// How many times the chart was drawn; for tests.
    var drawCount: Int { state.drawCount }

    private func updateDescription() {
        widget.accessibleDescription = Self.summary(of: state.chart)
    }

    /// The chart in words: its kind, then each series with its value per category.
    static func summary(of chart: Chart) -> String {
        let kind = chart.kind == .bar ? tr("Bar chart") : tr("Line chart")
        guard !chart.series.isEmpty, !chart.categories.isEmpty else {
            return kind + ". " + tr("No values.")
        }
        let lists = chart.series.map { series -> String in
            let values = zip(chart.categories, series.values).map { category, value in
                String(format: tr("%@: %@"), category, chart.valueLabel(value))
            }.joined(separator: ", ")
            return chart.series.count > 1 ? String(format: tr("%@: %@"), series.name, values) : values
        }
        return kind + ". " + lists.joined(separator: "; ") + "."
    }
}

/// What the draw function reads; shared by the view and its widget's draw closure.
@MainActor
private final class ChartState {
    var chart: Chart
    var drawCount = 0
    init(chart: Chart) { self.chart = chart }
}
