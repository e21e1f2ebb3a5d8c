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

    /// A dictionary written out as text, such as a value of another dictionary.
    init(text: String) throws(GraphicsError) {
        var scanner = PDFScanner(Array(text.utf8), at: 0)
        try self.init(&scanner)
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
