import BillfoldCore
import Foundation
import Graphics

/// Flows a document's blocks onto pages, one page at a time from a `Cursor`, so a page can
/// be laid out and drawn, then forgotten. The first pass records where each page starts;
/// the drawing pass (PDF, print, thumbnail) lays each page out again from there.
/// Confined to one thread: it owns a `TextEngine`.
final class LayoutEngine {
    let document: Document
    let text: TextEngine
    let elements: [FlowElement]
    private(set) var memo: LayoutMemo
    let pageSize: Size
    let printable: Rect
    let body: Rect
    let header: RunningBand?
    let footer: RunningBand?

    init(document: Document, text: TextEngine = TextEngine(), memo: LayoutMemo = LayoutMemo()) throws(DocumentError) {
        self.document = document
        self.text = text
        var flattener = Flattener(memo: memo)
        try flattener.add(document.blocks)
        elements = flattener.elements
        self.memo = flattener.memo
        let setup = document.pageSetup
        pageSize = setup.pageSize
        let printable = setup.printableArea
        self.printable = printable
        let header = document.header.flatMap { $0.isEmpty ? nil : RunningBand($0, width: printable.width, engine: text) }
        let footer = document.footer.flatMap { $0.isEmpty ? nil : RunningBand($0, width: printable.width, engine: text) }
        self.header = header
        self.footer = footer
        var body = printable
        if let header {
            let taken = header.height + setup.runningTextGap
            body = Rect(x: body.x, y: body.y + taken, width: body.width, height: max(72, body.height - taken))
        }
        if let footer {
            let taken = footer.height + setup.runningTextGap
            body = Rect(x: body.x, y: body.y, width: body.width, height: max(72, body.height - taken))
        }
        self.body = body
    }

    func memoize(_ widths: [Double], for key: LayoutMemo.WidthKey) {
        memo.columnWidths[key] = widths
    }

    // MARK: Pages

    /// True while `paginate` runs: text is measured, without keeping glyphs to draw.
    private(set) var isMeasuring = false

    /// Text laid out for the current pass.
    func layoutText(_ string: String, format: TextFormat, width: Double) -> TextBlock {
        text.layout(string, format: format, width: width, measuringOnly: isMeasuring)
    }

    /// First pass: where every page starts.
    func paginate() -> [Cursor] { paginate(keepingFirst: 0).starts }

    /// First pass: where every page starts, and the first `keptCount` pages laid out in full
    /// (the rest only measured), so that drawing them needs no second layout.
    func paginate(keepingFirst keptCount: Int) -> (starts: [Cursor], kept: [[PlacedItem]]) {
        defer { isMeasuring = false }
        var starts: [Cursor] = [.start]
        var kept: [[PlacedItem]] = []
        var cursor = Cursor.start
        while true {
            let keeps = starts.count <= keptCount
            isMeasuring = !keeps
            let page = layoutPage(from: cursor)
            if keeps { kept.append(page.items) }
            // Every page takes something; a page that did not would repeat forever.
            guard let next = page.next, next != cursor else { break }
            starts.append(next)
            cursor = next
        }
        return (starts, kept)
    }

    /// Lays out the page starting at `cursor`; `next` is nil after the last page.
    func layoutPage(from cursor: Cursor) -> (items: [PlacedItem], next: Cursor?) {
        var builder = PageBuilder(region: Region(x: body.minX, width: body.width, bottom: body.maxY), top: body.minY)
        var index = cursor.element
        var progress = cursor.progress
        while index < elements.count {
            switch place(index, progress: progress, into: &builder) {
            case .done(let next):
                index = next
                progress = .start
            case .pageFull(let next):
                return (builder.items, Cursor(element: index, progress: next))
            case .noRoom:
                return (builder.items, Cursor(element: index, progress: progress))
            case .breakPage(let next):
                return (builder.items, next < elements.count ? Cursor(element: next, progress: .start) : nil)
            case .enterGroup:
                index += 1
                progress = .start
            }
        }
        return (builder.items, nil)
    }

