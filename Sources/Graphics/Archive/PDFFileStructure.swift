import Foundation

/// The parts of a finished PDF that a rewrite of its catalog and trailer needs: where each
/// object starts, where the cross-reference table starts, and the trailer. Reads the classic
/// cross-reference table Cairo writes for PDF 1.4 (not cross-reference streams).
struct PDFFileStructure {
    /// Byte offset of each object by number; nil for free entries.
    var offsets: [Int?]
    /// Where the `xref` keyword starts: everything before it is kept as it is.
    var crossReferenceOffset: Int
    var trailer: PDFDictionary

    init(_ bytes: [UInt8]) throws(GraphicsError) {
        guard bytes.starts(with: Array("%PDF-1.".utf8)) else { throw .unsupportedPDF(reason: "no PDF header") }
        // `startxref` and its offset sit in the last few bytes.
        let tail = String(decoding: bytes.suffix(64), as: UTF8.self)
        guard let keyword = tail.range(of: "startxref", options: .backwards),
              let offset = Int(tail[keyword.upperBound...].split(whereSeparator: \.isWhitespace).first ?? ""),
              offset > 0, offset < bytes.count
        else { throw .unsupportedPDF(reason: "no startxref") }
        crossReferenceOffset = offset

        var scanner = PDFScanner(bytes, at: offset)
        guard scanner.readKeyword() == "xref" else {
            throw .unsupportedPDF(reason: "a cross-reference stream instead of a table")
        }
        offsets = []
        while let first = scanner.readInteger() {
            guard let count = scanner.readInteger(), first == offsets.count else {
                throw .unsupportedPDF(reason: "a cross-reference table in several sections")
            }
            for _ in 0..<count {
                guard let position = scanner.readInteger(), scanner.readInteger() != nil else {
                    throw .unsupportedPDF(reason: "a damaged cross-reference entry")
                }
                switch scanner.readKeyword() {
                case "n": offsets.append(position)
                case "f": offsets.append(nil)
                default: throw .unsupportedPDF(reason: "a damaged cross-reference entry")
                }
            }
        }
        guard scanner.readKeyword() == "trailer" else { throw .unsupportedPDF(reason: "no trailer") }
        trailer = try PDFDictionary(&scanner)
        if trailer["Prev"] != nil { throw .unsupportedPDF(reason: "an incrementally updated file") }
        if trailer["Encrypt"] != nil { throw .unsupportedPDF(reason: "an encrypted file") }
    }

    /// The dictionary of object `number` (the object must be a dictionary, not a stream's data).
    func dictionary(ofObject number: Int, in bytes: [UInt8]) throws(GraphicsError) -> PDFDictionary {
        guard let dictionary = try dictionaryIfAny(ofObject: number, in: bytes) else {
            throw .unsupportedPDF(reason: "object \(number) is not a dictionary")
        }
        return dictionary
    }

    /// The dictionary of object `number`, or nil when the object is something else (a number,
    /// an array); a stream gives its dictionary.
    func dictionaryIfAny(ofObject number: Int, in bytes: [UInt8]) throws(GraphicsError) -> PDFDictionary? {
        guard number < offsets.count, let offset = offsets[number] else {
            throw .unsupportedPDF(reason: "object \(number) is missing")
        }
        var scanner = PDFScanner(bytes, at: offset)
        guard scanner.readInteger() == number, scanner.readInteger() != nil, scanner.readKeyword() == "obj" else {
            throw .unsupportedPDF(reason: "object \(number) is not where the table says")
        }
        scanner.skipSpace()
        guard scanner.consume("<<") else { return nil }
        scanner = PDFScanner(bytes, at: scanner.position - 2)
        return try PDFDictionary(&scanner)
    }
}

/// A dictionary's entries in order, each value kept as the PDF text it was written as.
struct PDFDictionary {
    private(set) var entries: [(key: String, value: String)] = []

    init(_ entries: [(key: String, value: String)] = []) {
        self.entries = entries
    }

