import BillfoldCore
import Foundation
import Storage

/// `billfold invoice …`: lists invoices and exports one as PDF, without a display.
public enum InvoicesCommandLine {
    /// Where the command writes; tests collect the text instead.
    public struct Output: Sendable {
        public let standard: @Sendable (String) -> Void
        public let error: @Sendable (String) -> Void

        public init(standard: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
            self.standard = standard
            self.error = error
        }

        public static let console = Output(
            standard: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            error: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    /// Formatting for the table; the user's locale unless a test pins one.
    public struct Formatting: Sendable {
        public var money: MoneyFormatter
        public var numbers: NumberFormatting
        public var dateLocale: Locale

        public init(money: MoneyFormatter = MoneyFormatter(), numbers: NumberFormatting = NumberFormatting(),
                    dateLocale: Locale = UserLocale.time) {
            self.money = money
            self.numbers = numbers
            self.dateLocale = dateLocale
        }
    }

    /// The forms `billfold --help` lists.
    public static var usage: [String] {
        [
            "invoice list [--status all|draft|sent|overdue|paid|cancelled] [--search TEXT] [--sort date|due|amount]",
            "invoice export NUMBER [--format pdf|facturx|xrechnung] --output FILE|-",
            "invoice recurring list|run",
        ] + ExchangeCommandLine.invoiceUsage
    }

    /// Runs `arguments` (what follows `invoice`) against `database`; returns the exit status:
    /// 0 done, 1 failed (the message says why), 2 the arguments were wrong.
    /// `plan` is the user's: PDF exports need Billfold Pro here as in the window.
    public static func run(arguments: [String], database: Database, plan: InvoicePlan, today: CalendarDay = .today(),
                           formatting: Formatting = Formatting(), output: Output = .console) -> Int32 {
        guard let command = arguments.first else {
            output.error(usageText)
            return 2
        }
        if let status = ExchangeCommandLine.runInvoice(arguments: arguments, database: database, plan: plan, output: output) {
            return status
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "list":
                let options = try ListOptions(rest)
                let repository = try InvoiceRepository(database: database)
                // Both passes of the table read the same snapshot.
                try database.transaction(.deferred) {
                    try writeList(repository: repository, options: options, today: today, formatting: formatting, output: output)
                }
                return 0
            case "export":
                let options = try ExportOptions(rest)
                let repository = try InvoiceRepository(database: database)
                if options.format != .xrechnung { try plan.checkPDFExport() }
                try export(repository: repository, options: options, formatting: formatting)
                // With --output - the PDF is standard output, so the note goes to standard error.
                let say = options.output == .standardOutput ? output.error : output.standard
                say(String(format: tr("Saved %@."), options.output.displayName))
                return 0
            case "recurring":
                let repository = try InvoiceRepository(database: database)
                if rest == ["list"] {
                    writeRecurring(try repository.recurringInvoices(), formatting: formatting, output: output)
                    return 0
                }
                guard rest == ["run"] else { throw UsageError.unknownCommand((["recurring"] + rest).joined(separator: " ")) }
                let run = try repository.issueDueRecurringInvoices(today: today, plan: plan, locale: formatting.dateLocale)
                for issued in run.issued {
                    output.standard(String(format: tr("Issued %@ for %@."), issued.number, issued.periodTitle))
                }
                output.standard(run.summary ?? tr("No recurring invoice is due."))
                // Periods held back by the plan are not a failure of the run, but a timer's log should show them.
                return run.waitingForPlan > 0 ? 1 : 0
            case "--help", "-h", "help":
                output.standard(usageText)
                return 0
            default:
                throw UsageError.unknownCommand(command)
            }
        } catch let error as UsageError {
            output.error(error.localizedDescription + "\n\n" + usageText)
            return 2
        } catch {
            output.error(error.localizedDescription)
            return 1
        }
    }

