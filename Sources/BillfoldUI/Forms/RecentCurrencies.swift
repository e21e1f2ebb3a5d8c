import BillfoldCore
import GObjectCore

/// The currencies the user chose last, newest first, which currency lists offer before the rest.
@MainActor
public enum RecentCurrencies {
    /// Keeps the list across runs; the shell sets it at start-up. Without it the list lasts
    /// as long as the process (as in tests).
    public static var settings: Settings?
    private static var remembered: [Currency] = []
    static let maximumCount = 5
    private static let key = "recent-currencies"

    public static var currencies: [Currency] {
        guard let settings else { return remembered }
        return settings.strings(key).compactMap { Currency(code: $0) }
    }

    public static func use(_ currency: Currency) {
        var list = currencies.filter { $0 != currency }
        list.insert(currency, at: 0)
        list = Array(list.prefix(maximumCount))
        if let settings {
            settings.set(key, list.map(\.code))
        } else {
            remembered = list
        }
    }
}