    init(_ scanner: inout PDFScanner) throws(GraphicsError) {
        scanner.skipSpace()
        guard scanner.consume("<<") else { throw .unsupportedPDF(reason: "a dictionary was expected") }
        while true {
            scanner.skipSpace()
            if scanner.consume(">>") { return }
            guard let key = scanner.readName() else { throw .unsupportedPDF(reason: "a damaged dictionary") }
            guard let value = scanner.readObjectText() else { throw .unsupportedPDF(reason: "a damaged dictionary") }
            entries.append((key, value))
        }
    }

    subscript(key: String) -> String? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// The object number of an indirect reference `N 0 R`.
    func reference(_ key: String) -> Int? {
        guard let value = self[key] else { return nil }
        let parts = value.split(separator: " ")
        guard parts.count == 3, parts[2] == "R" else { return nil }
        return Int(parts[0])
    }

    var text: String {
        "<<\n" + entries.map { "/\($0.key) \($0.value)\n" }.joined() + ">>"
    }
}

/// Reads PDF tokens from bytes: just enough syntax to step over any object.
struct PDFScanner {
    private let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    private static let delimiters = Set("()<>[]{}/%".utf8)

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0
    }

    mutating func skipSpace() {
        while position < bytes.count {
            if isSpace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "%") {
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            } else {
                return
            }
        }
    }

    mutating func consume(_ literal: String) -> Bool {
        let expected = Array(literal.utf8)
        guard position + expected.count <= bytes.count, Array(bytes[position..<position + expected.count]) == expected else {
            return false
        }
        position += expected.count
        return true
    }

    /// A run of regular characters: a keyword, a number or `true`.
    private mutating func readRegular() -> String? {
        skipSpace()
        let start = position
        while position < bytes.count, !isSpace(bytes[position]), !Self.delimiters.contains(bytes[position]) { position += 1 }
        return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    mutating func readKeyword() -> String? {
        let saved = position
        guard let word = readRegular(), word.first?.isLetter == true else {
            position = saved
            return nil
        }
        return word
    }

    mutating func readInteger() -> Int? {
        let saved = position
        guard let word = readRegular(), let value = Int(word) else {
            position = saved
            return nil
        }
        return value
    }

    /// A name without its slash.
    mutating func readName() -> String? {
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "/") else { return nil }
        position += 1
        let start = position
        while position < bytes.count, !isSpace(bytes[position]), !Self.delimiters.contains(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// The next object as written (an indirect reference `N G R` counts as one).
    mutating func readObjectText() -> String? {
        skipSpace()
        let start = position
        guard skipObject() else { return nil }
        // Two integers followed by R make a reference.
        let afterFirst = position
        let first = String(decoding: bytes[start..<afterFirst], as: UTF8.self)
        if Int(first) != nil {
            if readInteger() != nil, readKeyword() == "R" {
                return String(decoding: bytes[start..<position], as: UTF8.self)
                    .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            }
            position = afterFirst
        }
        return first
    }

    private mutating func skipObject() -> Bool {
        skipSpace()
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "/"):
            return readName() != nil
        case UInt8(ascii: "("):
            var depth = 0
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "(") {
                    depth += 1
                } else if byte == UInt8(ascii: ")") {
                    depth -= 1
                    if depth == 0 { return true }
                }
            }
            return false
        case UInt8(ascii: "<") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "<"):
            position += 2
            while true {
                skipSpace()
                if consume(">>") { return true }
                guard readName() != nil, readObjectText() != nil else { return false }
            }
        case UInt8(ascii: "<"):
            while position < bytes.count, bytes[position] != UInt8(ascii: ">") { position += 1 }
            position += 1
            return position <= bytes.count
        case UInt8(ascii: "["):
            position += 1
            while true {
                skipSpace()
                if consume("]") { return true }
                guard readObjectText() != nil else { return false }
            }
        default:
            return readRegular() != nil
        }
    }
}
