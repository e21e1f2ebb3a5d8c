import BillfoldCore
import Foundation
import SeededRandom
import Testing
@testable import TipSplitPlugin

private let usd = Currency(code: "USD")!
private let jpy = Currency(code: "JPY")!
private let bhd = Currency(code: "BHD")!

private func money(_ units: Int64, _ currency: Currency = usd) -> Money { Money(minorUnits: units, currency: currency) }

@Suite struct TipSplitCalculatorTests {
    @Test func hundredSplitThreeWaysAddsUpToTheCent() throws {
        let result = try TipSplitCalculator.split(TipSplitInput(bill: money(10_000), tipPercent: 0, partySize: 3))
        #expect(result.shares.map(\.minorUnits) == [3334, 3333, 3333])
        #expect(result.peoplePayingMore == 1)
        #expect(result.total == money(10_000))
    }

    @Test func oneCentBetweenSeven() throws {
        let result = try TipSplitCalculator.split(TipSplitInput(bill: money(1), tipPercent: 0, partySize: 7))
        #expect(result.shares.map(\.minorUnits) == [1, 0, 0, 0, 0, 0, 0])
        #expect(try Money.sum(result.shares, currency: usd) == money(1))
    }

    @Test func twentyPercentOnAHundredForThree() throws {
        let result = try TipSplitCalculator.split(TipSplitInput(bill: money(10_000), tipPercent: 20, partySize: 3))
        #expect(result.tip == money(2_000))
        #expect(result.total == money(12_000))
        #expect(result.shares == Array(repeating: money(4_000), count: 3))
        #expect(result.peoplePayingMore == 0)
        #expect(result.tipShares.map(\.minorUnits) == [667, 667, 666])
    }

    @Test func tipRoundsHalfUpOnce() throws {
        // 15 % of 0.05 is 0.0075: rounded once, half-up, to 0.01.
        let result = try TipSplitCalculator.split(TipSplitInput(bill: money(5), tipPercent: 15, partySize: 1))
        #expect(result.tip == money(1))
    }

    @Test func yenHaveNoCents() throws {
        let result = try TipSplitCalculator.split(TipSplitInput(bill: money(1_000, jpy), tipPercent: 15, partySize: 3))
        #expect(result.tip == money(150, jpy))
        #expect(result.shares.map(\.minorUnits) == [384, 383, 383])
    }

    @Test func threeDecimalCurrencies() throws {
        let result = try TipSplitCalculator.split(TipSplitInput(bill: money(10_000, bhd), tipPercent: 10, partySize: 3))
        #expect(result.total == money(11_000, bhd))
        #expect(result.shares.map(\.minorUnits) == [3_667, 3_667, 3_666])
    }

    @Test func tipOnTheAmountBeforeTax() throws {
        // 110.00 including 10.00 tax: 20 % of 100.00.
        let input = TipSplitInput(bill: money(11_000), taxIncluded: money(1_000), tipPercent: 20, partySize: 2)
        let result = try TipSplitCalculator.split(input)
        #expect(result.tip == money(2_000))
        #expect(result.total == money(13_000))
        #expect(result.shares == [money(6_500), money(6_500)])
    }

    @Test func taxMustBeBelowTheBill() {
        let input = TipSplitInput(bill: money(1_000), taxIncluded: money(1_000), tipPercent: 20, partySize: 2)
        #expect(throws: TipSplitError.taxNotBelowBill) { try TipSplitCalculator.split(input) }
    }

    @Test func roundUpMovesTheExtraIntoTheTip() throws {
        // 100.00 + 18 % = 118.00 over 3 = 39.34, 39.33, 39.33 → everyone pays 40.00.
        let input = TipSplitInput(bill: money(10_000), tipPercent: 18, partySize: 3, roundsSharesUp: true)
        let result = try TipSplitCalculator.split(input)
        #expect(result.shares == Array(repeating: money(4_000), count: 3))
        #expect(result.total == money(12_000))
        #expect(result.roundingExtra == money(200))
        #expect(result.tip == money(2_000))
    }

    @Test func roundUpOfAWholeShareChangesNothing() throws {
        let input = TipSplitInput(bill: money(10_000), tipPercent: 20, partySize: 3, roundsSharesUp: true)
        let result = try TipSplitCalculator.split(input)
        #expect(result.roundingExtra == money(0))
        #expect(result.shares == Array(repeating: money(4_000), count: 3))
    }

    @Test func zeroBillIsZeroForEveryone() throws {
        let result = try TipSplitCalculator.split(TipSplitInput(bill: money(0), tipPercent: 25, partySize: 4))
        #expect(result.shares.allSatisfy { $0.isZero })
        #expect(result.peoplePayingMore == 0)
    }

    @Test func hugeBillsReportOverflowInsteadOfWrapping() throws {
        let huge = TipSplitInput(bill: money(Int64.max - 10), tipPercent: 20, partySize: 3)
        #expect(throws: TipSplitError.tooLarge) { try TipSplitCalculator.split(huge) }
        let large = try TipSplitCalculator.split(TipSplitInput(bill: money(Int64.max / 2), tipPercent: 50, partySize: 50))
        #expect(try Money.sum(large.shares, currency: usd) == large.total)
    }

    @Test func partySizeAndPercentAreBounded() {
        #expect(throws: TipSplitError.partySizeOutOfRange) {
            try TipSplitCalculator.split(TipSplitInput(bill: money(100), tipPercent: 10, partySize: 0))
        }
        #expect(throws: TipSplitError.partySizeOutOfRange) {
            try TipSplitCalculator.split(TipSplitInput(bill: money(100), tipPercent: 10, partySize: 51))
        }
        #expect(throws: TipSplitError.tipPercentOutOfRange) {
            try TipSplitCalculator.split(TipSplitInput(bill: money(100), tipPercent: 100.5, partySize: 2))
        }
        #expect(throws: TipSplitError.negativeBill) {
            try TipSplitCalculator.split(TipSplitInput(bill: money(-100), tipPercent: 10, partySize: 2))
        }
    }

    @Test func sharesAlwaysAddUpOverManyRandomBills() throws {
        var generator = SeededGenerator(seed: 0xB111_F01D)
        let currencies = [usd, jpy, bhd]
        for _ in 0..<5_000 {
            let currency = currencies[Int(generator.next() % 3)]
            let bill = money(Int64(generator.next() % 100_000_000), currency)
            let percent = Decimal(Int(generator.next() % 201)) / 2
            let people = Int(generator.next() % 50) + 1
            let roundUp = generator.next() % 2 == 0
            let result = try TipSplitCalculator.split(TipSplitInput(bill: bill, tipPercent: percent, partySize: people, roundsSharesUp: roundUp))
            #expect(try Money.sum(result.shares, currency: currency) == result.total)
            #expect(try Money.sum(result.tipShares, currency: currency) == result.tip)
            #expect(try bill.adding(result.tip) == result.total)
            #expect(result.largestShare.minorUnits - result.smallestShare.minorUnits <= 1)
        }
    }
}
