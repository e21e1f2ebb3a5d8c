// Storage benchmark: bulk insert of invoices with line items in one transaction, a lookup of
// one client's invoices by index, and sums in SQL. Prints a table.
//
//   swift run -c release storage-benchmark [--invoices N]
import Foundation
import Storage

let invoiceCount: Int = {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--invoices"), index + 1 < arguments.count,
       let value = Int(arguments[index + 1]), value > 0 {
        return value
    }
    return 100_000
}()
let linesPerInvoice = 10
let clientCount = 1_000
let lookups = 1_000

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct Timing {
    var wall: Double
    var cpu: Double
}

/// Wall-clock time, and the CPU time this process used: on a shared machine the second shows
/// whether a slow wall time was this code or its neighbours.
func measure(_ body: () throws -> Void) rethrows -> Timing {
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = cpuSeconds()
    try body()
    return Timing(wall: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, cpu: cpuSeconds() - cpuStart)
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return value(usage.ru_utime) + value(usage.ru_stime)
}

func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var result = ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return result
}

struct Line {
    let operation: String
    let rows: Int
    let seconds: Double
    let cpuSeconds: Double
    let target: String
    let met: Bool?

    init(_ operation: String, rows: Int, _ timing: Timing, per count: Int = 1, target: String = "", met: Bool? = nil) {
        self.operation = operation
        self.rows = rows
        self.seconds = timing.wall / Double(count)
        self.cpuSeconds = timing.cpu / Double(count)
        self.target = target
        self.met = met
    }
}

func printTable(_ lines: [Line]) {
    let header = ["operation", "rows", "seconds", "cpu s", "rows/s", "target", ""]
    let body = lines.map { line -> [String] in
        let rate = line.seconds > 0 ? grouped(Int((Double(line.rows) / line.seconds).rounded())) : "-"
        let verdict = line.met.map { $0 ? "ok" : "MISSED" } ?? ""
        return [line.operation, grouped(line.rows), String(format: "%.6f", line.seconds),
                String(format: "%.6f", line.cpuSeconds), rate, line.target, verdict]
    }
    let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
    func render(_ cells: [String]) -> String {
        cells.enumerated().map { column, cell in
            column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[column] - cell.count) + cell
        }.joined(separator: "  ")
    }
    print(render(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    body.forEach { print(render($0)) }
}

func run() throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("billfold-storage-benchmark-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = try Database.open(path: directory.appendingPathComponent("benchmark.sqlite3").path)
    try database.executeScript("""
        CREATE TABLE client (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE invoice (
            id INTEGER PRIMARY KEY,
            client_id INTEGER NOT NULL REFERENCES client (id),
            number TEXT NOT NULL UNIQUE,
            issued_on TEXT NOT NULL,
            currency TEXT NOT NULL,
            total_minor INTEGER NOT NULL
        );
        CREATE INDEX invoice_by_client ON invoice (client_id, issued_on);
        CREATE TABLE invoice_line (
            id INTEGER PRIMARY KEY,
            invoice_id INTEGER NOT NULL REFERENCES invoice (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            description TEXT NOT NULL,
            quantity TEXT NOT NULL,
            unit_price_minor INTEGER NOT NULL,
            amount_minor INTEGER NOT NULL
        );
        CREATE INDEX invoice_line_by_invoice ON invoice_line (invoice_id);
        """)

    // Seeded and cheap: the system generator makes a system call per number, which would
    // be measured along with the inserts.
    var generator = SplitMix64(seed: 2024)
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    var expectedTotal: Int64 = 0
    // Quantities with their value in hundredths, so the amounts need no Decimal arithmetic here.
    let quantities: [(Decimal, Int64)] = [
        (1, 100), (2, 200), (3, 300), (Decimal(string: "0.5")!, 50), (Decimal(string: "1.25")!, 125), (8, 800),
    ]

    let insert = try measure {
        try database.transaction {
            let insertClient = try database.prepare("INSERT INTO client (id, name) VALUES (?, ?)")
            for client in 1...clientCount {
                try insertClient.execute([client, "Client \(client)"])
            }
            let insertInvoice = try database.prepare("""
                INSERT INTO invoice (id, client_id, number, issued_on, currency, total_minor)
                VALUES (?, ?, ?, ?, 'EUR', ?)
                """)
            let insertLine = try database.prepare("""
                INSERT INTO invoice_line (invoice_id, position, description, quantity, unit_price_minor, amount_minor)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            for invoice in 1...invoiceCount {
                var total: Int64 = 0
                var lineValues: [(Decimal, Int64, Int64)] = []
                for _ in 0..<linesPerInvoice {
                    let (quantity, hundredths) = quantities[Int.random(in: 0..<quantities.count, using: &generator)]
                    let price = Int64.random(in: 100...250_000, using: &generator)
                    let amount = (price * hundredths + 50) / 100
                    lineValues.append((quantity, price, amount))
                    total += amount
                }
                let issued = start.addingTimeInterval(Double(invoice % 1_000) * 86_400)
                try insertInvoice.execute([invoice, invoice % clientCount + 1, "INV-\(invoice)", issued, total])
                for (position, line) in lineValues.enumerated() {
                    try insertLine.execute([invoice, position + 1, "Consulting", line.0, line.1, line.2])
                }
                expectedTotal += total
            }
        }
    }

    var found = 0
    let lookup = try measure {
        for index in 0..<lookups {
            let client = index * 7 % clientCount + 1
            try database.query("""
                SELECT id, number, issued_on, total_minor FROM invoice WHERE client_id = ? ORDER BY issued_on
                """, [client]) { row in
                let _: Int64 = try row[0]
                found += 1
            }
        }
    }

    var invoiceSum: Int64 = 0
    let invoiceSumTiming = try measure {
        invoiceSum = try database.queryValue("SELECT sum(total_minor) FROM invoice", as: Int64.self) ?? 0
    }
    var lineSum: Int64 = 0
    let lineSumTiming = try measure {
        lineSum = try database.queryValue("SELECT sum(amount_minor) FROM invoice_line", as: Int64.self) ?? 0
    }

    let insertedRows = clientCount + invoiceCount * (1 + linesPerInvoice)
    let perLookup = lookup.wall / Double(lookups)
    print("Storage benchmark: \(grouped(invoiceCount)) invoices × \(linesPerInvoice) lines, "
          + "\(grouped(clientCount)) clients, SQLite \(sqliteVersion())")
    print("")
    printTable([
        Line("bulk insert, one transaction", rows: insertedRows, insert,
             target: "< 5 s", met: invoiceCount == 100_000 ? insert.wall < 5 : nil),
        Line("one client's invoices (mean of \(lookups))", rows: found / lookups, lookup, per: lookups,
             target: "< 1 ms", met: perLookup < 0.001),
        Line("sum of invoice totals in SQL", rows: invoiceCount, invoiceSumTiming),
        Line("sum of line amounts in SQL", rows: invoiceCount * linesPerInvoice, lineSumTiming),
    ])
    print("")
    let consistent = invoiceSum == expectedTotal && lineSum == expectedTotal
    print("sums agree with the inserted data: \(consistent ? "yes" : "NO") (\(invoiceSum) minor units)")
    if !consistent { exit(1) }
}

func sqliteVersion() -> String {
    (try? Database.inMemory().queryValue("SELECT sqlite_version()", as: String.self)) ?? "?"
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("storage-benchmark: \(error.localizedDescription)\n".utf8))
    exit(1)
}
