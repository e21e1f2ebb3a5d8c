import BillfoldCore
import Foundation
import Storage

/// Where a command writes: standard output and standard error, or buffers in tests.
public struct CommandOutput: Sendable {
    public let write: @Sendable (String) -> Void
    public let writeError: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.writeError = writeError
    }

    public static let standard = CommandOutput(
        write: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) })
}

/// `billfold trip …`: the Expenses commands that need no display.
public enum ExpensesCommandLine {
    /// The word after `billfold` that selects these commands.
    public static let command = "trip"

    /// One line per form for `billfold --help`: the form, then what it does.
    public static var usageLines: [String] {
        [
            "trip list                                                " + tr("List trips with their dates, totals and expense counts"),
            "trip report NAME --output FILE.pdf|- [--traveller NAME]  " + tr("Write the reimbursement report of a trip as PDF"),
            "trip export NAME --output FILE.csv|-                     " + tr("Write a trip's expenses as CSV"),
        ]
    }

    /// Runs `billfold trip ARGUMENTS…` (`arguments` is what follows `trip`) and returns the
    /// exit status: 0 done, 1 failed (the reason is on standard error), 2 misused.
    /// `traveller` is the name the report is made out to.
    public static func run(arguments: [String], database: Database, receipts: ReceiptStore,
                           traveller: String = "", output: CommandOutput = .standard) -> Int32 {
        guard let subcommand = arguments.first else {
            output.writeError(usage + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch subcommand {
            case "list":
                guard rest.isEmpty else { throw UsageError.unexpected(rest[0]) }
                let repository = try ExpenseRepository(database: database, receipts: receipts)
                // Both passes of the table read the same snapshot.
                try database.transaction(.deferred) {
                    try writeTripTable({ try repository.forEachTripSummary($0) }, write: output.write)
                }
                return 0
            case "export":
                let parsed = try NamedOutput(rest, takesTraveller: false)
                let repository = try ExpenseRepository(database: database, receipts: receipts)
                guard let trip = try repository.trip(named: parsed.name) else { throw ExpensesError.noTripNamed(parsed.name) }
                try AtomicFile.write(ExpenseCSV.data(for: trip, expenses: try repository.expenses(in: trip.id)), to: parsed.output)
                // With --output - the file is standard output, so the note goes to standard error.
                let say = parsed.output == .standardOutput ? output.writeError : output.write
                say(String(format: tr("Saved %@"), parsed.output.displayName) + "\n")
                return 0
            case "report":
                let parsed = try NamedOutput(rest, takesTraveller: true)
                let repository = try ExpenseRepository(database: database, receipts: receipts)
                guard let trip = try repository.trip(named: parsed.name) else { throw ExpensesError.noTripNamed(parsed.name) }
                let report = try ExpenseReport.load(trip.id, from: repository, traveller: parsed.traveller ?? traveller)
                let pages = try report.writePDF(to: parsed.output)
                let say = parsed.output == .standardOutput ? output.writeError : output.write
                say(String(format: trn("Saved %@ (%d page)", "Saved %@ (%d pages)", pages), parsed.output.displayName, pages)
                    + "\n")
                return 0
            case "--help", "-h", "help":
                output.write(usage + "\n")
                return 0
            default:
                throw UsageError.unknownCommand(subcommand)
            }
        } catch let error as UsageError {
            output.writeError((error.errorDescription ?? "") + "\n\n" + usage + "\n")
            return 2
        } catch {
            output.writeError(error.localizedDescription + "\n")
            return 1
        }
    }

    static var usage: String {
        ([tr("Usage: billfold trip COMMAND"), "", tr("Commands:")] + usageLines.map { "  billfold " + $0 })
            .joined(separator: "\n")
    }

    /// The trip list as aligned columns: name, dates, total, number of expenses. Written as the
    /// rows are read, so memory stays flat: `forEach` runs twice, first to find the widths.
    static func writeTripTable(_ forEach: ((TripSummary) -> Void) throws -> Void, moneyFormatter: MoneyFormatter = MoneyFormatter(),
                               locale: Locale = UserLocale.time, write: @escaping (String) -> Void) rethrows {
        func cells(_ summary: TripSummary) -> [String] {
            [summary.trip.name, summary.trip.days.formatted(.medium, locale: locale),
             moneyFormatter.string(from: summary.total), String(summary.expenseCount)]
        }
        var table = TextTable(header: [tr("Name"), tr("Dates"), tr("Total"), tr("Expenses")], rightAligned: [2, 3])
        var isEmpty = true
        try forEach { summary in
            table.fit(cells(summary))
            isEmpty = false
        }
        guard !isEmpty else { return write(tr("No trips yet.") + "\n") }
        var lines = ChunkedLines { write($0 + "\n") }
        table.headerLines.forEach { lines.append($0) }
        try forEach { lines.append(cells($0), of: table) }
        lines.flush()
    }

    static func tripTable(_ summaries: [TripSummary], moneyFormatter: MoneyFormatter = MoneyFormatter(),
                          locale: Locale = UserLocale.time) -> String {
        var text = ""
        writeTripTable({ summaries.forEach($0) }, moneyFormatter: moneyFormatter, locale: locale) { text += $0 }
        return text
    }
}

/// A command line that cannot be understood; shown with the usage.
enum UsageError: Error, LocalizedError, Equatable {
    case unknownCommand(String)
    case unexpected(String)
    case missingName
    case missingOutput
    case missingValue(String)
    case missingFile

    var errorDescription: String? {
        switch self {
        case .unknownCommand(let word):
            return String(format: tr("Unknown command “%@”."), word)
        case .unexpected(let word):
            return String(format: tr("Unexpected argument “%@”."), word)
        case .missingName:
            return tr("Name the trip.")
        case .missingOutput:
            return tr("Say where to save the file with --output FILE.")
        case .missingValue(let option):
            return String(format: tr("%@ needs a value."), option)
        case .missingFile:
            return tr("Name the e-invoice file to import.")
        }
    }
}

/// `NAME --output FILE [--traveller NAME]`, options in any order; `--traveller` only for reports.
private struct NamedOutput {
    let name: String
    let output: OutputTarget
    let traveller: String?

    init(_ arguments: [String], takesTraveller: Bool) throws(UsageError) {
        var name: String?
        var output: String?
        var traveller: String?
        var index = 0
        func value(_ option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw .missingValue(option) }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--output", "-o": output = try value(argument)
            case "--traveller" where takesTraveller, "--traveler" where takesTraveller: traveller = try value(argument)
            case _ where argument.hasPrefix("--output="): output = String(argument.dropFirst("--output=".count))
            case _ where takesTraveller && argument.hasPrefix("--traveller="): traveller = String(argument.dropFirst("--traveller=".count))
            case _ where argument.hasPrefix("-") && argument.count > 1: throw .unexpected(argument)
            default:
                guard name == nil else { throw .unexpected(argument) }
                name = argument
            }
            index += 1
        }
        guard let name, !name.isEmpty else { throw .missingName }
        guard let output, !output.isEmpty else { throw .missingOutput }
        self.name = name
        self.output = OutputTarget(argument: output)
        self.traveller = traveller
    }
}
