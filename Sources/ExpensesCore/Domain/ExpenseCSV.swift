import BillfoldCore
import Foundation

/// Why an export could not be written.
public enum ExportError: Error, LocalizedError, Hashable, Sendable {
    case cannotWrite(path: String, reason: String)
    /// The target is not a regular file (a FIFO, a device…) and was left alone.
    case notARegularFile(FileWriteError)

    public var errorDescription: String? {
        switch self {
        case .cannotWrite(let path, let reason):
            return String(format: tr("“%@” could not be saved: %@"), path, reason)
        case .notARegularFile(let error):
            return error.localizedDescription
        }
    }
}

/// Writes a file whole or not at all (`AtomicWrite`), or to standard output.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws(ExportError) {
        try write(data, to: .file(url))
    }

    public static func write(_ data: Data, to target: OutputTarget) throws(ExportError) {
        do {
            try target.write(data)
        } catch .failed(_, let code) {
            throw .cannotWrite(path: target.displayName, reason: FileProblem.reason(errno: code))
        } catch {
            throw .notARegularFile(error)
        }
    }
}

/// A trip's expenses as CSV for a spreadsheet or an accounting import (RFC 4180).
///
/// - UTF-8 **without** a byte order mark: RFC 4180 and most importers expect none (a BOM
///   would become part of the first column's name). `includesByteOrderMark` adds one for
///   spreadsheets that only recognise UTF-8 by it.
/// - Lines end in CRLF; fields holding a comma, a quote, CR or LF are quoted, quotes doubled.
/// - Header names, categories and units are fixed identifiers, not translated; numbers use
///   "." and no grouping ("1234.50"); days are ISO 8601 ("2024-03-01"). The same trip gives
///   the same bytes in every locale.
public enum ExpenseCSV {
    public static let header = [
        "date", "category", "vendor", "amount", "currency", "exchange_rate", "converted_amount",
        "trip_currency", "distance", "distance_unit", "rate_per_unit", "notes", "receipt",
        // Last, so importers that read the columns before them by position keep working.
        "vat", "vat_by_rate",
    ]

    /// The CSV text: a header row, then one row per expense in the order given.
    public static func string(for trip: Trip, expenses: [Expense]) -> String {
        var lines = [header.map(field).joined(separator: ",")]
        for expense in expenses {
            let mileage = expense.details.cost.mileage
            let values = [
                expense.date.isoString,
                expense.category.rawValue,
                expense.vendor,
                plainAmount(expense.originalAmount),
                expense.originalAmount.currency.code,
                expense.amounts.exchangeRate.map(plainDecimal) ?? "",
                plainAmount(expense.convertedAmount),
                trip.currency.code,
                mileage.map { plainDecimal($0.distance) } ?? "",
                mileage?.unit.rawValue ?? "",
                mileage.map { plainDecimal($0.ratePerUnit) } ?? "",
                expense.notes,
                expense.receipt?.fileName ?? "",
                vatTotal(expense.vat),
                expense.vat.map(vatEntry).joined(separator: ";"),
            ]
            lines.append(values.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    public static func data(for trip: Trip, expenses: [Expense], includesByteOrderMark: Bool = false) -> Data {
        var data = includesByteOrderMark ? Data([0xEF, 0xBB, 0xBF]) : Data()
        data.append(contentsOf: string(for: trip, expenses: expenses).utf8)
        return data
    }

    /// Writes the CSV to `url` through a temporary file and a rename.
    public static func write(for trip: Trip, expenses: [Expense], to url: URL,
                             includesByteOrderMark: Bool = false) throws(ExportError) {
        try AtomicFile.write(data(for: trip, expenses: expenses, includesByteOrderMark: includesByteOrderMark), to: url)
    }

    /// One field, quoted when RFC 4180 says it must be.
    static func field(_ value: String) -> String {
        let needsQuotes = value.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Major units with exactly the currency's decimals: "12.50", "1000" (JPY), "-0.05".
    static func plainAmount(_ money: Money) -> String {
        let exponent = money.currency.minorUnitExponent
        var digits = String(money.minorUnits.magnitude)
        if exponent > 0 {
            if digits.count <= exponent { digits = String(repeating: "0", count: exponent - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -exponent))
        }
        return (money.minorUnits < 0 ? "-" : "") + digits
    }

    /// The invoice's VAT in the currency paid; empty when it stated none (or cannot be summed).
    static func vatTotal(_ vat: [ExpenseVAT]) -> String {
        guard let total = try? vat.totalTax() else { return "" }
        return plainAmount(total)
    }

    /// "S:19:100.00:19.00": category code, rate (empty for none), taxable amount, VAT.
    static func vatEntry(_ line: ExpenseVAT) -> String {
        [line.categoryCode, line.rate.map(plainDecimal) ?? "", plainAmount(line.taxableAmount), plainAmount(line.taxAmount)]
            .joined(separator: ":")
    }

    /// Decimal's own description is locale-independent: "1.0825", "42".
    static func plainDecimal(_ value: Decimal) -> String {
        value.description
    }
}