    static var usageText: String {
        ([tr("Usage:")] + usage.map { "  billfold " + $0 }).joined(separator: "\n")
    }

    // MARK: - list

    struct ListOptions {
        var query = InvoiceListQuery()

        init(_ arguments: [String]) throws(UsageError) {
            var remaining = arguments[...]
            while let option = remaining.popFirst() {
                guard let value = remaining.popFirst() else { throw .missingValue(option) }
                switch option {
                case "--status":
                    guard let filter = InvoiceFilter(rawValue: value) else { throw .invalidValue(option, value) }
                    query.filter = filter
                case "--search":
                    query.search = value
                case "--sort":
                    switch value {
                    case "date": query.sort = .issueDate
                    case "due": query.sort = .dueDate; query.ascending = true
                    case "amount": query.sort = .amount
                    default: throw .invalidValue(option, value)
                    }
                default:
                    throw .unknownOption(option)
                }
            }
        }
    }

    /// Writes the table as SQLite reads the rows, so memory stays flat however long the list.
    /// A first, unsorted pass finds the columns' widths: amounts need only each currency's
    /// extremes, and each due date is formatted once. In both passes this thread reads the
    /// rows and another fits or writes them.
    static func writeList(repository: InvoiceRepository, options: ListOptions, today: CalendarDay,
                          formatting: Formatting, output: Output) throws {
        var table = TextTable(header: [tr("Number"), tr("Client"), tr("Total"), tr("Due"), tr("Status")], rightAligned: [2])
        var dueDates: [CalendarDay: String] = [:]
        var amounts: [Currency: ClosedRange<Int64>] = [:]
        // Looked up once: gettext for every row was a tenth of the time.
        let statusTitles = Dictionary(uniqueKeysWithValues: InvoiceDisplayStatus.allCases.map { ($0, $0.title) })
        try withPipeline(consume: { (summaries: [InvoiceSummary]) in
            for summary in summaries {
                table.fit(summary.number, column: 0)
                table.fit(summary.clientName, column: 1)
                let minor = summary.total.minorUnits
                let range = amounts[summary.total.currency] ?? minor...minor
                amounts[summary.total.currency] = min(range.lowerBound, minor)...max(range.upperBound, minor)
                if dueDates[summary.dueDate] == nil {
                    dueDates[summary.dueDate] = summary.dueDate.formatted(.medium, locale: formatting.dateLocale)
                }
                table.fit(statusTitles[summary.displayStatus] ?? "", column: 4)
            }
        }, produce: { send in
            try repository.forEachInvoiceSummary(matching: options.query, today: today, ordered: false, send)
        })
        guard !amounts.isEmpty else {
            output.standard(options.query.search.isEmpty && options.query.filter == .all
                ? tr("There are no invoices yet.") : tr("No invoices match."))
            return
        }
        for (currency, range) in amounts {
            for extreme in [range.lowerBound, range.upperBound] {
                table.fit(formatting.money.string(from: Money(minorUnits: extreme, currency: currency)), column: 2)
            }
        }
        dueDates.values.forEach { table.fit($0, column: 3) }

        var lines = ChunkedLines { output.standard($0) }
        table.headerLines.forEach { lines.append($0) }
        try withPipeline(consume: { (summaries: [InvoiceSummary]) in
            for summary in summaries {
                lines.append([summary.number, summary.clientName, formatting.money.string(from: summary.total),
                              dueDates[summary.dueDate] ?? "", statusTitles[summary.displayStatus] ?? ""], of: table)
            }
        }, produce: { send in
            try repository.forEachInvoiceSummary(matching: options.query, today: today, send)
        })
        lines.flush()
    }

    // MARK: - recurring

