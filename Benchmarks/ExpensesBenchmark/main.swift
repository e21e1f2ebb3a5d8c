import BillfoldCore
import CGdkPixbuf
import ExpensesCore
import Foundation
import Graphics
import Storage

// Expenses benchmark: a trip with 200 expenses and 100 receipt photos of 12 megapixels, made
// at run time in a temporary directory (nothing is committed). Each measured step runs in a
// child process of this same executable, so its peak memory is its own.
//
//   expenses-benchmark                 run everything and print the table
//   expenses-benchmark --keep DIR      use (and keep) DIR for the photos and the database

let photoCount = 100
let expenseCount = 200
let photoWidth = 4000, photoHeight = 3000        // 12 MP
let hugeWidth = 8160, hugeHeight = 6120          // 50 MP
let pdfReceiptPages = 500

struct Measurement {
    var seconds: Double
    /// User plus system time: what the step costs whatever else the machine is doing.
    var cpuSeconds: Double
    /// Time the step's threads were ready to run but waited for a core, summed over threads:
    /// on a shared machine this is how much other work stretched the wall clock.
    var waitSeconds: Double
    var peakKiB: Int
    var note: String
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Run-queue waits of the threads still alive (the second field of each thread's schedstat).
func waitSeconds() -> Double {
    let tasks: [String]
    do {
        tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
    } catch {
        return 0
    }
    var nanoseconds = 0
    for task in tasks {
        let text: String
        do {
            text = try String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8)
        } catch {
            continue  // the thread ended after the listing
        }
        let fields = text.split(separator: " ")
        if fields.count >= 2, let waited = Int(fields[1]) { nanoseconds += waited }
    }
    return Double(nanoseconds) / 1e9
}

func peakResidentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func elapsed(_ body: () throws -> String) rethrows -> (Double, String) {
    let start = DispatchTime.now().uptimeNanoseconds
    let note = try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, note)
}

// MARK: - Child steps

/// Photo-like pixels: smooth light with grain, different for every seed, encoded as JPEG.
func writePhoto(to path: String, width: Int, height: Int, seed: UInt64) throws {
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height)) else {
        throw CocoaError(.fileWriteUnknown)
    }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
    guard let pixels = gdk_pixbuf_get_pixels(pixbuf) else { throw CocoaError(.fileWriteUnknown) }
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    let phase = Int(seed % 97)
    for y in 0..<height {
        let row = pixels + y * stride
        for x in 0..<width {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let grain = Int(state & 0x1F) - 16
            let band = ((x + phase * 31) / 180 + (y + phase * 17) / 140) % 5 * 18
            row[x * 3] = UInt8(clamping: 70 + x * 120 / width + band + grain)
            row[x * 3 + 1] = UInt8(clamping: 60 + y * 130 / height + grain)
            row[x * 3 + 2] = UInt8(clamping: 150 - (x + y) * 90 / (width + height) + band / 2 + grain)
        }
    }
    var buffer: UnsafeMutablePointer<gchar>?
    var size: gsize = 0
    var error: UnsafeMutablePointer<GError>?
    guard bf_pixbuf_save_jpeg(pixbuf, &buffer, &size, "85", &error) != 0, let buffer else {
        if let error { g_error_free(error) }
        throw CocoaError(.fileWriteUnknown)
    }
    defer { g_free(buffer) }
    try Data(bytes: buffer, count: Int(size)).write(to: URL(fileURLWithPath: path))
}

