import BillfoldCore
import Foundation
import Storage

/// An expense's row id in the database; never reused.
public struct ExpenseID: RowID, Codable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// What an expense was for. The raw value is what the database and the CSV export hold.
public enum ExpenseCategory: String, CaseIterable, Hashable, Sendable, Codable {
    case meals, lodging, transit, supplies, entertainment, mileage, other

    /// The name shown to people, in their language.
    public var localizedName: String {
        switch self {
        case .meals: return tr("Meals")
        case .lodging: return tr("Lodging")
        case .transit: return tr("Transit")
        case .supplies: return tr("Supplies")
        case .entertainment: return tr("Entertainment")
        case .mileage: return tr("Mileage")
        case .other: return tr("Other")
        }
    }
}

/// The unit a mileage claim is counted in. The raw value is stored and exported.
public enum DistanceUnit: String, CaseIterable, Hashable, Sendable, Codable {
    case kilometres = "km"
    case miles = "mi"

    /// "kilometres", "miles".
    public var localizedName: String {
        switch self {
        case .kilometres: return tr("kilometres")
        case .miles: return tr("miles")
        }
    }

    /// The short form after a number: "km", "mi".
    public var localizedSymbol: String {
        switch self {
        case .kilometres: return tr("km")
        case .miles: return tr("mi")
        }
    }
}

/// A drive claimed at a rate per kilometre or mile.
///
/// The rate is a decimal in `currency`, not `Money`: official rates go below the minor unit
/// (US$0.655 per mile), and only the claimed amount is rounded to cents.
public struct Mileage: Hashable, Sendable, Codable {
    public var distance: Decimal
    public var unit: DistanceUnit
    /// What one unit of distance is paid, in major units of `currency` (0.30 EUR per km).
    public var ratePerUnit: Decimal
    public var currency: Currency

    public init(distance: Decimal, unit: DistanceUnit, ratePerUnit: Decimal, currency: Currency) {
        self.distance = distance
        self.unit = unit
        self.ratePerUnit = ratePerUnit
        self.currency = currency
    }

    /// Distance times rate, rounded half-up once to the currency's minor unit.
    public func amount() throws(MoneyError) -> Money {
        guard !distance.isNaN, !ratePerUnit.isNaN else { throw .notANumber }
        return try Money(distance * ratePerUnit, currency: currency, rounding: .halfUp)
    }
}

/// What an expense cost: an amount from a receipt, or a distance at a rate.
public enum ExpenseCost: Hashable, Sendable, Codable {
    case amount(Money)
    case mileage(Mileage)

    /// The amount in the currency it was paid or claimed in.
    public func originalAmount() throws(MoneyError) -> Money {
        switch self {
        case .amount(let money): return money
        case .mileage(let mileage): return try mileage.amount()
        }
    }

    /// The currency the cost is in (for mileage, the rate's).
    public var currency: Currency {
        switch self {
        case .amount(let money): return money.currency
        case .mileage(let mileage): return mileage.currency
        }
    }

    public var mileage: Mileage? {
        if case .mileage(let mileage) = self { return mileage }
        return nil
    }
}

/// Both amounts of an expense: as paid and in the trip's currency.
public struct ExpenseAmounts: Hashable, Sendable, Codable {
    /// In the currency it was paid (or, for mileage, the rate's currency).
    public let original: Money
    /// Trip-currency units for one unit of the original currency; nil when they are the same.
    public let exchangeRate: Decimal?
    /// In the trip's currency: `original × exchangeRate`, rounded half-up once.
    public let converted: Money

    public init(original: Money, exchangeRate: Decimal?, converted: Money) {
        self.original = original
        self.exchangeRate = exchangeRate
        self.converted = converted
    }

    /// True when the expense was paid in another currency than the trip's.
    public var isConverted: Bool { exchangeRate != nil }