    /// Lays out `range` in an unbounded frame `width` wide: its items (relative to the
    /// frame's top-left corner), its height, and the space its last block wants after it.
    func layoutFrame(_ range: Range<Int>, width: Double) -> (items: [PlacedItem], height: Double, spaceAfter: Double) {
        var builder = PageBuilder(region: Region(x: 0, width: width, bottom: .infinity), top: 0)
        var index = range.lowerBound
        while index < range.upperBound {
            switch place(index, progress: .start, into: &builder) {
            case .done(let next): index = next
            case .enterGroup, .pageFull, .noRoom, .breakPage: index += 1
            }
        }
        return (builder.items, builder.y, builder.pendingSpace)
    }

    private func place(_ index: Int, progress: Progress, into builder: inout PageBuilder) -> Outcome {
        let force = !builder.hasContent
        switch elements[index] {
        case .text(let string, let style, let keepWithNext):
            return placeText(string, style: style, keepWithNext: keepWithNext, index: index, progress: progress, into: &builder, force: force)
        case .keyValues(let list):
            return placeKeyValues(list, index: index, progress: progress, into: &builder, force: force)
        case .table(let table):
            return placeTable(table, index: index, progress: progress, into: &builder, force: force)
        case .image(let image, let id):
            return placeImage(image, id: id, index: index, into: &builder, force: force)
        case .pdfPage(let pdf, let sourceID, let page, let size):
            return placeBox(index: index, into: &builder, force: force, spaceBefore: pdf.spaceBefore, spaceAfter: pdf.spaceAfter,
                            size: fittedSize(size, maxWidth: builder.region.width, maxHeight: pdf.maxHeight ?? body.height, allowsGrowth: false),
                            alignment: .center) { rect in
                .pdfPage(pdf, sourceID: sourceID, page: page, rect: rect)
            }
        case .chart(let chart):
            let size = Size(width: min(chart.width ?? builder.region.width, builder.region.width), height: min(chart.height, body.height))
            return placeBox(index: index, into: &builder, force: force, spaceBefore: chart.spaceBefore, spaceAfter: chart.spaceAfter,
                            size: size, alignment: .leading) { rect in .chart(chart, rect: rect) }
        case .qrCode(let code):
            let side = min(code.side ?? builder.region.width, builder.region.width, body.height)
            return placeBox(index: index, into: &builder, force: force, spaceBefore: code.spaceBefore, spaceAfter: code.spaceAfter,
                            size: Size(width: side, height: side), alignment: .leading) { rect in .qrCode(code, rect: rect) }
        case .spacer(let height):
            guard builder.hasContent else { return .done(next: index + 1) }
            if height > builder.remaining + layoutEpsilon { return .breakPage(next: index + 1) }
            builder.y += height
            builder.pendingSpace = 0
            return .done(next: index + 1)
        case .rule(let rule):
            let gap = builder.gap(before: rule.spaceBefore)
            if gap + rule.thickness > builder.remaining + layoutEpsilon, !force { return .noRoom }
            let y = builder.y + gap + rule.thickness / 2
            builder.items.append(.line(from: Point(x: builder.region.x, y: y), to: Point(x: builder.region.x + builder.region.width, y: y),
                                       width: rule.thickness, color: rule.color))
            builder.finish(at: builder.y + gap + rule.thickness, spaceAfter: rule.spaceAfter)
            return .done(next: index + 1)
        case .pageBreak:
            if builder.region.isUnbounded || !builder.hasContent { return .done(next: index + 1) }
            return .breakPage(next: index + 1)
        case .keepTogether(let end):
            if builder.region.isUnbounded { return .enterGroup }
            let frame = layoutFrame((index + 1)..<end, width: builder.region.width)
            let spaceBefore = index + 1 < end ? elements[index + 1].spaceBefore : 0
            return placeFrame(frame.items, height: frame.height, spaceBefore: spaceBefore, spaceAfter: frame.spaceAfter,
                              end: end, into: &builder)
        case .columns(let set, let ranges, let end):
            let widths = Self.resolve(set.columns.map(\.width), available: builder.region.width, gap: set.gap)
            var items: [PlacedItem] = []
            var height = 0.0
            var x = 0.0
            for (range, width) in zip(ranges, widths) {
                let frame = layoutFrame(range, width: width)
                items += frame.items.map { $0.offsetBy(dx: x, dy: 0) }
                height = max(height, frame.height)
                x += width + set.gap
            }
            return placeFrame(items, height: height, spaceBefore: set.spaceBefore, spaceAfter: set.spaceAfter, end: end, into: &builder)
        }
    }

