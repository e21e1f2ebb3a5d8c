import Foundation

/// The one text form dates take in the database: ISO 8601, UTC, milliseconds,
/// "2024-03-01T09:30:00.000Z". Fixed width for years 0–9999, so text order is time order.
/// Written by hand: it runs for every row of a bulk insert and must not depend on a locale.
enum DateText {
    static func string(from date: Date) -> String {
        // Clamped to ±900 000 years so an absurd Date cannot trap the Int64 conversion.
        let limit = 2.8e16
        let raw = (date.timeIntervalSince1970 * 1000).rounded()
        let milliseconds = Int64(raw.isNaN ? 0 : min(max(raw, -limit), limit))
        let (days, millisecondOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000

        var text = ""
        text.reserveCapacity(24)
        if (0...9999).contains(year) {
            text += pad(year, 4)
        } else {
            // ISO 8601 expanded years keep far dates (Date.distantPast is year 1, fine) readable.
            text += (year < 0 ? "-" : "+") + pad(abs(year), 6)
        }
        text += "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2)
        text += ":" + pad(second, 2) + "." + pad(millisecond, 3) + "Z"
        return text
    }

    /// Reads "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS[.fff]]" or the same with "T", each with an
    /// optional "Z" or "±HH:MM"; without a zone the time is UTC, as SQLite's own functions write it.
    static func date(from text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        var sign: Int64 = 1
        var yearDigits = 4
        if let first = scanner.peek(), first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            scanner.advance()
            yearDigits = 6
        }
        guard let yearValue = scanner.number(digits: yearDigits), scanner.take("-"),
              let month = scanner.number(digits: 2), scanner.take("-"),
              let day = scanner.number(digits: 2),
              (1...12).contains(month), (1...daysIn(month: month, year: sign * yearValue)).contains(day)
        else { return nil }
        let year = sign * yearValue
        var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, millisecond: Int64 = 0
        var offsetMinutes: Int64 = 0
        if !scanner.atEnd {
            guard scanner.take("T") || scanner.take(" "),
                  let h = scanner.number(digits: 2), scanner.take(":"),
                  let m = scanner.number(digits: 2), h < 24, m < 60 else { return nil }
            hour = h
            minute = m
            if scanner.take(":") {
                guard let s = scanner.number(digits: 2), s < 60 else { return nil }
                second = s
                if scanner.take(".") {
                    let fraction = scanner.digits()
                    guard !fraction.isEmpty else { return nil }
                    // Milliseconds are what is stored; further digits are rounded away.
                    let padded = (fraction + [48, 48, 48, 48])
                    millisecond = Int64(padded[0] - 48) * 100 + Int64(padded[1] - 48) * 10 + Int64(padded[2] - 48)
                    if padded[3] >= UInt8(ascii: "5") { millisecond += 1 }
                }
            }
            if scanner.take("Z") || scanner.take("z") {
                offsetMinutes = 0
            } else if let signByte = scanner.peek(), signByte == UInt8(ascii: "+") || signByte == UInt8(ascii: "-") {
                scanner.advance()
                guard let oh = scanner.number(digits: 2) else { return nil }
                _ = scanner.take(":")
                guard let om = scanner.number(digits: 2), oh < 24, om < 60 else { return nil }
                offsetMinutes = (oh * 60 + om) * (signByte == UInt8(ascii: "-") ? -1 : 1)
            }
        }
        guard scanner.atEnd else { return nil }
        let days = days(fromCivil: year, month, day)
        let milliseconds = ((days * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 + second * 1000 + millisecond
        return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let quotient = a / b
        let remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { index == bytes.count }
        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }
        mutating func advance() { index += 1 }
        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard let byte = peek(), byte == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        mutating func number(digits count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += count
            return value
        }
        mutating func digits() -> [UInt8] {
            var result: [UInt8] = []
            while let byte = peek(), byte >= 48, byte <= 57 { result.append(byte); index += 1 }
            return result
        }
    }
}
