import BillfoldCore
import Foundation
import Storage

/// A deleted trip, kept so the deletion can be undone. Its receipt files stay on disk until
/// `ExpenseRepository.purgeDeletedReceipts(_:)` ends the undo window.
public struct DeletedTrip: Hashable, Sendable {
    /// Names this deletion's hold on its receipt files.
    public let token: UUID
    public let trip: Trip
    public let expenses: [Expense]
    public let receipts: [ReceiptInfo]
}

/// A deleted expense, kept so the deletion can be undone; its receipt file is held meanwhile.
public struct DeletedExpense: Hashable, Sendable {
    public let token: UUID
    public let expense: Expense
    public let receipt: ReceiptInfo?
}

/// Trips, expenses and the receipts they use, in the app's database (migrations owner
/// "expenses"). Every change is one transaction. Receipt files are counted by the expenses
/// that reference them: a file goes when the last expense using it does, never before.
///
/// A `Sendable` class: keep one per database and call it from a background task for bulk work;
/// the database serializes calls.
public final class ExpenseRepository: Sendable {
    public static let migrationOwner = ExpenseSchema.owner

    public let database: Database
    public let receipts: ReceiptStore

    /// Brings the tables up to date (a no-op when they are).
    public init(database: Database, receipts: ReceiptStore) throws {
        self.database = database
        self.receipts = receipts
        try database.migrate(owner: ExpenseSchema.owner, migrations: ExpenseSchema.migrations)
    }

    // MARK: - Trips

