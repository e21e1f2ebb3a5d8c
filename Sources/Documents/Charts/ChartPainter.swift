import Foundation
import Graphics

/// Draws a bar or line chart with Cairo on any context: a PDF page, a print page or a
/// widget (wrap its `cairo_t` with `DrawingContext(borrowing:)`).
public struct ChartPainter {
    public let chart: Chart
    public let style: ChartStyle

    public init(chart: Chart, style: ChartStyle) {
        self.chart = chart
        self.style = style
    }

    /// Draws into `rect` using a fresh text engine (fine on screen; documents pass theirs).
    public func draw(in context: DrawingContext, rect: Rect) {
        draw(in: context, rect: rect, textEngine: TextEngine())
    }

    public func draw(in context: DrawingContext, rect: Rect, textEngine: TextEngine) {
        guard rect.width > 20, rect.height > 20 else { return }
        context.save()
        defer { context.restore() }
        if let background = style.background { context.fill(rect, color: background) }

        let labelFormat = TextFormat(font: style.font)
        let lineHeight = textEngine.lineHeight(for: labelFormat)
        var top = rect.minY
        if chart.series.count > 1 {
            top += drawLegend(in: context, rect: rect, engine: textEngine, format: labelFormat) + lineHeight * 0.6
        }

        let scale = AxisScale(values: chart.series.flatMap(\.values))
        let tickLabels = scale.ticks.map { chart.valueLabel($0) }
        let labelWidth = tickLabels.map { textEngine.naturalWidth(of: $0, format: labelFormat) }.max() ?? 0
        let plot = Rect(x: rect.minX + labelWidth + lineHeight * 0.6, y: top + lineHeight / 2,
                        width: max(1, rect.width - labelWidth - lineHeight * 0.6),
                        height: max(1, rect.maxY - top - lineHeight / 2 - lineHeight * 1.6))

        // Grid and value axis.
        var trailingLabel = labelFormat
        trailingLabel.alignment = .trailing
        for (tick, label) in zip(scale.ticks, tickLabels) {
            let y = plot.maxY - scale.fraction(tick) * plot.height
            let isZero = tick == 0
            context.strokeLine(from: Point(x: plot.minX, y: y), to: Point(x: plot.maxX, y: y),
                               width: isZero ? 0.8 : 0.5, color: isZero ? style.axisLine : style.gridLine)
            let block = textEngine.layout(label, format: trailingLabel, width: labelWidth)
            block.draw(in: context, at: Point(x: rect.minX, y: y - block.height / 2), color: style.secondaryText)
        }

        let count = max(1, chart.categories.count)
        let slot = plot.width / Double(count)
        drawCategoryLabels(in: context, plot: plot, slot: slot, engine: textEngine, format: labelFormat, lineHeight: lineHeight)

        switch chart.kind {
        case .bar: drawBars(in: context, plot: plot, slot: slot, scale: scale, engine: textEngine, format: labelFormat)
        case .line: drawLines(in: context, plot: plot, slot: slot, scale: scale)
        }
    }

    private func color(of index: Int) -> Color {
        chart.series[index].color ?? style.palette[index % style.palette.count]
    }

    private func drawLegend(in context: DrawingContext, rect: Rect, engine: TextEngine, format: TextFormat) -> Double {
        let lineHeight = engine.lineHeight(for: format)
        let swatch = lineHeight * 0.6
        var x = rect.minX
        var y = rect.minY
        for (index, series) in chart.series.enumerated() {
            let label = engine.layout(series.name, format: format)
            let itemWidth = swatch + 4 + label.width + 14
            if x > rect.minX, x + itemWidth > rect.maxX {
                x = rect.minX
                y += lineHeight
            }
            context.setColor(color(of: index))
            context.addRoundedRect(Rect(x: x, y: y + (lineHeight - swatch) / 2, width: swatch, height: swatch), radius: 1.5)
            context.fill()
            label.draw(in: context, at: Point(x: x + swatch + 4, y: y), color: style.text)
            x += itemWidth
        }
        return y + lineHeight - rect.minY
    }

    private func drawCategoryLabels(in context: DrawingContext, plot: Rect, slot: Double, engine: TextEngine,
                                    format: TextFormat, lineHeight: Double) {
        let widths = chart.categories.map { engine.naturalWidth(of: $0, format: format) }
        let widest = widths.max() ?? 0
        // Skip labels rather than overlap them.
        let stride = max(1, Int((widest + 6) / max(1, slot)) + 1)
        for (index, category) in chart.categories.enumerated() where index % stride == 0 {
            let block = engine.layout(category, format: format)
            let centre = plot.minX + slot * (Double(index) + 0.5)
            let x = min(max(centre - block.width / 2, plot.minX - slot / 2), plot.maxX - block.width)
            block.draw(in: context, at: Point(x: x, y: plot.maxY + lineHeight * 0.45), color: style.secondaryText)
        }
    }

