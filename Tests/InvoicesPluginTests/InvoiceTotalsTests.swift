import SeededRandom
import BillfoldCore
import Foundation
import Testing
@testable import InvoicesCore
@testable import InvoicesPlugin

@Suite struct InvoiceTotalsTests {
    private func totals(_ lines: [LineItem], discount: String = "0", payments: [Payment] = [],
                        currency: Currency = .eur) throws -> InvoiceTotals {
        try InvoiceTotals(lines: lines, discountPercent: decimal(discount), payments: payments, currency: currency)
    }

    @Test func taxIsSummedPerRateBeforeRoundingNotPerLine() throws {
        // Per line, 7 % of 0.05 is 0.0035 → 0.00, three times 0.00; per rate, 7 % of 0.15 is 0.0105 → 0.01.
        let result = try totals([line(price: "0.05", rate: "7"), line(price: "0.05", rate: "7"), line(price: "0.05", rate: "7")])
        #expect(result.subtotal == money("0.15"))
        #expect(result.taxLines.count == 1)
        #expect(result.taxLines[0].taxableAmount == money("0.15"))
        #expect(result.tax == money("0.01"))
        #expect(result.total == money("0.16"))
        let perLine = try result.lineNets.map { try $0.percentage(7, rounding: .halfUp) }
        #expect(try Money.sum(perLine, currency: .eur) == money("0.00"))
    }

    @Test func eachRateIsRoundedOnItsOwn() throws {
        // 19 %: 3 × 0.33 = 0.99 → 0.1881 → 0.19 (per line 3 × 0.06 = 0.18); 7 %: 0.05 + 0.05 → 0.007 → 0.01.
        let result = try totals([
            line(price: "0.33", rate: "19"), line(price: "0.05", rate: "7"), line(price: "0.33", rate: "19"),
            line(price: "0.05", rate: "7"), line(price: "0.33", rate: "19"),
        ])
        #expect(result.taxLines.map(\.rate) == [7, 19])
        #expect(result.taxLines.map(\.taxableAmount) == [money("0.10"), money("0.99")])
        #expect(result.taxLines.map(\.tax) == [money("0.01"), money("0.19")])
        #expect(result.tax == money("0.20"))
        #expect(result.total == money("1.29"))
    }

    @Test func aLineIsRoundedOnceAfterQuantityAndDiscount() throws {
        // 1.5 h × 33.33 = 49.995 → 50.00.
        #expect(try line(quantity: "1.5", price: "33.33").netAmount() == money("50.00"))
        // 3 × 19.99 less 15 % = 50.9745 → 50.97.
        #expect(try line(quantity: "3", price: "19.99", discount: "15").netAmount() == money("50.97"))
        // 0.15 less 50 % = 0.075 → 0.08; rounding the discount first (0.08) would leave 0.07.
        #expect(try line(price: "0.15", discount: "50").netAmount() == money("0.08"))
        // 0.333333 × 3.00 = 0.999999 → 1.00.
        #expect(try line(quantity: "0.333333", price: "3.00").netAmount() == money("1.00"))
        // Half a cent goes up: 0.5 × 0.01 = 0.005 → 0.01.
        #expect(try line(quantity: "0.5", price: "0.01").netAmount() == money("0.01"))
    }

    @Test func theInvoiceDiscountIsSpreadOverTheRatesInProportion() throws {
        let result = try totals([line(price: "100.00", rate: "19"), line(price: "50.00", rate: "7")], discount: "10")
        #expect(result.subtotal == money("150.00"))
        #expect(result.discount == money("15.00"))
        #expect(result.netTotal == money("135.00"))
        #expect(result.taxLines.map(\.taxableAmount) == [money("45.00"), money("90.00")])
        #expect(result.taxLines.map(\.tax) == [money("3.15"), money("17.10")])
        #expect(result.total == money("155.25"))
    }