    public func createTrip(_ details: TripDetails) throws -> Trip {
        let details = details.normalized
        do { try details.validate() } catch { throw ExpensesError.invalidTrip(error) }
        return try database.transaction {
            try requireUniqueName(details.name, except: nil)
            let now = Date()
            try database.execute(
                "INSERT INTO expenses_trip (name, name_key, start_date, end_date, purpose, currency, created_at, updated_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [details.name, Self.nameKey(details.name), details.startDate, details.endDate, details.purpose,
                 details.currency.code, now, now])
            return Trip(id: TripID(rawValue: database.lastInsertRowID), details: details)
        }
    }

    /// Saves changed details. The currency can change only while the trip has no expenses,
    /// since their exchange rates were entered for the old one.
    @discardableResult
    public func updateTrip(_ trip: Trip) throws -> Trip {
        let details = trip.details.normalized
        do { try details.validate() } catch { throw ExpensesError.invalidTrip(error) }
        return try database.transaction {
            guard let stored = try self.trip(trip.id) else { throw ExpensesError.tripNotFound(trip.id) }
            try requireUniqueName(details.name, except: trip.id)
            if stored.currency != details.currency,
               try database.queryValue("SELECT count(*) FROM expenses_expense WHERE trip_id = ?",
                                       [trip.id.rawValue], as: Int.self) ?? 0 > 0 {
                throw ExpensesError.currencyLocked(stored.currency)
            }
            try database.execute(
                "UPDATE expenses_trip SET name = ?, name_key = ?, start_date = ?, end_date = ?, purpose = ?, "
                    + "currency = ?, updated_at = ? WHERE id = ?",
                [details.name, Self.nameKey(details.name), details.startDate, details.endDate, details.purpose,
                 details.currency.code, Date(), trip.id.rawValue])
            return Trip(id: trip.id, details: details)
        }
    }

    public func trip(_ id: TripID) throws -> Trip? {
        try database.query("SELECT \(Self.tripColumns) FROM expenses_trip WHERE id = ?", [id.rawValue])
            .first.map(Self.trip(from:))
    }

    /// The trip with this name, compared without regard to case or surrounding space.
    public func trip(named name: String) throws -> Trip? {
        try database.query("SELECT \(Self.tripColumns) FROM expenses_trip WHERE name_key = ?", [Self.nameKey(name)])
            .first.map(Self.trip(from:))
    }

    /// Trips with their totals (summed in SQL, in each trip's currency) and expense counts,
    /// the latest first. `search` keeps those whose name or purpose contains it, ignoring
    /// case and accents ("zurich" finds "Zürich").
    public func tripSummaries(matching search: String = "") throws -> [TripSummary] {
        var summaries: [TripSummary] = []
        try forEachTripSummary(matching: search) { summaries.append($0) }
        return summaries
    }

    /// The same rows handed to `body` as SQLite reads them, so a long list is never held at once.
    public func forEachTripSummary(matching search: String = "", _ body: (TripSummary) throws -> Void) throws {
        let sql = "SELECT t.id, t.name, t.start_date, t.end_date, t.purpose, t.currency, "
            + "coalesce(sum(e.converted_minor), 0) AS total, count(e.id) AS expense_count "
            + "FROM expenses_trip t LEFT JOIN expenses_expense e ON e.trip_id = t.id "
            + "GROUP BY t.id ORDER BY t.start_date DESC, t.end_date DESC, t.name_key"
        let needle = search.trimmingCharacters(in: .whitespacesAndNewlines)
        try database.query(sql) { row in
            let trip = try Self.trip(from: row)
            if !needle.isEmpty, !Self.contains(trip.name, needle), !Self.contains(trip.purpose, needle) { return }
            try body(TripSummary(trip: trip, total: Money(minorUnits: try row["total"], currency: trip.currency),
                                 expenseCount: try row["expense_count"]))
        }
    }

    /// Deletes the trip and its expenses at once, and returns what is needed to undo it.
    /// The receipt files stay until `purgeDeletedReceipts(_:)`.
    public func deleteTrip(_ id: TripID) throws -> DeletedTrip {
        try database.transaction {
            guard let trip = try self.trip(id) else { throw ExpensesError.tripNotFound(id) }
            let expenses = try self.expenses(in: id)
            let digests = Set(expenses.compactMap { $0.receipt?.digest })
            let receipts = try digests.sorted().compactMap { try receiptInfo(digest: $0) }
            let token = UUID()
            for receipt in receipts {
                try database.execute("INSERT INTO expenses_receipt_hold (deletion, digest) VALUES (?, ?)",
                                     [token, receipt.reference.digest])
            }
            try database.execute("DELETE FROM expenses_trip WHERE id = ?", [id.rawValue])
            return DeletedTrip(token: token, trip: trip, expenses: expenses, receipts: receipts)
        }
    }

    /// Undoes `deleteTrip`: the trip and its expenses come back under their old ids. A receipt
    /// whose file was purged in the meantime comes back as `.missing`.
    @discardableResult
    public func restore(_ deleted: DeletedTrip) throws -> Trip {
        try database.transaction {
            let details = deleted.trip.details
            try requireUniqueName(details.name, except: nil)
            let now = Date()
            try database.execute(
                "INSERT INTO expenses_trip (id, name, name_key, start_date, end_date, purpose, currency, created_at, updated_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [deleted.trip.id.rawValue, details.name, Self.nameKey(details.name), details.startDate, details.endDate,
                 details.purpose, details.currency.code, now, now])
            for receipt in deleted.receipts {
                try insertReceiptRow(receipt)
            }
            for expense in deleted.expenses {
                try insertExpenseRow(expense.details, amounts: expense.amounts, tripID: deleted.trip.id, id: expense.id)
            }
            try database.execute("DELETE FROM expenses_receipt_hold WHERE deletion = ?", [deleted.token])
            return deleted.trip
        }
    }

    /// Ends the undo window of one deletion: its receipt files that no expense uses (and no
    /// other open deletion holds) are removed.
    public func purgeDeletedReceipts(_ deleted: DeletedTrip) throws {
        let digests = try database.transaction {
            try database.execute("DELETE FROM expenses_receipt_hold WHERE deletion = ?", [deleted.token])
            return Set(deleted.receipts.map(\.reference.digest))
        }
        try removeReceiptsIfUnused(digests)
    }

    /// Ends every undo window and removes every receipt no expense uses, including files
    /// imported for a form that was never saved. Call it at start-up, when no undo can be open.
    public func purgeDeletedReceipts() throws {
        try database.execute("DELETE FROM expenses_receipt_hold")
        let digests = try database.query(
            "SELECT digest FROM expenses_receipt r WHERE NOT EXISTS "
                + "(SELECT 1 FROM expenses_expense e WHERE e.receipt_digest = r.digest)")
            .map { row -> String in try row[0] }
        try removeReceiptsIfUnused(Set(digests))
    }

    // MARK: - Expenses

    /// The trip's expenses by date, then in the order they were added.
    public func expenses(in tripID: TripID) throws -> [Expense] {
        let expenses = try database.query("\(Self.expenseSelect) WHERE e.trip_id = ? ORDER BY e.date, e.id", [tripID.rawValue])
            .map(Self.expense(from:))
        let vat = try vatLines(where: "expense_id IN (SELECT id FROM expenses_expense WHERE trip_id = ?)", [tripID.rawValue])
        guard !vat.isEmpty else { return expenses }
        return expenses.map { expense in
            var expense = expense
            expense.details.vat = vat[expense.id] ?? []
            return expense
        }
    }

    public func expense(_ id: ExpenseID) throws -> Expense? {
        guard var expense = try database.query("\(Self.expenseSelect) WHERE e.id = ?", [id.rawValue])
            .first.map(Self.expense(from:)) else { return nil }
        expense.details.vat = try vatLines(where: "expense_id = ?", [id.rawValue])[id] ?? []
        return expense
    }

    /// Validates and saves a new expense. A date outside the trip is saved (see `warnings`).
    @discardableResult
    public func addExpense(_ details: ExpenseDetails, to tripID: TripID) throws -> Expense {
        try database.transaction {
            guard let trip = try self.trip(tripID) else { throw ExpensesError.tripNotFound(tripID) }
            let details = details.normalized(for: trip.currency)
            let amounts = try Self.amounts(details, trip)
            if let receipt = details.receipt { try registerReceipt(receipt) }
            let id = try insertExpenseRow(details, amounts: amounts, tripID: tripID, id: nil)
            return Expense(id: id, tripID: tripID, details: details, amounts: amounts)
        }
    }

    /// Saves changed details and works the amounts out again. A receipt that was replaced or
    /// removed goes from disk when no other expense uses it.
    @discardableResult
    public func updateExpense(_ expense: Expense) throws -> Expense {
        let (saved, previousReceipt) = try database.transaction { () throws -> (Expense, ReceiptReference?) in
            guard let stored = try self.expense(expense.id) else { throw ExpensesError.expenseNotFound(expense.id) }
            guard let trip = try self.trip(stored.tripID) else { throw ExpensesError.tripNotFound(stored.tripID) }
            let details = expense.details.normalized(for: trip.currency)
            let amounts = try Self.amounts(details, trip)
            if let receipt = details.receipt { try registerReceipt(receipt) }
            let mileage = details.cost.mileage
            try database.execute(
                "UPDATE expenses_expense SET date = ?, category = ?, vendor = ?, original_minor = ?, "
                    + "original_currency = ?, exchange_rate = ?, converted_minor = ?, distance = ?, distance_unit = ?, "
                    + "rate_per_unit = ?, notes = ?, receipt_digest = ?, updated_at = ? WHERE id = ?",
                [details.date, details.category.rawValue, details.vendor, amounts.original.minorUnits,
                 amounts.original.currency.code, amounts.exchangeRate, amounts.converted.minorUnits,
                 mileage?.distance, mileage?.unit.rawValue, mileage?.ratePerUnit, details.notes,
                 details.receipt?.digest, Date(),
                 expense.id.rawValue])
            try database.execute("DELETE FROM expenses_expense_vat WHERE expense_id = ?", [expense.id.rawValue])
            try insertVATRows(details.vat, expenseID: expense.id)
            let saved = Expense(id: expense.id, tripID: stored.tripID, details: details, amounts: amounts)
            return (saved, stored.receipt == details.receipt ? nil : stored.receipt)
        }
        if let previousReceipt { try removeReceiptsIfUnused([previousReceipt.digest]) }
        return saved
    }

    /// Deletes the expense; its receipt goes from disk when no other expense uses it.
    public func deleteExpense(_ id: ExpenseID) throws {
        let receipt = try database.transaction { () throws -> ReceiptReference? in
            guard let stored = try self.expense(id) else { throw ExpensesError.expenseNotFound(id) }
            try database.execute("DELETE FROM expenses_expense WHERE id = ?", [id.rawValue])
            return stored.receipt
        }
        if let receipt { try removeReceiptsIfUnused([receipt.digest]) }
    }

    /// Deletes the expense so that `restore(_:)` can bring it back: its receipt file stays on
    /// disk, held by the deletion, until `purgeDeletedReceipts(_:)` ends the undo window.
    public func deleteExpenseKeepingReceipt(_ id: ExpenseID) throws -> DeletedExpense {
        try database.transaction {
            guard let stored = try self.expense(id) else { throw ExpensesError.expenseNotFound(id) }
            let token = UUID()
            var receipt: ReceiptInfo?
            if let reference = stored.receipt, let info = try receiptInfo(digest: reference.digest) {
                try database.execute("INSERT INTO expenses_receipt_hold (deletion, digest) VALUES (?, ?)",
                                     [token, reference.digest])
                receipt = info
            }
            try database.execute("DELETE FROM expenses_expense WHERE id = ?", [id.rawValue])
            return DeletedExpense(token: token, expense: stored, receipt: receipt)
        }
    }

    /// Undoes `deleteExpenseKeepingReceipt`: the expense comes back under its old id.
    @discardableResult
    public func restore(_ deleted: DeletedExpense) throws -> Expense {
        try database.transaction {
            guard try trip(deleted.expense.tripID) != nil else { throw ExpensesError.tripNotFound(deleted.expense.tripID) }
            if let receipt = deleted.receipt { try insertReceiptRow(receipt) }
            try insertExpenseRow(deleted.expense.details, amounts: deleted.expense.amounts,
                                 tripID: deleted.expense.tripID, id: deleted.expense.id)
            try database.execute("DELETE FROM expenses_receipt_hold WHERE deletion = ?", [deleted.token])
            return deleted.expense
        }
    }

    /// Ends the undo window of one expense deletion: its receipt goes when nothing else uses it.
    public func purgeDeletedReceipts(_ deleted: DeletedExpense) throws {
        try database.execute("DELETE FROM expenses_receipt_hold WHERE deletion = ?", [deleted.token])
        if let receipt = deleted.receipt { try removeReceiptsIfUnused([receipt.reference.digest]) }
    }

    /// The totals a trip's dashboard and report show.
    public func dashboard(for tripID: TripID) throws -> TripDashboard {
        guard let trip = try trip(tripID) else { throw ExpensesError.tripNotFound(tripID) }
        return try TripDashboard(trip: trip, expenses: try expenses(in: tripID))
    }

    // MARK: - Receipts

    /// Copies a file into the receipt store and records it, ready to attach to an expense.
    /// Until an expense uses it, `purgeDeletedReceipts()` at the next start-up removes it.
    public func importReceipt(from url: URL) throws -> ReceiptImport {
        let imported = try receipts.importFile(at: url)
        try database.transaction { try insertReceiptRow(imported.info) }
        return imported
    }

    /// Like `importReceipt(from:)`, for bytes without a file (pasted, dropped from an app).
    public func importReceipt(data: Data, suggestedName: String) throws -> ReceiptImport {
        let imported = try receipts.importData(data, suggestedName: suggestedName)
        try database.transaction { try insertReceiptRow(imported.info) }
        return imported
    }

    /// What is recorded about a receipt: name, size, pixel size.
    public func receiptInfo(for reference: ReceiptReference) throws -> ReceiptInfo? {
        try receiptInfo(digest: reference.digest)
    }

    /// `.available(url)` or `.missing`.
    public func receiptStatus(_ reference: ReceiptReference) -> ReceiptStatus {
        receipts.status(of: reference)
    }

    /// How many expenses use the receipt.
    public func referenceCount(of reference: ReceiptReference) throws -> Int {
        try database.queryValue("SELECT count(*) FROM expenses_expense WHERE receipt_digest = ?",
                                [reference.digest], as: Int.self) ?? 0
    }

    // MARK: - Internals

    private static let tripColumns = "id, name, start_date, end_date, purpose, currency"

    private static let expenseSelect = "SELECT e.id, e.trip_id, e.date, e.category, e.vendor, e.original_minor, "
        + "e.original_currency, e.exchange_rate, e.converted_minor, e.distance, e.distance_unit, e.rate_per_unit, "
        + "e.notes, e.receipt_digest, r.kind AS receipt_kind, t.currency AS trip_currency "
        + "FROM expenses_expense e JOIN expenses_trip t ON t.id = e.trip_id "
        + "LEFT JOIN expenses_receipt r ON r.digest = e.receipt_digest"

    private static func nameKey(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    private static func contains(_ text: String, _ needle: String) -> Bool {
        text.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    private static func amounts(_ details: ExpenseDetails, _ trip: Trip) throws -> ExpenseAmounts {
        do {
            return try details.validated(for: trip.details)
        } catch {
            throw ExpensesError.invalidExpense(error)
        }
    }

    private func requireUniqueName(_ name: String, except id: TripID?) throws {
        let other = try database.queryValue("SELECT id FROM expenses_trip WHERE name_key = ?", [Self.nameKey(name)],
                                            as: Int64.self)
        if let other, other != id?.rawValue { throw ExpensesError.duplicateTripName(name) }
    }

    @discardableResult
    private func insertExpenseRow(_ details: ExpenseDetails, amounts: ExpenseAmounts, tripID: TripID,
                                  id: ExpenseID?) throws -> ExpenseID {
        let mileage = details.cost.mileage
        let now = Date()
        try database.execute(
            "INSERT INTO expenses_expense (id, trip_id, date, category, vendor, original_minor, original_currency, "
                + "exchange_rate, converted_minor, distance, distance_unit, rate_per_unit, notes, "
                + "receipt_digest, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [id?.rawValue, tripID.rawValue, details.date, details.category.rawValue, details.vendor,
             amounts.original.minorUnits, amounts.original.currency.code, amounts.exchangeRate,
             amounts.converted.minorUnits, mileage?.distance, mileage?.unit.rawValue,
             mileage?.ratePerUnit, details.notes,
             details.receipt?.digest, now, now])
        let expenseID = ExpenseID(rawValue: database.lastInsertRowID)
        try insertVATRows(details.vat, expenseID: expenseID)
        return expenseID
    }

    private func insertVATRows(_ vat: [ExpenseVAT], expenseID: ExpenseID) throws {
        for (position, line) in vat.enumerated() {
            try database.execute(
                "INSERT INTO expenses_expense_vat (expense_id, position, category_code, rate, taxable_minor, tax_minor, "
                    + "currency) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [expenseID.rawValue, position, line.categoryCode, line.rate, line.taxableAmount.minorUnits,
                 line.taxAmount.minorUnits, line.currency.code])
        }
    }

    /// The VAT lines of the expenses `condition` selects, by expense, in their order.
    private func vatLines(where condition: String, _ arguments: [(any SQLBindable)?]) throws -> [ExpenseID: [ExpenseVAT]] {
        var lines: [ExpenseID: [ExpenseVAT]] = [:]
        try database.query(
            "SELECT expense_id, category_code, rate, taxable_minor, tax_minor, currency FROM expenses_expense_vat "
                + "WHERE \(condition) ORDER BY expense_id, position", arguments
        ) { row in
            let currency = try Self.currency(row, "currency")
            let line = ExpenseVAT(categoryCode: try row["category_code"], rate: try row["rate"],
                                  taxableAmount: Money(minorUnits: try row["taxable_minor"], currency: currency),
                                  taxAmount: Money(minorUnits: try row["tax_minor"], currency: currency))
            lines[ExpenseID(rawValue: try row["expense_id"]), default: []].append(line)
        }
        return lines
    }

    private func insertReceiptRow(_ info: ReceiptInfo) throws {
        try database.execute(
            "INSERT INTO expenses_receipt (digest, kind, byte_count, pixel_width, pixel_height, original_name, added_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING",
            [info.reference.digest, info.reference.kind.rawValue, info.byteCount, info.pixelWidth, info.pixelHeight,
             info.originalName, Date()])
    }

    /// Makes sure an attached receipt is recorded; one stored by `ReceiptStore` directly is
    /// recorded from its file's header.
    private func registerReceipt(_ reference: ReceiptReference) throws {
        if try receiptInfo(digest: reference.digest) != nil { return }
        let url = receipts.url(for: reference)
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw ReceiptError.missing(reference) }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: ReceiptInspector.headerLimit)) ?? Data()
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value
            ?? Int64(head.count)
        let inspection: ReceiptInspection
        do {
            inspection = try ReceiptInspector.inspect(head, isWholeFile: Int64(head.count) >= size)
        } catch {
            throw ReceiptError.damaged(fileName: reference.fileName, kind: reference.kind)
        }
        guard inspection.kind == reference.kind else {
            throw ReceiptError.damaged(fileName: reference.fileName, kind: reference.kind)
        }
        try insertReceiptRow(ReceiptInfo(reference: reference, byteCount: size, pixelWidth: inspection.pixelWidth,
                                         pixelHeight: inspection.pixelHeight, originalName: reference.fileName))
    }

    private func receiptInfo(digest: String) throws -> ReceiptInfo? {
        try database.query(
            "SELECT digest, kind, byte_count, pixel_width, pixel_height, original_name FROM expenses_receipt WHERE digest = ?",
            [digest]
        ).first.map { row in
            let digest: String = try row["digest"]
            let kindText: String = try row["kind"]
            guard let kind = ReceiptKind(rawValue: kindText), let reference = ReceiptReference(digest: digest, kind: kind) else {
                throw DatabaseError.invalidValue(column: "kind", text: kindText, expected: "receipt kind")
            }
            return ReceiptInfo(reference: reference, byteCount: try row["byte_count"], pixelWidth: try row["pixel_width"],
                               pixelHeight: try row["pixel_height"], originalName: try row["original_name"])
        }
    }

    /// Forgets and deletes the receipts among `digests` that no expense uses and no open
    /// deletion holds. Rows go in one transaction first, files after it commits: a file that
    /// cannot be deleted is left over, never a row pointing at nothing.
    private func removeReceiptsIfUnused(_ digests: Set<String>) throws {
        guard !digests.isEmpty else { return }
        let unused = try database.transaction { () throws -> [ReceiptReference] in
            var unused: [ReceiptReference] = []
            for digest in digests.sorted() {
                let referenced = try database.queryValue(
                    "SELECT (SELECT count(*) FROM expenses_expense WHERE receipt_digest = ?) "
                        + "+ (SELECT count(*) FROM expenses_receipt_hold WHERE digest = ?)",
                    [digest, digest], as: Int.self) ?? 0
                guard referenced == 0, let info = try receiptInfo(digest: digest) else { continue }
                try database.execute("DELETE FROM expenses_receipt WHERE digest = ?", [digest])
                unused.append(info.reference)
            }
            return unused
        }
        for reference in unused {
            try receipts.removeFile(for: reference)
        }
    }

    private static func trip(from row: Row) throws -> Trip {
        Trip(id: TripID(rawValue: try row["id"]),
             details: TripDetails(name: try row["name"], startDate: try row["start_date"], endDate: try row["end_date"],
                                  purpose: try row["purpose"], currency: try currency(row, "currency")))
    }

    private static func currency(_ row: Row, _ column: String) throws -> Currency {
        let code: String = try row[column]
        guard let currency = Currency(code: code) else {
            throw DatabaseError.invalidValue(column: column, text: code, expected: "ISO 4217 currency code")
        }
        return currency
    }

    private static func expense(from row: Row) throws -> Expense {
        let categoryText: String = try row["category"]
        guard let category = ExpenseCategory(rawValue: categoryText) else {
            throw DatabaseError.invalidValue(column: "category", text: categoryText, expected: "expense category")
        }
        let original = Money(minorUnits: try row["original_minor"], currency: try currency(row, "original_currency"))
        let converted = Money(minorUnits: try row["converted_minor"], currency: try currency(row, "trip_currency"))
        let rate: Decimal? = try row["exchange_rate"]
        let cost: ExpenseCost
        if let distance: Decimal = try row["distance"] {
            let unitText: String = try row["distance_unit"]
            guard let unit = DistanceUnit(rawValue: unitText) else {
                throw DatabaseError.invalidValue(column: "distance_unit", text: unitText, expected: "km or mi")
            }
            // The claimed amount's currency is the rate's.
            cost = .mileage(Mileage(distance: distance, unit: unit, ratePerUnit: try row["rate_per_unit"],
                                    currency: original.currency))
        } else {
            cost = .amount(original)
        }
        var receipt: ReceiptReference?
        if let digest: String = try row["receipt_digest"] {
            let kindText: String = try row["receipt_kind"]
            guard let kind = ReceiptKind(rawValue: kindText), let reference = ReceiptReference(digest: digest, kind: kind) else {
                throw DatabaseError.invalidValue(column: "receipt_digest", text: digest, expected: "receipt")
            }
            receipt = reference
        }
        let details = ExpenseDetails(date: try row["date"], category: category, vendor: try row["vendor"], cost: cost,
                                     exchangeRate: rate, notes: try row["notes"], receipt: receipt)
        return Expense(id: ExpenseID(rawValue: try row["id"]), tripID: TripID(rawValue: try row["trip_id"]),
                       details: details, amounts: ExpenseAmounts(original: original, exchangeRate: rate, converted: converted))
    }
}
