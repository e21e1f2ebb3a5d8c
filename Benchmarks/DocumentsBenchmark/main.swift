import Documents
import Foundation
import Graphics

// Renders a synthetic invoice with 20, 1 000 and 10 000 rows and prints a table.
// Each size runs in a fresh child process (this executable with `--child ROWS`), so peak
// memory is that size's own: the high-water mark is reset after warming up the fonts, and
// reported as the growth over what the process held before rendering.
// `documents-benchmark --samples DIR` writes sample PDFs to look at instead.

let rowCounts = [20, 1_000, 10_000]

enum Synthetic {
    static let words = ["consulting", "design", "review", "of", "the", "migration", "plan", "for", "legacy", "database",
                        "systems", "including", "workshops", "with", "stakeholders", "and", "documentation", "hours",
                        "support", "on-site", "travel", "infrastructure", "testing", "accessibility", "audit",
                        "Zürich", "naïve", "façade", "analytics", "reporting"]

    static func description(row: Int) -> String {
        // A third of the rows are long enough to wrap over several lines.
        let length = row % 3 == 0 ? 24 + row % 17 : 2 + row % 6
        var state = UInt64(truncatingIfNeeded: row &* 2654435761 &+ 97)
        var parts: [String] = []
        for _ in 0..<length {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            parts.append(words[Int((state >> 33) % UInt64(words.count))])
        }
        let text = parts.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    static func money(_ cents: Int) -> String {
        let units = String(cents / 100)
        var grouped = ""
        for (index, digit) in units.enumerated() {
            if index > 0, (units.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped + "." + String(format: "%02d", cents % 100)
    }

    static func invoice(rows: Int) -> Document {
        let tableRows = (0..<rows).map { row -> TableRow in
            let quantity = 1 + row % 9
            let price = 1_250 + (row * 7_919) % 180_000
            return TableRow([String(format: "%04d-%02d-%02d", 2024, 1 + row % 12, 1 + row % 28),
                             description(row: row), String(quantity), money(price), money(price * quantity)])
        }
        let table = Table(columns: [TableColumn("Date", width: .fit), TableColumn("Description"),
                                    .numeric("Qty"), .numeric("Unit price"), .numeric("Amount")],
                          rows: tableRows, style: .zebra)
        var document = Document(pageSetup: PageSetup(paper: .a4),
                                metadata: DocumentMetadata(title: "Invoice \(rows)", author: "Benchmark", subject: "Synthetic invoice"))
        document.header = RunningText(leading: .text("Northwind Studio"), trailing: .text("Invoice 2024-042"), showsRule: true)
        document.blocks = [
            .paragraph(Paragraph("Invoice", style: .title)),
            .keyValues(KeyValueList([.init("Invoice number", "2024-042"), .init("Issued", "2 May 2024"), .init("Client", "Contoso Ltd")])),
            .table(table),
            .keyValues(KeyValueList([.init("Subtotal", "1,234,567.89"), .init("VAT 20 %", "246,913.58"),
                                     .init("Total due", "1,481,481.47", isEmphasized: true)], placement: .trailing)),
        ]
        return document
    }
}

/// Resident set size and its high-water mark, in KiB, from /proc.
func memoryKiB() -> (current: Int, peak: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Int {
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
    return (field("VmRSS:"), field("VmHWM:"))
}

/// Resets VmHWM to the current RSS (Linux ≥ 4.0); returns false where it is not allowed.
func resetPeakMemory() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// CPU time of this process, in milliseconds: on a shared machine it moves less than wall time.
func cpuMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// One size, measured in this process; prints one machine-readable line.
func runChild(rows: Int) throws {
    // Warm up: the thread's font map, fontconfig, the glyph caches.
    _ = try Synthetic.invoice(rows: 30).renderPDF()
    let document = Synthetic.invoice(rows: rows)
    let runs = rows >= 10_000 ? 3 : 7
    var times: [Double] = []
    var cpuTimes: [Double] = []
    let resetWorked = resetPeakMemory()
    let before = memoryKiB()
    for _ in 0..<runs {
        let cpuStart = cpuMilliseconds()
        times.append(try milliseconds { _ = try document.renderPDF() })
        cpuTimes.append(cpuMilliseconds() - cpuStart)
    }
    let toBytes = memoryKiB()
    // Streaming to a file: memory must not follow the page count.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("documents-benchmark-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = resetPeakMemory()
    let beforeFile = memoryKiB()
    let url = directory.appendingPathComponent("invoice.pdf")
    var fileTimes: [Double] = []
    for _ in 0..<runs {
        fileTimes.append(try milliseconds { try document.writePDF(to: url) })
    }
    let fileTime = median(fileTimes)
    let toFile = memoryKiB()
    let final = try document.renderPDF()
    let bytes = final.data.count
    print("ROW \(rows) \(median(times)) \(median(cpuTimes)) \(fileTime) \(final.pageCount) \(bytes) "
        + "\(toBytes.peak - before.current) \(toFile.peak - beforeFile.current) \(toBytes.peak) \(resetWorked ? 1 : 0)")
}

func runParent() throws {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    print("Documents benchmark: synthetic invoice, 5 columns, a third of the descriptions wrap; A4, zebra table.")
    print("Each size in a fresh process after a warm-up render; times are medians of several renders to bytes")
    print("(wall clock, and CPU time, which a busy machine disturbs less).")
    print("Peak Δ is the growth of the resident-set high-water mark over the RSS before rendering.\n")
    let header = ["rows", "ms to PDF", "CPU ms", "ms to file", "pages", "bytes", "ms/page", "peak Δ (bytes out)", "peak Δ (file out)", "peak RSS"]
    var table: [[String]] = []
    var resetOK = true
    for rows in rowCounts {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--child", String(rows)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("ROW ") }) else {
            table.append([String(rows), "failed: \(output.trimmingCharacters(in: .whitespacesAndNewlines))"])
            continue
        }
        let f = line.split(separator: " ").dropFirst().map(String.init)
        let pages = Int(f[4]) ?? 1
        let ms = Double(f[1]) ?? 0
        resetOK = resetOK && f[9] == "1"
        func mib(_ kib: String) -> String { String(format: "%.1f MiB", Double(Int(kib) ?? 0) / 1024) }
        table.append([f[0], String(format: "%.1f", ms), String(format: "%.1f", Double(f[2]) ?? 0),
                      String(format: "%.1f", Double(f[3]) ?? 0), f[4],
                      ByteCountFormatter.string(fromByteCount: Int64(f[5]) ?? 0, countStyle: .binary),
                      String(format: "%.2f", ms / Double(max(1, pages))), mib(f[6]), mib(f[7]), mib(f[8])])
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
    print("\nTargets: 1 000 rows < 60 ms; 10 000 rows < 600 ms; memory not growing with pages written.")
    if !resetOK { print("Note: the kernel refused to reset the high-water mark; peaks include the warm-up.") }
}

let arguments = CommandLine.arguments
do {
    if arguments.count >= 3, arguments[1] == "--child", let rows = Int(arguments[2]) {
        try runChild(rows: rows)
    } else if arguments.count >= 3, arguments[1] == "--samples" {
        try Samples.write(to: URL(fileURLWithPath: arguments[2]))
    } else {
        try runParent()
    }
} catch {
    FileHandle.standardError.write(Data("documents-benchmark: \(error.localizedDescription)\n".utf8))
    exit(1)
}