    /// One line per recurring invoice: client, how often, what each invoice comes to before
    /// tax, when the next one is issued, and how many were.
    static func writeRecurring(_ summaries: [RecurringInvoiceSummary], formatting: Formatting, output: Output) {
        guard !summaries.isEmpty else {
            output.standard(tr("There are no recurring invoices yet."))
            return
        }
        var table = TextTable(header: [tr("Client"), tr("Repeat"), tr("Before tax"), tr("Next"), tr("Issued")],
                              rightAligned: [2, 4])
        let rows = summaries.map { summary -> [String] in
            let recurring = summary.recurring
            let net: String
            do {
                net = formatting.money.string(from: try Money.sum(recurring.lines.map { try $0.netAmount() },
                                                                  currency: recurring.currency))
            } catch {
                net = error.localizedDescription
            }
            let next = recurring.isPaused ? tr("Paused")
                : summary.nextIssueDate.map { $0.formatted(.medium, locale: formatting.dateLocale) } ?? tr("Ended")
            return [summary.clientName, recurring.interval.title, net, next, formatting.numbers.string(from: summary.issuedCount)]
        }
        rows.forEach { table.fit($0) }
        (table.headerLines + rows.map(table.line)).forEach(output.standard)
    }

    // MARK: - export

    struct ExportOptions {
        var number: String
        var output: OutputTarget
        var format: InvoiceExportFormat = .pdf

        init(_ arguments: [String]) throws(UsageError) {
            var number: String?
            var output: String?
            var format: InvoiceExportFormat?
            var remaining = arguments[...]
            while let argument = remaining.popFirst() {
                if argument == "--output" || argument == "-o" {
                    guard let value = remaining.popFirst() else { throw .missingValue(argument) }
                    output = value
                } else if argument == "--format" || argument == "-f" {
                    guard let value = remaining.popFirst() else { throw .missingValue(argument) }
                    guard let chosen = InvoiceExportFormat(rawValue: value.lowercased()) else { throw .invalidValue(argument, value) }
                    format = chosen
                } else if argument.hasPrefix("-") {
                    throw .unknownOption(argument)
                } else if number == nil {
                    number = argument
                } else {
                    throw .unexpectedArgument(argument)
                }
            }
            guard let number else { throw .missingNumber }
            guard let output, !output.isEmpty else { throw .missingValue("--output") }
            self.number = number
            self.output = OutputTarget(argument: output)
            self.format = format ?? .pdf
        }
    }

    static func export(repository: InvoiceRepository, options: ExportOptions, formatting: Formatting) throws {
        guard let invoice = try repository.invoice(number: options.number) else {
            throw CommandError.noSuchInvoice(options.number)
        }
        let document = try repository.document(for: invoice)
        try EInvoiceExport.write(document, as: options.format, to: options.output,
                                 formatting: InvoiceTemplate.Formatting(money: formatting.money, numbers: formatting.numbers,
                                                                        dateLocale: formatting.dateLocale))
    }

    // MARK: - Errors

    enum UsageError: Error, LocalizedError {
        case unknownCommand(String)
        case unknownOption(String)
        case missingValue(String)
        case invalidValue(String, String)
        case missingNumber
        case unexpectedArgument(String)

        var errorDescription: String? {
            switch self {
            case .unknownCommand(let command):
                return String(format: tr("Unknown invoice command “%@”."), command)
            case .unknownOption(let option):
                return String(format: tr("Unknown option “%@”."), option)
            case .missingValue(let option):
                return String(format: tr("The option %@ needs a value."), option)
            case .invalidValue(let option, let value):
                return String(format: tr("“%@” is not a valid value for %@."), value, option)
            case .missingNumber:
                return tr("Name the invoice to export by its number.")
            case .unexpectedArgument(let argument):
                return String(format: tr("Unexpected argument “%@”."), argument)
            }
        }
    }

    enum CommandError: Error, LocalizedError {
        case noSuchInvoice(String)

        var errorDescription: String? {
            switch self {
            case .noSuchInvoice(let number):
                return String(format: tr("There is no invoice numbered %@. Run “billfold invoice list” to see the numbers."), number)
            }
        }
    }
}