    /// Converts `original` to `currency` at `rate` (trip-currency units per original unit),
    /// rounding half-up to the trip currency's minor unit once. Same currency: no rate, no rounding.
    public static func converting(_ original: Money, to currency: Currency, rate: Decimal?) throws(ExpenseValidationError) -> ExpenseAmounts {
        if original.currency == currency {
            return ExpenseAmounts(original: original, exchangeRate: nil, converted: original)
        }
        guard let rate else { throw .missingExchangeRate(from: original.currency, to: currency) }
        guard !rate.isNaN, rate > 0 else { throw .nonPositiveExchangeRate }
        do {
            let converted = try Money(original.decimalValue * rate, currency: currency, rounding: .halfUp)
            return ExpenseAmounts(original: original, exchangeRate: rate, converted: converted)
        } catch {
            throw .amountTooLarge
        }
    }
}

/// What a person enters for an expense: a plain value a form edits.
public struct ExpenseDetails: Hashable, Sendable, Codable {
    public var date: CalendarDay
    public var category: ExpenseCategory
    /// Who was paid; may be empty for mileage.
    public var vendor: String
    public var cost: ExpenseCost
    /// Trip-currency units for one unit of the cost's currency, entered by hand. Needed only
    /// when the currencies differ; ignored (and saved as none) when they are the same.
    public var exchangeRate: Decimal?
    public var notes: String
    public var receipt: ReceiptReference?
    /// The VAT per category and rate as the supplier's invoice states it, in the currency paid;
    /// empty when it was not given (the usual case for a typed-in expense).
    public var vat: [ExpenseVAT]

    public init(date: CalendarDay, category: ExpenseCategory, vendor: String, cost: ExpenseCost,
                exchangeRate: Decimal? = nil, notes: String = "", receipt: ReceiptReference? = nil,
                vat: [ExpenseVAT] = []) {
        self.date = date
        self.category = category
        self.vendor = vendor
        self.cost = cost
        self.exchangeRate = exchangeRate
        self.notes = notes
        self.receipt = receipt
        self.vat = vat
    }

    /// A plain expense paid in `amount`'s currency.
    public init(date: CalendarDay, category: ExpenseCategory, vendor: String, amount: Money,
                exchangeRate: Decimal? = nil, notes: String = "", receipt: ReceiptReference? = nil,
                vat: [ExpenseVAT] = []) {
        self.init(date: date, category: category, vendor: vendor, cost: .amount(amount),
                  exchangeRate: exchangeRate, notes: notes, receipt: receipt, vat: vat)
    }

    /// A mileage claim.
    public init(date: CalendarDay, mileage: Mileage, vendor: String = "", exchangeRate: Decimal? = nil,
                notes: String = "", receipt: ReceiptReference? = nil) {
        self.init(date: date, category: .mileage, vendor: vendor, cost: .mileage(mileage),
                  exchangeRate: exchangeRate, notes: notes, receipt: receipt)
    }

    /// A new, empty expense for a form: dated today when today is within the trip, else on its
    /// first day; a meal in the trip's currency.
    public static func draft(for trip: TripDetails, today: CalendarDay = .today()) -> ExpenseDetails {
        ExpenseDetails(date: trip.days.contains(today) ? today : trip.startDate, category: .meals, vendor: "",
                       amount: .zero(trip.currency))
    }

    /// Changes the category and, when moving to or from mileage, the kind of cost with it: a
    /// distance at a rate for mileage, an amount (the drive's, if any) otherwise.
    public mutating func setCategory(_ newCategory: ExpenseCategory, distanceUnit: DistanceUnit = .kilometres) {
        category = newCategory
        switch (newCategory == .mileage, cost) {
        case (true, .amount(let money)):
            cost = .mileage(Mileage(distance: 0, unit: distanceUnit, ratePerUnit: 0, currency: money.currency))
        case (false, .mileage(let mileage)):
            cost = .amount((try? mileage.amount()) ?? .zero(mileage.currency))
        default:
            break
        }
    }

