// Invoices benchmark: the list pane's queries over 100 000 invoices (and as many quotes, and the
// credit notes that cancel a tenth of the invoices) in a database file, as the UI makes them,
// the receivables and revenue reports, and the invoice PDF, with the targets from the issue.
// Prints a table.
//
//   swift run -c release invoices-benchmark [--invoices N] [--database FILE]
//
// With --database, an existing file that already holds N invoices is reused, so later runs skip
// the fill.
import BillfoldCore
import Foundation
import InvoicesCore
import InvoicesBenchmarkData
import Plans
import Storage

struct Arguments {
    var invoiceCount = 100_000
    var databasePath: String?

    init(_ arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--invoices":
                if let value = remaining.popFirst().flatMap(Int.init), value > 0 { invoiceCount = value }
            case "--database":
                databasePath = remaining.popFirst()
            default:
                FileHandle.standardError.write(Data("Unknown argument \(argument); use --invoices N or --database FILE.\n".utf8))
                exit(2)
            }
        }
    }
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// The median of `runs` timings after one warm-up run, which fills SQLite's page cache and the
/// statement cache as a list that is already open would have them.
func median(runs: Int = 7, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var samples: [Double] = []
    for _ in 0..<runs { samples.append(try milliseconds(body)) }
    samples.sort()
    return samples[samples.count / 2]
}

/// `count` invoice ids spread over the library, the same on every run.
func sample(count: Int) -> [InvoiceID] {
    var random = SplitMix64(seed: 7)
    return (0..<count).map { _ in InvoiceID(Int64.random(in: 1...Int64(arguments.invoiceCount), using: &random)) }
}

// MARK: - Run

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("invoices-benchmark-\(UUID().uuidString)")
let path = arguments.databasePath ?? temporary.appendingPathComponent("billfold.sqlite3").path
defer { if arguments.databasePath == nil { try? FileManager.default.removeItem(at: temporary) } }

