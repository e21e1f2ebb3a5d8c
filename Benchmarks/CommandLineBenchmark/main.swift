// Command-line benchmark: the release `billfold` binary run as a person runs it, each command a
// fresh process, over a database with 100 000 invoices and 10 000 trips; and the invoice PDF at
// 20, 1 000 and 10 000 lines next to Typst (PyPI `typst`) rendering the same content in the same
// run. Prints a table with the targets.
//
//   swift build -c release --static-swift-stdlib -Xswiftc -DBILLFOLD_TEST_KEYS --product billfold
//   swift build -c release --static-swift-stdlib -Xswiftc -DBILLFOLD_TEST_KEYS --product command-line-benchmark
//   .build/release/command-line-benchmark [--binary .build/release/billfold] [--runs 9] [--keep DIR] [--no-typst]
//
// With --keep, the database in DIR is made once and reused. Typst is installed into its own
// virtual environment under .build/typst-venv on the first run (python3 -m venv, pip).
import BillfoldCore
import ExpensesCore
import Foundation
import Graphics
import InvoicesBenchmarkData
import Licensing
import Plans
import InvoicesCore
import Storage

let invoiceCount = 100_000
let tripCount = 10_000
let pdfLineCounts = [20, 1_000, 10_000]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

func pdfNumber(_ lines: Int) -> String { "PDF-\(lines)" }

func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
}

/// The "WALL CPU" milliseconds a child printed about itself.
func insideTimes(_ result: Run) -> Run {
    let numbers = result.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    return Run(milliseconds: numbers.first ?? .nan, peakKiB: result.peakKiB, output: "",
               cpuMilliseconds: numbers.count > 1 ? numbers[1] : .nan)
}

// MARK: - Child step: one export timed inside its process

/// `--render DATABASE NUMBER OUTPUT`: what `billfold invoice export` does, timed from loading
/// the invoice to the file written, in a fresh process (fonts not yet loaded, as for a person).
/// Prints the wall and CPU milliseconds (every thread's, as Python's `time.process_time`).
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--render" {
    let arguments = CommandLine.arguments
    do {
        let database = try Database.open(path: arguments[2])
        let repository = try InvoiceRepository(database: database)
        let start = DispatchTime.now().uptimeNanoseconds
        let startCPU = processCPUMilliseconds()
        // As `invoice export` does, and inside the measured time.
        HugePageHeap.prepare()
        TextEngine.startLoadingFonts()
        guard let invoice = try repository.invoice(number: arguments[3]) else { fail("No invoice \(arguments[3])") }
        try InvoicePDF.write(try repository.document(for: invoice), to: URL(fileURLWithPath: arguments[4]))
        print(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, processCPUMilliseconds() - startCPU)
        exit(0)
    } catch {
        fail("Rendering failed: \(error.localizedDescription)")
    }
}

// MARK: - Arguments

struct Arguments {
    var binary = ".build/release/billfold"
    var runs = 9
    var keep: String?
    var typst = true

    init(_ arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--binary": binary = remaining.popFirst() ?? binary
            case "--runs": runs = remaining.popFirst().flatMap(Int.init).map { max(1, $0) } ?? runs
            case "--keep": keep = remaining.popFirst()
            case "--no-typst": typst = false
            default: fail("Unknown argument \(argument); use --binary PATH, --runs N, --keep DIR or --no-typst.")
            }
        }
    }
}

// MARK: - Child processes

struct Run {
    var milliseconds: Double
    var peakKiB: Int
    var output: String
    /// User plus system time: what the run cost whatever else the machine was doing.
    var cpuMilliseconds: Double = .nan
}

/// Runs `argv` with `environment`, stdout to a file (read back), and measures the wall time
/// from spawn to exit and the child's peak resident memory. The memory comes from GNU time
/// (Debian's `time`): a child of this large process would report this process's size as its
/// own peak, since Linux carries the high-water mark across exec.
func spawn(_ command: [String], environment: [String: String], scratch: URL) -> Run {
    let outputPath = scratch.appendingPathComponent("stdout.txt").path
    let peakPath = scratch.appendingPathComponent("peak.txt").path
    let argv = ["/usr/bin/time", "-f", "%M %U %S", "-o", peakPath] + command
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (cArguments + cEnvironment).forEach { free($0) } }
    var pid = pid_t()
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
    guard spawned == 0 else { fail("Could not start \(argv[0]): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    guard status == 0 else { fail("\(command.joined(separator: " ")) failed with status \(status):\n\(output)") }
    let measured = ((try? String(contentsOfFile: peakPath, encoding: .utf8)) ?? "").split(separator: " ")
        .map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan }
    guard measured.count == 3 else { fail("GNU time wrote no measurement for \(command[0])") }
    return Run(milliseconds: milliseconds, peakKiB: Int(measured[0]), output: output,
               cpuMilliseconds: (measured[1] + measured[2]) * 1000)
}