    /// Everything a form needs at once: the problems (each tied to a field), the warnings that
    /// do not stop saving, and the two amounts when they can be worked out.
    public func check(for trip: TripDetails) -> ExpenseCheck {
        var errors: [ExpenseValidationError] = []
        if category != .mileage, vendor.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            errors.append(.emptyVendor)
        }
        switch cost {
        case .amount(let money):
            if category == .mileage { errors.append(.mileageNeedsDistance) }
            if money.minorUnits <= 0 { errors.append(.nonPositiveAmount) }
        case .mileage(let mileage):
            if category != .mileage { errors.append(.distanceOnlyForMileage) }
            if mileage.distance.isNaN || mileage.distance <= 0 { errors.append(.nonPositiveDistance) }
            if mileage.ratePerUnit.isNaN || mileage.ratePerUnit <= 0 { errors.append(.nonPositiveMileageRate) }
            if !vat.isEmpty { errors.append(.vatOnMileage) }
        }
        if let other = vat.first(where: { $0.taxableAmount.currency != cost.currency || $0.currency != cost.currency }) {
            errors.append(.vatInOtherCurrency(other.currency))
        }
        var amounts: ExpenseAmounts?
        do {
            let original = try cost.originalAmount()
            amounts = try ExpenseAmounts.converting(original, to: trip.currency, rate: exchangeRate)
        } catch let error as ExpenseValidationError {
            errors.append(error)
        } catch {
            errors.append(.amountTooLarge)
        }
        return ExpenseCheck(errors: errors, warnings: warnings(for: trip), amounts: errors.isEmpty ? amounts : nil)
    }

    /// What is worth pointing out but may well be right, such as a date outside the trip.
    public func warnings(for trip: TripDetails) -> [ExpenseWarning] {
        var warnings: [ExpenseWarning] = trip.days.contains(date) ? [] : [.dateOutsideTrip(date: date, trip: trip.days)]
        if case .amount(let amount) = cost, let gross = try? vat.grossTotal(), gross.currency == amount.currency,
           gross != amount {
            warnings.append(.vatDoesNotAddUp(vatGross: gross, amount: amount))
        }
        return warnings
    }

    /// The amounts to save, or the first problem.
    public func validated(for trip: TripDetails) throws(ExpenseValidationError) -> ExpenseAmounts {
        let result = check(for: trip)
        if let error = result.errors.first { throw error }
        guard let amounts = result.amounts else { throw .amountTooLarge }
        return amounts
    }

    /// The details as saved: vendor and notes without surrounding white space, no rate when
    /// none is needed.
    public func normalized(for tripCurrency: Currency) -> ExpenseDetails {
        var copy = self
        copy.vendor = vendor.trimmingCharacters(in: .whitespacesAndNewlines)
        copy.notes = notes.trimmingCharacters(in: .whitespacesAndNewlines)
        if cost.currency == tripCurrency { copy.exchangeRate = nil }
        return copy
    }
}

/// The result of checking an expense form.
public struct ExpenseCheck: Hashable, Sendable {
    public let errors: [ExpenseValidationError]
    public let warnings: [ExpenseWarning]
    /// Both amounts, when there are no errors.
    public let amounts: ExpenseAmounts?

    public var canSave: Bool { errors.isEmpty }

    /// The errors that belong beside `field`.
    public func errors(for field: ExpenseField) -> [ExpenseValidationError] {
        errors.filter { $0.field == field }
    }
}

/// A saved expense. Reads like its details (`expense.vendor`, `expense.date`); `amounts` are
/// as last saved, and `ExpenseRepository.updateExpense` works them out again.
@dynamicMemberLookup
public struct Expense: Identifiable, Hashable, Sendable, Codable {
    public let id: ExpenseID
    public let tripID: TripID
    public var details: ExpenseDetails
    public let amounts: ExpenseAmounts

    public init(id: ExpenseID, tripID: TripID, details: ExpenseDetails, amounts: ExpenseAmounts) {
        self.id = id
        self.tripID = tripID
        self.details = details
        self.amounts = amounts
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ExpenseDetails, Value>) -> Value {
        get { details[keyPath: keyPath] }
        set { details[keyPath: keyPath] = newValue }
    }

