import BillfoldCore
import Documents
import Foundation
import Storage

/// `billfold client import|export`, `billfold invoice import|export-csv` and `billfold report
/// receivables|revenue`: CSV in and out and the two reports, with the window's rules.
public enum ExchangeCommandLine {
    public typealias Output = InvoicesCommandLine.Output

    public static var clientUsage: [String] {
        [
            "client export --output FILE.csv|-",
            "client import FILE [--dry-run] [--number-format plain|LOCALE]",
        ]
    }

    public static var invoiceUsage: [String] {
        [
            "invoice export-csv --output FILE.csv|-",
            "invoice import FILE [--dry-run] [--number-format plain|LOCALE]",
        ]
    }

    public static var reportUsage: [String] {
        [
            "report receivables [--as-of DATE] --output FILE.pdf|FILE.csv|- [--format pdf|csv]",
            "report revenue --year YEAR --output FILE.pdf|FILE.csv|- [--format pdf|csv]",
        ]
    }

    /// `billfold client …`: 0 done, 1 failed (a row's problem or the plan; the message says
    /// which), 2 the arguments were wrong.
    public static func runClient(arguments: [String], database: Database, plan: InvoicePlan,
                                 output: Output = .console) -> Int32 {
        run(usage: clientUsage, output: output) {
            let repository = try InvoiceRepository(database: database)
            switch arguments.first {
            case "export":
                let target = try outputTarget(Array(arguments.dropFirst()))
                try write(Data(try repository.clientsCSV().utf8), to: target, output: output)
                return 0
            case "import":
                return try importFile(.clients, Array(arguments.dropFirst()), repository: repository, plan: plan, output: output)
            default:
                throw ExchangeUsageError.unknownCommand(arguments.first ?? "")
            }
        }
    }

    /// The CSV forms of `billfold invoice …`; nil when `arguments` is not one of them.
    public static func runInvoice(arguments: [String], database: Database, plan: InvoicePlan,
                                  output: Output = .console) -> Int32? {
        guard let command = arguments.first, command == "import" || command == "export-csv" else { return nil }
        return run(usage: invoiceUsage, output: output) {
            let repository = try InvoiceRepository(database: database)
            if command == "export-csv" {
                let target = try outputTarget(Array(arguments.dropFirst()))
                try target.writeInPieces { try repository.writeInvoicesCSV($0) }
                if target != .standardOutput { output.standard(String(format: tr("Saved %@."), target.displayName)) }
                return 0
            }
            return try importFile(.invoices, Array(arguments.dropFirst()), repository: repository, plan: plan, output: output)
        }
    }

    /// `billfold report …`.
    public static func runReport(arguments: [String], database: Database, today: CalendarDay = .today(),
                                 formatting: InvoicesCommandLine.Formatting = .init(), output: Output = .console) -> Int32 {
        run(usage: reportUsage, output: output) {
            let repository = try InvoiceRepository(database: database)
            var options = ReportOptions(today: today)
            let kind = arguments.first ?? ""
            guard kind == "receivables" || kind == "revenue" else { throw ExchangeUsageError.unknownCommand(kind) }
            try options.read(Array(arguments.dropFirst()), dateLocale: formatting.dateLocale)
            let templateFormatting = InvoiceTemplate.Formatting(money: formatting.money, numbers: formatting.numbers,
                                                                dateLocale: formatting.dateLocale)
            let business = try repository.profile().name
            let csv: String
            let document: Document
            if kind == "receivables" {
                let report = try repository.receivables(asOf: options.asOf)
                csv = report.csv()
                document = ReportTemplates.document(report, businessName: business, formatting: templateFormatting)
            } else {
                guard let year = options.year else { throw ExchangeUsageError.missingValue("--year") }
                let summary = try repository.revenueSummary(year: year)
                csv = summary.csv()
                document = ReportTemplates.document(summary, businessName: business, formatting: templateFormatting)
            }
            guard let target = options.output else { throw ExchangeUsageError.missingValue("--output") }
            if options.isPDF {
                try document.writePDF(to: target)
                let say = target == .standardOutput ? output.error : output.standard
                say(String(format: tr("Saved %@."), target.displayName))
            } else {
                try write(Data(csv.utf8), to: target, output: output)
            }
            return 0
        }
    }

    // MARK: - Import