/// The median run by time (after one warm-up, so the page cache is warm).
func median(runs: Int, _ body: () -> Run) -> Run {
    _ = body()
    let samples = (0..<runs).map { _ in body() }.sorted { $0.milliseconds < $1.milliseconds }
    var result = samples[samples.count / 2]
    result.peakKiB = samples.map(\.peakKiB).max() ?? 0
    return result
}

/// Two commands run alternately (A B B A …) after a warm-up of each, so a drift in the
/// machine's speed hits both alike. Each result has the median wall time and, taken on its
/// own, the median CPU time.
func alternatingMedians(runs: Int, _ first: () -> Run, _ second: () -> Run) -> (Run, Run) {
    _ = first()
    _ = second()
    var firsts: [Run] = []
    var seconds: [Run] = []
    for round in 0..<runs {
        if round % 2 == 0 {
            firsts.append(first())
            seconds.append(second())
        } else {
            seconds.append(second())
            firsts.append(first())
        }
    }
    func middle(_ samples: [Run]) -> Run {
        let walls = samples.map(\.milliseconds).sorted()
        let cpus = samples.map(\.cpuMilliseconds).sorted()
        return Run(milliseconds: walls[walls.count / 2], peakKiB: samples.map(\.peakKiB).max() ?? 0, output: "",
                   cpuMilliseconds: cpus[cpus.count / 2])
    }
    return (middle(firsts), middle(seconds))
}

// MARK: - Data

func fillInvoices(_ database: Database) throws {
    let repository = try InvoiceRepository(database: database)
    if try repository.invoice(number: pdfNumber(pdfLineCounts.last!)) != nil { return }
    print("Filling \(invoiceCount) invoices…")
    try fill(repository, invoices: invoiceCount)
    let client = try repository.clients().first!
    for count in pdfLineCounts {
        var pdfInvoice = invoice(lineCount: count, clientID: client.id, on: CalendarDay(year: 2025, month: 1, day: 10)!)
        pdfInvoice.number = pdfNumber(count)
        try repository.save(pdfInvoice)
    }
}

func fillTrips(_ database: Database, receipts: ReceiptStore) throws {
    let repository = try ExpenseRepository(database: database, receipts: receipts)
    if try repository.trip(named: "Trip \(tripCount)") != nil { return }
    print("Filling \(tripCount) trips…")
    let cities = ["Berlin", "Lyon", "Porto", "Oslo", "Kraków", "Zürich", "Bologna", "Ghent"]
    let start = CalendarDay(year: 2015, month: 1, day: 1)!
    try database.transaction {
        for index in 1...tripCount {
            let first = start.adding(days: index * 3_650 / tripCount)
            let trip = try repository.createTrip(TripDetails(name: "Trip \(index)", startDate: first, endDate: first.adding(days: 2),
                                                             purpose: "Client visit in \(cities[index % cities.count])", currency: .eur))
            for day in 0..<3 {
                _ = try repository.addExpense(ExpenseDetails(date: first.adding(days: day), category: .meals, vendor: "Café \(day)",
                                                             amount: Money(minorUnits: Int64(1_250 + index % 700), currency: .eur)),
                                              to: trip.id)
            }
        }
    }
}

// MARK: - Run

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let binary = URL(fileURLWithPath: arguments.binary).standardizedFileURL.path
guard FileManager.default.isExecutableFile(atPath: binary) else {
    fail("No billfold binary at \(binary); build it first: swift build -c release --product billfold")
}
let directory = URL(fileURLWithPath: arguments.keep ?? NSTemporaryDirectory() + "command-line-benchmark-\(UUID().uuidString)")
defer { if arguments.keep == nil { try? FileManager.default.removeItem(at: directory) } }
let dataHome = directory.appendingPathComponent("data")
let databasePath = dataHome.appendingPathComponent("billfold/billfold.sqlite3").path
let scratch = directory.appendingPathComponent("scratch")

