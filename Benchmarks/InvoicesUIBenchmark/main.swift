// Invoices UI benchmark: the Invoices page over 100 000 invoices in a database file, timed in a
// real window to the end of the frame that shows the result (the frame clock's after-paint),
// and the whole `billfold invoice export` process. Needs a display:
//
//   xvfb-run -a env GSK_RENDERER=cairo swift run -c release invoices-ui-benchmark [--invoices N] [--database FILE] [--runs N]
//
// With --database, a file that already holds N invoices is reused, so later runs skip the fill;
// --runs sets how many timed repetitions each median is of (5). The export row needs the
// release `billfold` beside this executable: swift build -c release --product billfold.
import BillfoldCore
import BillfoldUI
import Foundation
import GObjectCore
import GtkKit
import InvoicesBenchmarkData
import InvoicesCore
import InvoicesPlugin
import PluginAPI
import Storage
import TestSupport

struct Arguments {
    var invoiceCount = 100_000
    var databasePath: String?
    var runs = 5

    init(_ arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--invoices":
                if let value = remaining.popFirst().flatMap(Int.init), value > 0 { invoiceCount = value }
            case "--database":
                databasePath = remaining.popFirst()
            case "--runs":
                if let value = remaining.popFirst().flatMap(Int.init), value > 0 { runs = value }
            default:
                FileHandle.standardError.write(Data("Unknown argument \(argument); use --invoices N, --database FILE or --runs N.\n".utf8))
                exit(2)
            }
        }
    }
}

enum BenchmarkError: LocalizedError {
    case noDisplay
    case timedOut(String)
    case export(String)

    var errorDescription: String? {
        switch self {
        case .noDisplay: "No display; run it under xvfb-run -a."
        case .timedOut(let what): "Timed out waiting for \(what)."
        case .export(let message): "The export command failed: \(message)"
        }
    }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}


/// Iterates the main loop until `done` holds.
@MainActor
func wait(for what: String, timeout: Double = 30, _ done: @MainActor () -> Bool) throws {
    guard MainLoop.run(until: done, timeout: timeout) else { throw BenchmarkError.timedOut(what) }
}

/// Lets pending work and one more frame go by, so the next measurement starts from rest.
@MainActor
func settle(_ widget: Widget) throws {
    var painted = false
    if widget.afterNextPaint({ painted = true }) { try wait(for: "a frame") { painted } }
    while MainLoop.iterate() {}
}

/// One open Invoices page in its own window, built the way the shell builds it.
@MainActor
final class OpenPage {
    let host: TestHost
    let plugin = Invoices()
    let window = AdwaitaWindow()
    let page: InvoicesPage

    /// Builds the page and waits for its window's first frame; `milliseconds` is the time from
    /// activating the plugin to the end of that frame.
    private(set) var milliseconds = 0.0

    init(database: Database) throws {
        host = TestHost(window: window)
        // Wide enough that the list and the invoice show side by side, as on a desktop.
        window.setDefaultSize(width: 1200, height: 900)
        var painted: Double?
        let start = now()
        try plugin.activate(in: host.context(for: "invoices", database: database))
        guard let pluginPage = plugin.page else { throw BenchmarkError.timedOut("the Invoices page") }
        window.content = pluginPage.widget
        guard let page = plugin.invoicesPage else { throw BenchmarkError.timedOut("the Invoices page") }
        self.page = page
        window.onFirstFrame { painted = now() }
        window.present()
        try wait(for: "the list's first frame") { painted != nil }
        milliseconds = (painted ?? start) - start
    }

    func close() {
        window.destroy()
        plugin.deactivate()
        while MainLoop.iterate() {}
    }
}

/// Types `typed` at the end of the search, as a keystroke does; returns the ms to the painted
/// frame of the new list.
@MainActor
func keystroke(_ page: InvoicesPage, _ typed: String) throws -> Double {
    var painted: Double?
    // Connected after the page's handler, so it runs once the page has updated its list.
    let connection = page.searchEntry.onSearchChanged {
        guard painted == nil else { return }
        if !page.listView.afterNextPaint({ painted = now() }) { painted = now() }
    }
    defer { connection.disconnect() }
    let start = now()
    page.searchEntry.type(typed)
    try wait(for: "the search \"\(page.searchEntry.text)\"") { painted != nil }
    return (painted ?? start) - start
}

