import Foundation

/// How values are written in PDF syntax (ISO 32000-1, 7.3 and 7.9.4).
enum PDFSyntax {
    /// A text string: a literal for printable ASCII, UTF-16BE with a byte order mark otherwise.
    static func text(_ value: String) -> String {
        if value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            var escaped = ""
            for character in value {
                if character == "(" || character == ")" || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return "(" + escaped + ")"
        }
        return "<FEFF" + hex(Array(value.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) + ">"
    }

    /// Bytes as a hexadecimal string's contents, upper case.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var characters: [UInt8] = []
        for byte in bytes {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// A name object: characters outside the regular printable set are written `#xx`
    /// (so `text/xml` becomes `/text#2Fxml`).
    static func name(_ value: String) -> String {
        var result = "/"
        for byte in value.utf8 {
            let isRegular = byte > 0x20 && byte < 0x7F && !"()<>[]{}/%#".utf8.contains(byte)
            result += isRegular ? String(UnicodeScalar(byte)) : "#" + hex([byte])
        }
        return result
    }

    /// A date as PDF writes it, `D:20240501093000+02'00'`, in `timeZone`.
    static func date(_ date: Date, timeZone: TimeZone) -> String {
        let parts = DateParts(date, timeZone: timeZone)
        let sign = parts.offsetMinutes < 0 ? "-" : "+"
        let offset = abs(parts.offsetMinutes)
        return String(format: "D:%04d%02d%02d%02d%02d%02d", parts.year, parts.month, parts.day, parts.hour, parts.minute,
                      parts.second) + sign + String(format: "%02d'%02d'", offset / 60, offset % 60)
    }

    /// The same instant as XMP writes it, `2024-05-01T09:30:00+02:00`.
    static func xmpDate(_ date: Date, timeZone: TimeZone) -> String {
        let parts = DateParts(date, timeZone: timeZone)
        let sign = parts.offsetMinutes < 0 ? "-" : "+"
        let offset = abs(parts.offsetMinutes)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year, parts.month, parts.day, parts.hour, parts.minute,
                      parts.second) + sign + String(format: "%02d:%02d", offset / 60, offset % 60)
    }

    private struct DateParts {
        let year, month, day, hour, minute, second, offsetMinutes: Int

        init(_ date: Date, timeZone: TimeZone) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            year = c.year ?? 1970
            month = c.month ?? 1
            day = c.day ?? 1
            hour = c.hour ?? 0
            minute = c.minute ?? 0
            second = c.second ?? 0
            offsetMinutes = timeZone.secondsFromGMT(for: date) / 60
        }
    }
}
