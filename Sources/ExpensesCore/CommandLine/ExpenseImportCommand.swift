import BillfoldCore
import Foundation
import Storage

/// `billfold expense import FILE --trip NAME`: an e-invoice (Factur-X / ZUGFeRD PDF, or CII or
/// UBL XML) becomes an expense of the trip, created when there is none of that name.
public enum ExpenseImportCommand {
    /// The word after `billfold` that selects these commands.
    public static let command = "expense"

    public static var usageLines: [String] {
        [
            "expense import FILE --trip NAME [--category CATEGORY] [--rate RATE]  "
                + tr("Add a supplier’s e-invoice (Factur-X, ZUGFeRD or XRechnung) to a trip as an expense"),
        ]
    }

    static var usage: String {
        ([tr("Usage: billfold expense import FILE --trip NAME [--category CATEGORY] [--rate RATE]"), "",
          tr("Reads the vendor, date, total and VAT per rate from the e-invoice, keeps the file as the receipt and prints the expense. A trip of that name is created when there is none."),
          "",
          "  --category  " + String(format: tr("One of: %@ (default: other)"),
                                    ExpenseCategory.allCases.filter { $0 != .mileage }.map(\.rawValue).joined(separator: ", ")),
          "  --rate      " + tr("How many units of the trip’s currency one unit of the invoice’s currency was worth"),
         ]).joined(separator: "\n")
    }

    /// Runs `billfold expense ARGUMENTS…`: 0 done, 1 failed (the reason is on standard error), 2 misused.
    public static func run(arguments: [String], database: Database, receipts: ReceiptStore,
                           output: CommandOutput = .standard) -> Int32 {
        guard let subcommand = arguments.first else {
            output.writeError(usage + "\n")
            return 2
        }
        do {
            switch subcommand {
            case "import":
                let options = try ImportOptions(Array(arguments.dropFirst()))
                let repository = try ExpenseRepository(database: database, receipts: receipts)
                let result = try importFile(options, into: repository)
                output.write(describe(result.expense, in: result.trip, createdTrip: result.createdTrip,
                                      receiptName: options.file.lastPathComponent))
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

    struct Imported {
        let expense: Expense
        let trip: Trip
        let createdTrip: Bool
    }

    /// Stores the file, reads its invoice and adds the expense; a file that is not a readable
    /// e-invoice adds nothing and says why.
    static func importFile(_ options: ImportOptions, into repository: ExpenseRepository) throws -> Imported {
        let imported = try repository.importInvoiceFile(from: options.file)
        let invoice = try imported.invoice.get()
        var createdTrip = false
        let trip: Trip
        if let existing = try repository.trip(named: options.tripName) {
            trip = existing
        } else {
            trip = try repository.createTrip(TripDetails(name: options.tripName, startDate: invoice.issueDate,
                                                         endDate: invoice.issueDate, currency: invoice.currency))
            createdTrip = true
        }
        if !createdTrip, let existing = try repository.expense(withReceipt: imported.receipt.reference, in: trip.id) {
            throw ImportCommandError.alreadyAdded(existing, trip: trip)
        }
        var details = invoice.expenseDetails(category: options.category, receipt: imported.receipt.reference)
        details.exchangeRate = options.rate
        do {
            if invoice.currency != trip.currency, options.rate == nil {
                throw ImportCommandError.needsRate(invoice: invoice.currency, trip: trip)
            }
            let expense = try repository.addExpense(details, to: trip.id)
            return Imported(expense: expense, trip: trip, createdTrip: createdTrip)
        } catch {
            // A trip made for this invoice alone goes again when its expense cannot be added.
            if createdTrip { _ = try repository.deleteTrip(trip.id) }
            throw error
        }
    }

    /// The expense as aligned "label  value" lines.
    static func describe(_ expense: Expense, in trip: Trip, createdTrip: Bool, receiptName: String,
                         money: MoneyFormatter = MoneyFormatter(), numbers: NumberFormatting = NumberFormatting()) -> String {
        var rows: [(String, String)] = [
            (tr("Date"), expense.date.formatted(.medium)),
            (tr("Vendor"), expense.vendor),
            (tr("Category"), expense.category.localizedName),
            (tr("Amount"), money.string(from: expense.originalAmount)),
        ]
        if let rate = expense.amounts.exchangeRate {
            rows.append((tr("Claimed"), String(format: tr("%@ at %@"), money.string(from: expense.convertedAmount),
                                                numbers.string(from: rate))))
        }
        for (index, line) in expense.vat.enumerated() {
            rows.append((index == 0 ? tr("VAT") : "", vatLine(line, money: money, numbers: numbers)))
        }
        if !expense.notes.isEmpty { rows.append((tr("Notes"), expense.notes)) }
        rows.append((tr("Receipt"), receiptName))
        let width = rows.map(\.0.count).max() ?? 0
        let heading = createdTrip
            ? String(format: tr("Added to the new trip “%@”:"), trip.name)
            : String(format: tr("Added to “%@”:"), trip.name)
        return ([heading] + rows.map { label, value in
            "  " + label + String(repeating: " ", count: width - label.count) + "  " + value
        }).joined(separator: "\n") + "\n"
    }

    /// "19 % on €100.00: €19.00".
    static func vatLine(_ line: ExpenseVAT, money: MoneyFormatter, numbers: NumberFormatting) -> String {
        String(format: tr("%@ on %@: %@"), line.rateText(numbers), money.string(from: line.taxableAmount),
               money.string(from: line.taxAmount))
    }
}

enum ImportCommandError: Error, LocalizedError {
    case needsRate(invoice: Currency, trip: Trip)
    case alreadyAdded(Expense, trip: Trip)

    var errorDescription: String? {
        switch self {
        case .needsRate(let invoice, let trip):
            return String(format: tr("The invoice is in %@ and the trip “%@” in %@: give how many %@ one %@ was worth with --rate."),
                          invoice.code, trip.name, trip.currency.code, trip.currency.code, invoice.code)
        case .alreadyAdded(let expense, let trip):
            return String(format: tr("This file is already the receipt of “%@” (%@) in “%@”; it was not added again."),
                          expense.vendor, expense.date.formatted(.medium), trip.name)
        }
    }
}

/// `FILE --trip NAME [--category C] [--rate R]`, options in any order.
struct ImportOptions {
    let file: URL
    let tripName: String
    let category: ExpenseCategory
    let rate: Decimal?

    init(_ arguments: [String]) throws(UsageError) {
        var file: String?
        var trip: String?
        var category = ExpenseCategory.other
        var rate: Decimal?
        var index = 0
        func value(_ option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw .missingValue(option) }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--trip": trip = try value(argument)
            case "--category":
                let text = try value(argument)
                guard let chosen = ExpenseCategory(rawValue: text.lowercased()), chosen != .mileage else {
                    throw .unexpected(text)
                }
                category = chosen
            case "--rate":
                let text = try value(argument)
                guard let parsed = DecimalText(text)?.decimal, parsed > 0 else { throw .unexpected(text) }
                rate = parsed
            case _ where argument.hasPrefix("-") && argument.count > 1: throw .unexpected(argument)
            default:
                guard file == nil else { throw .unexpected(argument) }
                file = argument
            }
            index += 1
        }
        guard let file, !file.isEmpty else { throw .missingFile }
        guard let trip, !trip.trimmingCharacters(in: .whitespaces).isEmpty else { throw .missingName }
        self.file = URL(fileURLWithPath: file).standardizedFileURL
        tripName = trip
        self.category = category
        self.rate = rate
    }
}
