import BillfoldCore
import Foundation

/// The e-invoice formats a client can ask for.
public enum EInvoiceFormat: String, Sendable, Hashable, CaseIterable {
    /// Factur-X 1.0 / ZUGFeRD 2.3, profile EN 16931: a PDF with the invoice's data inside.
    case facturX = "factur-x"
    /// XRechnung 3.0 (CII syntax): the data alone, for German public bodies and businesses.
    case xrechnung

    public var title: String {
        switch self {
        case .facturX: tr("Factur-X / ZUGFeRD (PDF with data)")
        case .xrechnung: tr("XRechnung (XML)")
        }
    }
}

/// An electronic address an e-invoice can be delivered to (BT-34, BT-49): an email address,
/// or a Peppol participant ID written `scheme:identifier`, like `0088:4012345000009`.
public struct ElectronicAddress: Sendable, Hashable {
    /// The EAS code: "EM" for email, else the four digits before the colon.
    public let scheme: String
    public let identifier: String

    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if EmailAddress.looksValid(trimmed) {
            scheme = "EM"
            identifier = trimmed
            return
        }
        let parts = trimmed.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber),
              !parts[1].isEmpty, !parts[1].contains(where: \.isWhitespace) else { return nil }
        scheme = String(parts[0])
        identifier = String(parts[1])
    }

    static func problem(_ text: String) -> String? {
        text.isEmpty || ElectronicAddress(text) != nil
            ? nil : tr("Enter an email address, or a Peppol ID like 0088:4012345000009.")
    }
}

/// ISO 3166-1 country codes, named in the user's language.
public enum Country {
    /// Every region Foundation knows, by localized name (each name looked up once).
    public static let codes: [String] = Locale.Region.isoRegions.map(\.identifier)
        .filter { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } }
        .map { (code: $0, name: name(of: $0)) }
        .sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
        .map(\.code)

    private static let isoCodes = Set(Locale.Region.isoRegions.map(\.identifier))

    public static func name(of code: String) -> String {
        UserLocale.messages.localizedString(forRegionCode: code) ?? code
    }

    public static func isKnown(_ code: String) -> Bool {
        code.count == 2 && isoCodes.contains(code)
    }
}

/// A VAT identification number: a country prefix and the national number (BR-CO-9).
enum VATID {
    static func problem(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        let compact = normalized(text)
        // Every national part is 8 to 12 characters (Denmark's 8 digits to Sweden's 12).
        guard compact.count >= 10, compact.count <= 14, compact.prefix(2).allSatisfy({ $0.isASCII && $0.isLetter }),
              compact.dropFirst(2).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "*") }),
              compact.dropFirst(2).contains(where: \.isNumber)
        else { return tr("A VAT ID starts with its country’s two letters, like DE123456789 or FR12345678901.") }
        return nil
    }

    /// Without spaces, dots or dashes, in capitals, as e-invoices write it.
    static func normalized(_ text: String) -> String {
        text.filter { !$0.isWhitespace && $0 != "." && $0 != "-" }.uppercased()
    }

    /// Whether a number typed in the old single "Tax ID" field is a VAT ID rather than a
    /// national tax number: a country prefix followed by digits.
    static func looksLikeVATID(_ text: String) -> Bool {
        let compact = normalized(text)
        return problem(compact) == nil && compact.dropFirst(2).first?.isNumber == true
    }
}

/// The address block as printed: the address as typed, then the postcode and town and the
/// country where they are not already in it, so an address typed in one field before these
/// fields existed prints as it always did.
enum PrintedAddress {
    static func text(address: String, postcode: String, city: String, countryCode: String) -> String {
        var lines = address.split(whereSeparator: \.isNewline).map(String.init)
        let place = [postcode, city].filter { !$0.isEmpty }.joined(separator: " ")
        if !place.isEmpty, !lines.contains(where: { $0.contains(place) || (!city.isEmpty && $0.contains(city)) }) {
            lines.append(place)
        }
        if !countryCode.isEmpty {
            let country = Country.name(of: countryCode)
            if !lines.contains(where: { $0.localizedCaseInsensitiveContains(country) }) { lines.append(country) }
        }
        return lines.joined(separator: "\n")
    }

    /// The street lines for an e-invoice: the address without the line that holds the town.
    static func streetLines(address: String, postcode: String, city: String, countryCode: String) -> [String] {
        let country = countryCode.isEmpty ? "" : Country.name(of: countryCode)
        return address.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.isEmpty && !(!city.isEmpty && line.contains(city)) && !(!postcode.isEmpty && line.contains(postcode))
                && !(!country.isEmpty && line.localizedCaseInsensitiveCompare(country) == .orderedSame)
        }
    }
}
