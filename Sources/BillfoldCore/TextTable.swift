/// A plain-text table for a terminal: columns padded to their widest cell, counting wide
/// (CJK, emoji) characters as two cells and combining marks as none.
///
/// Long lists are written row by row as they are read: `fit` every row's cells first (or the
/// widest a column can get), then write `headerLines` and one `line` per row, so the rows are
/// never all held at once.
public struct TextTable: Sendable {
    public let header: [String]
    public let rightAligned: Set<Int>
    public let maximumCellWidth: Int
    /// Each column's width so far, in terminal cells.
    public private(set) var widths: [Int]

    public init(header: [String], rightAligned: Set<Int> = [], maximumCellWidth: Int = 40) {
        self.header = header
        self.rightAligned = rightAligned
        self.maximumCellWidth = maximumCellWidth
        widths = header.map { min(maximumCellWidth, Self.width($0)) }
    }

    /// Widens `column` to hold `cell`.
    public mutating func fit(_ cell: String, column: Int) {
        widths[column] = max(widths[column], min(maximumCellWidth, Self.width(cell)))
    }

    public mutating func fit(_ cells: [String]) {
        for (column, cell) in cells.enumerated() { fit(cell, column: column) }
    }

    /// The header and the rule under it.
    public var headerLines: [String] {
        [line(header), widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")]
    }

    /// One row, padded to the columns' widths; a cell wider than its column is cut with "…".
    public func line(_ cells: [String]) -> String {
        var text = ""
        for (column, cell) in cells.enumerated() {
            var cell = singleLine(cell)
            var width = Self.width(cell)
            if width > widths[column] {
                cell = truncated(cell, to: widths[column])
                width = Self.width(cell)
            }
            let padding = String(repeating: " ", count: max(0, widths[column] - width))
            if column > 0 { text += "  " }
            if rightAligned.contains(column) {
                text += padding + cell
            } else {
                text += column == cells.count - 1 ? cell : cell + padding
            }
        }
        return text
    }

    /// A whole small table at once.
    public static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        var table = TextTable(header: header, rightAligned: rightAligned)
        rows.forEach { table.fit($0) }
        return (table.headerLines + rows.map(table.line)).joined(separator: "\n")
    }

    private func singleLine(_ text: String) -> String {
        // The scalars Character.isNewline stands for, without breaking the text into characters.
        guard text.unicodeScalars.contains(where: { (0x0A...0x0D).contains($0.value) || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029 })
        else { return text }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private func truncated(_ text: String, to width: Int) -> String {
        guard Self.width(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = Self.width(of: character)
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    public static func width(_ text: String) -> Int {
        // Most cells are ASCII: one cell per byte, without looking at Unicode properties.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        // Then Latin text, amounts and dates ("€1,234.50", "1 234,50 €", "Mar 3 – Mar 5"):
        // one cell per scalar, none of them combining, wide or invisible.
        var count = 0
        for scalar in text.unicodeScalars {
            guard isNarrow(scalar.value) else { return text.reduce(0) { $0 + width(of: $1) } }
            count += 1
        }
        return count
    }

    private static func isNarrow(_ value: UInt32) -> Bool {
        switch value {
        case 0x20..<0x7F, 0xA0..<0xAD, 0xAE..<0x300, 0x2010...0x2027, 0x202F, 0x2030...0x205E, 0x20A0...0x20C0: true
        default: false
        }
    }

    private static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .format { return 0 }
        if character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) {
            return 2
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

/// Lines written in chunks of about 64 KiB (joined by newlines, without a final one): one write
/// per row would be a system call per row.
public struct ChunkedLines {
    private let write: (String) -> Void
    private var chunk = ""

    public init(_ write: @escaping (String) -> Void) { self.write = write }

    public mutating func append(_ line: String) {
        if !chunk.isEmpty { chunk += "\n" }
        chunk += line
        if chunk.utf8.count >= 65_536 { flush() }
    }

    public mutating func flush() {
        guard !chunk.isEmpty else { return }
        write(chunk)
        chunk = ""
    }
}
