import CCairo
import CZlib
import Foundation

/// Appends objects after the kept part of a PDF and writes the cross-reference table.
struct ObjectWriter {
    /// Where `bytes` start in the file.
    private let base: Int
    private(set) var bytes: [UInt8]
    private(set) var offsets: [Int?]

    init(prefix: [UInt8], offsets: [Int?]) {
        base = 0
        bytes = prefix
        self.offsets = offsets
        // Cairo ends its last object with a newline; make sure the next one starts on its own line.
        if bytes.last != 0x0A { bytes.append(0x0A) }
    }

    /// Objects to go after the first `base` bytes of a file, which stay where they are;
    /// `finish` then returns only what follows them.
    init(appendingAt base: Int, offsets: [Int?]) {
        self.base = base
        bytes = [0x0A]
        self.offsets = offsets
    }

    /// Adds an object; returns its number.
    mutating func add(_ body: String) -> Int {
        let number = offsets.count
        offsets.append(nil)
        write(number, body: Array(body.utf8))
        return number
    }

    /// Writes a new version of object `number` (Cairo's old one stays in the file, unreferenced).
    mutating func replace(_ number: Int, with body: String) {
        write(number, body: Array(body.utf8))
    }

    mutating func addStream(dictionary: [String: String], contents: [UInt8], compressed: Bool) throws(GraphicsError) -> Int {
        if compressed { return addStream(dictionary: dictionary, deflated: try Deflate.compress(contents)) }
        return addStream(dictionary: dictionary, data: contents)
    }

    /// Adds a stream whose contents are already deflated.
    mutating func addStream(dictionary: [String: String], deflated: [UInt8]) -> Int {
        var dictionary = dictionary
        dictionary["Filter"] = "/FlateDecode"
        return addStream(dictionary: dictionary, data: deflated)
    }

    private mutating func addStream(dictionary: [String: String], data: [UInt8]) -> Int {
        var entries = dictionary.sorted { $0.key < $1.key }.map { "/\($0.key) \($0.value)\n" }.joined()
        entries += "/Length \(data.count)\n"
        let number = offsets.count
        offsets.append(nil)
        write(number, body: Array(("<<\n" + entries + ">>\nstream\n").utf8) + data + Array("\nendstream".utf8))
        return number
    }

    /// The embedded file stream and its file specification; returns the specification's number.
    mutating func add(_ attachment: PDFAttachment, timeZone: TimeZone) throws(GraphicsError) -> Int {
        let contents = [UInt8](attachment.contents)
        let parameters = "<< /Size \(contents.count) /CheckSum <\(PDFSyntax.hex(Checksum.md5(contents)))>"
            + " /CreationDate (\(PDFSyntax.date(attachment.creationDate, timeZone: timeZone)))"
            + " /ModDate (\(PDFSyntax.date(attachment.modificationDate, timeZone: timeZone))) >>"
        let stream = try addStream(dictionary: ["Type": "/EmbeddedFile", "Subtype": PDFSyntax.name(attachment.mimeType),
                                                "Params": parameters],
                                   contents: contents, compressed: true)
        let name = PDFSyntax.text(attachment.fileName)
        return add("<<\n/Type /Filespec\n/F \(name)\n/UF \(name)\n/Desc \(PDFSyntax.text(attachment.description))\n"
            + "/AFRelationship /\(attachment.relationship.rawValue)\n/EF << /F \(stream) 0 R /UF \(stream) 0 R >>\n>>")
    }

    private mutating func write(_ number: Int, body: [UInt8]) {
        offsets[number] = base + bytes.count
        bytes += Array("\(number) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
    }

    /// The table (one section, 20-byte entries, free entries chained from object 0), the
    /// trailer and `startxref`.
    func finish(trailer: PDFDictionary) -> [UInt8] {
        let tableOffset = base + bytes.count
        var table = Array("xref\n0 \(offsets.count)\n".utf8)
        table.reserveCapacity(table.count + 20 * offsets.count)
        func append(_ value: Int, width: Int) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var rest = value
            for index in digits.indices.reversed() where rest > 0 {
                digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            table += digits
        }
        var nextFree = 0
        var freeAfter = [Int](repeating: 0, count: offsets.count)
        for number in offsets.indices.reversed() {
            freeAfter[number] = nextFree
            if number > 0, offsets[number] == nil { nextFree = number }
        }
        for (number, offset) in offsets.enumerated() {
            if let offset, number > 0 {
                append(offset, width: 10)
                table += Array(" 00000 n\r\n".utf8)
            } else {
                append(freeAfter[number], width: 10)
                table.append(0x20)
                append(number == 0 ? 65535 : 1, width: 5)
                table += Array(" f\r\n".utf8)
            }
        }
        table += Array(("trailer\n" + trailer.text + "\nstartxref\n\(tableOffset)\n%%EOF\n").utf8)
        return bytes + table
    }
}

/// zlib's deflate, for the streams added to the PDF.
enum Deflate {
    static func compress(_ input: [UInt8]) throws(GraphicsError) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong(input.count), 6) }
        }
        guard status == Z_OK else { throw .unsupportedPDF(reason: "zlib could not compress a stream (\(status))") }
        return Array(output.prefix(Int(length)))
    }
}

/// One deflate stream at zlib's fastest level, reused for many streams of a few kilobytes (the
/// pages and fonts of a document): setting one up clears 64 KiB of tables, more than compressing
/// a page costs, and a 4 KiB window finds the repeats of a page's operators as well as a 32 KiB one.
final class Deflater {
    // zlib keeps the stream's address, so it must not move.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let ready: Bool

    init() {
        stream.initialize(to: z_stream())
        ready = bf_deflate_init(stream, 1, 12, 4) == Z_OK
    }

    deinit {
        if ready { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    func compress(_ input: [UInt8]) throws(GraphicsError) -> [UInt8] {
        guard ready, deflateReset(stream) == Z_OK else { throw .unsupportedPDF(reason: "zlib could not start a stream") }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(input.count))))
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = uInt(target.count)
                return deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw .unsupportedPDF(reason: "zlib could not compress a stream (\(status))") }
        return Array(output.prefix(Int(stream.pointee.total_out)))
    }
}

/// MD5 through GLib, for the embedded files' `/CheckSum` (which PDF defines as MD5) and the `/ID`.
enum Checksum {
    static func md5(_ input: [UInt8]) -> [UInt8] {
        guard let checksum = g_checksum_new(G_CHECKSUM_MD5) else { return [] }
        defer { g_checksum_free(checksum) }
        input.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, gssize($0.count)) }
        var digest = [UInt8](repeating: 0, count: 16)
        var length = gsize(16)
        digest.withUnsafeMutableBufferPointer { g_checksum_get_digest(checksum, $0.baseAddress, &length) }
        return digest
    }
}
