import Graphics

extension LayoutEngine {
    /// Text styles of one column: numbers tabular, emphasized rows semibold.
    private func cellStyle(_ table: Table, column: Int, emphasized: Bool) -> TextStyle {
        var style = table.style.bodyText
        if column < table.columns.count {
            style.alignment = table.columns[column].alignment
            style.tabularFigures = table.columns[column].isNumeric
        }
        return emphasized ? style.withWeight(.semibold) : style
    }

    private func headerStyle(_ table: Table, column: Int) -> TextStyle {
        var style = table.style.headerText
        if column < table.columns.count {
            style.alignment = table.columns[column].alignment
        }
        return style
    }

    /// Column widths for `table` in `available` points, worked out once per table and width.
    func tableColumnWidths(_ table: Table, index: Int, available: Double) -> [Double] {
        let key = LayoutMemo.WidthKey(element: index, width: available)
        if let widths = memo.columnWidths[key] { return widths }
        let widths = computeColumnWidths(table, available: available)
        memoize(widths, for: key)
        return widths
    }

    private func computeColumnWidths(_ table: Table, available: Double) -> [Double] {
        let count = table.columns.count
        guard count > 0 else { return [] }
        let padding = table.style.cellPadding.left + table.style.cellPadding.right
        let formats = columnFormats(table)
        var widths = Array(repeating: 0.0, count: count)
        var fitColumns: [Int] = []
        var fractionColumns: [Int] = []
        var fixedTotal = 0.0
        var minimums = Array(repeating: 0.0, count: count)
        for (c, column) in table.columns.enumerated() {
            // The header's longest word, so a header wraps between words only.
            let longestWord = column.title.split(separator: " ").map {
                text.naturalWidth(of: String($0), format: headerStyle(table, column: c).format)
            }.max() ?? 0
            minimums[c] = max(longestWord + padding, 24)
            switch column.width {
            case .fixed(let width):
                widths[c] = max(1, width)
                fixedTotal += widths[c]
            case .fraction:
                fractionColumns.append(c)
                minimums[c] = max(minimums[c], 48)
            case .fit:
                fitColumns.append(c)
                var natural = text.naturalWidth(of: column.title, format: formats.header[c])
                var above: TableRow?
                for row in table.rows where c < row.cells.count {
                    // A cell that repeats the one above (a unit, a rate) is no wider than it.
                    if let above, above.isEmphasized == row.isEmphasized, above.cells[c] == row.cells[c] { continue }
                    natural = max(natural, text.naturalWidth(of: row.cells[c], format: row.isEmphasized ? formats.strong[c] : formats.body[c]))
                    above = row
                }
                widths[c] = natural + padding
            }
        }
        if fixedTotal > available {
            let shrink = available / fixedTotal
            for c in widths.indices where !fitColumns.contains(c) && !fractionColumns.contains(c) { widths[c] *= shrink }
            fixedTotal = available
        }
        let fractionMinimum = fractionColumns.reduce(0) { $0 + minimums[$1] }
        let fitRoom = max(0, available - fixedTotal - fractionMinimum)
        let fitTotal = fitColumns.reduce(0) { $0 + widths[$1] }
        if fitTotal > fitRoom, fitTotal > 0 {
            // Too wide: narrow fitted columns in proportion (their cells then wrap).
            let scale = fitRoom / fitTotal
            for c in fitColumns { widths[c] = max(min(minimums[c], widths[c]), widths[c] * scale) }
        }
        let used = fixedTotal + fitColumns.reduce(0) { $0 + widths[$1] }
        let rest = max(0, available - used)
        let weights = fractionColumns.reduce(0.0) { total, c in
            if case .fraction(let weight) = table.columns[c].width { return total + max(0, weight) }
            return total
        }
        for c in fractionColumns {
            if case .fraction(let weight) = table.columns[c].width {
                widths[c] = weights > 0 ? rest * max(0, weight) / weights : rest / Double(fractionColumns.count)
            }
        }
        // Whatever rounding or minimums left over never pushes the table past the margin.
        let total = widths.reduce(0, +)
        if total > available, total > 0 {
            widths = widths.map { $0 * available / total }
        }
        return widths
    }

    /// Formats and colours of every column, worked out once per table placement.
    struct ColumnFormats {
        let header: [TextFormat]
        let body: [TextFormat]
        let strong: [TextFormat]
        let headerColors: [Color]
        let bodyColors: [Color]
        let strongColors: [Color]
    }

    private func columnFormats(_ table: Table) -> ColumnFormats {
        let columns = table.columns.indices
        let header = columns.map { headerStyle(table, column: $0) }
        let body = columns.map { cellStyle(table, column: $0, emphasized: false) }
        let strong = columns.map { cellStyle(table, column: $0, emphasized: true) }
        return ColumnFormats(header: header.map(\.format), body: body.map(\.format), strong: strong.map(\.format),
                             headerColors: header.map(\.color), bodyColors: body.map(\.color), strongColors: strong.map(\.color))
    }

