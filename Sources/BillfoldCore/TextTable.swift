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
        var bytes: [UInt8] = []
        append(cells, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `line(cells)` as UTF-8 at the end of `bytes`: a long list writes its rows without a
    /// String for each (joining Strings was most of the time of a 100 000-line list).
    public func append(_ cells: [String], to bytes: inout [UInt8]) {
        for (column, cell) in cells.enumerated() {
            var cell = cell
            var width: Int
            if let ascii = Self.printableASCIICount(cell) {
                width = ascii
            } else {
                cell = singleLine(cell)
                width = Self.width(cell)
            }
            if width > widths[column] {
                cell = truncated(cell, to: widths[column])
                width = Self.width(cell)
            }
            let padding = max(0, widths[column] - width)
            if column > 0 { Self.appendSpaces(2, to: &bytes) }
            if rightAligned.contains(column) {
                Self.appendSpaces(padding, to: &bytes)
                Self.appendUTF8(of: cell, to: &bytes)
            } else {
                Self.appendUTF8(of: cell, to: &bytes)
                if column < cells.count - 1 { Self.appendSpaces(padding, to: &bytes) }
            }
        }
    }

    private static func appendSpaces(_ count: Int, to bytes: inout [UInt8]) {
        for _ in 0..<count { bytes.append(UInt8(ascii: " ")) }
    }

    private static func appendUTF8(of text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A whole small table at once.
    public static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        var table = TextTable(header: header, rightAligned: rightAligned)
        rows.forEach { table.fit($0) }
        return (table.headerLines + rows.map(table.line)).joined(separator: "\n")
    }

    private func singleLine(_ text: String) -> String {
        // Line breaks and other control characters (a tab) would break the columns: each
        // becomes a space. Checked by scalar, without breaking the text into characters.
        func breaksColumns(_ scalar: Unicode.Scalar) -> Bool {
            // The control characters (C0, DEL, C1) by value: looking up the general category
            // of every scalar of every amount was a sixth of a long list's formatting.
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: breaksColumns) else { return text }
        var line = String.UnicodeScalarView()
        for scalar in text.split(whereSeparator: \.isNewline).joined(separator: " ").unicodeScalars {
            line.append(breaksColumns(scalar) ? " " : scalar)
        }
        return String(line)
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
        if let count = printableASCIICount(text) { return count }
        // Then Latin text, amounts and dates ("€1,234.50", "1 234,50 €", "Mar 3 – Mar 5"):
        // one cell per scalar, none of them combining, wide or invisible.
        var count = 0
        for scalar in text.unicodeScalars {
            guard isNarrow(scalar.value) else { return text.reduce(0) { $0 + width(of: $1) } }
            count += 1
        }
        return count
    }

    /// The byte count of text that is all printable ASCII, else nil; read from the contiguous
    /// UTF-8 directly, several times faster than iterating `utf8`.
    private static func printableASCIICount(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
            return bytes.count
        }
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
    private var chunk: [UInt8] = []

    public init(_ write: @escaping (String) -> Void) { self.write = write }

    public mutating func append(_ line: String) {
        startLine()
        var line = line
        line.withUTF8 { chunk.append(contentsOf: $0) }
        flushIfFull()
    }

    /// `table.line(cells)`, without making it a String first.
    public mutating func append(_ cells: [String], of table: TextTable) {
        startLine()
        table.append(cells, to: &chunk)
        flushIfFull()
    }

    public mutating func flush() {
        guard !chunk.isEmpty else { return }
        write(String(decoding: chunk, as: UTF8.self))
        chunk.removeAll(keepingCapacity: true)
    }

    private mutating func startLine() {
        if !chunk.isEmpty { chunk.append(UInt8(ascii: "\n")) }
    }

    private mutating func flushIfFull() {
        if chunk.count >= 65_536 { flush() }
    }
}
