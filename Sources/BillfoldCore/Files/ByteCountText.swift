import Foundation

/// A size in bytes for people: "850 kB", "68.4 MB", "1.2 GB", with the locale's decimal sign.
public enum ByteCountText {
    public static func string(_ bytes: Int64, formatting: NumberFormatting = NumberFormatting()) -> String {
        let units = [tr("%@ bytes"), tr("%@ kB"), tr("%@ MB"), tr("%@ GB"), tr("%@ TB")]
        var value = Decimal(max(0, bytes))
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let digits = unit == 0 || value >= 100 ? 0 : 1
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, digits, .plain)
        return String(format: units[unit], formatting.string(from: rounded, minimumFractionDigits: digits,
                                                            maximumFractionDigits: digits))
    }
}