    /// Lays a row's cells out. A cell that repeats the one above it (`above`, laid out in the
    /// same formats), as a unit or a tax rate does row after row, reuses that layout.
    private func layoutCells(_ cells: [String], formats: [TextFormat], table: Table, widths: [Double],
                             above: (cells: [String], blocks: [TextBlock])? = nil) -> [TextBlock] {
        let padding = table.style.cellPadding.left + table.style.cellPadding.right
        return widths.indices.map { c in
            let text = c < cells.count ? cells[c] : ""
            if let above, c < above.cells.count, above.cells[c] == text { return above.blocks[c] }
            return layoutText(text, format: formats[c], width: max(1, widths[c] - padding))
        }
    }

    func tableLeadHeight(_ table: Table, index: Int, width: Double) -> Double {
        let widths = tableColumnWidths(table, index: index, available: width)
        let formats = columnFormats(table)
        let padding = table.style.cellPadding.top + table.style.cellPadding.bottom
        var height = 0.0
        if table.showsHeader {
            height += (layoutCells(table.columns.map(\.title), formats: formats.header, table: table, widths: widths)
                .map(\.height).max() ?? 0) + padding
        }
        if let row = table.rows.first {
            let cells = layoutCells(row.cells, formats: row.isEmphasized ? formats.strong : formats.body, table: table, widths: widths)
            height += (cells.map { $0.height(of: 0..<min(2, $0.lines.count)) }.max() ?? 0) + padding
        }
        return height
    }

    /// Places header and rows from `progress`. A row that does not fit moves to the next page
    /// (under a repeated header); a row taller than a whole page is cut between lines, each
    /// cell continuing where it stopped.
    func placeTable(_ table: Table, index: Int, progress: Progress, into builder: inout PageBuilder, force: Bool) -> Outcome {
        let style = table.style
        let region = builder.region
        let widths = tableColumnWidths(table, index: index, available: region.width)
        let tableWidth = widths.reduce(0, +)
        let padding = style.cellPadding
        var startRow = 0
        var startLines: [Int]?
        if case .tableRow(let row, let lines) = progress {
            startRow = row
            startLines = lines
        }
        let isFirstPart = startRow == 0 && startLines == nil
        let gap = isFirstPart ? builder.gap(before: table.spaceBefore) : 0
        var y = builder.y + gap
        // The page's items, appended to in place rather than copied in at the end; `.noRoom`
        // takes this table's part back out.
        var items: [PlacedItem] = []
        swap(&items, &builder.items)
        let itemsBefore = items.count

        let formats = columnFormats(table)
        var headerHeight = 0.0
        let header = table.showsHeader
            ? layoutCells(table.columns.map(\.title), formats: formats.header, table: table, widths: widths) : nil
        if let header {
            headerHeight = (header.map(\.height).max() ?? 0) + padding.top + padding.bottom
        }
        if let header, isFirstPart || table.repeatsHeader {
            let rect = Rect(x: region.x, y: y, width: tableWidth, height: headerHeight)
            if let background = style.headerBackground { items.append(.fill(rect, background)) }
            appendCells(header, starts: nil, ends: nil, top: y, widths: widths, region: region, padding: padding,
                        colors: formats.headerColors, into: &items)
            let ruleY = rect.maxY - style.headerRuleWidth / 2
            items.append(.line(from: Point(x: region.x, y: ruleY), to: Point(x: region.x + tableWidth, y: ruleY),
                               width: style.headerRuleWidth, color: style.headerRuleColor))
            y += headerHeight
        }
        let repeatedHeader = table.showsHeader && table.repeatsHeader ? headerHeight : 0
        let freshRoom = body.height - repeatedHeader

        var row = startRow
        var lines = startLines
        var placedRows = false
        var above: (row: TableRow, blocks: [TextBlock])?
        while row < table.rows.count {
            let tableRow = table.rows[row]
            let cells = layoutCells(tableRow.cells, formats: tableRow.isEmphasized ? formats.strong : formats.body, table: table, widths: widths,
                                    above: above.flatMap { $0.row.isEmphasized == tableRow.isEmphasized ? ($0.row.cells, $0.blocks) : nil })
            above = (tableRow, cells)
            let starts = lines ?? Array(repeating: 0, count: cells.count)
            let contentHeight = cells.indices.map { cells[$0].height(of: starts[$0]..<cells[$0].lines.count) }.max() ?? 0
            let rowHeight = contentHeight + padding.top + padding.bottom
            let colors = tableRow.isEmphasized ? formats.strongColors : formats.bodyColors
            if y + rowHeight <= region.bottom + layoutEpsilon {
                appendRow(cells, starts: starts, ends: nil, row: row, top: y, height: rowHeight, isLastPart: true,
                          table: table, widths: widths, region: region, colors: colors, into: &items)
                y += rowHeight
                row += 1
                lines = nil
                placedRows = true
                continue
            }
            let canMove = placedRows || builder.hasContent
            // Cut the row: as many lines of each cell as fit.
            let room = region.bottom - y - padding.top - padding.bottom
            var ends = starts
            for c in cells.indices {
                var end = starts[c]
                while end < cells[c].lines.count, cells[c].height(of: starts[c]..<(end + 1)) <= room + layoutEpsilon { end += 1 }
                // One line alone at the top of the next page: take one more with it.
                if cells[c].lines.count - end == 1, end - starts[c] >= 3 { end -= 1 }
                ends[c] = end
            }
            // A row that would fit a fresh page is still cut here when each cell keeps at
            // least two lines on both pages (or all of its lines here); a shorter row moves
            // whole, rather than leave most of the page blank or a line alone.
            if rowHeight <= freshRoom + layoutEpsilon, canMove,
               !Self.splitsWell(cells.indices.map { (starts[$0], ends[$0], cells[$0].lines.count) }) { break }
            if !zip(ends, starts).contains(where: { $0 > $1 }) {
                if canMove { break }
                for c in cells.indices where starts[c] < cells[c].lines.count { ends[c] = starts[c] + 1 }
            }
            let partHeight = cells.indices.map { cells[$0].height(of: starts[$0]..<ends[$0]) }.max() ?? 0
            let finished = cells.indices.allSatisfy { ends[$0] >= cells[$0].lines.count }
            appendRow(cells, starts: starts, ends: ends, row: row, top: y, height: partHeight + padding.top + padding.bottom,
                      isLastPart: finished, table: table, widths: widths, region: region, colors: colors, into: &items)
            y += partHeight + padding.top + padding.bottom
            placedRows = true
            if finished {
                row += 1
                lines = nil
                continue
            }
            lines = ends
            break
        }

        if !placedRows, row < table.rows.count {
            // Only the header would fit here; start the table on the next page.
            items.removeSubrange(itemsBefore...)
            swap(&items, &builder.items)
            return .noRoom
        }
        swap(&items, &builder.items)
        builder.y = y
        builder.hasContent = true
        if row >= table.rows.count {
            builder.finish(at: y, spaceAfter: table.spaceAfter)
            return .done(next: index + 1)
        }
        return .pageFull(.tableRow(row, cellLines: lines))
    }

