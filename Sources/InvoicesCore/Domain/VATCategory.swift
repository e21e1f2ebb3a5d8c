import BillfoldCore
import Foundation

/// Why a line is taxed the way it is: the VAT category of EN 16931 (UNTDID 5305 codes). Lines
/// are taxed together per category and rate; every category but `standard` has a rate of 0 %.
public enum VATCategory: String, Sendable, Hashable, CaseIterable {
    /// Taxed at a rate above 0 % (S).
    case standard = "S"
    /// Goods or services taxed at 0 % by law (Z).
    case zeroRated = "Z"
    /// Exempt from VAT; the invoice names the reason (E).
    case exempt = "E"
    /// Reverse charge: the client pays the VAT (AE).
    case reverseCharge = "AE"
    /// Supply of goods or services to a business in another EU country (K).
    case intraCommunity = "K"
    /// Export outside the EU (G).
    case export = "G"
    /// Outside the scope of VAT (O).
    case notSubject = "O"

    /// The code written in an e-invoice.
    public var code: String { rawValue }

    /// Whether its lines carry a tax rate above 0 %.
    public var hasRate: Bool { self == .standard }

    /// The name a freelancer knows it by.
    public var title: String {
        switch self {
        case .standard: tr("Standard rate")
        case .zeroRated: tr("Zero rate")
        case .exempt: tr("Exempt from VAT")
        case .reverseCharge: tr("Reverse charge")
        case .intraCommunity: tr("Intra-EU supply")
        case .export: tr("Export outside the EU")
        case .notSubject: tr("Not subject to VAT")
        }
    }

    /// A group of lines taxed alike, named short: "19% VAT" for a rate, else the category.
    public func groupTitle(rate: Decimal, numbers: NumberFormatting = NumberFormatting()) -> String {
        hasRate ? String(format: tr("%@ VAT"), numbers.percentString(from: rate, maximumFractionDigits: 4)) : title
    }

    /// The legal note an invoice with lines in this category must carry, printed on the PDF and
    /// written as the exemption reason of the e-invoice. Exempt lines use the invoice's own
    /// reason; standard and zero rate need none.
    public var legalNote: String? {
        switch self {
        case .standard, .zeroRated, .exempt: nil
        case .reverseCharge: tr("Reverse charge: the recipient is liable for the VAT (Article 196 of Council Directive 2006/112/EC).")
        case .intraCommunity: tr("Intra-Community supply, exempt from VAT (Article 138 of Council Directive 2006/112/EC).")
        case .export: tr("Export outside the EU, exempt from VAT (Article 146 of Council Directive 2006/112/EC).")
        case .notSubject: tr("Not subject to VAT.")
        }
    }

    /// The VATEX code (CEF exemption reason code list) that goes with the legal note.
    public var exemptionReasonCode: String? {
        switch self {
        case .standard, .zeroRated, .exempt: nil
        case .reverseCharge: "VATEX-EU-AE"
        case .intraCommunity: "VATEX-EU-IC"
        case .export: "VATEX-EU-G"
        case .notSubject: "VATEX-EU-O"
        }
    }

    /// What a line with no category stored gets: standard when it has a rate, else zero rate.
    public static func inferred(fromRate rate: Decimal) -> VATCategory {
        rate > 0 ? .standard : .zeroRated
    }
}
