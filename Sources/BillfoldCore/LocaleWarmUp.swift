import Foundation

/// Reads the locale data a first page formats with — number styles for the user's currency,
/// percentages and plain numbers, the currency's name, a date — on a background thread while
/// the toolkit starts. ICU's first use of each costs milliseconds of loading; done here, it
/// overlaps GTK's start-up instead of delaying the first frame. Everything it touches is a
/// thread-safe cache, so no result changes whether it has finished or not.
public enum LocaleWarmUp {
    public static func start() {
        Thread.detachNewThread { warm() }
    }

    static func warm() {
        let currency = Currency.forLocale()
        let money = MoneyFormatter()
        _ = money.string(from: .zero(currency))
        _ = money.symbol(for: currency)
        let numbers = NumberFormatting()
        _ = numbers.percentString(from: 15)
        _ = numbers.string(from: Decimal(string: "1.5") ?? 0, minimumFractionDigits: 1)
        _ = currency.choiceTitle
        _ = DateFormatting().mediumString(from: Date())
    }
}
