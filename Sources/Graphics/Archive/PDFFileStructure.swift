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

    /// Where each object ends: at the next object, or at the table.
    private var ends: [Int: Int] = [:]

    init(_ bytes: some PDFBytes) throws(GraphicsError) {
        guard try bytes.read(0..<min(bytes.count, 7)) == Array("%PDF-1.".utf8) else {
            throw .unsupportedPDF(reason: "no PDF header")
        }
        // `startxref` and its offset sit in the last few bytes.
        let tail = String(decoding: try bytes.read(max(0, bytes.count - 64)..<bytes.count), as: UTF8.self)
        guard let keyword = tail.range(of: "startxref", options: .backwards),
              let offset = Int(tail[keyword.upperBound...].split(whereSeparator: \.isWhitespace).first ?? ""),
              offset > 0, offset < bytes.count
        else { throw .unsupportedPDF(reason: "no startxref") }
        crossReferenceOffset = offset

        var scanner = PDFScanner(try bytes.read(offset..<bytes.count), at: 0)
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
        let starts = offsets.compactMap { $0 }.sorted()
        for (index, start) in starts.enumerated() {
            ends[start] = index + 1 < starts.count ? starts[index + 1] : offset
        }
    }

    /// The dictionary of object `number` (the object must be a dictionary, not a stream's data).
    func dictionary(ofObject number: Int, in bytes: some PDFBytes) throws(GraphicsError) -> PDFDictionary {
        guard let dictionary = try dictionaryIfAny(ofObject: number, in: bytes) else {
            throw .unsupportedPDF(reason: "object \(number) is not a dictionary")
        }
        return dictionary
    }

    /// The dictionary of object `number`, or nil when the object is something else (a number,
    /// an array); a stream gives its dictionary.
    func dictionaryIfAny(ofObject number: Int, in bytes: some PDFBytes) throws(GraphicsError) -> PDFDictionary? {
        guard number < offsets.count, let offset = offsets[number], let end = ends[offset], end > offset, end <= bytes.count else {
            throw .unsupportedPDF(reason: "object \(number) is missing")
        }
        // Only the object's own bytes are read: from a file, a few hundred.
        let object = try bytes.read(offset..<end)
        var scanner = PDFScanner(object, at: 0)
        guard scanner.readInteger() == number, scanner.readInteger() != nil, scanner.readKeyword() == "obj" else {
            throw .unsupportedPDF(reason: "object \(number) is not where the table says")
        }
        scanner.skipSpace()
        guard scanner.consume("<<") else { return nil }
        scanner = PDFScanner(object, at: scanner.position - 2)
        return try PDFDictionary(&scanner)
    }
}

/// The bytes of a finished PDF, read where they are needed: in memory, or in the file Cairo wrote.
protocol PDFBytes {
    var count: Int { get }
    func read(_ range: Range<Int>) throws(GraphicsError) -> [UInt8]
}

extension Array: PDFBytes where Element == UInt8 {
    func read(_ range: Range<Int>) throws(GraphicsError) -> [UInt8] {
        Array(self[range.clamped(to: indices)])
    }
}

/// A PDF in a file open for reading and writing, read with `pread`.
struct PDFFileBytes: PDFBytes {
    let descriptor: Int32
    let path: String
    let count: Int

    init(descriptor: Int32, path: String) throws(GraphicsError) {
        self.descriptor = descriptor
        self.path = path
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure(path) }
        count = Int(status.st_size)
    }

    func read(_ range: Range<Int>) throws(GraphicsError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, range.count - done, off_t(range.lowerBound + done)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { throw Self.failure(path) }
            done += read
        }
        return bytes
    }

    /// Writes `bytes` at `offset`, and ends the file after them.
    func write(_ bytes: [UInt8], at offset: Int) throws(GraphicsError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Self.failure(path) }
            done += written
        }
        guard ftruncate(descriptor, off_t(offset + bytes.count)) == 0 else { throw Self.failure(path) }
    }

    private static func failure(_ path: String) -> GraphicsError {
        let code = errno
        return .writeFailed(path: path, reason: String(cString: strerror(code)), code: code)
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
