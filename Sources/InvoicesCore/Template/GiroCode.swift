import BillfoldCore
import Foundation

/// The EPC QR code for a SEPA credit transfer ("GiroCode", EPC069-12 version 3.0): a banking
/// app reads the payee, IBAN, amount and reference from the invoice instead of having them typed.
///
/// Its text is fixed lines, separated by a line feed, with the last filled line unterminated:
/// `BCD`, version `002`, character set `1` (UTF-8), `SCT`, the BIC (optional in version 002),
/// the payee's name (at most 70 characters), the IBAN, `EUR` and the amount (0.01 to
/// 999999999.99), the purpose code, the structured reference and the unstructured remittance
/// text (at most 140 characters, only one of the two). At most 331 bytes in all, in a QR code
/// of version 13 or less with error correction level M.
public struct GiroCode: Sendable, Hashable {
    public static let maximumBytes = 331
    public static let maximumVersion = 13
    static let maximumAmount = Money(minorUnits: 99_999_999_999, currency: .eur)

    public let bic: String
    public let name: String
    public let iban: String
    public let amount: Money
    public let remittance: String

    /// The code for the amount `document` still asks for, or nil when a code would be wrong:
    /// not euros, no IBAN, nothing (or too much) due, a paid or cancelled invoice, or the
    /// profile turned the code off.
    public init?(_ document: InvoiceDocument) {
        let profile = document.profile
        let due = document.totals.balanceDue
        guard profile.printsPaymentQRCode, due.currency == .eur, due.isPositive, due.minorUnits <= Self.maximumAmount.minorUnits,
              !profile.iban.isEmpty, IBAN.problem(profile.iban) == nil,
              document.invoice.status != .paid, document.invoice.status != .cancelled
        else { return nil }
        let bic = profile.bic.filter { !$0.isWhitespace }.uppercased()
        self.bic = BIC.isValid(bic) ? bic : ""
        name = String(Self.singleLine(profile.name).prefix(70))
        iban = profile.iban.filter { !$0.isWhitespace }.uppercased()
        amount = due
        remittance = String(Self.singleLine(document.invoice.number).prefix(140))
        guard !name.isEmpty, payload.utf8.count <= Self.maximumBytes else { return nil }
    }

    /// The text the QR code holds.
    public var payload: String {
        let units = amount.minorUnits
        let text = "EUR" + String(units / 100) + "." + String(format: "%02d", Int(units % 100))
        return ["BCD", "002", "1", "SCT", bic, name, iban, text, "", "", remittance].joined(separator: "\n")
    }

    /// A line break would start the next field.
    private static func singleLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}
