import BillfoldUI
import Documents
import Foundation
import GObjectCore
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

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Shows `pdf` in `preview` and returns the milliseconds until page 1's frame was painted,
/// and how many pages Poppler drew for it.
@MainActor
func timeFirstPage(_ preview: DocumentPreview, pdf: Data) -> (ms: Double, drawn: Int)? {
    var painted: Double?
    var firstDrawn = false
    preview.onPageRendered = { index in
        guard index == 0, !firstDrawn else { return }
        firstDrawn = true
        // Connected while the frame paints, so it fires when that frame is done.
        preview.widget.afterNextPaint { painted = now() }
    }
    let start = now()
    preview.show(pdf: pdf)
    guard MainLoop.run(until: { painted != nil }, timeout: 10), let end = painted else { return nil }
    let drawn = preview.renderCount
    preview.onPageRendered = nil
    return (end - start, drawn)
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
    let documents = rowCounts.map { rows -> (Int, RenderedPDF)? in
        (try? invoice(rows: rows).renderPDF()).map { (rows, $0) }
    }
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
        var times: [Double] = []
        var drawn = 0
        for _ in 0..<runs {
            preview.clear()
            settle(window)
            guard let result = timeFirstPage(preview, pdf: pdf.data) else { continue }
            times.append(result.ms)
            drawn = max(drawn, result.drawn)
        }
        // Replacing a document already on screen (a live preview being regenerated).
        var replaceTimes: [Double] = []
        for _ in 0..<runs {
            settle(window)
            guard let result = timeFirstPage(preview, pdf: pdf.data) else { continue }
            replaceTimes.append(result.ms)
        }
        print("ROW \(rows) \(pdf.pageCount) \(pdf.data.count) \(median(times)) \(times.min() ?? 0) \(times.max() ?? 0) "
            + "\(median(replaceTimes)) \(drawn) \(window.scaleFactor)")
    }
    window.destroy()
    return 0
}

func runParent() throws -> Int32 {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    print("Preview benchmark: page 1 of a generated invoice on screen after the PDF bytes are ready")
    print("(DocumentPreview.show(pdf:) to the frame clock's after-paint of the frame that drew page 1;")
    print("900×1000 window at fit width, median of \(runs) runs after a warm-up; GSK_RENDERER=\(ProcessInfo.processInfo.environment["GSK_RENDERER"] ?? "default")).\n")
    let header = ["rows", "pages", "PDF size", "scale", "ms to page 1", "min", "max", "ms (replace)", "pages drawn"]
    var table: [[String]] = []
    for scale in ["1", "2"] {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--child"]
        var environment = ProcessInfo.processInfo.environment
        environment["GDK_SCALE"] = scale
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return process.terminationStatus }
        for line in output.split(separator: "\n") where line.hasPrefix("ROW ") {
            let f = line.split(separator: " ").dropFirst().map(String.init)
            guard f.count == 9 else {
                table.append([line.dropFirst(4).description])
                continue
            }
            func ms(_ text: String) -> String { String(format: "%.1f", Double(text) ?? 0) }
            table.append([f[0], f[1], ByteCountFormatter.string(fromByteCount: Int64(f[2]) ?? 0, countStyle: .binary),
                          "\(f[8])×", ms(f[3]), ms(f[4]), ms(f[5]), ms(f[6]), f[7]])
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
    print("\nTarget: page 1 on screen under 50 ms after the bytes are ready, whatever the page count.")
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
