import Foundation

/// Writes XML text: elements, attributes and escaped text, indented two spaces per level.
/// Enough for an e-invoice, and no more; it never writes a comment, a CDATA section or a
/// character XML 1.0 forbids.
struct XMLWriter {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private var depth = 0

    /// `<name attributes>…</name>` with what `body` writes inside.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String> = [:],
                          _ body: (inout XMLWriter) throws -> Void) rethrows {
        indent()
        text += "<"
        text += name
        append(attributes)
        text += ">\n"
        depth += 1
        try body(&self)
        depth -= 1
        indent()
        text += "</"
        text += name
        text += ">\n"
    }

    /// `<name attributes>value</name>` on one line.
    mutating func leaf(_ name: String, _ value: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        indent()
        text += "<"
        text += name
        append(attributes)
        text += ">"
        text += Self.escaped(value, quotes: false)
        text += "</"
        text += name
        text += ">\n"
    }

    /// A leaf only when `value` has something in it.
    mutating func optionalLeaf(_ name: String, _ value: String?, _ attributes: KeyValuePairs<String, String> = [:]) {
        guard let value, !value.isEmpty else { return }
        leaf(name, value, attributes)
    }

    var data: Data { Data(text.utf8) }

    private mutating func append(_ attributes: KeyValuePairs<String, String>) {
        for (key, value) in attributes {
            text += " "
            text += key
            text += "=\""
            text += Self.escaped(value, quotes: true)
            text += "\""
        }
    }

    private mutating func indent() {
        for _ in 0..<depth { text += "  " }
    }

    /// Markup characters as entities; characters XML 1.0 cannot carry at all (most control
    /// characters, lone surrogates, U+FFFE/U+FFFF) are left out.
    static func escaped(_ value: String, quotes: Bool) -> String {
        // Most values (amounts, codes, names) need nothing: hand them back as they are.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0xEF }) {
            return value
        }
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "\r": result += "&#13;"
            case "\n" where quotes: result += "&#10;"
            case "\t" where quotes: result += "&#9;"
            default:
                guard isAllowed(scalar) else { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
