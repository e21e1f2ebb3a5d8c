/// The rules and rectangles of one page, written under Cairo's content: a long table's rules
/// cost Cairo a `snprintf("%f")` per coordinate, a tenth of a 1 000-line invoice's export.
/// Coordinates are in the page's default space (y up).
struct ShapeStream {
    private var bytes: [UInt8] = []
    private var fillColor: Color?
    private var strokeColor: Color?
    private var lineWidth: Double?

    var isEmpty: Bool { bytes.isEmpty }

    mutating func fill(_ rect: Rect, color: Color) {
        begin()
        if color != fillColor {
            appendColor(color)
            append(" rg\n")
            fillColor = color
        }
        for value in [rect.x, rect.y, rect.width] {
            ContentStream.appendNumber(value, to: &bytes)
            bytes.append(0x20)
        }
        ContentStream.appendNumber(rect.height, to: &bytes)
        append(" re f\n")
    }

    /// Straight lines with butt ends, stroked as one path.
    mutating func stroke(_ lines: [(start: Point, end: Point)], width: Double, color: Color) {
        guard !lines.isEmpty else { return }
        begin()
        if color != strokeColor {
            appendColor(color)
            append(" RG\n")
            strokeColor = color
        }
        if width != lineWidth {
            ContentStream.appendNumber(width, to: &bytes)
            append(" w\n")
            lineWidth = width
        }
        for line in lines {
            appendPoint(line.start)
            append(" m ")
            appendPoint(line.end)
            append(" l\n")
        }
        append("S\n")
    }

    /// The stream's bytes, the state it changed restored.
    mutating func finish() -> [UInt8] {
        if !bytes.isEmpty { append("Q\n") }
        return bytes
    }

    private mutating func begin() {
        if bytes.isEmpty { append("q\n") }
    }

    private mutating func appendPoint(_ point: Point) {
        ContentStream.appendNumber(point.x, to: &bytes)
        bytes.append(0x20)
        ContentStream.appendNumber(point.y, to: &bytes)
    }

    private mutating func appendColor(_ color: Color) {
        ContentStream.appendNumber(color.red, to: &bytes)
        bytes.append(0x20)
        ContentStream.appendNumber(color.green, to: &bytes)
        bytes.append(0x20)
        ContentStream.appendNumber(color.blue, to: &bytes)
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
