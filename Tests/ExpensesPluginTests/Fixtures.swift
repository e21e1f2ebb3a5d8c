import BillfoldCore
import ExpensesCore
import ExpensesPlugin
import Foundation
import Graphics
import Storage

/// A directory under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("billfold-expenses-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Writes `data` to a file named `name` and returns its URL.
    func write(_ data: Data, named name: String) throws -> URL {
        let target = file(name)
        try data.write(to: target)
        return target
    }
}

/// A repository over an in-memory database, receipts in a temporary directory.
struct Workspace {
    let directory: TemporaryDirectory
    let database: Database
    let store: ReceiptStore
    let repository: ExpenseRepository

    init() throws {
        directory = try TemporaryDirectory()
        database = try Database.inMemory()
        store = ReceiptStore(directory: directory.url.appendingPathComponent("receipts", isDirectory: true))
        repository = try ExpenseRepository(database: database, receipts: store)
    }

    /// A file of `data` outside the store, as a person would pick it.
    func pick(_ data: Data, named name: String) throws -> URL {
        try directory.write(data, named: name)
    }

    func isStored(_ reference: ReceiptReference) -> Bool {
        FileManager.default.fileExists(atPath: store.url(for: reference).path)
    }
}

func day(_ text: String) -> CalendarDay {
    // A mistyped fixture shows up as 1970-01-01 in a failing expectation.
    CalendarDay(isoString: text) ?? CalendarDay(daysSinceEpoch: 0)
}

func dec(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
}

func eur(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .eur) }
func usd(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .usd) }
func jpy(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .jpy) }

func lisbonTrip(currency: Currency = .eur) -> TripDetails {
    TripDetails(name: "Lisbon conference", startDate: day("2024-03-04"), endDate: day("2024-03-08"),
                purpose: "Talk at the Swift meetup", currency: currency)
}

func meal(_ amount: Money, on date: String = "2024-03-05", vendor: String = "Café A Brasileira",
          rate: Decimal? = nil, receipt: ReceiptReference? = nil) -> ExpenseDetails {
    ExpenseDetails(date: day(date), category: .meals, vendor: vendor, amount: amount, exchangeRate: rate,
                   receipt: receipt)
}

enum Samples {
    /// A 64×48 baseline JPEG made with ImageMagick (no EXIF).
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAARCAAwAEADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAAAAMG/8QAFRABAQAAAAAAAAAAAAAAAAAAABL/xAAXAQEBAQEAAAAAAAAAAAAAAAAABgQH/8QAFhEBAQEAAAAAAAAAAAAAAAAAABRh/9oADAMBAAIRAxEAPwDJ2WhZbFHjqdS9loWWR4VL2WhZZHhUvZaFlkeFSNloWWr48S9S9loWWR4VL2WhZZHhUvZaFlkeFSNlo2Wro0tUtZaNlkZUtZaNlkZUtZaNlkZU/9k=") ?? Data()

    /// A 64×48 CMYK JPEG (Adobe's inverted CMYK, as ImageMagick writes it) of rgb(200, 40, 40).
    static let redCMYKJPEG = Data(base64Encoded: "/9j/7gAOQWRvYmUAZAAAAAAC/9sAQwADAgIDAgIDAwMDBAMDBAUIBQUEBAUKBwcGCAwKDAwLCgsLDQ4SEA0OEQ4LCxAWEBETFBUVFQwPFxgWFBgSFBUU/9sAQwEDBAQFBAUJBQUJFA0LDRQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU/8AAFAgAMABABAERAAIRAQMRAQQRAP/EABYAAQEBAAAAAAAAAAAAAAAAAAAGCP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAWAQEBAQAAAAAAAAAAAAAAAAAABwn/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADgQBAAIRAxEEAAA/AKhW2d7YAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP/9k=") ?? Data()

    /// A 40×30 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAACgAAAAeAQMAAABkE86eAAAAA1BMVEUzZswgIiSpAAAADElEQVQI12NgGHoAAAC0AAFecZC/AAAAAElFTkSuQmCC") ?? Data()

    /// A one-page PDF written by hand (enough for the header check; pages are Poppler's job).
    static let pdf = Data(("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
        + "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
        + "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\n"
        + "trailer << /Root 1 0 R >>\n%%EOF\n").utf8)

