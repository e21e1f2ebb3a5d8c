import BillfoldCore
import Foundation
import InvoicesCore

/// Typst from PyPI in its own virtual environment, and the invoice written as Typst source:
/// the same facts, lines, totals and running footer as Billfold's template, in the same font.
struct TypstRunner {
    let python: String
    let scratch: URL

    init(venv: URL, scratch: URL) throws {
        python = venv.appendingPathComponent("bin/python").path
        self.scratch = scratch
        if !FileManager.default.isExecutableFile(atPath: python) || !Self.hasTypst(python) {
            print("Installing Typst into \(venv.path)…")
            try Self.shell(["python3", "-m", "venv", venv.path])
            try Self.shell([venv.appendingPathComponent("bin/pip").path, "install", "--quiet", "typst"])
        }
    }

    /// One compile in a fresh interpreter; `timed` prints the wall and CPU milliseconds
    /// `typst.compile` took inside the process (after the import) instead of nothing.
    func run(_ source: URL, timed: Bool, environment: [String: String]) -> Run {
        let script = timed
            ? "import sys, time, typst\nstart, cpu = time.perf_counter(), time.process_time()\ntypst.compile(sys.argv[1], output=sys.argv[2])\nprint((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)"
            : "import sys, typst\ntypst.compile(sys.argv[1], output=sys.argv[2])"
        return spawn([python, "-c", script, source.path, source.deletingPathExtension().path + ".pdf"],
                                        environment: environment, scratch: scratch)
    }

    func writeSource(for document: InvoiceDocument, name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name + ".typ")
        try Self.source(document).write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static func source(_ document: InvoiceDocument) -> String {
        let money = MoneyFormatter(locale: Locale(identifier: "en_US"))
        let numbers = NumberFormatting(locale: Locale(identifier: "en_US"))
        func text(_ value: String) -> String {
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        func date(_ day: CalendarDay) -> String { text(day.formatted(.medium, locale: Locale(identifier: "en_US"))) }
        let invoice = document.invoice
        let profile = document.profile
        let lines = zip(invoice.lines, document.totals.lineNets).map { line, net in
            "(" + [text(line.description), text(numbers.string(from: line.quantity)), text(line.unit),
                   text(money.string(from: line.unitPrice)),
                   text(numbers.percentString(from: line.taxRate, maximumFractionDigits: 4)),
                   text(money.string(from: net))].joined(separator: ", ") + "),"
        }
        var totals = [(tr("Subtotal"), money.string(from: document.totals.subtotal))]
        for line in document.totals.taxLines {
            totals.append((String(format: "Tax %@ on %@", numbers.percentString(from: line.rate, maximumFractionDigits: 4),
                                  money.string(from: line.taxableAmount)), money.string(from: line.tax)))
        }
        totals.append(("Total", money.string(from: document.totals.total)))
        return """
        #set page(paper: "a4", margin: (top: 52pt, left: 56pt, bottom: 60pt, right: 56pt),
          footer: context [#set text(size: 7.5pt, fill: luma(110)); \(text(profile.name + " · Invoice " + invoice.number)) #h(1fr) Page #counter(page).display() of #counter(page).final().first()])
        #set text(font: "DejaVu Sans", size: 9pt)
        #let lines = (
        \(lines.joined(separator: "\n"))
        )
        #grid(columns: (1.2fr, 1fr), gutter: 32pt,
          [#text(size: 11pt, weight: "semibold", \(text(profile.name))) \\ #text(fill: luma(90), \(text(profile.address)))],
          align(right)[#text(size: 24pt, weight: "semibold")[Invoice] \\ Invoice number #h(8pt) \(text(invoice.number)) \\
            Issue date #h(8pt) \(date(invoice.issueDate)) \\ Due date #h(8pt) \(date(invoice.dueDate))])
        #v(26pt)
        #grid(columns: (1.2fr, 1fr), gutter: 32pt,
          [#text(size: 7.5pt, weight: "semibold")[BILL TO] \\ #text(size: 10pt, weight: "semibold", \(text(document.billTo.name))) \\ \(text(document.billTo.address))],
          align(right)[#text(size: 7.5pt, weight: "semibold")[AMOUNT DUE] \\ #text(size: 18pt, weight: "semibold", \(text(money.string(from: document.totals.balanceDue)))) \\ Due \(date(invoice.dueDate))])
        #v(18pt)
        #table(columns: (1fr, auto, auto, auto, auto, auto), align: (left, right, left, right, right, right),
          stroke: (x: none, y: 0.5pt + luma(210)), inset: (x: 6pt, y: 7pt),
          table.header(..("Description", "Qty", "Unit", "Unit price", "Tax", "Amount").map(h => text(size: 7.5pt, weight: "semibold", h))),
          ..lines.flatten())
        #grid(columns: (1fr, 250pt), gutter: 28pt,
          [#text(size: 7.5pt, weight: "semibold")[PAYMENT] \\ \(text(profile.paymentInstructions)) \\ Reference #h(8pt) \(text(invoice.number))],
          table(columns: (1fr, auto), stroke: none, align: (left, right),
            \(totals.map { text($0.0) + ", " + text($0.1) + "," }.joined(separator: " "))))
        #v(22pt)
        #text(size: 7.5pt, weight: "semibold")[NOTES] \\
        \(text(invoice.notes))

        """
    }

    private static func hasTypst(_ python: String) -> Bool {
        (try? shell([python, "-c", "import typst"])) != nil
    }

    private static func shell(_ argv: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = argv
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
    }
}