var environment = ProcessInfo.processInfo.environment
environment["XDG_DATA_HOME"] = dataHome.path
environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path
environment["LANG"] = "en_US.UTF-8"
environment["LC_ALL"] = nil
environment["BILLFOLD_DATABASE"] = nil

// PDF export is Billfold Pro's: a licence signed with a key made for this run, which a release
// build compiled with -DBILLFOLD_TEST_KEYS trusts (a plain release build never does).
do {
    let key = try LicenseSigningKey.generate()
    let licence = try License(id: "benchmark", licenseeName: "Benchmark", licenseeEmail: "benchmark@example.com",
                              plan: .lifetime, issuedAt: Date(timeIntervalSinceNow: -86_400), expiresAt: nil,
                              features: Set(Feature.allCases))
    let configFolder = directory.appendingPathComponent("config/billfold")
    try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
    try Data(SignedLicense(signing: licence, with: key).armoredText.utf8)
        .write(to: configFolder.appendingPathComponent("license." + LicenseVerifier.fileExtension))
    environment["BILLFOLD_TEST_LICENSE_PUBLIC_KEY"] = key.publicKey.base64
    // So a kept directory's commands can be run by hand, under a profiler, with this run's licence.
    if arguments.keep != nil {
        try Data((key.publicKey.base64 + "\n").utf8).write(to: directory.appendingPathComponent("test-licence-public-key"))
    }
} catch {
    fail("Could not make the benchmark's licence: \(error)")
}

struct Measured {
    var operation: String
    var milliseconds: Double
    var cpuMilliseconds: Double?
    var peakKiB: Int?
    var target: String = ""
    var met: String = ""
    var note: String = ""
}
var rows: [Measured] = []

func check(_ milliseconds: Double, under limit: Double) -> (String, String) {
    ("≤ \(Int(limit)) ms", milliseconds <= limit ? "yes" : "NO")
}