    static func importFile(_ content: CSVContent, _ arguments: [String], repository: InvoiceRepository,
                           plan: InvoicePlan, output: Output) throws -> Int32 {
        var path: String?
        var dryRun = false
        var format: CSVNumberFormat?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--dry-run":
                dryRun = true
            case "--number-format":
                guard let value = remaining.popFirst() else { throw ExchangeUsageError.missingValue(argument) }
                format = value == "plain" ? .plain : .locale(Locale(identifier: value))
            default:
                if argument.hasPrefix("-") { throw ExchangeUsageError.unknownOption(argument) }
                guard path == nil else { throw ExchangeUsageError.unexpectedArgument(argument) }
                path = argument
            }
        }
        guard let path else { throw ExchangeUsageError.missingFile }
        let data: Data
        do {
            data = try RegularFile.read(path, limit: CSVImportFile.maximumSize)
        } catch {
            throw CSVImportError.unreadable(path: path, reason: error.reason)
        }
        let file = try CSVImportFile(data: data)
        let mapping = CSVMapping.detect(header: file.header, content: content)
        let chosen = format ?? file.suggestedNumberFormat(for: content)
        let preview = try repository.previewImport(file, content: content, mapping: mapping, format: chosen, plan: plan)
        for problem in preview.problems {
            output.error(String(format: tr("Line %d: %@"), problem.line, problem.message))
        }
        if let limit = preview.limitProblem { output.error(limit) }
        guard preview.problems.isEmpty, preview.limitProblem == nil else {
            output.error(preview.summary)
            if !preview.problems.isEmpty {
                output.error(CSVImportError.rowsHaveProblems(preview.problems.count).localizedDescription)
                if format == nil {
                    output.error(String(format: tr("Amounts were read as written in %@; if the file writes them otherwise, pass --number-format plain or the file’s locale, such as de_DE."),
                                        chosen.isPlain ? "plain" : chosen.locale.identifier))
                }
            }
            return 1
        }
        if dryRun {
            output.standard(String(format: tr("Dry run, nothing was imported: %@."), preview.summary))
            return 0
        }
        let result = try repository.importCSV(preview, plan: plan)
        output.standard(String(format: tr("Imported %@."), CSVImportPreview.describe(result, content: content, skipped: preview.alreadyThere)))
        return 0
    }

    // MARK: - Helpers

    private static func run(usage: [String], output: Output, _ body: () throws -> Int32) -> Int32 {
        do {
            return try body()
        } catch let error as ExchangeUsageError {
            output.error(error.localizedDescription + "\n\n" + ([tr("Usage:")] + usage.map { "  billfold " + $0 }).joined(separator: "\n"))
            return 2
        } catch {
            output.error(error.localizedDescription)
            return 1
        }
    }

    private static func outputTarget(_ arguments: [String]) throws -> OutputTarget {
        guard arguments.count == 2, arguments[0] == "--output" || arguments[0] == "-o" else {
            throw arguments.isEmpty ? ExchangeUsageError.missingValue("--output")
                : ExchangeUsageError.unexpectedArgument(arguments.joined(separator: " "))
        }
        return OutputTarget(argument: arguments[1])
    }

    private static func write(_ data: Data, to target: OutputTarget, output: Output) throws {
        try target.write(data)
        if target != .standardOutput { output.standard(String(format: tr("Saved %@."), target.displayName)) }
    }

    struct ReportOptions {
        var asOf: CalendarDay
        var year: Int?
        var output: OutputTarget?
        var isPDF = true

        init(today: CalendarDay) { asOf = today }

        mutating func read(_ arguments: [String], dateLocale: Locale) throws {
            var format: String?
            var remaining = arguments[...]
            while let option = remaining.popFirst() {
                guard let value = remaining.popFirst() else { throw ExchangeUsageError.missingValue(option) }
                switch option {
                case "--as-of":
                    if let day = CalendarDay(isoString: value) {
                        asOf = day
                    } else {
                        do { asOf = try CalendarDay.parse(value, locale: dateLocale) } catch {
                            throw ExchangeUsageError.invalidValue(option, value)
                        }
                    }
                case "--year":
                    guard let number = Int(value), (1...9999).contains(number) else { throw ExchangeUsageError.invalidValue(option, value) }
                    year = number
                case "--output", "-o":
                    output = OutputTarget(argument: value)
                case "--format":
                    guard value == "pdf" || value == "csv" else { throw ExchangeUsageError.invalidValue(option, value) }
                    format = value
                default:
                    throw ExchangeUsageError.unknownOption(option)
                }
            }
            if let format {
                isPDF = format == "pdf"
            } else if case .file(let url) = output {
                switch url.pathExtension.lowercased() {
                case "pdf": isPDF = true
                case "csv": isPDF = false
                default: throw ExchangeUsageError.needsFormat
                }
            } else if output == .standardOutput {
                throw ExchangeUsageError.needsFormat
            }
        }
    }
}

extension CSVImportPreview {
    /// "2 clients and 5 invoices; 3 were already in the library".
    public static func describe(_ result: CSVImportResult, content: CSVContent, skipped: Int) -> String {
        var text = content == .clients
            ? String(format: trn("%d client", "%d clients", result.clientsAdded), result.clientsAdded)
            : String(format: trn("%d invoice", "%d invoices", result.invoicesAdded), result.invoicesAdded)
        if content == .invoices, result.clientsAdded > 0 {
            text = String(format: tr("%@ with %@"), text,
                          String(format: trn("%d new client", "%d new clients", result.clientsAdded), result.clientsAdded))
        }
        if skipped > 0 {
            text = String(format: tr("%@; %@"), text,
                          String(format: trn("%d was already in the library", "%d were already in the library", skipped), skipped))
        }
        return text
    }
}

enum ExchangeUsageError: Error, LocalizedError {
    case unknownCommand(String)
    case unknownOption(String)
    case missingValue(String)
    case invalidValue(String, String)
    case unexpectedArgument(String)
    case missingFile
    case needsFormat

    var errorDescription: String? {
        switch self {
        case .unknownCommand(let command):
            return String(format: tr("Unknown command “%@”."), command)
        case .unknownOption(let option):
            return String(format: tr("Unknown option “%@”."), option)
        case .missingValue(let option):
            return String(format: tr("The option %@ needs a value."), option)
        case .invalidValue(let option, let value):
            return String(format: tr("“%@” is not a valid value for %@."), value, option)
        case .unexpectedArgument(let argument):
            return String(format: tr("Unexpected argument “%@”."), argument)
        case .missingFile:
            return tr("Name the CSV file to import.")
        case .needsFormat:
            return tr("Name the output FILE.pdf or FILE.csv, or choose one with --format pdf|csv.")
        }
    }
}
