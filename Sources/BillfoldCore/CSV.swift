import Foundation

/// Why a CSV file could not be read at all (a bad row is the importer's business, not this).
public enum CSVError: Error, LocalizedError, Hashable, Sendable {
    /// The bytes are not UTF-8 text; `line` is where the first bad byte is.
    case notUTF8(line: Int)
    /// A quoted field opened on `line` never closes.
    case unterminatedQuote(line: Int)
    /// Nothing but empty lines.
    case empty

    public var errorDescription: String? {
        switch self {
        case .notUTF8(let line):
            return String(format: tr("The file is not UTF-8 text (line %d). Save it from the spreadsheet as “CSV UTF-8” and try again."), line)
        case .unterminatedQuote(let line):
            return String(format: tr("A quoted field that starts on line %d is never closed."), line)
        case .empty:
            return tr("The file holds no rows.")
        }
    }
}

/// One record of a CSV file, with the line it starts on (a quoted newline makes a record span lines).
public struct CSVRecord: Hashable, Sendable {
    public var fields: [String]
    public var line: Int

    public init(_ fields: [String], line: Int) {
        self.fields = fields
        self.line = line
    }
}

/// RFC 4180 comma-separated values.
///
/// Writing: UTF-8, CRLF line ends, a field quoted when it holds the separator, a quote, CR or
/// LF, quotes doubled. Reading is as lenient as spreadsheets are: a byte order mark is skipped,
/// CRLF, LF and CR all end a record, a stray quote inside an unquoted field is kept as text,
/// rows may have any number of fields (the importer says which are short), and the separator
/// may be a semicolon or a tab, as spreadsheets in many locales save it.
public enum CSV {
    /// One field, quoted when it must be.
    public static func field(_ value: String, separator: Character = ",") -> String {
        let needsQuotes = value.contains { $0 == separator || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record with its line end.
    public static func record(_ fields: [String]) -> String {
        fields.map { field($0) }.joined(separator: ",") + "\r\n"
    }

    /// A header and rows as one text.
    public static func text(header: [String], rows: [[String]]) -> String {
        var text = record(header)
        for row in rows { text += record(row) }
        return text
    }

    /// The separator a file uses, guessed from its first line: the most frequent of comma,
    /// semicolon and tab outside quotes; a comma when none appears.
    public static func detectSeparator(_ data: Data) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var quoted = false
        for byte in data.prefix(64 * 1024) {
            if byte == UInt8(ascii: "\"") { quoted.toggle(); continue }
            if quoted { continue }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if counts[byte] != nil { counts[byte, default: 0] += 1 }
        }
        let best = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }
        guard let best, best.value > 0 else { return UInt8(ascii: ",") }
        return best.key
    }

    /// Every record of `data`; blank lines are skipped. `separator` is detected when nil.
    public static func parse(_ data: Data, separator: UInt8? = nil) throws(CSVError) -> [CSVRecord] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let bad = firstInvalidUTF8(bytes) {
            throw .notUTF8(line: 1 + bytes[..<bad].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) })
        }
        let separator = separator ?? detectSeparator(Data(bytes))
        let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

        var records: [CSVRecord] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var index = 0
        var fieldWasQuoted = false
        let count = bytes.count

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        func endRecord() {
            endField()
            // A line with nothing on it is not a record of one empty field.
            if !(fields.count == 1 && fields[0].isEmpty) {
                records.append(CSVRecord(fields, line: recordLine))
            }
            fields.removeAll(keepingCapacity: true)
        }

        while index < count {
            let byte = bytes[index]
            if byte == quote, field.isEmpty, !fieldWasQuoted {
                // A quoted field: up to the quote that is not doubled.
                let openedOn = line
                index += 1
                var closed = false
                while index < count {
                    let inner = bytes[index]
                    if inner == quote {
                        if index + 1 < count, bytes[index + 1] == quote {
                            field.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    if inner == lf || (inner == cr && (index + 1 >= count || bytes[index + 1] != lf)) { line += 1 }
                    field.append(inner)
                    index += 1
                }
                guard closed else { throw .unterminatedQuote(line: openedOn) }
                fieldWasQuoted = true
                continue
            }
            if byte == separator {
                endField()
            } else if byte == cr || byte == lf {
                endRecord()
                if byte == cr, index + 1 < count, bytes[index + 1] == lf { index += 1 }
                line += 1
                recordLine = line
            } else {
                field.append(byte)
            }
            index += 1
        }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRecord() }
        return records
    }

    /// The offset of the first byte that breaks UTF-8, or nil when it is all valid.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}