    /// Places a measured group whole, moves it to the next page, or lets it flow when it is
    /// taller than a page.
    private func placeFrame(_ items: [PlacedItem], height: Double, spaceBefore: Double, spaceAfter: Double,
                            end: Int, into builder: inout PageBuilder) -> Outcome {
        let gap = builder.gap(before: spaceBefore)
        if builder.region.isUnbounded || gap + height <= builder.remaining + layoutEpsilon {
            let dx = builder.region.x
            let dy = builder.y + gap
            builder.items += items.map { $0.offsetBy(dx: dx, dy: dy) }
            builder.finish(at: dy + height, spaceAfter: spaceAfter)
            return .done(next: end)
        }
        if builder.hasContent, height <= body.height + layoutEpsilon { return .noRoom }
        return .enterGroup
    }

    // MARK: Text

    private func placeText(_ string: String, style: TextStyle, keepWithNext: Bool, index: Int, progress: Progress,
                           into builder: inout PageBuilder, force: Bool) -> Outcome {
        let block = layoutText(string, format: style.format, width: builder.region.width)
        let start: Int = if case .line(let line) = progress { line } else { 0 }
        let total = block.lines.count
        let gap = start == 0 ? builder.gap(before: style.spaceBefore) : 0
        let available = builder.remaining - gap
        var fitting = 0
        while start + fitting < total, block.height(of: start..<(start + fitting + 1)) <= available + layoutEpsilon {
            fitting += 1
        }
        if start + fitting == total {
            if keepWithNext, !force, !builder.region.isUnbounded, index + 1 < elements.count {
                let following = max(style.spaceAfter, elements[index + 1].spaceBefore)
                let lead = leadHeight(of: index + 1, width: builder.region.width)
                if lead > 0, block.height(of: start..<total) + following + lead > available + layoutEpsilon { return .noRoom }
            }
            placeLines(block, start..<total, gap: gap, color: style.color, into: &builder)
            builder.finish(at: builder.y, spaceAfter: style.spaceAfter)
            return .done(next: index + 1)
        }
        // Never leave one line of a longer paragraph alone at the foot or the head of a page.
        if total >= 4 {
            if total - (start + fitting) == 1 { fitting -= 1 }
            if start == 0, fitting < 2 { fitting = 0 }
        }
        if fitting <= 0 {
            guard force else { return .noRoom }
            fitting = 1
        }
        placeLines(block, start..<(start + fitting), gap: gap, color: style.color, into: &builder)
        return .pageFull(.line(start + fitting))
    }

    private func placeLines(_ block: TextBlock, _ range: Range<Int>, gap: Double, color: Color, into builder: inout PageBuilder) {
        let origin = Point(x: builder.region.x, y: builder.y + gap)
        builder.items.append(.text(block, lines: range, origin: origin, color: color))
        builder.y = origin.y + block.height(of: range)
        builder.hasContent = true
    }

