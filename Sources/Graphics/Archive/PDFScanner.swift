import Foundation

/// Reads PDF tokens from bytes: just enough syntax to step over any object.
struct PDFScanner {
    private let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    @inline(__always)
    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0
    }

    /// Whether `byte` ends a run of regular characters: white space or a delimiter.
    @inline(__always)
    private func endsRegular(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, 0x0C, 0, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            true
        default:
            false
        }
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

    mutating func consume(_ literal: StaticString) -> Bool {
        let matched = literal.withUTF8Buffer { expected in
            position + expected.count <= bytes.count && expected.indices.allSatisfy { bytes[position + $0] == expected[$0] }
        }
        if matched { position += literal.utf8CodeUnitCount }
        return matched
    }

    /// A run of regular characters: a keyword, a number or `true`.
    private mutating func readRegular() -> String? {
        skipSpace()
        let start = position
        while position < bytes.count, !endsRegular(bytes[position]) { position += 1 }
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
        skipRegular()
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func skipRegular() {
        while position < bytes.count, !endsRegular(bytes[position]) { position += 1 }
    }

    /// Steps over a run of digits that is a whole token.
    private mutating func skipInteger() -> Bool {
        let start = position
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
        return position > start && (position == bytes.count || endsRegular(bytes[position]))
    }

    /// Steps over a value of a dictionary or array, an indirect reference as one.
    private mutating func skipValue() -> Bool {
        skipSpace()
        let start = position
        if skipInteger() {
            let afterFirst = position
            skipSpace()
            if skipInteger() {
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "R"),
                   position + 1 == bytes.count || endsRegular(bytes[position + 1]) {
                    position += 1
                    return true
                }
            }
            position = afterFirst
            return true
        }
        position = start
        return skipObject()
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
            position += 1
            skipRegular()
            return true
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
                guard position < bytes.count, bytes[position] == UInt8(ascii: "/") else { return false }
                position += 1
                skipRegular()
                guard skipValue() else { return false }
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
                guard skipValue() else { return false }
            }
        default:
            let start = position
            skipRegular()
            return position > start
        }
    }
}