    /// `jpeg` with an EXIF block saying the camera was turned (orientation 6: rotate 90° clockwise).
    static var jpegTurnedRight: Data { turning(jpeg, orientation: 6) }

    /// `photo` with an EXIF block giving its `orientation`.
    static func turning(_ photo: Data, orientation: UInt8) -> Data {
        let exif: [UInt8] = [0xFF, 0xE1, 0x00, 0x22] + Array("Exif".utf8) + [0, 0]
            + Array("MM".utf8) + [0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
            + [0x00, 0x01, 0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00]
            + [0x00, 0x00, 0x00, 0x00]
        var data = Data(photo.prefix(2))
        data.append(contentsOf: exif)
        data.append(photo.dropFirst(2))
        return data
    }

    static let red = Color(hex: 0xE01B24)
    static let blue = Color(hex: 0x1C4FD8)

    /// A `width` × `height` JPEG, red in the top-left quarter of its stored pixels and blue
    /// elsewhere, turned by `orientation` (6: its red corner is the top-right one once upright).
    static func quarteredJPEG(width: Int, height: Int, orientation: UInt8) throws -> Data {
        let surface = try ImageSurface(pixelWidth: width, pixelHeight: height, hasAlpha: false)
        let context = DrawingContext(surface: surface)
        context.fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)), color: blue)
        context.fill(Rect(x: 0, y: 0, width: Double(width / 2), height: Double(height / 2)), color: red)
        return turning(try RasterImage(surface: surface).encoded(as: .jpeg(quality: 95)), orientation: orientation)
    }

    /// Where `color` is in `surface`, within JPEG's error: the bounding box of those pixels.
    static func box(of color: Color, in surface: ImageSurface) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<surface.pixelHeight {
            for x in 0..<surface.pixelWidth {
                guard let pixel = surface.color(atX: x, y: y), abs(pixel.red - color.red) < 0.1,
                      abs(pixel.green - color.green) < 0.1, abs(pixel.blue - color.blue) < 0.1 else { continue }
                box = (min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x), max(box?.maxY ?? y, y))
            }
        }
        return box
    }

    /// `jpeg` with a comment segment, so its content (and digest) differ.
    static func jpeg(comment: String) -> Data {
        let text = Array(comment.utf8)
        let length = text.count + 2
        var data = Data(jpeg.prefix(2))
        data.append(contentsOf: [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text)
        data.append(jpeg.dropFirst(2))
        return data
    }
}

/// Reads RFC 4180 CSV: quoted fields may hold commas, doubled quotes, CR and LF.
/// Returns nil for text that breaks the grammar (a stray quote, an unclosed field).
func parseCSV(_ text: String) -> [[String]]? {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.first {
        scalars = scalars.dropFirst()
        switch scalar {
        case "\"":
            guard field.isEmpty else { return nil }
            var closed = false
            while let inner = scalars.first {
                scalars = scalars.dropFirst()
                if inner == "\"" {
                    if scalars.first == "\"" {
                        field.unicodeScalars.append("\"")
                        scalars = scalars.dropFirst()
                    } else {
                        closed = true
                        break
                    }
                } else {
                    field.unicodeScalars.append(inner)
                }
            }
            guard closed else { return nil }
            guard let next = scalars.first, next == "," || next == "\r" else { return nil }
        case ",":
            row.append(field)
            field = ""
        case "\r":
            guard scalars.first == "\n" else { return nil }
            scalars = scalars.dropFirst()
            row.append(field)
            rows.append(row)
            row = []
            field = ""
        case "\n":
            return nil   // RFC 4180 lines end in CRLF
        default:
            field.unicodeScalars.append(scalar)
        }
    }
    guard field.isEmpty, row.isEmpty else { return nil }   // the last line ends in CRLF too
    return rows
}

/// Collects what a command writes.
final class CapturedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var standard = ""
    private var errors = ""

    var output: CommandOutput {
        CommandOutput(write: { [self] text in lock.withLock { standard += text } },
                      writeError: { [self] text in lock.withLock { errors += text } })
    }

    var text: String { lock.withLock { standard } }
    var errorText: String { lock.withLock { errors } }
}

let bhd = Currency(code: "BHD") ?? .usd