    /// Height of the smallest piece the element at `index` can start a page with; what a
    /// heading keeps on its page below it.
    private func leadHeight(of index: Int, width: Double) -> Double {
        switch elements[index] {
        case .text(let string, let style, _):
            let block = layoutText(string, format: style.format, width: width)
            return block.height(of: 0..<min(2, block.lines.count))
        case .keyValues(let list):
            guard let first = list.items.first else { return 0 }
            return keyValueGeometry(list, width: width).row(first, engine: text).height
        case .table(let table):
            return tableLeadHeight(table, index: index, width: width)
        case .image(let image, let id):
            guard let info = memo.images[id] else { return 0 }
            return imageSize(image, info: info, width: width).height
        case .pdfPage(let pdf, _, _, let size):
            return fittedSize(size, maxWidth: width, maxHeight: pdf.maxHeight ?? body.height, allowsGrowth: false).height
        case .chart(let chart):
            return min(chart.height, body.height)
        case .qrCode(let code):
            return min(code.side ?? width, width, body.height)
        case .keepTogether(let end):
            let height = layoutFrame((index + 1)..<end, width: width).height
            return height <= body.height ? height : (index + 1 < end ? leadHeight(of: index + 1, width: width) : 0)
        case .columns(_, let ranges, _):
            return ranges.compactMap { $0.isEmpty ? nil : leadHeight(of: $0.lowerBound, width: width) }.max() ?? 0
        case .spacer, .rule, .pageBreak:
            return 0
        }
    }

    // MARK: Boxes (pictures, PDF pages, charts)

    private func placeImage(_ image: ImageBlock, id: Int, index: Int, into builder: inout PageBuilder, force: Bool) -> Outcome {
        guard let info = memo.images[id] else { return .done(next: index + 1) }
        let captionStyle = TextStyle.small.withSpacing(before: 0, after: 0)
        let caption = image.caption.map { text.layout($0, format: captionStyle.format, width: builder.region.width) }
        let captionHeight = caption.map { $0.height + 4 } ?? 0
        var size = imageSize(image, info: info, width: builder.region.width)
        let gap = builder.gap(before: image.spaceBefore)
        if gap + size.height + captionHeight > builder.remaining + layoutEpsilon {
            guard force else { return .noRoom }
            // Alone on a page and still too tall: shrink to what the page has.
            let height = max(1, builder.remaining - gap - captionHeight)
            size = Size(width: size.width * height / size.height, height: height)
        }
        let x = aligned(size.width, in: builder.region, alignment: image.alignment)
        let rect = Rect(x: x, y: builder.y + gap, width: size.width, height: size.height)
        builder.items.append(.image(image, info: info, rect: rect))
        var bottom = rect.maxY
        if let caption {
            let captionX = aligned(caption.lines.reduce(0) { max($0, $1.width) }, in: builder.region, alignment: image.alignment)
            builder.items.append(.text(caption, lines: caption.lines.indices, origin: Point(x: captionX - (caption.lines.first?.x ?? 0), y: bottom + 4),
                                       color: captionStyle.color))
            bottom += captionHeight
        }
        builder.finish(at: bottom, spaceAfter: image.spaceAfter)
        return .done(next: index + 1)
    }

    private func imageSize(_ image: ImageBlock, info: ImageInfo, width: Double) -> Size {
        let natural = Size(width: Double(max(1, info.displayWidth)), height: Double(max(1, info.displayHeight)))
        return fittedSize(natural, maxWidth: min(image.maxWidth ?? width, width), maxHeight: image.maxHeight ?? body.height, allowsGrowth: true)
    }

    private func fittedSize(_ size: Size, maxWidth: Double, maxHeight: Double, allowsGrowth: Bool) -> Size {
        guard size.width > 0, size.height > 0 else { return Size(width: 1, height: 1) }
        var scale = min(maxWidth / size.width, maxHeight / size.height)
        if !allowsGrowth { scale = min(1, scale) }
        return Size(width: size.width * scale, height: size.height * scale)
    }

    private func aligned(_ width: Double, in region: Region, alignment: TextAlignment) -> Double {
        switch alignment {
        case .leading: region.x
        case .center: region.x + (region.width - width) / 2
        case .trailing: region.x + region.width - width
        }
    }