do {
    var lines: [Line] = []
    let database = try Database.open(path: path, options: .init(backupDirectory: temporary.appendingPathComponent("backups").path))
    var repository: InvoiceRepository!
    let openTime = try milliseconds { repository = try InvoiceRepository(database: database) }
    if try repository.invoiceCount() != arguments.invoiceCount {
        guard try repository.invoiceCount() == 0 else {
            print("The database at \(path) holds another number of invoices; pass a new file.")
            exit(1)
        }
        print("Filling \(arguments.invoiceCount) invoices…")
        let fillTime = try milliseconds { try fill(repository, invoices: arguments.invoiceCount) }
        lines.append(Line(operation: "fill through the repository (one save each)", rows: arguments.invoiceCount,
                          milliseconds: fillTime, targetMilliseconds: nil))
        let quoteFillTime = try milliseconds { try fillQuotes(repository, quotes: arguments.invoiceCount) }
        lines.append(Line(operation: "fill quotes through the repository (one save each)", rows: arguments.invoiceCount,
                          milliseconds: quoteFillTime, targetMilliseconds: nil))
        try database.executeScript("PRAGMA optimize; ANALYZE")
    }
    lines.append(Line(operation: "open the repository (migrations checked)", rows: 0, milliseconds: openTime,
                      targetMilliseconds: nil))
    let today = CalendarDay(year: 2025, month: 1, day: 10)!

    var count = 0
    // What showing the list costs: all ids for the virtualized model, then the first screen's rows.
    for (name, query) in [("all, by date", InvoiceListQuery()),
                          ("overdue, by due date", InvoiceListQuery(filter: .overdue, sort: .dueDate)),
                          ("paid, by amount", InvoiceListQuery(filter: .paid, sort: .amount))] {
        var ids: [InvoiceID] = []
        let idTime = try median { ids = try repository.invoiceIDs(matching: query, today: today) }
        lines.append(Line(operation: "list ids (\(name))", rows: ids.count, milliseconds: idTime, targetMilliseconds: nil))
        let screenTime = try median { count = try repository.summaries(for: Array(ids.prefix(50)), today: today).count }
        lines.append(Line(operation: "list first screen rows (\(name))", rows: count, milliseconds: screenTime,
                          targetMilliseconds: nil))
        lines.append(Line(operation: "list shown (\(name))", rows: ids.count, milliseconds: idTime + screenTime,
                          targetMilliseconds: 200))
    }
    // The quote and credit note lists: every id, newest first, then the first screen's rows.
    var quoteIDs: [QuoteID] = []
    let quoteIDTime = try median { quoteIDs = try repository.quoteIDs() }
    let quoteScreenTime = try median { count = try repository.quoteSummaries(for: Array(quoteIDs.prefix(50)), today: today).count }
    lines.append(Line(operation: "quote list ids", rows: quoteIDs.count, milliseconds: quoteIDTime, targetMilliseconds: nil))
    lines.append(Line(operation: "quote list shown (ids and first screen)", rows: quoteIDs.count,
                      milliseconds: quoteIDTime + quoteScreenTime, targetMilliseconds: 200))
    let middle = Array(quoteIDs.dropFirst(quoteIDs.count / 2).prefix(260))
    let quoteScrollTime = try median { count = try repository.quoteSummaries(for: middle, today: today).count }
    lines.append(Line(operation: "quote rows around a scroll position", rows: count, milliseconds: quoteScrollTime,
                      targetMilliseconds: 30))
    var noteIDs: [CreditNoteID] = []
    let noteIDTime = try median { noteIDs = try repository.creditNoteIDs() }
    let noteScreenTime = try median { count = try repository.creditNoteSummaries(for: Array(noteIDs.prefix(50))).count }
    lines.append(Line(operation: "credit note list shown (ids and first screen)", rows: noteIDs.count,
                      milliseconds: noteIDTime + noteScreenTime, targetMilliseconds: 200))
    let linkTime = try median {
        for id in sample(count: 50) {
            _ = try repository.quote(convertedInto: id)
            _ = try repository.creditNotes(forInvoice: id)
        }
    } / 50
    lines.append(Line(operation: "an invoice's quote and credit notes (its pane's links)", rows: 1,
                      milliseconds: linkTime, targetMilliseconds: nil))

    let pageTime = try median { count = try repository.invoiceSummaries(matching: InvoiceListQuery(), limit: 50, today: today).count }
    lines.append(Line(operation: "first page by limit/offset", rows: count, milliseconds: pageTime, targetMilliseconds: 200))
    var pages = 0
    let headerTime = try median { count = try repository.outstandingTotals(today: today).count }
    lines.append(Line(operation: "outstanding and overdue per currency", rows: count, milliseconds: headerTime,
                      targetMilliseconds: nil))

    // The receivables window and `billfold report receivables`: every sent or paid invoice read
    // once, payments after the day added back, summed per client, currency and age.
    var receivables: ReceivablesReport!
    let receivablesTime = try median { receivables = try repository.receivables(asOf: today) }
    lines.append(Line(operation: "receivables as of a day (per client, currency, age)", rows: receivables.rows.count,
                      milliseconds: receivablesTime, targetMilliseconds: 200))
    let pastTime = try median { count = try repository.receivables(asOf: today.adding(days: -365)).rows.count }
    lines.append(Line(operation: "receivables a year earlier (later payments added back)", rows: count,
                      milliseconds: pastTime, targetMilliseconds: 200))
    var csvBytes = 0
    let receivablesCSVTime = median { csvBytes = receivables.csv().utf8.count }
    lines.append(Line(operation: "receivables as CSV (\(csvBytes / 1024) KiB)", rows: receivables.rows.count,
                      milliseconds: receivablesCSVTime, targetMilliseconds: nil))
    let receivablesPDFTime = try median(runs: 3) {
        pages = try ReportTemplates.document(receivables, businessName: "Benchmark").renderPDF().pageCount
    }
    lines.append(Line(operation: "receivables PDF (layout and render, \(pages) pages)", rows: receivables.rows.count,
                      milliseconds: receivablesPDFTime, targetMilliseconds: nil))
    let busiestYear = try repository.revenueYears().first ?? today.year
    let revenueTime = try median(runs: 3) { count = try repository.revenueSummary(year: busiestYear).currencies.count }
    lines.append(Line(operation: "revenue summary of \(busiestYear) (every line through InvoiceTotals)", rows: count,
                      milliseconds: revenueTime, targetMilliseconds: 1000))

    // Each keystroke does what the list pane does: keep the unsearched list's ids that match
    // the words (the list is already loaded), then read the first screen's rows. Beside it,
    // the same search as one SQL query that joins and sorts every match.
    let unsearched = try repository.invoiceIDs(matching: InvoiceListQuery(), today: today)
    for typed in ["a", "ac", "acm", "acme", "acme s", "website", "inv-2019"] {
        var ids: [InvoiceID] = []
        let time = try median {
            let matches = try repository.invoiceIDs(matchingSearch: typed)
            ids = matches.map { found in unsearched.filter(found.contains) } ?? unsearched
            count = try repository.summaries(for: Array(ids.prefix(50)), today: today).count
        }
        lines.append(Line(operation: "keystroke \"\(typed)\"", rows: ids.count, milliseconds: time, targetMilliseconds: 30))
        let sqlTime = try median { _ = try repository.invoiceIDs(matching: InvoiceListQuery(search: typed), today: today) }
        lines.append(Line(operation: "  (as one SQL query, \"\(typed)\")", rows: ids.count, milliseconds: sqlTime,
                          targetMilliseconds: nil))
    }
    // For comparison: the same search as a LIKE scan over every line's description.
    for typed in ["ac", "acme"] {
        let time = try median(runs: 3) {
            count = try database.query("SELECT i.id FROM invoices_invoice i JOIN invoices_client c ON c.id = i.client_id WHERE i.number LIKE ?1 OR c.name LIKE ?1 OR EXISTS (SELECT 1 FROM invoices_line l WHERE l.invoice_id = i.id AND l.description LIKE ?1) ORDER BY i.issue_date DESC, i.id DESC", ["%\(typed)%"]).count
        }
        lines.append(Line(operation: "  (LIKE scan instead of FTS5, \"\(typed)\")", rows: count, milliseconds: time,
                          targetMilliseconds: nil))
    }

    // Opening one invoice: the full invoice and everything its document shows.
    let loadTime = try milliseconds {
        for id in sample(count: 200) { _ = try repository.document(for: id) }
    } / 200
    lines.append(Line(operation: "load one invoice with its document data", rows: 1, milliseconds: loadTime,
                      targetMilliseconds: nil))

    // The invoice PDF: a 20-line invoice, laid out and rendered in memory.
    let client = try repository.clients().first!
    let twenty = twentyLineInvoice(clientID: client.id, on: today)
    let twentySource = try repository.document(for: twenty)
    let pdfTime = try median(runs: 21) { pages = try InvoicePDF.render(twentySource).pageCount }
    lines.append(Line(operation: "20-line invoice PDF (layout and render)", rows: pages, milliseconds: pdfTime,
                      targetMilliseconds: 10))
    // E-invoices: the CII XML of a 1 000-line invoice, next to the same invoice as a plain PDF.
    let thousand = try thousandLineEInvoice(on: today)
    var bytes = 0
    for format in EInvoiceFormat.allCases {
        let xmlTime = try median { bytes = try EInvoiceExport.ciiXML(thousand, format: format).count }
        lines.append(Line(operation: "1 000-line CII XML (\(format.rawValue)), \(bytes / 1024) KiB", rows: 1000,
                          milliseconds: xmlTime, targetMilliseconds: nil))
    }
    let thousandPDFTime = try median(runs: 3) { pages = try InvoicePDF.render(thousand).pageCount }
    lines.append(Line(operation: "1 000-line invoice PDF, plain (\(pages) pages)", rows: 1000, milliseconds: thousandPDFTime,
                      targetMilliseconds: nil))
    var facturXBytes = 0
    let facturXTime = try median(runs: 3) {
        let pdf = try EInvoiceExport.facturXPDF(thousand)
        pages = pdf.pageCount
        facturXBytes = pdf.data.count
    }
    lines.append(Line(operation: "1 000-line Factur-X PDF/A-3 with its XML (\(pages) pages, \(facturXBytes / 1024) KiB)",
                      rows: 1000, milliseconds: facturXTime, targetMilliseconds: nil))

    let exportFile = temporary.appendingPathComponent("export.pdf")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let someNumber = try repository.invoiceSummaries(limit: 1, today: today)[0].number
    let silent = InvoicesCommandLine.Output(standard: { _ in }, error: { _ in })
    let exportTime = try median {
        let status = InvoicesCommandLine.run(arguments: ["export", someNumber, "--output", exportFile.path],
                                             database: database, plan: .everything, output: silent)
        guard status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
    lines.append(Line(operation: "invoice export command, in process", rows: 1, milliseconds: exportTime,
                      targetMilliseconds: nil))

    print("Invoices benchmark: \(arguments.invoiceCount) invoices, SQLite \(try database.queryValue("SELECT sqlite_version()", as: String.self) ?? "?")")
    printTable(lines)
    database.close()
} catch {
    FileHandle.standardError.write(Data("The benchmark failed: \(error.localizedDescription)\n".utf8))
    exit(1)
}

extension InvoicePlan {
    /// The benchmark measures the export itself, as a Pro user runs it.
    static let everything = InvoicePlan(status: EntitlementStatus(tier: .pro, features: Set(Feature.allCases), license: nil,
                                                                  condition: .active))
}
