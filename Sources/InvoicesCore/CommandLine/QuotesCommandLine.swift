import BillfoldCore
import Foundation
import Storage

/// `billfold quote …` and `billfold credit-note …`: list them and export one, without a
/// display, as `billfold invoice …` does and under the same plan: a PDF needs Billfold Pro,
/// an XRechnung XML does not.
public enum QuotesCommandLine {
    public enum Kind: Sendable {
        case quote
        case creditNote

        var command: String { self == .quote ? "quote" : "credit-note" }
    }

    public static func usage(_ kind: Kind) -> [String] {
        switch kind {
        case .quote:
            ["quote list", "quote export NUMBER [--format pdf] --output FILE|-"]
        case .creditNote:
            ["credit-note list", "credit-note export NUMBER [--format pdf|facturx|xrechnung] --output FILE|-"]
        }
    }

    /// Runs `arguments` (what follows `quote` or `credit-note`); returns 0 done, 1 failed (the
    /// message says why), 2 the arguments were wrong.
    public static func run(_ kind: Kind, arguments: [String], database: Database, plan: InvoicePlan,
                           today: CalendarDay = .today(), formatting: InvoicesCommandLine.Formatting = .init(),
                           output: InvoicesCommandLine.Output = .console) -> Int32 {
        let usageText = ([tr("Usage:")] + usage(kind).map { "  billfold " + $0 }).joined(separator: "\n")
        guard let command = arguments.first else {
            output.error(usageText)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "list":
                guard rest.isEmpty else { throw InvoicesCommandLine.UsageError.unexpectedArgument(rest[0]) }
                let repository = try InvoiceRepository(database: database)
                try database.transaction(.deferred) {
                    switch kind {
                    case .quote: try listQuotes(repository, today: today, formatting: formatting, output: output)
                    case .creditNote: try listCreditNotes(repository, formatting: formatting, output: output)
                    }
                }
                return 0
            case "export":
                let options = try InvoicesCommandLine.ExportOptions(rest)
                if kind == .quote, options.format != .pdf { throw InvoicesCommandLine.UsageError.invalidValue("--format", options.format.rawValue) }
                let repository = try InvoiceRepository(database: database)
                if options.format != .xrechnung { try plan.checkPDFExport() }
                let document: InvoiceDocument
                switch kind {
                case .quote:
                    guard let quote = try repository.quote(number: options.number) else { throw NotFound(kind: kind, number: options.number) }
                    document = try repository.document(for: quote)
                case .creditNote:
                    guard let note = try repository.creditNote(number: options.number) else { throw NotFound(kind: kind, number: options.number) }
                    document = try repository.document(for: note)
                }
                try EInvoiceExport.write(document, as: options.format, to: options.output,
                                         formatting: InvoiceTemplate.Formatting(money: formatting.money, numbers: formatting.numbers,
                                                                                dateLocale: formatting.dateLocale))
                let say = options.output == .standardOutput ? output.error : output.standard
                say(String(format: tr("Saved %@."), options.output.displayName))
                return 0
            case "--help", "-h", "help":
                output.standard(usageText)
                return 0
            default:
                throw InvoicesCommandLine.UsageError.unknownCommand(command)
            }
        } catch let error as InvoicesCommandLine.UsageError {
            output.error(error.localizedDescription + "\n\n" + usageText)
            return 2
        } catch {
            output.error(error.localizedDescription)
            return 1
        }
    }

    /// The table in two passes over the rows, as the invoice list does: widths first, then
    /// lines, so memory stays flat however many there are.
    static func listQuotes(_ repository: InvoiceRepository, today: CalendarDay, formatting: InvoicesCommandLine.Formatting,
                           output: InvoicesCommandLine.Output) throws {
        var table = TextTable(header: [tr("Number"), tr("Client"), tr("Total"), tr("Valid Until"), tr("Status")], rightAligned: [2])
        var dates: [CalendarDay: String] = [:]
        let titles = Dictionary(uniqueKeysWithValues: QuoteDisplayStatus.allCases.map { ($0, $0.title) })
        func row(_ summary: QuoteSummary) -> [String] {
            if dates[summary.validUntil] == nil { dates[summary.validUntil] = summary.validUntil.formatted(.medium, locale: formatting.dateLocale) }
            return [summary.number, summary.clientName, formatting.money.string(from: summary.total),
                    dates[summary.validUntil] ?? "", titles[summary.displayStatus] ?? ""]
        }
        try write(table: &table, empty: tr("There are no quotes yet."), output: output) { body in
            try repository.forEachQuoteSummary(today: today) { try body(row($0)) }
        }
    }

    static func listCreditNotes(_ repository: InvoiceRepository, formatting: InvoicesCommandLine.Formatting,
                                output: InvoicesCommandLine.Output) throws {
        var table = TextTable(header: [tr("Number"), tr("Invoice"), tr("Client"), tr("Credited"), tr("Issued")], rightAligned: [3])
        var dates: [CalendarDay: String] = [:]
        func row(_ summary: CreditNoteSummary) -> [String] {
            if dates[summary.issueDate] == nil { dates[summary.issueDate] = summary.issueDate.formatted(.medium, locale: formatting.dateLocale) }
            return [summary.number, summary.invoiceNumber, summary.clientName, formatting.money.string(from: summary.total),
                    dates[summary.issueDate] ?? ""]
        }
        try write(table: &table, empty: tr("There are no credit notes yet."), output: output) { body in
            try repository.forEachCreditNoteSummary { try body(row($0)) }
        }
    }

    /// Runs `rows` twice: to fit the columns, then to write each line.
    private static func write(table: inout TextTable, empty: String, output: InvoicesCommandLine.Output,
                              rows: (_ body: ([String]) throws -> Void) throws -> Void) throws {
        var count = 0
        try rows { cells in
            table.fit(cells)
            count += 1
        }
        guard count > 0 else {
            output.standard(empty)
            return
        }
        var lines = ChunkedLines { output.standard($0) }
        table.headerLines.forEach { lines.append($0) }
        let fitted = table
        try rows { lines.append($0, of: fitted) }
        lines.flush()
    }

    struct NotFound: Error, LocalizedError {
        let kind: Kind
        let number: String

        var errorDescription: String? {
            switch kind {
            case .quote:
                String(format: tr("There is no quote numbered %@. Run “billfold quote list” to see the numbers."), number)
            case .creditNote:
                String(format: tr("There is no credit note numbered %@. Run “billfold credit-note list” to see the numbers."), number)
            }
        }
    }
}
