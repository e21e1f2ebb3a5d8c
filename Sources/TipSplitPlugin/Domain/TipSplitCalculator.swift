import BillfoldCore
import Foundation

/// What a person enters to split a bill.
public struct TipSplitInput: Sendable, Equatable {
    /// The amount on the bill, tax included.
    public var bill: Money
    /// The tax included in `bill`; when set, the tip is worked out on the amount before tax.
    public var taxIncluded: Money?
    /// 0 to 100.
    public var tipPercent: Decimal
    /// 1 to 50.
    public var partySize: Int
    /// Rounds every share up to a whole unit of the currency; the extra goes to the tip.
    public var roundsSharesUp: Bool

    public static let partySizes = 1...50
    public static let tipPercents: ClosedRange<Decimal> = 0...100
    public static let presetPercents: [Decimal] = [10, 15, 18, 20, 25]

    public init(bill: Money, taxIncluded: Money? = nil, tipPercent: Decimal, partySize: Int, roundsSharesUp: Bool = false) {
        self.bill = bill
        self.taxIncluded = taxIncluded
        self.tipPercent = tipPercent
        self.partySize = partySize
        self.roundsSharesUp = roundsSharesUp
    }
}

/// The split, in exact minor units: the shares always add up to the total.
public struct TipSplitResult: Sendable, Equatable {
    /// The tip, including any extra from rounding shares up.
    public let tip: Money
    /// What rounding the shares up added to the tip (zero without round-up).
    public let roundingExtra: Money
    public let total: Money
    /// One amount per person, the larger ones first; they sum to `total` exactly.
    public let shares: [Money]
    /// Each person's part of the tip, the larger ones first; they sum to `tip` exactly.
    public let tipShares: [Money]

    /// The most anyone pays.
    public var largestShare: Money { shares[0] }
    /// The least anyone pays.
    public var smallestShare: Money { shares[shares.count - 1] }
    /// How many people pay one minor unit more than the others (0 when all pay the same).
    public var peoplePayingMore: Int {
        largestShare == smallestShare ? 0 : shares.filter { $0 == largestShare }.count
    }
}

public enum TipSplitError: Error, LocalizedError, Equatable {
    case negativeBill
    case taxNotBelowBill
    case tipPercentOutOfRange
    case partySizeOutOfRange
    case tooLarge

    public var errorDescription: String? {
        switch self {
        case .negativeBill: tr("The bill cannot be negative.")
        case .taxNotBelowBill: tr("The tax must be less than the bill it is included in.")
        case .tipPercentOutOfRange: tr("The tip must be between 0 % and 100 %.")
        case .partySizeOutOfRange: tr("Split between 1 and 50 people.")
        case .tooLarge: tr("The amount is too large to calculate with.")
        }
    }
}

public enum TipSplitCalculator {
    /// Works out the tip and each share. The tip is rounded half-up to a minor unit once; the
    /// total is then allocated so that the shares differ by at most one minor unit.
    public static func split(_ input: TipSplitInput) throws(TipSplitError) -> TipSplitResult {
        guard !input.bill.isNegative else { throw .negativeBill }
        guard TipSplitInput.tipPercents.contains(input.tipPercent) else { throw .tipPercentOutOfRange }
        guard TipSplitInput.partySizes.contains(input.partySize) else { throw .partySizeOutOfRange }
        do {
            var tipBase = input.bill
            if let tax = input.taxIncluded, !tax.isZero {
                guard !tax.isNegative, tax.minorUnits < input.bill.minorUnits else { throw TipSplitError.taxNotBelowBill }
                tipBase = try input.bill.subtracting(tax)
            }
            let tip = try tipBase.percentage(input.tipPercent, rounding: .halfUp)
            let total = try input.bill.adding(tip)
            guard input.roundsSharesUp else {
                return TipSplitResult(tip: tip, roundingExtra: .zero(tip.currency), total: total,
                                      shares: try total.allocated(into: input.partySize),
                                      tipShares: try tip.allocated(into: input.partySize))
            }
            // Everyone pays the largest exact share rounded up to a whole unit.
            let unit = input.bill.currency.minorUnitsPerMajorUnit
            let largest = try total.allocated(into: input.partySize)[0].minorUnits
            let (wholeUnits, overflowed) = largest.addingReportingOverflow(unit - 1)
            guard !overflowed else { throw TipSplitError.tooLarge }
            let share = Money(minorUnits: wholeUnits / unit * unit, currency: total.currency)
            let roundedTotal = try share.multiplied(by: Decimal(input.partySize))
            let extra = try roundedTotal.subtracting(total)
            let roundedTip = try tip.adding(extra)
            return TipSplitResult(tip: roundedTip, roundingExtra: extra, total: roundedTotal,
                                  shares: Array(repeating: share, count: input.partySize),
                                  tipShares: try roundedTip.allocated(into: input.partySize))
        } catch let error as TipSplitError {
            throw error
        } catch {
            throw .tooLarge
        }
    }
}