    private func drawBars(in context: DrawingContext, plot: Rect, slot: Double, scale: AxisScale,
                          engine: TextEngine, format: TextFormat) {
        let seriesCount = max(1, chart.series.count)
        let groupWidth = slot * (seriesCount == 1 ? 0.62 : 0.78)
        let gap = seriesCount > 1 ? min(2, groupWidth * 0.04) : 0
        let barWidth = max(0.5, (groupWidth - gap * Double(seriesCount - 1)) / Double(seriesCount))
        let zeroY = plot.maxY - scale.fraction(0) * plot.height
        var valueFormat = format
        valueFormat.font = format.font.withSize(format.font.size * 0.92)
        for (seriesIndex, series) in chart.series.enumerated() {
            context.setColor(color(of: seriesIndex))
            for (index, value) in series.values.enumerated() where index < chart.categories.count {
                let x = plot.minX + slot * Double(index) + (slot - groupWidth) / 2 + Double(seriesIndex) * (barWidth + gap)
                let y = plot.maxY - scale.fraction(value) * plot.height
                let bar = Rect(x: x, y: min(y, zeroY), width: barWidth, height: max(0.5, abs(zeroY - y)))
                if value >= 0 {
                    context.addTopRoundedRect(bar, radius: min(2.5, barWidth / 4))
                } else {
                    context.addRect(bar)
                }
                context.fill()
            }
        }
        guard chart.showsValueLabels, seriesCount == 1, let series = chart.series.first else { return }
        let labels = series.values.map { chart.valueLabel($0) }
        let widest = labels.map { engine.naturalWidth(of: $0, format: valueFormat) }.max() ?? 0
        guard widest + 2 <= slot else { return }
        for (index, value) in series.values.enumerated() where index < chart.categories.count {
            let block = engine.layout(labels[index], format: valueFormat)
            let centre = plot.minX + slot * (Double(index) + 0.5)
            let y = plot.maxY - scale.fraction(value) * plot.height
            let labelY = value >= 0 ? min(y, zeroY) - block.height - 1.5 : max(y, zeroY) + 1.5
            block.draw(in: context, at: Point(x: centre - block.width / 2, y: labelY), color: style.text)
        }
    }

    private func drawLines(in context: DrawingContext, plot: Rect, slot: Double, scale: AxisScale) {
        let zeroY = plot.maxY - scale.fraction(0) * plot.height
        for (seriesIndex, series) in chart.series.enumerated() {
            let values = Array(series.values.prefix(chart.categories.count))
            guard !values.isEmpty else { continue }
            let points = values.enumerated().map { index, value in
                Point(x: plot.minX + slot * (Double(index) + 0.5), y: plot.maxY - scale.fraction(value) * plot.height)
            }
            let seriesColor = color(of: seriesIndex)
            if chart.series.count == 1, points.count > 1 {
                context.move(to: Point(x: points[0].x, y: zeroY))
                for point in points { context.line(to: point) }
                context.line(to: Point(x: points[points.count - 1].x, y: zeroY))
                context.closePath()
                context.setColor(seriesColor.withAlpha(0.12))
                context.fill()
            }
            context.setLineJoin(.round)
            context.setLineCap(.round)
            context.setLineWidth(1.8)
            context.setColor(seriesColor)
            context.move(to: points[0])
            for point in points.dropFirst() { context.line(to: point) }
            context.stroke()
            let radius = min(2.6, slot / 5)
            for point in points {
                context.addArc(center: point, radius: radius, from: 0, to: 2 * .pi)
                context.setColor(style.markerFill)
                context.fill(preservingPath: true)
                context.setLineWidth(1.4)
                context.setColor(seriesColor)
                context.stroke()
            }
        }
    }
}

/// A value axis with round tick values (1, 2 or 5 times a power of ten) that include zero.
struct AxisScale {
    let minimum: Double
    let maximum: Double
    let ticks: [Double]

    init(values: [Double], targetTicks: Int = 5) {
        let finite = values.filter(\.isFinite)
        var low = min(0, finite.min() ?? 0)
        var high = max(0, finite.max() ?? 0)
        if low == high { high = low + 1 }
        let raw = (high - low) / Double(max(1, targetTicks - 1))
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        low = floor(low / step) * step
        high = ceil(high / step) * step
        minimum = low
        maximum = high
        var ticks: [Double] = []
        var tick = low
        while tick <= high + step / 2 {
            ticks.append(abs(tick) < step / 1e6 ? 0 : tick)
            tick += step
        }
        self.ticks = ticks
    }

    func fraction(_ value: Double) -> Double {
        (value - minimum) / (maximum - minimum)
    }
}
