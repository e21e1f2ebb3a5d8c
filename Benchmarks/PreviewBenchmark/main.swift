import BillfoldUI
import Documents
import Foundation
import GObjectCore
import Graphics
import GtkKit

// How long the document preview takes to put page 1 on screen once the PDF bytes are ready:
// from `preview.show(pdf:)` to the end of the frame (the frame clock's after-paint) in which
// Poppler drew page 1. Runs in a real window, so it needs a display (`xvfb-run -a` without one).
// Each scale factor runs in a child process, since GDK_SCALE is read once at start-up.

let rowCounts = [20, 1_000, 10_000]
let runs = 15

func invoice(rows: Int) -> Document {
    let words = ["consulting", "design", "review", "of", "the", "migration", "plan", "for", "legacy", "database",
                 "systems", "including", "workshops", "with", "stakeholders", "documentation", "support", "travel"]
    let tableRows = (0..<rows).map { row -> TableRow in
        let length = row % 3 == 0 ? 24 + row % 17 : 2 + row % 6
        let description = (0..<length).map { words[(row &* 31 &+ $0 &* 7) % words.count] }.joined(separator: " ")
        let cents = 1_250 + (row * 7_919) % 180_000
        return TableRow([String(format: "2024-%02d-%02d", 1 + row % 12, 1 + row % 28), description,
                         String(1 + row % 9), String(format: "%d.%02d", cents / 100, cents % 100)])
    }
    var document = Document(pageSetup: PageSetup(paper: .a4), metadata: DocumentMetadata(title: "Invoice \(rows)"))
    document.header = RunningText(leading: .text("Northwind Studio"), trailing: .text("Invoice 2024-042"), showsRule: true)
    document.footer = RunningText(trailing: .pageNumber)
    document.blocks = [
        .paragraph(Paragraph("Invoice", style: .title)),
        .keyValues(KeyValueList([.init("Invoice number", "2024-042"), .init("Client", "Contoso Ltd")])),
        .table(Table(columns: [TableColumn("Date", width: .fit), TableColumn("Description"), .numeric("Qty"), .numeric("Amount")],
                     rows: tableRows, style: .zebra)),
    ]
    return document
}

/// A scanned statement as a receipt: `pages` pages, each a different grainy 704 × 528 photo
/// (JPEG), about 50 MB for 500 pages, like the expenses benchmark’s PDF receipt.
func scannedPDF(pages: Int) throws -> (data: Data, pageCount: Int) {
    let width = 704, height = 528
    let surface = try PDFSurface(pageSize: Size(width: 420, height: 595))
    let context = DrawingContext(surface: surface)
    for page in 0..<pages {
        // Noise as a binary PPM, which gdk-pixbuf reads, then compressed to JPEG.
        var ppm = [UInt8]("P6\n\(width) \(height)\n255\n".utf8)
        ppm.reserveCapacity(ppm.count + width * height * 3)
        var state = UInt64(1_000 + page) &* 0x9E37_79B9_7F4A_7C15 | 1
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let grain = Int(state & 0x1F) - 16
                let band = ((x + page * 31) / 180 + (y + page * 17) / 140) % 5 * 18
                ppm.append(UInt8(clamping: 70 + x * 120 / width + band + grain))
                ppm.append(UInt8(clamping: 60 + y * 130 / height + grain))
                ppm.append(UInt8(clamping: 150 - (x + y) * 90 / (width + height) + band / 2 + grain))
            }
        }
        let jpeg = try RasterImage(data: Data(ppm)).encoded(as: .jpeg(quality: 85))
        try RasterImage(data: jpeg).draw(in: context, rect: Rect(x: 20, y: 20, width: 380, height: 289))
        context.showPage()
    }
    return (try surface.finishBytes(), pages)
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

/// CPU time of the calling (main) thread in milliseconds: the work itself, which a busy machine
/// delays but does not inflate.
func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

struct Timing {
    var ms: Double
    var cpu: Double
    var drawn: Int
}

/// Shows `pdf` in `preview` and returns the milliseconds until page 1's frame was painted,
/// the main thread's CPU time meanwhile, and how many pages Poppler drew for it.
@MainActor
func timeFirstPage(_ preview: DocumentPreview, pdf: Data) -> Timing? {
    var painted: (wall: Double, cpu: Double)?
    var firstDrawn = false
    preview.onPageRendered = { index in
        guard index == 0, !firstDrawn else { return }
        firstDrawn = true
        // Connected while the frame paints, so it fires when that frame is done.
        preview.widget.afterNextPaint { painted = (now(), threadCPU()) }
    }
    let start = now(), startCPU = threadCPU()
    preview.show(pdf: pdf)
    // Block in the main loop between events, as the app does, so idle time is not CPU time.
    while painted == nil, now() - start < 10_000 { MainLoop.iterate(blocking: true) }
    guard let end = painted else { return nil }
    preview.onPageRendered = nil
    return Timing(ms: end.wall - start, cpu: end.cpu - startCPU, drawn: preview.renderCount)
}

