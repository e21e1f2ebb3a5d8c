/// The operators of one page's text, written straight into bytes: glyphs as two-byte CIDs in
/// `TJ` arrays, placed with `Tm` at each new line or column and kept on their exact positions
/// by `TJ`'s adjustments in between. The CIDs are written as bytes in literal strings, half
/// the size of hexadecimal ones, which is less for zlib to compress.
struct ContentStream {
    private var bytes: [UInt8] = []
    private var font = -1
    private var size = 0.0
    private var color: Color?
    /// Where the reader's pen is after the last glyph shown, on `lineY`; nil outside a `TJ` array.
    private var pen: Double?
    private var lineY = 0.0
    private var inString = false

    /// Positions closer than this (in points) count as the same.
    private static let tolerance = 0.002

    var isEmpty: Bool { bytes.isEmpty }

    static func fontName(_ index: Int) -> String { "BF\(index)" }

    mutating func setFont(_ index: Int, size: Double) {
        guard index != font || size != self.size else { return }
        endArray()
        begin()
        font = index
        self.size = size
        append("/" + Self.fontName(index) + " ")
        appendNumber(size)
        append(" Tf\n")
    }

    mutating func setColor(_ newColor: Color) {
        guard newColor != color else { return }
        endArray()
        begin()
        color = newColor
        appendNumber(newColor.red)
        bytes.append(0x20)
        appendNumber(newColor.green)
        bytes.append(0x20)
        appendNumber(newColor.blue)
        append(" rg\n")
    }

    /// Shows glyph `glyph`, `width` thousandths of an em wide, with its origin at (`x`, `y`)
    /// in the page's default space (y up).
    mutating func show(_ glyph: Int, width: Int32, x: Double, y: Double) {
        let emSize = size / 1000
        if let pen, abs(y - lineY) <= Self.tolerance, x > pen - 0.5 * size, x < pen + 3 * size {
            let adjustment = ((pen - x) / emSize).rounded()
            if abs(x - pen) > Self.tolerance, adjustment != 0 {
                if inString {
                    bytes.append(UInt8(ascii: ")"))
                    inString = false
                }
                appendInteger(Int(adjustment))
                self.pen = pen - adjustment * emSize
            }
        } else {
            endArray()
            append("1 0 0 1 ")
            appendNumber(x)
            bytes.append(0x20)
            appendNumber(y)
            append(" Tm\n[")
            lineY = y
            pen = x
        }
        if !inString {
            bytes.append(UInt8(ascii: "("))
            inString = true
        }
        appendStringByte(UInt8(truncatingIfNeeded: glyph >> 8))
        appendStringByte(UInt8(truncatingIfNeeded: glyph))
        self.pen = (self.pen ?? x) + Double(width) * emSize
    }

    /// The stream's bytes, its text object closed.
    mutating func finish() -> [UInt8] {
        endArray()
        if !bytes.isEmpty { append("ET\n") }
        return bytes
    }

    private mutating func begin() {
        guard bytes.isEmpty else { return }
        // Restores the state saved before Cairo's content.
        append("Q\nBT\n")
    }

    private mutating func endArray() {
        guard pen != nil else { return }
        if inString {
            bytes.append(UInt8(ascii: ")"))
            inString = false
        }
        append("]TJ\n")
        pen = nil
    }

    /// A byte of a literal string: parentheses and backslashes escaped, and line ends, which a
    /// reader would otherwise normalize.
    @inline(__always)
    private mutating func appendStringByte(_ byte: UInt8) {
        switch byte {
        case 0x28, 0x29, 0x5C:
            bytes.append(0x5C)
            bytes.append(byte)
        case 0x0A:
            bytes.append(0x5C)
            bytes.append(UInt8(ascii: "n"))
        case 0x0D:
            bytes.append(0x5C)
            bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(byte)
        }
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func appendNumber(_ value: Double) {
        Self.appendNumber(value, to: &bytes)
    }

    /// A number with up to three decimals, without `printf`.
    static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        let thousandths = Int((value * 1000).rounded())
        if thousandths < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = thousandths.magnitude
        appendDigits(magnitude / 1000, to: &bytes)
        var fraction = magnitude % 1000
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var divisor: UInt = 100
        while fraction != 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    private mutating func appendInteger(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        Self.appendDigits(value.magnitude, to: &bytes)
    }

    private static func appendDigits(_ value: UInt, to bytes: inout [UInt8]) {
        if value >= 10 { appendDigits(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func appendHex4(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(hexDigits[(value >> 12) & 0xF])
        bytes.append(hexDigits[(value >> 8) & 0xF])
        bytes.append(hexDigits[(value >> 4) & 0xF])
        bytes.append(hexDigits[value & 0xF])
    }
}

enum PDFNumber {
    /// A number with up to three decimals.
    static func text(_ value: Double) -> String {
        var bytes: [UInt8] = []
        ContentStream.appendNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hex4(_ value: Int) -> String {
        var bytes: [UInt8] = []
        ContentStream.appendHex4(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
