import BillfoldCore
import Foundation

/// A unit of measure as e-invoices name it (UN/ECE Recommendation 20), with the word a person
/// uses for it. A line keeps both: the code for the e-invoice, the word for the PDF.
public struct UnitCode: Sendable, Hashable {
    public let code: String

    public init(_ code: String) { self.code = code }

    public static let hour = UnitCode("HUR")
    public static let day = UnitCode("DAY")
    public static let week = UnitCode("WEE")
    public static let month = UnitCode("MON")
    public static let year = UnitCode("ANN")
    /// "One": pieces, items, anything counted.
    public static let piece = UnitCode("C62")
    public static let lumpSum = UnitCode("LS")
    public static let kilometre = UnitCode("KMT")
    public static let kilogram = UnitCode("KGM")
    public static let metre = UnitCode("MTR")
    public static let squareMetre = UnitCode("MTK")
    public static let litre = UnitCode("LTR")

    /// The units the line editor offers, in this order.
    public static let common: [UnitCode] = [.hour, .day, .week, .month, .year, .piece, .lumpSum, .kilometre,
                                            .kilogram, .metre, .squareMetre, .litre]

    /// The unit's name in a list, e.g. "Hours".
    public var title: String {
        switch code {
        case "HUR": tr("Hours")
        case "DAY": tr("Days")
        case "WEE": tr("Weeks")
        case "MON": tr("Months")
        case "ANN": tr("Years")
        case "C62": tr("Pieces")
        case "LS": tr("Flat rate")
        case "KMT": tr("Kilometres")
        case "KGM": tr("Kilograms")
        case "MTR": tr("Metres")
        case "MTK": tr("Square metres")
        case "LTR": tr("Litres")
        default: code
        }
    }

    /// The short word printed after a quantity, e.g. "h".
    public var word: String {
        switch code {
        case "HUR": tr("h")
        case "DAY": tr("days")
        case "WEE": tr("weeks")
        case "MON": tr("months")
        case "ANN": tr("years")
        case "C62": tr("pcs")
        case "LS": tr("flat")
        case "KMT": "km"
        case "KGM": "kg"
        case "MTR": "m"
        case "MTK": "m²"
        case "LTR": "l"
        default: ""
        }
    }

    /// The code for a unit typed by hand before units had codes ("h", "Std.", "days", "pcs"…);
    /// a word it does not know counts as pieces (C62, "one"), which every receiver accepts.
    public static func guess(from word: String) -> UnitCode {
        let key = word.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        switch key {
        case "h", "hr", "hrs", "hour", "hours", "std", "stunde", "stunden", "heure", "heures", "hora", "horas":
            return .hour
        case "d", "day", "days", "tag", "tage", "jour", "jours", "día", "dia", "días", "dias":
            return .day
        case "wk", "week", "weeks", "woche", "wochen", "semaine", "semaines", "semana", "semanas":
            return .week
        case "mo", "month", "months", "monat", "monate", "mois", "mes", "meses":
            return .month
        case "km": return .kilometre
        case "kg": return .kilogram
        case "m": return .metre
        case "m2", "m²", "qm": return .squareMetre
        case "l", "litre", "liter", "litres", "liters": return .litre
        case "flat", "pauschal", "forfait", "ls": return .lumpSum
        default: return .piece
        }
    }
}