    public var originalAmount: Money { amounts.original }
    public var convertedAmount: Money { amounts.converted }

    public func warnings(for trip: Trip) -> [ExpenseWarning] {
        details.warnings(for: trip.details)
    }
}

/// An expense field a problem belongs to.
public enum ExpenseField: Hashable, Sendable {
    case date, category, vendor, amount, exchangeRate, distance, mileageRate, notes, receipt, vat
}

public enum ExpenseValidationError: Error, LocalizedError, Hashable, Sendable {
    case emptyVendor
    case nonPositiveAmount
    case missingExchangeRate(from: Currency, to: Currency)
    case nonPositiveExchangeRate
    case nonPositiveDistance
    case nonPositiveMileageRate
    /// The category is mileage but the cost is a plain amount.
    case mileageNeedsDistance
    /// A distance was given for a category other than mileage.
    case distanceOnlyForMileage
    case amountTooLarge
    /// The VAT breakdown is in another currency than the amount.
    case vatInOtherCurrency(Currency)
    /// A drive claimed at a rate has no supplier's VAT.
    case vatOnMileage

    public var field: ExpenseField {
        switch self {
        case .emptyVendor: return .vendor
        case .nonPositiveAmount, .amountTooLarge: return .amount
        case .missingExchangeRate, .nonPositiveExchangeRate: return .exchangeRate
        case .nonPositiveDistance: return .distance
        case .nonPositiveMileageRate: return .mileageRate
        case .mileageNeedsDistance, .distanceOnlyForMileage: return .category
        case .vatInOtherCurrency, .vatOnMileage: return .vat
        }
    }

    public var errorDescription: String? {
        switch self {
        case .emptyVendor:
            return tr("Enter who was paid.")
        case .nonPositiveAmount:
            return tr("Enter an amount above zero.")
        case .missingExchangeRate(let from, let to):
            return String(format: tr("Enter how many %@ one %@ was worth, from your bank or card statement."),
                          to.code, from.code)
        case .nonPositiveExchangeRate:
            return tr("The exchange rate must be above zero.")
        case .nonPositiveDistance:
            return tr("Enter a distance above zero.")
        case .nonPositiveMileageRate:
            return tr("Enter a rate per distance above zero.")
        case .mileageNeedsDistance:
            return tr("A mileage expense takes a distance and a rate, not an amount.")
        case .distanceOnlyForMileage:
            return tr("Only mileage expenses take a distance; choose the Mileage category or enter an amount.")
        case .amountTooLarge:
            return tr("The amount is too large to calculate with.")
        case .vatInOtherCurrency(let currency):
            return String(format: tr("The VAT from the invoice is in %@: choose %@ as the currency, or remove the VAT."),
                          currency.code, currency.code)
        case .vatOnMileage:
            return tr("A mileage claim has no VAT from an invoice: remove the VAT, or choose another category.")
        }
    }
}

/// Something about an expense worth a second look; it is saved all the same.
public enum ExpenseWarning: Hashable, Sendable, LocalizedError {
    case dateOutsideTrip(date: CalendarDay, trip: DayRange)
    /// The invoice's taxable amounts and VAT add up to another total than the amount entered.
    case vatDoesNotAddUp(vatGross: Money, amount: Money)

    public var field: ExpenseField {
        switch self {
        case .dateOutsideTrip: return .date
        case .vatDoesNotAddUp: return .vat
        }
    }

    public var errorDescription: String? {
        switch self {
        case .dateOutsideTrip(let date, let trip):
            return String(format: tr("%@ is outside the trip (%@). Check the date on the receipt."),
                          date.formatted(), trip.formatted())
        case .vatDoesNotAddUp(let gross, _):
            return String(format: tr("The invoice’s amounts before VAT and its VAT add up to %@, not to the amount. Check the amount against the invoice."),
                          MoneyFormatter().string(from: gross))
        }
    }
}