@MainActor
func settle(_ window: Window) {
    var painted = false
    if window.afterNextPaint({ painted = true }) { MainLoop.run(until: { painted }, timeout: 5) }
    while MainLoop.iterate() {}
}

@MainActor
func runChild() -> Int32 {
    guard Display.open() else {
        FileHandle.standardError.write(Data("preview-benchmark: no display; run it under xvfb-run -a\n".utf8))
        return 1
    }
    var documents = rowCounts.map { rows -> (String, (data: Data, pageCount: Int))? in
        (try? invoice(rows: rows).renderPDF()).map { (String(rows), ($0.data, $0.pageCount)) }
    }
    // A 500-page scanned statement kept as a receipt, shown in the receipt viewer's preview.
    documents.append((try? scannedPDF(pages: 500)).map { ("scan", $0) })
    let preview = DocumentPreview()
    let window = AdwaitaWindow()
    window.setDefaultSize(width: 900, height: 1000)
    window.content = preview.widget
    window.present()
    settle(window)
    // Warm up fonts, Poppler and GTK's first layout.
    if let first = documents.first, let (_, pdf) = first {
        _ = timeFirstPage(preview, pdf: pdf.data)
        preview.clear()
        settle(window)
    }
    for entry in documents {
        guard let (rows, pdf) = entry else {
            print("ROW failed")
            continue
        }
        var fresh: [Timing] = []
        for _ in 0..<runs {
            preview.clear()
            settle(window)
            if let result = timeFirstPage(preview, pdf: pdf.data) { fresh.append(result) }
        }
        // Replacing a document already on screen (a live preview being regenerated).
        var replaced: [Timing] = []
        for _ in 0..<runs {
            settle(window)
            if let result = timeFirstPage(preview, pdf: pdf.data) { replaced.append(result) }
        }
        let times = fresh.map(\.ms)
        print("ROW \(rows) \(pdf.pageCount) \(pdf.data.count) \(median(times)) \(times.min() ?? 0) \(median(fresh.map(\.cpu))) "
            + "\(median(replaced.map(\.ms))) \(median(replaced.map(\.cpu))) \(fresh.map(\.drawn).max() ?? 0) \(window.scaleFactor) "
            + (window.rendererName ?? "?").replacingOccurrences(of: "Gsk", with: "").replacingOccurrences(of: "Renderer", with: ""))
    }
    window.destroy()
    return 0
}

func runParent() throws -> Int32 {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    print("Preview benchmark: page 1 of a generated invoice (by table rows), and of a 500-page scanned")
    print("receipt of about 50 MB (\"scan\"), on screen after the PDF bytes are ready")
    print("(DocumentPreview.show(pdf:) to the frame clock's after-paint of the frame that drew page 1;")
    print("900×1000 window at fit width, median of \(runs) runs after a warm-up, GTK's default renderer and Cairo).")
    print("Wall time includes waiting for GTK's next frame; CPU ms is the main thread's own work, which a")
    print("busy machine delays but does not inflate. \"replace\" shows new bytes over a document on screen.\n")
    let header = ["rows", "pages", "PDF size", "scale", "renderer", "ms to page 1", "min ms", "CPU ms", "ms (replace)", "CPU ms (replace)",
                  "pages drawn"]
    var table: [[String]] = []
    // The default renderer, and Cairo, which the tests use and which is all a machine without
    // GPU drivers has.
    let configurations: [(renderer: String?, scale: String)] = [(nil, "1"), (nil, "2"), ("cairo", "1"), ("cairo", "2")]
    for (renderer, scale) in configurations {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--child"]
        var environment = ProcessInfo.processInfo.environment
        environment["GDK_SCALE"] = scale
        environment["GSK_RENDERER"] = renderer
        if renderer == nil { environment.removeValue(forKey: "GSK_RENDERER") }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return process.terminationStatus }
        for line in output.split(separator: "\n") where line.hasPrefix("ROW ") {
            let f = line.split(separator: " ").dropFirst().map(String.init)
            guard f.count == 11 else {
                table.append([line.dropFirst(4).description])
                continue
            }
            func ms(_ text: String) -> String { String(format: "%.1f", Double(text) ?? 0) }
            table.append([f[0], f[1], ByteCountFormatter.string(fromByteCount: Int64(f[2]) ?? 0, countStyle: .binary),
                          "\(f[9])×", f[10], ms(f[3]), ms(f[4]), ms(f[5]), ms(f[6]), ms(f[7]), f[8]])
        }
    }
    let widths = header.indices.map { c in max(header[c].count, table.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0) }
    func row(_ cells: [String]) -> String {
        cells.enumerated().map { c, cell in
            c == 0 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: max(0, widths[c] - cell.count)) + cell
        }.joined(separator: "  ")
    }
    print(row(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for cells in table { print(row(cells)) }
    print("\nTarget: page 1 on screen under 50 ms after the bytes are ready, whatever the page count;")
    print("the 500-page scanned receipt within 1 s.")
    return 0
}

if CommandLine.arguments.dropFirst().first == "--child" {
    exit(MainActor.assumeIsolated { runChild() })
} else {
    do {
        exit(try runParent())
    } catch {
        FileHandle.standardError.write(Data("preview-benchmark: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}
