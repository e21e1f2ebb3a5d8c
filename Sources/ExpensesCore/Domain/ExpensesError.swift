import BillfoldCore
import Foundation

/// What the repository refuses. Database and receipt-file failures arrive as `DatabaseError`
/// and `ReceiptError`; all three carry a message a person can act on.
public enum ExpensesError: Error, LocalizedError, Hashable, Sendable {
    case invalidTrip(TripValidationError)
    case invalidExpense(ExpenseValidationError)
    case tripNotFound(TripID)
    /// No trip has this name (command line, search by name).
    case noTripNamed(String)
    case expenseNotFound(ExpenseID)
    case duplicateTripName(String)
    /// The trip has expenses whose exchange rates were entered for its currency.
    case currencyLocked(Currency)
    /// A total does not fit in 64-bit minor units.
    case totalTooLarge

    public var errorDescription: String? {
        switch self {
        case .invalidTrip(let error):
            return error.errorDescription
        case .invalidExpense(let error):
            return error.errorDescription
        case .tripNotFound:
            return tr("The trip no longer exists. It may have been deleted.")
        case .noTripNamed(let name):
            return String(format: tr("There is no trip named “%@”."), name)
        case .expenseNotFound:
            return tr("The expense no longer exists. It may have been deleted.")
        case .duplicateTripName(let name):
            return String(format: tr("A trip named “%@” already exists. Choose another name."), name)
        case .currencyLocked(let currency):
            return String(format: tr("The trip already has expenses converted to %@, so its currency cannot change. Remove them first, or create a new trip."), currency.code)
        case .totalTooLarge:
            return tr("The amount is too large to calculate with.")
        }
    }
}
