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
        ]
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
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "list":
                let options = try ListOptions(rest)
                let repository = try InvoiceRepository(database: database)
                output.standard(try listTable(repository: repository, options: options, today: today, formatting: formatting))
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

    static func listTable(repository: InvoiceRepository, options: ListOptions, today: CalendarDay,
                          formatting: Formatting) throws -> String {
        var rows: [[String]] = []
        var offset = 0
        // Paged, so a very long list never holds all rows' SQL state at once.
        while true {
            let page = try repository.invoiceSummaries(matching: options.query, limit: 1000, offset: offset, today: today)
            for summary in page {
                rows.append([
                    summary.number,
                    summary.clientName,
                    formatting.money.string(from: summary.total),
                    summary.dueDate.formatted(.medium, locale: formatting.dateLocale),
                    summary.displayStatus.title,
                ])
            }
            if page.count < 1000 { break }
            offset += page.count
        }
        guard !rows.isEmpty else {
            return options.query.search.isEmpty && options.query.filter == .all
                ? tr("There are no invoices yet.") : tr("No invoices match.")
        }
        let header = [tr("Number"), tr("Client"), tr("Total"), tr("Due"), tr("Status")]
        return TextTable(header: header, rows: rows, rightAligned: [2]).render()
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
        guard let invoice = try repository.invoice(number: options.number), let id = invoice.id else {
            throw CommandError.noSuchInvoice(options.number)
        }
        let document = try repository.document(for: id)
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

/// A plain-text table for a terminal: columns padded to their widest cell, counting wide
/// (CJK, emoji) characters as two cells and combining marks as none.
struct TextTable {
    let header: [String]
    let rows: [[String]]
    let rightAligned: Set<Int>
    var maximumCellWidth = 40

    func render() -> String {
        let cells = ([header] + rows).map { $0.map { truncate(singleLine($0)) } }
        var widths = [Int](repeating: 0, count: header.count)
        for row in cells {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], Self.width(cell)) }
        }
        var lines: [String] = []
        for (index, row) in cells.enumerated() {
            let padded = row.enumerated().map { column, cell -> String in
                let padding = String(repeating: " ", count: widths[column] - Self.width(cell))
                if rightAligned.contains(column) { return padding + cell }
                return column == row.count - 1 ? cell : cell + padding
            }
            lines.append(padded.joined(separator: "  "))
            if index == 0 {
                lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private func truncate(_ text: String) -> String {
        guard Self.width(text) > maximumCellWidth else { return text }
        var result = ""
        for character in text {
            if Self.width(result + String(character)) > maximumCellWidth - 1 { break }
            result.append(character)
        }
        return result + "…"
    }

    static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    private static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .format { return 0 }
        if character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) {
            return 2
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
