import Foundation

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
