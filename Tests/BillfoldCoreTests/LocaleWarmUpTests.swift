@testable import BillfoldCore
import Foundation
import Testing

@Suite struct LocaleWarmUpTests {
    /// The warm-up fills the same caches the first page reads, from another thread, while that
    /// page may already be formatting: every result must be the one formatting alone gives.
    @Test func warmingUpWhileFormattingChangesNoResult() async {
        let money = MoneyFormatter(locale: Locale(identifier: "de_DE"))
        let numbers = NumberFormatting(locale: Locale(identifier: "de_DE"))
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { LocaleWarmUp.warm(); return [] } }
            for _ in 0..<4 {
                group.addTask {
                    [money.string(from: Money(minorUnits: 123_450, currency: .eur)),
                     numbers.percentString(from: Decimal(string: "12.5")!, minimumFractionDigits: 1)]
                }
            }
            var all: [[String]] = []
            for await result in group where !result.isEmpty { all.append(result) }
            return all
        }
        #expect(results.count == 4)
        for result in results {
            #expect(result == ["1.234,50\u{00A0}€", "12,5\u{00A0}%"])
        }
    }
}