/// Selects the row at `position`; returns the ms until the frame in which the preview drew the
/// invoice's first page was painted.
@MainActor
func selectAndPreview(_ page: InvoicesPage, position: Int) throws -> Double {
    let preview = page.detail.preview
    var painted: Double?
    var firstDrawn = false
    preview.onPageRendered = { index in
        guard index == 0, !firstDrawn else { return }
        firstDrawn = true
        // Connected while the frame paints, so it fires when that frame is done.
        preview.widget.afterNextPaint { painted = now() }
    }
    defer { preview.onPageRendered = nil }
    let start = now()
    page.listView.selectedIndex = position
    try wait(for: "the preview of row \(position)") { painted != nil }
    return (painted ?? start) - start
}

/// The whole `billfold invoice export` process, as a person runs it in a terminal.
func exportProcessMilliseconds(billfold: URL, databasePath: String, number: String, output: URL) throws -> Double {
    let process = Process()
    process.executableURL = billfold
    process.arguments = ["invoice", "export", number, "--output", output.path]
    var environment = ProcessInfo.processInfo.environment
    environment[AppPaths.databaseEnvironmentVariable] = databasePath
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let start = now()
    try process.run()
    process.waitUntilExit()
    let elapsed = now() - start
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard process.terminationStatus == 0 else { throw BenchmarkError.export(message) }
    let bytes = (try? Data(contentsOf: output, options: .alwaysMapped)) ?? Data()
    guard bytes.starts(with: Data("%PDF".utf8)) else { throw BenchmarkError.export("no PDF at \(output.path)") }
    return elapsed
}

