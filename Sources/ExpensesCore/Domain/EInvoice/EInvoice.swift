import BillfoldCore
import Foundation

/// A supplier's EN 16931 invoice as read from its XML (CII or UBL): what an expense needs and
/// what a person wants to see of it. Amounts are exact, in the document currency (BT-5).
public struct EInvoice: Hashable, Sendable {
    public enum Syntax: String, Hashable, Sendable {
        /// UN/CEFACT Cross Industry Invoice: Factur-X, ZUGFeRD, XRechnung (CII).
        case cii
        /// OASIS UBL 2.1 Invoice: Peppol, XRechnung (UBL).
        case ubl
        /// ZUGFeRD 1.0's Cross Industry Document, from before EN 16931.
        case zugferd1

        public var displayName: String {
            switch self {
            case .cii: return "UN/CEFACT CII"
            case .ubl: return "UBL 2.1"
            case .zugferd1: return "ZUGFeRD 1.0"
            }
        }
    }

    /// One invoice line (BG-25), for the readable rendering.
    public struct Line: Hashable, Sendable {
        public let name: String
        public let quantity: Decimal?
        /// UN/ECE Recommendation 20 code ("C62", "HUR").
        public let unitCode: String
        /// BT-131, net of line allowances and charges.
        public let netAmount: Money
        public let vatRate: Decimal?
    }

    public let syntax: Syntax
    /// BT-1.
    public let number: String
    /// BT-3 (380 commercial invoice, 384 corrected invoice…).
    public let typeCode: String
    /// BT-2.
    public let issueDate: CalendarDay
    /// BT-9.
    public let dueDate: CalendarDay?
    /// BT-27, the seller's legal name (UBL: the trading name, BT-28, when no legal name is given).
    public let sellerName: String
    /// BT-31.
    public let sellerVATID: String?
    /// BT-44.
    public let buyerName: String
    /// BT-5.
    public let currency: Currency
    public let lines: [Line]
    /// BG-23: one entry per VAT category and rate.
    public let vatBreakdown: [ExpenseVAT]
    /// BT-109.
    public let netTotal: Money
    /// BT-110, in the document currency.
    public let vatTotal: Money
    /// BT-112: what the expense records.
    public let grandTotal: Money
    /// BT-113.
    public let prepaid: Money?
    /// BT-115.
    public let amountDue: Money
}

/// Why a file is not an e-invoice Billfold can read. Each says what was wrong in words a
/// person can act on; the file is still kept as a receipt.
public enum EInvoiceError: Error, LocalizedError, Hashable, Sendable {
    /// A PDF without an embedded factur-x.xml, zugferd-invoice.xml or xrechnung.xml.
    case noInvoiceInPDF(attachments: [String])
    /// Not a PDF and not XML.
    case notAnInvoiceFile
    /// The PDF itself cannot be opened; `reason` says why.
    case unreadablePDF(reason: String)
    case tooLarge(limit: Int)
    case notWellFormed(line: Int, reason: String)
    /// A DOCTYPE: e-invoices never have one, and the entities it can declare are how XML attacks work.
    case documentTypeDeclaration
    case tooDeeplyNested(limit: Int)
    /// XML, but its root is not a CII or UBL invoice.
    case unknownDocument(root: String)
    case creditNote
    case missingField(String)
    case invalidAmount(field: String, text: String)
    case invalidDate(field: String, text: String)
    case unknownCurrency(String)
    /// An amount has more decimals than its currency (3 in a EUR amount, 1 in a JPY one).
    case tooManyDecimals(field: String, text: String, currency: Currency)
    /// An amount in another currency than the document's, where the standard wants the document's.
    case currencyMismatch(field: String, found: String, expected: Currency)
    case negativeTotal
    case amountTooLarge(field: String)

    public var errorDescription: String? {
        switch self {
        case .noInvoiceInPDF(let attachments):
            if attachments.isEmpty {
                return tr("This PDF has no e-invoice inside (no factur-x.xml, zugferd-invoice.xml or xrechnung.xml), so nothing could be read from it. Enter the details from the receipt.")
            }
            return String(format: tr("This PDF has no e-invoice inside, only other attachments (%@), so nothing could be read from it. Enter the details from the receipt."),
                          attachments.joined(separator: ", "))
        case .unreadablePDF(let reason):
            return String(format: tr("The PDF could not be searched for an e-invoice: %@"), reason)
        case .notAnInvoiceFile:
            return tr("This file is not an e-invoice (a Factur-X or ZUGFeRD PDF, or an XRechnung or EN 16931 XML file). Enter the details from the receipt.")
        case .tooLarge(let limit):
            return String(format: tr("The e-invoice XML is larger than %@, more than any real invoice needs, so it was not read."),
                          ByteCountFormatter.string(fromByteCount: Int64(limit), countStyle: .file))
        case .notWellFormed(let line, let reason):
            return String(format: tr("The e-invoice XML is damaged at line %d (%@), so it could not be read. Ask the supplier for the invoice again."),
                          line, reason)
        case .documentTypeDeclaration:
            return tr("The XML file has a document type declaration, which e-invoices never have; for safety it was not read.")
        case .tooDeeplyNested(let limit):
            return String(format: tr("The XML file nests elements more than %d deep, which e-invoices never do; for safety it was not read."), limit)
        case .unknownDocument(let root):
            return String(format: tr("The XML file is a “%@” document, not an EN 16931 invoice in CII or UBL, so nothing could be read from it."), root)
        case .creditNote:
            return tr("This e-invoice is a credit note. Billfold records what you paid, so it adds no expense for it; lower the amount of the invoice it credits instead.")
        case .missingField(let field):
            return String(format: tr("The e-invoice has no %@, which every EN 16931 invoice must give, so it could not be read."), field)
        case .invalidAmount(let field, let text):
            return String(format: tr("The %@ of the e-invoice, “%@”, is not an amount."), field, text)
        case .invalidDate(let field, let text):
            return String(format: tr("The %@ of the e-invoice, “%@”, is not a date."), field, text)
        case .unknownCurrency(let code):
            return String(format: tr("The e-invoice is in “%@”, which is not a currency Billfold knows."), code)
        case .tooManyDecimals(let field, let text, let currency):
            return String(format: tr("The %@ of the e-invoice, %@, has more decimals than %@ allows, so it cannot be recorded exactly."),
                          field, text, currency.code)
        case .currencyMismatch(let field, let found, let expected):
            return String(format: tr("The %@ of the e-invoice is in %@, not in the invoice currency %@."), field, found, expected.code)
        case .negativeTotal:
            return tr("The e-invoice’s total is below zero, so it is a credit rather than an expense; lower the amount of the invoice it credits instead.")
        case .amountTooLarge(let field):
            return String(format: tr("The %@ of the e-invoice is too large to calculate with."), field)
        }
    }
}