func generate(in directory: URL) throws -> String {
    let photos = directory.appendingPathComponent("photos", isDirectory: true)
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    var bytes = 0
    for index in 0..<photoCount {
        let path = photos.appendingPathComponent(String(format: "IMG_%04d.jpg", index + 1)).path
        if !FileManager.default.fileExists(atPath: path) {
            try writePhoto(to: path, width: photoWidth, height: photoHeight, seed: UInt64(index + 1))
        }
        bytes += (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
    return String(format: "%d photos, %.1f MB in all", photoCount, Double(bytes) / 1e6)
}

/// The 50-megapixel photo, made with ImageMagick.
func generateHuge(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("huge-50mp.jpg").path
    if !FileManager.default.fileExists(atPath: path) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["convert", "-size", "\(hugeWidth)x\(hugeHeight)", "gradient:#2a4d69-#e7b16a",
                             "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "85", path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { fail("ImageMagick's convert failed; install imagemagick.") }
    }
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return String(format: "%d×%d, %.1f MB", hugeWidth, hugeHeight, Double(size) / 1e6)
}

/// A 500-page PDF receipt of about 54 MB, made with Cairo: a different grainy picture on each
/// page, as a scanned statement has.
func generatePDF(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("receipt-500-pages.pdf").path
    if !FileManager.default.fileExists(atPath: path) {
        let surface = try PDFSurface(writingTo: path, pageSize: Size(width: 420, height: 595))
        let context = DrawingContext(surface: surface)
        let picture = directory.appendingPathComponent("receipt-page.jpg").path
        for page in 0..<pdfReceiptPages {
            try writePhoto(to: picture, width: 704, height: 528, seed: UInt64(1_000 + page))
            try RasterImage(contentsOfFile: picture).draw(in: context, rect: Rect(x: 20, y: 20, width: 380, height: 289))
            context.showPage()
        }
        try surface.finishFile()
    }
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return String(format: "%d pages, %.1f MB", pdfReceiptPages, Double(size) / 1e6)
}

/// A trip whose one expense has the 500-page PDF as its receipt.
func importPDF(in directory: URL) throws -> String {
    let repository = try openRepository(directory)
    if try repository.trip(named: "PDF receipt trip") != nil { return "already imported" }
    let day = CalendarDay(isoString: "2024-04-02") ?? CalendarDay(daysSinceEpoch: 0)
    let trip = try repository.createTrip(TripDetails(name: "PDF receipt trip", startDate: day, endDate: day, currency: .eur))
    let receipt = try repository.importReceipt(from: directory.appendingPathComponent("receipt-500-pages.pdf")).reference
    try repository.addExpense(ExpenseDetails(date: day, category: .lodging, vendor: "Hotel statement",
                                             amount: Money(minorUnits: 129_000, currency: .eur), receipt: receipt), to: trip.id)
    return "1 expense with a \(pdfReceiptPages)-page PDF receipt"
}

func reportPDF(in directory: URL) throws -> String {
    let repository = try openRepository(directory)
    guard let trip = try repository.trip(named: "PDF receipt trip") else { fail("no PDF receipt trip") }
    let target = directory.appendingPathComponent("report-pdf-receipt.pdf")
    let pages = try ExpenseReport.load(trip.id, from: repository, traveller: "Ada Lovelace").writePDF(to: target)
    let size = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
    return String(format: "%d pages, %.1f MB", pages, Double(size) / 1e6)
}

func openRepository(_ directory: URL) throws -> ExpenseRepository {
    let database = try Database.open(path: directory.appendingPathComponent("billfold.sqlite3").path)
    return try ExpenseRepository(database: database,
                                 receipts: ReceiptStore(directory: directory.appendingPathComponent("receipts")))
}

func importAll(in directory: URL) throws -> String {
    let repository = try openRepository(directory)
    let start = CalendarDay(isoString: "2024-03-01") ?? CalendarDay(daysSinceEpoch: 0)
    let trip = try repository.createTrip(TripDetails(name: "Benchmark trip \(UUID().uuidString.prefix(8))",
                                                     startDate: start, endDate: start.adding(days: 13),
                                                     purpose: "Trade fair and customer visits", currency: .eur))
    let categories = ExpenseCategory.allCases.filter { $0 != .mileage }
    var stored = 0
    for index in 0..<expenseCount {
        var receipt: ReceiptReference?
        if index < photoCount {
            let url = directory.appendingPathComponent("photos").appendingPathComponent(String(format: "IMG_%04d.jpg", index + 1))
            let imported = try repository.importReceipt(from: url)
            if !imported.wasAlreadyStored { stored += 1 }
            receipt = imported.reference
        }
        let foreign = index % 5 == 0
        let amount = Money(minorUnits: Int64(350 + (index * 7919) % 25_000), currency: foreign ? .usd : .eur)
        try repository.addExpense(ExpenseDetails(date: start.adding(days: index % 14),
                                                 category: categories[index % categories.count],
                                                 vendor: "Vendor \(index + 1), Messegelände", amount: amount,
                                                 exchangeRate: foreign ? Decimal(string: "0.9215") : nil,
                                                 notes: index % 3 == 0 ? "Client dinner with the team" : "",
                                                 receipt: receipt), to: trip.id)
    }
    return "\(expenseCount) expenses, \(stored) receipt files stored"
}

func summarize(in directory: URL) throws -> String {
    let repository = try openRepository(directory)
    guard let summary = try repository.tripSummaries(matching: "Benchmark").first else { fail("no benchmark trip") }
    let dashboard = try repository.dashboard(for: summary.id)
    let csv = directory.appendingPathComponent("trip.csv")
    try ExpenseCSV.write(for: summary.trip, expenses: try repository.expenses(in: summary.id), to: csv)
    return "total \(dashboard.total), \(dashboard.byDay.count) days, CSV written"
}

/// A supplier's CII e-invoice of `lines` lines at 19 %, as XML text.
func bigInvoice(lines: Int) -> Data {
    let line = "<ram:IncludedSupplyChainTradeLineItem><ram:AssociatedDocumentLineDocument><ram:LineID>N</ram:LineID>"
        + "</ram:AssociatedDocumentLineDocument><ram:SpecifiedTradeProduct><ram:Name>Item N</ram:Name></ram:SpecifiedTradeProduct>"
        + "<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode=\"C62\">1</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>"
        + "<ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode>"
        + "<ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>"
        + "<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>1.00</ram:LineTotalAmount>"
        + "</ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement></ram:IncludedSupplyChainTradeLineItem>\n"
    let body = (1...lines).map { line.replacingOccurrences(of: ">N<", with: ">\($0)<").replacingOccurrences(of: "Item N", with: "Item \($0)") }
    let net = "\(lines).00", tax = String(format: "%d.%02d", lines * 19 / 100, lines * 19 % 100)
    let total = String(format: "%d.%02d", (lines * 119) / 100, (lines * 119) % 100)
    let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<rsm:CrossIndustryInvoice xmlns:rsm=\"urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100\" "
        + "xmlns:ram=\"urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100\" "
        + "xmlns:udt=\"urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100\">\n"
        + "<rsm:ExchangedDocument><ram:ID>BIG-1</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime>"
        + "<udt:DateTimeString format=\"102\">20260311</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>\n"
        + "<rsm:SupplyChainTradeTransaction>\n" + body.joined()
        + "<ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>Big Seller</ram:Name></ram:SellerTradeParty>"
        + "</ram:ApplicableHeaderTradeAgreement><ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>"
        + "<ram:ApplicableTradeTax><ram:CalculatedAmount>\(tax)</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode>"
        + "<ram:BasisAmount>\(net)</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode>"
        + "<ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>"
        + "<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:TaxBasisTotalAmount>\(net)</ram:TaxBasisTotalAmount>"
        + "<ram:TaxTotalAmount currencyID=\"EUR\">\(tax)</ram:TaxTotalAmount><ram:GrandTotalAmount>\(total)</ram:GrandTotalAmount>"
        + "<ram:DuePayableAmount>\(total)</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>"
        + "</ram:ApplicableHeaderTradeSettlement></rsm:SupplyChainTradeTransaction></rsm:CrossIndustryInvoice>\n"
    return Data(xml.utf8)
}

/// Reads a 1 000-line e-invoice ten times (the XML as a dropped XRechnung file is read).
func readInvoice() throws -> String {
    let data = bigInvoice(lines: 1_000)
    var invoice: EInvoice?
    for _ in 0..<10 { invoice = try EInvoiceReader.read(data) }
    guard let invoice else { fail("no invoice") }
    return "10 reads of \(data.count / 1024) KB, \(invoice.lines.count) lines, total \(invoice.grandTotal)"
}

/// Removes the scaled copies a previous report left in the cache, so the next report is made
/// as a trip's first one is. Done before the step's clock starts: deleting a hundred files is
/// not part of making a report (on a disk mounted with `discard` it waits for the device).
func clearScaledCopies(in directory: URL) throws {
    let cache = try openRepository(directory).receipts.cacheDirectory
    if FileManager.default.fileExists(atPath: cache.path) { try FileManager.default.removeItem(at: cache) }
}

func report(in directory: URL) throws -> String {
    let repository = try openRepository(directory)
    guard let summary = try repository.tripSummaries(matching: "Benchmark").first else { fail("no benchmark trip") }
    let target = directory.appendingPathComponent("report.pdf")
    let pages = try ExpenseReport.load(summary.id, from: repository, traveller: "Ada Lovelace").writePDF(to: target)
    let size = (try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
    return String(format: "%d pages, %.1f MB", pages, Double(size) / 1e6)
}

func thumbnail(of path: String, in directory: URL) throws -> String {
    let store = ReceiptStore(directory: directory.appendingPathComponent("receipts"))
    let reference = try store.importFile(at: URL(fileURLWithPath: path)).reference
    let picture = try store.thumbnail(for: reference, maxPixelSize: 512)
    return "\(picture.width)×\(picture.height) thumbnail"
}

/// For comparison only: what decoding the whole photo would cost.
func fullDecode(of path: String) throws -> String {
    var error: UnsafeMutablePointer<GError>?
    guard let pixbuf = gdk_pixbuf_new_from_file(path, &error) else {
        if let error { g_error_free(error) }
        throw CocoaError(.fileReadCorruptFile)
    }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    return "\(gdk_pixbuf_get_width(pixbuf))×\(gdk_pixbuf_get_height(pixbuf)) decoded whole"
}

func runChild(_ step: String, _ argument: String, _ directory: URL) throws -> String {
    switch step {
    case "generate": return try generate(in: directory)
    case "generate-huge": return try generateHuge(in: directory)
    case "import": return try importAll(in: directory)
    case "summarize": return try summarize(in: directory)
    case "report": return try report(in: directory)
    case "thumbnail": return try thumbnail(of: argument, in: directory)
    case "full-decode": return try fullDecode(of: argument)
    case "generate-pdf": return try generatePDF(in: directory)
    case "import-pdf": return try importPDF(in: directory)
    case "report-pdf": return try reportPDF(in: directory)
    case "einvoice": return try readInvoice()
    default: fail("unknown step \(step)")
    }
}

// MARK: - Parent

func measure(_ step: String, _ argument: String = "", in directory: URL) -> Measurement {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    if !FileManager.default.isExecutableFile(atPath: process.executableURL?.path ?? "") {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
    process.arguments = ["--child", step, argument, directory.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { fail("cannot start the \(step) step: \(error.localizedDescription)") }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let line = output.split(separator: "\n").last(where: { $0.hasPrefix("RESULT\t") }),
          line.split(separator: "\t", omittingEmptySubsequences: false).count == 6 else {
        fail("the \(step) step failed")
    }
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    return Measurement(seconds: Double(fields[1]) ?? 0, cpuSeconds: Double(fields[4]) ?? 0, waitSeconds: Double(fields[5]) ?? 0,
                       peakKiB: Int(fields[2]) ?? 0, note: fields[3])
}

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "--child" {
    do {
        let directory = URL(fileURLWithPath: arguments[4])
        if arguments[2] == "report", arguments[3] == "fresh" { try clearScaledCopies(in: directory) }
        // As `billfold trip report` does.
        if arguments[2].hasPrefix("report") { HugePageHeap.prepare() }
        let (seconds, note) = try elapsed { try runChild(arguments[2], arguments[3], directory) }
        print("RESULT\t\(seconds)\t\(peakResidentKiB())\t\(note)\t\(cpuSeconds())\t\(waitSeconds())")
        exit(0)
    } catch {
        fail(error.localizedDescription)
    }
}

let keep = arguments.count == 3 && arguments[1] == "--keep"
let directory = keep ? URL(fileURLWithPath: arguments[2]) : FileManager.default.temporaryDirectory
    .appendingPathComponent("billfold-expenses-benchmark-\(UUID().uuidString)", isDirectory: true)
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
} catch {
    fail(error.localizedDescription)
}
defer { if !keep { try? FileManager.default.removeItem(at: directory) } }

var rows: [(String, Measurement, String)] = []
@MainActor func row(_ title: String, _ measurement: Measurement, target: String = "") {
    rows.append((title, measurement, target))
    FileHandle.standardError.write(Data("· \(title): \(String(format: "%.2f", measurement.seconds)) s\n".utf8))
}

row("generate 100 × 12 MP photos (setup)", measure("generate", in: directory))
row("generate 50 MP photo with ImageMagick (setup)", measure("generate-huge", in: directory))
row("import 100 receipts + 200 expenses (print copies made)", measure("import", in: directory))
row("dashboard + CSV export", measure("summarize", in: directory))
row("report PDF: 200 expenses, 100 photos (first report)", measure("report", "first", in: directory),
    target: "≤ 3 s, < 25 MB, ≤ 72 MB peak")
row("same, print copies deleted (every photo decoded)", measure("report", "fresh", in: directory),
    target: "< 10 s, < 25 MB, < 400 MB peak")
row("thumbnail of a 12 MP photo (512 px)",
    measure("thumbnail", directory.appendingPathComponent("photos/IMG_0001.jpg").path, in: directory),
    target: "bounded memory")
row("thumbnail of a 50 MP photo (512 px)",
    measure("thumbnail", directory.appendingPathComponent("huge-50mp.jpg").path, in: directory),
    target: "bounded memory")
row("generate a 500-page PDF receipt with Cairo (setup)", measure("generate-pdf", in: directory))
row("import it as one expense's receipt", measure("import-pdf", in: directory))
row("report PDF with the 500-page PDF receipt", measure("report-pdf", in: directory), target: "< 30 s")
row("full decode of the 50 MP photo (comparison)",
    measure("full-decode", directory.appendingPathComponent("huge-50mp.jpg").path, in: directory),
    target: "what the thumbnail avoids")

row("read a 1 000-line CII e-invoice, 10 times", measure("einvoice", in: directory),
    target: "well under a second per file")

print("| step | time | CPU time | waited for a core | peak memory | result | target |")
print("|---|---:|---:|---:|---:|---|---|")
for (title, measurement, target) in rows {
    print("| \(title) | \(String(format: "%.2f s", measurement.seconds)) | \(String(format: "%.2f s", measurement.cpuSeconds)) | "
        + "\(String(format: "%.2f s", measurement.waitSeconds)) | "
        + "\(String(format: "%.0f MB", Double(measurement.peakKiB) / 1024)) | \(measurement.note) | \(target) |")
}