    /// Whether cutting a row's cells at `end` leaves at least two lines of each on this page
    /// and on the next, or all of a cell's lines on this page; one cell at least continues.
    static func splitsWell(_ cells: [(start: Int, end: Int, count: Int)]) -> Bool {
        let continues = cells.contains { $0.end < $0.count }
        return continues && cells.allSatisfy { cell in
            let here = cell.end - cell.start, left = cell.count - cell.end
            return cell.start >= cell.count || left == 0 && here > 0 || here >= 2 && left >= 2
        }
    }

    private func appendRow(_ cells: [TextBlock], starts: [Int], ends: [Int]?, row: Int, top: Double, height: Double,
                           isLastPart: Bool, table: Table, widths: [Double], region: Region, colors: [Color],
                           into items: inout [PlacedItem]) {
        // Counting pages needs the rows' heights, not their items.
        guard !isMeasuring else { return }
        let style = table.style
        let tableWidth = widths.reduce(0, +)
        if let stripe = style.stripeColor, row % 2 == 1 {
            items.append(.fill(Rect(x: region.x, y: top, width: tableWidth, height: height), stripe))
        }
        appendCells(cells, starts: starts, ends: ends, top: top, widths: widths, region: region, padding: style.cellPadding,
                    colors: colors, into: &items)
        if let rule = style.ruleColor, isLastPart {
            let y = top + height - style.ruleWidth / 2
            items.append(.line(from: Point(x: region.x, y: y), to: Point(x: region.x + tableWidth, y: y), width: style.ruleWidth, color: rule))
        }
    }

    private func appendCells(_ cells: [TextBlock], starts: [Int]?, ends: [Int]?, top: Double, widths: [Double], region: Region,
                             padding: EdgeInsets, colors: [Color], into items: inout [PlacedItem]) {
        var x = region.x
        for c in cells.indices {
            let start = starts?[c] ?? 0
            let end = ends?[c] ?? cells[c].lines.count
            if start < end {
                items.append(.text(cells[c], lines: start..<end, origin: Point(x: x + padding.left, y: top + padding.top),
                                   color: c < colors.count ? colors[c] : Palette.text))
            }
            x += widths[c]
        }
    }
}
