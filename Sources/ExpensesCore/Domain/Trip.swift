import BillfoldCore
import Foundation
import Storage

/// A trip's row id in the database; never reused, so an undone deletion gets its ids back.
public struct TripID: RowID, Codable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// What a person enters for a trip. A plain value a form edits; `validate()` says what is wrong.
public struct TripDetails: Hashable, Sendable, Codable {
    public var name: String
    public var startDate: CalendarDay
    public var endDate: CalendarDay
    public var purpose: String
    /// The currency the trip is reimbursed in; every expense is converted to it.
    public var currency: Currency

    public init(name: String, startDate: CalendarDay, endDate: CalendarDay, purpose: String = "",
                currency: Currency) {
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
        self.purpose = purpose
        self.currency = currency
    }

    /// A new, empty trip for a form: one day, today, in the user's currency.
    public static func draft(today: CalendarDay = .today(), currency: Currency = .forLocale()) -> TripDetails {
        TripDetails(name: "", startDate: today, endDate: today, currency: currency)
    }

    /// The trip's days, start and end included.
    public var days: DayRange { DayRange(startDate, endDate) }

    /// Every problem with the details, for showing next to each field; empty when they can be saved.
    public func problems() -> [TripValidationError] {
        var problems: [TripValidationError] = []
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append(.emptyName) }
        if endDate < startDate { problems.append(.endBeforeStart) }
        return problems
    }

    /// Throws the first problem.
    public func validate() throws(TripValidationError) {
        if let problem = problems().first { throw problem }
    }

    /// The details as saved: name and purpose without surrounding white space.
    public var normalized: TripDetails {
        var copy = self
        copy.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        copy.purpose = purpose.trimmingCharacters(in: .whitespacesAndNewlines)
        return copy
    }
}

/// A saved trip. Reads like its details: `trip.name`, `trip.startDate`, and `trip.name = …`
/// changes the copy a form edits before `ExpenseRepository.updateTrip`.
@dynamicMemberLookup
public struct Trip: Identifiable, Hashable, Sendable, Codable {
    public let id: TripID
    public var details: TripDetails

    public init(id: TripID, details: TripDetails) {
        self.id = id
        self.details = details
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<TripDetails, Value>) -> Value {
        get { details[keyPath: keyPath] }
        set { details[keyPath: keyPath] = newValue }
    }

    public var days: DayRange { details.days }
}

/// A trip field a problem belongs to, so a form can show the message beside it.
public enum TripField: Hashable, Sendable {
    case name, startDate, endDate, purpose, currency
}

public enum TripValidationError: Error, LocalizedError, Hashable, Sendable {
    case emptyName
    case endBeforeStart

    public var field: TripField {
        switch self {
        case .emptyName: return .name
        case .endBeforeStart: return .endDate
        }
    }

    public var errorDescription: String? {
        switch self {
        case .emptyName: return tr("Give the trip a name.")
        case .endBeforeStart: return tr("The trip cannot end before it starts.")
        }
    }
}

/// A trip in the list: its details, its total in the trip currency and how many expenses it has.
public struct TripSummary: Identifiable, Hashable, Sendable {
    public let trip: Trip
    public let total: Money
    public let expenseCount: Int

    public init(trip: Trip, total: Money, expenseCount: Int) {
        self.trip = trip
        self.total = total
        self.expenseCount = expenseCount
    }

    public var id: TripID { trip.id }
}