    private func placeBox(index: Int, into builder: inout PageBuilder, force: Bool, spaceBefore: Double, spaceAfter: Double,
                          size: Size, alignment: TextAlignment, item: (Rect) -> PlacedItem) -> Outcome {
        let gap = builder.gap(before: spaceBefore)
        var size = size
        if gap + size.height > builder.remaining + layoutEpsilon {
            guard force else { return .noRoom }
            let height = max(1, builder.remaining - gap)
            size = Size(width: size.width * height / size.height, height: height)
        }
        let rect = Rect(x: aligned(size.width, in: builder.region, alignment: alignment), y: builder.y + gap,
                        width: size.width, height: size.height)
        builder.items.append(item(rect))
        builder.finish(at: rect.maxY, spaceAfter: spaceAfter)
        return .done(next: index + 1)
    }

    // MARK: Key/value lists

    struct KeyValueGeometry {
        let x: Double
        let width: Double
        let keyWidth: Double
        let valueWidth: Double
        let gap: Double
        let list: KeyValueList

        func styles(for item: KeyValueList.Item) -> (key: TextStyle, value: TextStyle) {
            var key = list.keyStyle
            var value = list.valueStyle
            if list.placement == .trailing { value.alignment = .trailing }
            // The headings' weight: each further weight costs a font match, a sort of every
            // installed font.
            if item.isEmphasized {
                key = key.withWeight(.semibold).withColor(value.color)
                value = value.withWeight(.semibold)
            }
            return (key, value)
        }

        func row(_ item: KeyValueList.Item, engine: TextEngine) -> (key: TextBlock, value: TextBlock, height: Double, ruleSpace: Double) {
            let (keyStyle, valueStyle) = styles(for: item)
            let key = engine.layout(item.key, format: keyStyle.format, width: keyWidth)
            let value = engine.layout(item.value, format: valueStyle.format, width: valueWidth)
            let ruleSpace = item.isEmphasized ? 6.0 : 0
            return (key, value, max(key.height, value.height) + ruleSpace, ruleSpace)
        }
    }

    func keyValueGeometry(_ list: KeyValueList, width available: Double) -> KeyValueGeometry {
        let gap = 16.0
        let probe = KeyValueGeometry(x: 0, width: 0, keyWidth: 0, valueWidth: 0, gap: gap, list: list)
        var keyNatural = 0.0
        var valueNatural = 0.0
        for item in list.items {
            let (keyStyle, valueStyle) = probe.styles(for: item)
            keyNatural = max(keyNatural, text.naturalWidth(of: item.key, format: keyStyle.format))
            valueNatural = max(valueNatural, text.naturalWidth(of: item.value, format: valueStyle.format))
        }
        switch list.placement {
        case .leading:
            let width = min(list.width ?? available, available)
            let keyWidth = min(keyNatural, width * 0.4)
            return KeyValueGeometry(x: 0, width: width, keyWidth: max(1, keyWidth), valueWidth: max(1, width - keyWidth - gap), gap: gap, list: list)
        case .trailing:
            let width = min(list.width ?? max(keyNatural + gap + valueNatural, available * 0.4), available)
            let valueWidth = min(valueNatural, max(1, (width - gap) * 0.55))
            let keyWidth = max(1, width - gap - valueWidth)
            return KeyValueGeometry(x: available - width, width: width, keyWidth: keyWidth, valueWidth: max(1, valueWidth), gap: gap, list: list)
        }
    }