    @Test func theDiscountsPartsAddUpToTheDiscountExactly() throws {
        // 10 % of 100.00 is 10.00; the shares 3.333, 3.333 and 3.334 become 3.33, 3.33, 3.34.
        let result = try totals([
            line(price: "33.33", rate: "19"), line(price: "33.33", rate: "7"), line(price: "33.34", rate: "0"),
        ], discount: "10")
        #expect(result.discount == money("10.00"))
        #expect(result.taxLines.map(\.rate) == [0, 7, 19])
        #expect(result.taxLines.map(\.taxableAmount) == [money("30.00"), money("30.00"), money("30.00")])
        let bases = try Money.sum(result.taxLines.map(\.taxableAmount), currency: .eur)
        #expect(bases == result.netTotal)
        #expect(result.taxLines.map(\.tax) == [money("0.00"), money("2.10"), money("5.70")])
        #expect(result.total == money("97.80"))
    }

    @Test func equalRatesWrittenDifferentlyAreOneTaxLine() throws {
        let result = try totals([line(price: "1.00", rate: "7"), line(price: "1.00", rate: "7.00")])
        #expect(result.taxLines.count == 1)
        #expect(result.tax == money("0.14"))
    }

    @Test func currenciesWithOtherMinorUnits() throws {
        let yen = try totals([line(quantity: "3", price: "333", rate: "10", currency: .jpy)], currency: .jpy)
        #expect(yen.tax == money("100", .jpy))   // 99.9 → 100
        #expect(yen.total == money("1099", .jpy))
        let dinar = Currency(code: "BHD")!
        let bahrain = try totals([line(price: "1.234", rate: "5", currency: dinar)], currency: dinar)
        #expect(bahrain.tax == money("0.062", dinar))   // 0.0617 → 0.062
    }

    @Test func paymentsLowerTheBalance() throws {
        let payments = [Payment(date: day("2024-03-05"), amount: money("50.00")),
                        Payment(date: day("2024-03-09"), amount: money("20.00"))]
        let result = try totals([line(price: "100.00", rate: "19")], payments: payments)
        #expect(result.total == money("119.00"))
        #expect(result.paid == money("70.00"))
        #expect(result.balanceDue == money("49.00"))
    }

    @Test func anEmptyInvoiceIsZero() throws {
        let result = try totals([])
        #expect(result == InvoiceTotals.zero(.eur))
        #expect(result.total.isZero && result.taxLines.isEmpty)
    }

    @Test func aFullDiscountLeavesNothingToTax() throws {
        let result = try totals([line(price: "80.00", rate: "19")], discount: "100")
        #expect(result.discount == money("80.00"))
        #expect(result.tax.isZero && result.total.isZero)
    }

    @Test func amountsTooLargeAreAnErrorNotACrash() {
        let huge = LineItem(description: "x", quantity: 1_000_000_000, unitPrice: Money(minorUnits: .max / 10, currency: .eur))
        #expect(throws: InvoiceError.amountTooLarge) { try self.totals([huge]) }
    }

    @Test func aLineInAnotherCurrencyIsRefused() {
        #expect(throws: InvoiceError.currencyMismatch(expected: .eur, found: .usd)) {
            try self.totals([line(price: "1.00", currency: .usd)])
        }
    }

    @Test func randomInvoicesAlwaysAddUp() throws {
        var generator = SeededGenerator(seed: 7)
        let rates: [Decimal] = [0, 5, 7, 7.7, 19, 20]
        for _ in 0..<300 {
            let lines = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                LineItem(description: "x", quantity: Decimal(Int.random(in: 1...4000, using: &generator)) / 100,
                         unitPrice: Money(minorUnits: Int64.random(in: 0...500_000, using: &generator), currency: .eur),
                         taxRate: rates.randomElement(using: &generator)!,
                         discountPercent: Bool.random(using: &generator) ? Decimal(Int.random(in: 0...50, using: &generator)) : nil)
            }
            let discount = Decimal(Int.random(in: 0...30, using: &generator))
            let result = try InvoiceTotals(lines: lines, discountPercent: discount, payments: [], currency: .eur)
            #expect(try Money.sum(result.lineNets, currency: .eur) == result.subtotal)
            #expect(try Money.sum(result.taxLines.map(\.taxableAmount), currency: .eur) == result.netTotal)
            #expect(try result.netTotal.adding(result.tax) == result.total)
            #expect(try result.subtotal.subtracting(result.discount) == result.netTotal)
            #expect(result.taxLines.map(\.rate) == result.taxLines.map(\.rate).sorted())
        }
    }
}