do {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: dataHome.appendingPathComponent("billfold"), withIntermediateDirectories: true)
    let database = try Database.open(path: databasePath, options: .init(backupDirectory: directory.appendingPathComponent("backups").path))
    try fillInvoices(database)
    try fillTrips(database, receipts: ReceiptStore(directory: dataHome.appendingPathComponent("billfold/receipts")))
    try database.executeScript("PRAGMA optimize; ANALYZE")
    database.close()

    // Export is Pro's: a build that does not trust the test key would only fail there, and less clearly.
    let plan = spawn([binary, "license", "status"], environment: environment, scratch: scratch)
    guard plan.output.hasPrefix("Billfold Pro") else {
        fail("\(binary) does not accept the benchmark's test licence. Build it with "
             + "`swift build -c release -Xswiftc -DBILLFOLD_TEST_KEYS --product billfold`. It says:\n\(plan.output)")
    }

    // The floor every command stands on: starting the process.
    let version = median(runs: arguments.runs) { spawn([binary, "--version"], environment: environment, scratch: scratch) }
    rows.append(Measured(operation: "billfold --version (process floor)", milliseconds: version.milliseconds,
                         cpuMilliseconds: version.cpuMilliseconds, peakKiB: version.peakKiB))

    // Lists: the whole table written, each row as it is read.
    for (name, argv, limit) in [("invoice list", ["invoice", "list"], 1_000.0),
                                ("invoice list --search acme", ["invoice", "list", "--search", "acme"], 1_000),
                                ("invoice list --search a", ["invoice", "list", "--search", "a"], 1_000),
                                ("trip list", ["trip", "list"], 1_000)] {
        let result = median(runs: arguments.runs) { spawn([binary] + argv, environment: environment, scratch: scratch) }
        let lines = result.output.split(separator: "\n").count
        let (target, met) = check(result.milliseconds, under: limit)
        rows.append(Measured(operation: name, milliseconds: result.milliseconds, cpuMilliseconds: result.cpuMilliseconds,
                             peakKiB: result.peakKiB, target: target, met: met,
                        note: "\(lines) lines"))
    }

    // The invoice PDF: the whole export process, and its generation timed inside a fresh process.
    let pdfTargets: [Int: (milliseconds: Double, peakKiB: Int?)] = [20: (35, nil), 1_000: (60, nil), 10_000: (400, 80 * 1024)]
    let typst = arguments.typst ? try TypstRunner(venv: URL(fileURLWithPath: ".build/typst-venv").standardizedFileURL, scratch: scratch) : nil
    let repository = try InvoiceRepository(database: try Database.open(path: databasePath))
    var typstRows: [Measured] = []
    for count in pdfLineCounts {
        let output = scratch.appendingPathComponent("invoice-\(count).pdf").path
        let whole = median(runs: arguments.runs) {
            spawn([binary, "invoice", "export", pdfNumber(count), "--output", output], environment: environment, scratch: scratch)
        }
        let target = pdfTargets[count]!
        var (targetText, met) = check(whole.milliseconds, under: target.milliseconds)
        if let peak = target.peakKiB {
            targetText += ", ≤ \(peak / 1024) MB"
            if whole.peakKiB > peak { met = "NO" }
        }
        let pages = (try? String(contentsOfFile: output, encoding: .isoLatin1)).map { $0.components(separatedBy: "/Type /Page\n").count - 1 } ?? 0
        rows.append(Measured(operation: "invoice export, \(count) lines (whole process)", milliseconds: whole.milliseconds,
                             cpuMilliseconds: whole.cpuMilliseconds, peakKiB: whole.peakKiB, target: targetText, met: met, note: pages > 0 ? "\(pages) pages" : ""))
        let render = {
            insideTimes(spawn([CommandLine.arguments[0], "--render", databasePath, pdfNumber(count), output],
                              environment: environment, scratch: scratch))
        }
        guard let typst, let pdfInvoice = try repository.invoice(number: pdfNumber(count)), let id = pdfInvoice.id else {
            let inside = median(runs: arguments.runs, render)
            rows.append(Measured(operation: "  generation inside the process", milliseconds: inside.milliseconds,
                                 cpuMilliseconds: inside.cpuMilliseconds, peakKiB: nil))
            continue
        }
        let source = try typst.writeSource(for: try repository.document(for: id), name: "invoice-\(count)")
        // The two generations the ratio compares run in turns.
        let (inside, typstInside) = alternatingMedians(runs: arguments.runs, render) {
            insideTimes(typst.run(source, timed: true, environment: environment))
        }
        rows.append(Measured(operation: "  generation inside the process", milliseconds: inside.milliseconds,
                             cpuMilliseconds: inside.cpuMilliseconds, peakKiB: nil))
        let typstWhole = median(runs: arguments.runs) { typst.run(source, timed: false, environment: environment) }
        typstRows.append(Measured(operation: "Typst \(count) lines (whole process)", milliseconds: typstWhole.milliseconds,
                                  cpuMilliseconds: typstWhole.cpuMilliseconds, peakKiB: typstWhole.peakKiB))
        // CPU time decides: on a shared machine the wall clock moves with everyone else's load.
        let cpuRatio = typstInside.cpuMilliseconds / inside.cpuMilliseconds
        let wallRatio = typstInside.milliseconds / inside.milliseconds
        let wanted = count >= 1_000 ? 10.0 : nil
        typstRows.append(Measured(operation: "  Typst compile inside the process", milliseconds: typstInside.milliseconds,
                                  cpuMilliseconds: typstInside.cpuMilliseconds, peakKiB: nil,
                                  target: wanted.map { "≥ \(Int($0))× Billfold (cpu)" } ?? "",
                                  met: wanted.map { cpuRatio >= $0 ? "yes" : "NO" } ?? "",
                                  note: String(format: "%.1f× Billfold's cpu, %.1f× wall", cpuRatio, wallRatio)))
    }
    rows += typstRows
} catch {
    fail("The benchmark failed: \(error.localizedDescription)")
}

// MARK: - Table

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}
print("Command-line benchmark: \(invoiceCount) invoices, \(tripCount) trips; median of \(arguments.runs) runs after a warm-up"
      + " (ms: wall clock; cpu ms: user + system, 10 ms steps; peak RSS: the largest of the runs);"
      + " each PDF's generation inside the process alternates with Typst's")
print(pad("operation", 46) + pad("ms", 9, right: true) + pad("cpu ms", 9, right: true) + pad("peak MB", 9, right: true) + "  " + pad("target", 26) + pad("met", 5) + "note")
print(String(repeating: "-", count: 119))
for row in rows {
    print(pad(row.operation, 46) + pad(String(format: "%.1f", row.milliseconds), 9, right: true)
          + pad(row.cpuMilliseconds.map { String(format: "%.0f", $0) } ?? "", 9, right: true)
          + pad(row.peakKiB.map { String(format: "%.1f", Double($0) / 1024) } ?? "", 9, right: true) + "  "
          + pad(row.target, 26) + pad(row.met, 5) + row.note)
}