    private func placeKeyValues(_ list: KeyValueList, index: Int, progress: Progress, into builder: inout PageBuilder, force: Bool) -> Outcome {
        let geometry = keyValueGeometry(list, width: builder.region.width)
        let start: Int = if case .item(let item) = progress { item } else { 0 }
        guard start < list.items.count else { return .done(next: index + 1) }
        let gap = start == 0 ? builder.gap(before: list.spaceBefore) : 0
        var y = builder.y + gap
        var placed = 0
        let x = builder.region.x + geometry.x
        for itemIndex in start..<list.items.count {
            let item = list.items[itemIndex]
            let spacing = itemIndex > start ? list.rowSpacing : 0
            let row = geometry.row(item, engine: text)
            if y + spacing + row.height > builder.region.bottom + layoutEpsilon, placed > 0 || !force {
                break
            }
            y += spacing
            if item.isEmphasized {
                let ruleY = y + row.ruleSpace / 2
                builder.items.append(.line(from: Point(x: x, y: ruleY), to: Point(x: x + geometry.width, y: ruleY),
                                           width: 0.9, color: geometry.styles(for: item).value.color))
            }
            let top = y + row.ruleSpace
            let (keyStyle, valueStyle) = geometry.styles(for: item)
            builder.items.append(.text(row.key, lines: row.key.lines.indices, origin: Point(x: x, y: top), color: keyStyle.color))
            builder.items.append(.text(row.value, lines: row.value.lines.indices,
                                       origin: Point(x: x + geometry.keyWidth + geometry.gap, y: top), color: valueStyle.color))
            y += row.height
            placed += 1
        }
        if placed == 0 { return .noRoom }
        builder.y = y
        builder.hasContent = true
        if start + placed == list.items.count {
            builder.finish(at: y, spaceAfter: list.spaceAfter)
            return .done(next: index + 1)
        }
        return .pageFull(.item(start + placed))
    }

    // MARK: Column widths

    /// Widths for `.fixed`, `.fraction` and (outside tables) `.fit` columns separated by `gap`.
    static func resolve(_ specs: [ColumnWidth], available: Double, gap: Double) -> [Double] {
        let room = max(0, available - gap * Double(max(0, specs.count - 1)))
        var fixed = 0.0
        var weights = 0.0
        for spec in specs {
            switch spec {
            case .fixed(let width): fixed += max(0, width)
            case .fraction(let weight): weights += max(0, weight)
            case .fit: weights += 1
            }
        }
        let shrink = fixed > room ? room / fixed : 1
        let rest = max(0, room - fixed * shrink)
        return specs.map { spec in
            switch spec {
            case .fixed(let width): max(0, width) * shrink
            case .fraction(let weight): weights > 0 ? rest * max(0, weight) / weights : 0
            case .fit: weights > 0 ? rest / weights : 0
            }
        }
    }
}

/// A running header or footer measured once for the whole document.
struct RunningBand {
    let running: RunningText
    let height: Double
    let slotWidth: Double
    let hasCenter: Bool

    init(_ running: RunningText, width: Double, engine: TextEngine) {
        self.running = running
        hasCenter = running.center != nil
        slotWidth = hasCenter ? width / 3 : width / 2
        var height = engine.lineHeight(for: running.style.format)
        for item in [running.leading, running.center, running.trailing].compactMap({ $0 }) {
            let sample = switch item {
            case .text(let string): string
            case .pageNumber: String(format: tr("Page %d of %d"), 8888, 8888)
            }
            height = max(height, engine.layout(sample, format: running.style.format, width: slotWidth).height)
        }
        self.height = height
    }

    /// Items for page `number` of `count`, the band's top at `top`.
    func items(number: Int, count: Int, top: Double, left: Double, width: Double, engine: TextEngine, ruleBelow: Bool) -> [PlacedItem] {
        var result: [PlacedItem] = []
        let slots: [(RunningItem?, TextAlignment, Double)] = hasCenter
            ? [(running.leading, .leading, left), (running.center, .center, left + slotWidth), (running.trailing, .trailing, left + 2 * slotWidth)]
            : [(running.leading, .leading, left), (running.trailing, .trailing, left + slotWidth)]
        for (item, alignment, x) in slots {
            guard let item else { continue }
            let string = switch item {
            case .text(let string): string
            // Translators: the page number in a document's running footer, then the page count.
            case .pageNumber: String(format: tr("Page %d of %d"), number, count)
            }
            var format = running.style.format
            format.alignment = alignment
            let block = engine.layout(string, format: format, width: slotWidth)
            result.append(.text(block, lines: block.lines.indices, origin: Point(x: x, y: top), color: running.style.color))
        }
        if running.showsRule {
            let y = ruleBelow ? top + height + 4 : top - 4
            result.append(.line(from: Point(x: left, y: y), to: Point(x: left + width, y: y), width: 0.5, color: Palette.hairline))
        }
        return result
    }
}
