import Foundation

/// An ISO 4217 currency with the number of digits after the decimal point of its minor unit
/// (JPY 0, EUR 2, BHD 3). Only active codes with a minor unit exist; precious metals and
/// other "no minor unit" codes (XAU, XDR, …) are not money an invoice can be written in.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    public let code: String
    public let minorUnitExponent: Int

    /// Looks the code up (case-insensitively) in the ISO 4217 table; nil for unknown or withdrawn codes.
    public init?(code: String) {
        // Stored codes are upper case already, and uppercased() cost more than the lookup.
        let upper = code.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } ? code : code.uppercased()
        guard let exponent = Currency.exponents[upper] else { return nil }
        self.code = upper
        self.minorUnitExponent = exponent
    }

    /// Every active currency, sorted by code.
    public static let all: [Currency] = exponents.keys.sorted().compactMap { Currency(code: $0) }

    /// The currency of the locale's region, or US dollars when the locale names none we know.
    public static func forLocale(_ locale: Locale = UserLocale.monetary) -> Currency {
        if let code = locale.currency?.identifier, let currency = Currency(code: code) {
            return currency
        }
        return .usd
    }

    /// The currency's name in the given language, e.g. "Euro" or "Schweizer Franken".
    /// "EUR — Euro": how currency pickers list it.
    public var choiceTitle: String {
        String(format: tr("%@ — %@"), code, localizedName())
    }

    public func localizedName(locale: Locale = UserLocale.messages) -> String {
        locale.localizedString(forCurrencyCode: code) ?? code
    }

    /// How many minor units make one major unit (100 for EUR, 1 for JPY, 1000 for BHD).
    public var minorUnitsPerMajorUnit: Int64 {
        var value: Int64 = 1
        for _ in 0..<minorUnitExponent { value *= 10 }
        return value
    }

    public var description: String { code }

    public static let usd = Currency(validCode: "USD")
    public static let eur = Currency(validCode: "EUR")
    public static let gbp = Currency(validCode: "GBP")
    public static let chf = Currency(validCode: "CHF")
    public static let jpy = Currency(validCode: "JPY")

    private init(validCode: String) {
        self.code = validCode
        self.minorUnitExponent = Currency.exponents[validCode] ?? 2
    }

    // Encoded as the bare code ("EUR") so stored JSON stays readable and the exponent
    // always comes from this table, never from the file.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        guard let currency = Currency(code: code) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Unknown ISO 4217 currency code \(code)")
        }
        self = currency
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    /// ISO 4217 list one: active codes and their minor-unit exponents, including the fund
    /// codes (BOV, CLF, …). ANG stays alongside its successor XCG for the transition.
    static let exponents: [String: Int] = [
        "AED": 2, "AFN": 2, "ALL": 2, "AMD": 2, "ANG": 2, "AOA": 2, "ARS": 2, "AUD": 2,
        "AWG": 2, "AZN": 2, "BAM": 2, "BBD": 2, "BDT": 2, "BGN": 2, "BHD": 3, "BIF": 0,
        "BMD": 2, "BND": 2, "BOB": 2, "BOV": 2, "BRL": 2, "BSD": 2, "BTN": 2, "BWP": 2,
        "BYN": 2, "BZD": 2, "CAD": 2, "CDF": 2, "CHE": 2, "CHF": 2, "CHW": 2, "CLF": 4,
        "CLP": 0, "CNY": 2, "COP": 2, "COU": 2, "CRC": 2, "CUC": 2, "CUP": 2, "CVE": 2,
        "CZK": 2, "DJF": 0, "DKK": 2, "DOP": 2, "DZD": 2, "EGP": 2, "ERN": 2, "ETB": 2,
        "EUR": 2, "FJD": 2, "FKP": 2, "GBP": 2, "GEL": 2, "GHS": 2, "GIP": 2, "GMD": 2,
        "GNF": 0, "GTQ": 2, "GYD": 2, "HKD": 2, "HNL": 2, "HTG": 2, "HUF": 2, "IDR": 2,
        "ILS": 2, "INR": 2, "IQD": 3, "IRR": 2, "ISK": 0, "JMD": 2, "JOD": 3, "JPY": 0,
        "KES": 2, "KGS": 2, "KHR": 2, "KMF": 0, "KPW": 2, "KRW": 0, "KWD": 3, "KYD": 2,
        "KZT": 2, "LAK": 2, "LBP": 2, "LKR": 2, "LRD": 2, "LSL": 2, "LYD": 3, "MAD": 2,
        "MDL": 2, "MGA": 2, "MKD": 2, "MMK": 2, "MNT": 2, "MOP": 2, "MRU": 2, "MUR": 2,
        "MVR": 2, "MWK": 2, "MXN": 2, "MXV": 2, "MYR": 2, "MZN": 2, "NAD": 2, "NGN": 2,
        "NIO": 2, "NOK": 2, "NPR": 2, "NZD": 2, "OMR": 3, "PAB": 2, "PEN": 2, "PGK": 2,
        "PHP": 2, "PKR": 2, "PLN": 2, "PYG": 0, "QAR": 2, "RON": 2, "RSD": 2, "RUB": 2,
        "RWF": 0, "SAR": 2, "SBD": 2, "SCR": 2, "SDG": 2, "SEK": 2, "SGD": 2, "SHP": 2,
        "SLE": 2, "SLL": 2, "SOS": 2, "SRD": 2, "SSP": 2, "STN": 2, "SVC": 2, "SYP": 2,
        "SZL": 2, "THB": 2, "TJS": 2, "TMT": 2, "TND": 3, "TOP": 2, "TRY": 2, "TTD": 2,
        "TWD": 2, "TZS": 2, "UAH": 2, "UGX": 0, "USD": 2, "USN": 2, "UYI": 0, "UYU": 2,
        "UYW": 4, "UZS": 2, "VED": 2, "VES": 2, "VND": 0, "VUV": 0, "WST": 2, "XAF": 0,
        "XCD": 2, "XCG": 2, "XOF": 0, "XPF": 0, "YER": 2, "ZAR": 2, "ZMW": 2, "ZWG": 2,
    ]
}