@MainActor
func run(_ arguments: Arguments) throws {
    guard Display.open() else { throw BenchmarkError.noDisplay }
    MainQueueBridge.install()
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("invoices-ui-benchmark-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: temporary) }
    let path = arguments.databasePath ?? temporary.appendingPathComponent("billfold.sqlite3").path
    // The compiled schema in memory, for this process and the export command it starts.
    _ = TestSettings.make()

    var lines: [Line] = []
    let database = try Database.open(path: path, options: .init(backupDirectory: temporary.appendingPathComponent("backups").path))
    print("Filling or checking \(arguments.invoiceCount) invoices in \(arguments.databasePath ?? "a temporary file")…")
    let (repository, fillTime) = try openFilled(database, invoices: arguments.invoiceCount)
    if let fillTime {
        lines.append(Line(operation: "fill the database (not a UI time)", rows: arguments.invoiceCount, milliseconds: fillTime,
                          targetMilliseconds: nil))
    }
    let runs = arguments.runs

    // (1) The list: activating the plugin and building the page, to its window's first frame.
    // The first window of the process also pays for GTK's start-up (theme, fonts); later ones
    // show what opening the page costs once the app runs.
    var listTimes: [Double] = []
    var rowsBound = 0
    for _ in 0...runs {
        let open = try OpenPage(database: database)
        listTimes.append(open.milliseconds)
        rowsBound = open.page.model.cachedCount
        open.close()
    }
    lines.append(Line(operation: "list shown, first window of the process", rows: rowsBound, milliseconds: listTimes[0],
                      targetMilliseconds: 200))
    lines.append(Line(operation: "list shown (median of \(runs))", rows: rowsBound, milliseconds: median(Array(listTimes.dropFirst())),
                      targetMilliseconds: 200))

    let open = try OpenPage(database: database)
    let page = open.page
    try settle(open.window)
    // GTK waits 150 ms after a keystroke before it reports a search; that pause is GTK's, not the
    // page's work, so it is off here and each time runs from the keystroke to the painted list.
    page.searchEntry.setProperty("search-delay", 0)
    FileHandle.standardError.write(Data("Typing searches…\n".utf8))
    var typed: [String: [Double]] = [:]
    var matches: [String: Int] = [:]
    let words = ["a", "ac", "acm", "acme"]
    for round in 0...runs {
        page.searchEntry.text = ""
        try wait(for: "the cleared search") { page.model.ids.count == arguments.invoiceCount }
        try settle(open.window)
        for word in words {
            let time = try keystroke(page, String(word.last!))
            // The first round warms SQLite's cache and GTK's row widgets.
            if round > 0 { typed[word, default: []].append(time) }
            matches[word] = page.model.ids.count
        }
        try settle(open.window)
    }
    for word in words {
        lines.append(Line(operation: "keystroke to \"\(word)\", to the painted list", rows: matches[word] ?? 0,
                          milliseconds: median(typed[word] ?? []), targetMilliseconds: 30))
    }
    // Where a keystroke's time goes: the pieces of the page's search handler on their own, and
    // a frame that redraws the window with nothing changed.
    let searchDay = CalendarDay.today()
    func medianOf(_ body: () throws -> Void) rethrows -> Double {
        try body()
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = now()
            try body()
            samples.append(now() - start)
        }
        return median(samples)
    }
    let queryTime = try medianOf { _ = try repository.invoiceIDs(matching: InvoiceListQuery(search: "ac"), today: searchDay) }
    lines.append(Line(operation: "  part: \"ac\" as one SQL query (join and sort)", rows: matches["ac"] ?? 0, milliseconds: queryTime, targetMilliseconds: nil))
    let unsearched = try repository.invoiceIDs(matching: InvoiceListQuery(), today: searchDay)
    let keepTime = try medianOf {
        let found = try repository.invoiceIDs(matchingSearch: "ac") ?? []
        _ = unsearched.filter(found.contains)
    }
    lines.append(Line(operation: "  part: \"ac\"'s matches kept from the unsearched list", rows: matches["ac"] ?? 0,
                      milliseconds: keepTime, targetMilliseconds: nil))
    let totalsTime = try medianOf { _ = try repository.outstandingTotals(today: searchDay) }
    lines.append(Line(operation: "  part: outstanding and overdue sums (not on a search)", rows: 0, milliseconds: totalsTime, targetMilliseconds: nil))
    let detached = PositionList()
    let resizeTime = medianOf {
        detached.count = arguments.invoiceCount
        detached.count = matches["ac"] ?? 0
    }
    lines.append(Line(operation: "  part: list length to all, then to \"ac\"'s (no view)", rows: matches["ac"] ?? 0,
                      milliseconds: resizeTime, targetMilliseconds: nil))
    var idleFrames: [Double] = []
    for _ in 0...runs {
        var painted: Double?
        let start = now()
        open.window.queueDraw()
        if open.window.afterNextPaint({ painted = now() }) { try wait(for: "a redraw") { painted != nil } }
        idleFrames.append((painted ?? start) - start)
        try settle(open.window)
    }
    lines.append(Line(operation: "  part: a frame redrawing the window, nothing changed", rows: 0,
                      milliseconds: median(Array(idleFrames.dropFirst())), targetMilliseconds: nil))

    page.searchEntry.text = ""
    try wait(for: "the cleared search") { page.model.ids.count == arguments.invoiceCount }

    // (3) Selecting an invoice with the preview open, to its first page on screen.
    page.detail.previewToggle?.isActive = true
    try settle(open.window)
    var previewTimes: [Double] = []
    for (index, position) in [0, 3, 1, 7, 2, 12, 4, 9].enumerated() {
        let time = try selectAndPreview(page, position: position)
        if index > 0 { previewTimes.append(time) }
        try settle(open.window)
    }
    lines.append(Line(operation: "select an invoice to its preview on screen", rows: 1, milliseconds: median(previewTimes),
                      targetMilliseconds: 100))

    // The 20-line invoice PDF, as the data benchmark measures it.
    let today = CalendarDay.today()
    let client = try repository.clients().first
    let twenty = try repository.document(for: twentyLineInvoice(clientID: client?.id, on: today))
    var pdfTimes: [Double] = []
    var pages = 0
    for index in 0...21 {
        let start = now()
        pages = try InvoicePDF.render(twenty).pageCount
        if index > 0 { pdfTimes.append(now() - start) }
    }
    lines.append(Line(operation: "20-line invoice PDF (layout and render)", rows: pages, milliseconds: median(pdfTimes),
                      targetMilliseconds: 10))
    open.close()

    // (4) The export command: a whole process, from start to exit.
    let billfold = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("billfold")
    if FileManager.default.isExecutableFile(atPath: billfold.path) {
        let number = try repository.invoiceSummaries(limit: 1, today: today)[0].number
        let output = temporary.appendingPathComponent("export.pdf")
        var exportTimes: [Double] = []
        for index in 0...runs {
            let time = try exportProcessMilliseconds(billfold: billfold, databasePath: path, number: number, output: output)
            if index > 0 { exportTimes.append(time) }
        }
        lines.append(Line(operation: "billfold invoice export, whole process (median of \(runs))", rows: 1,
                          milliseconds: median(exportTimes), targetMilliseconds: nil))
    } else {
        print("No billfold binary beside this one; build it first: swift build -c release --product billfold")
    }

    print("Invoices UI benchmark: \(arguments.invoiceCount) invoices, renderer \(ProcessInfo.processInfo.environment["GSK_RENDERER"] ?? "default"), "
          + "1200×900 window; times to the end of the painted frame")
    printTable(lines)
    database.close()
}

do {
    try MainActor.assumeIsolated { try run(Arguments(Array(CommandLine.arguments.dropFirst()))) }
} catch {
    FileHandle.standardError.write(Data("invoices-ui-benchmark: \(error.localizedDescription)\n".utf8))
    exit(1)
}
