import CCairo
import CZlib
import Foundation

/// What a PDF/A file says about itself, written to both the document information dictionary
/// and the XMP metadata so that the two agree.
public struct PDFArchiveInfo: Sendable, Hashable {
    public var title: String
    public var author: String
    public var subject: String
    public var keywords: String
    /// The application that made the content.
    public var creator: String
    /// The software that wrote the PDF.
    public var producer: String
    public var creationDate: Date
    public var modificationDate: Date
    /// The zone the dates are written in.
    public var timeZone: TimeZone

    public init(title: String = "", author: String = "", subject: String = "", keywords: String = "",
                creator: String = "", producer: String = PDFArchive.defaultProducer, creationDate: Date,
                modificationDate: Date = Date(), timeZone: TimeZone = .current) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.producer = producer
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.timeZone = timeZone
    }

    /// Control characters (other than line breaks) become spaces: XML cannot carry them, and
    /// the information dictionary must say exactly what the XMP says.
    var cleaned: PDFArchiveInfo {
        func clean(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 && $0 != "\n" ? " " : $0 }))
        }
        var copy = self
        copy.title = clean(title)
        copy.author = clean(author)
        copy.subject = clean(subject)
        copy.keywords = clean(keywords)
        copy.creator = clean(creator)
        copy.producer = clean(producer)
        return copy
    }
}

/// A file carried inside a PDF/A-3 and associated with the whole document (ISO 19005-3).
public struct PDFAttachment: Sendable, Hashable {
    /// How the file relates to the document (the `/AFRelationship` of its file specification).
    public enum Relationship: String, Sendable {
        /// The file holds the document's information for machines (an e-invoice's XML).
        case data = "Data"
        case source = "Source"
        case alternative = "Alternative"
        case supplement = "Supplement"
        case unspecified = "Unspecified"
    }

    public var fileName: String
    /// The MIME type, e.g. `text/xml`.
    public var mimeType: String
    public var description: String
    public var relationship: Relationship
    public var contents: Data
    public var creationDate: Date
    public var modificationDate: Date

    public init(fileName: String, mimeType: String, description: String, relationship: Relationship,
                contents: Data, creationDate: Date = Date(), modificationDate: Date = Date()) {
        self.fileName = fileName
        self.mimeType = mimeType
        self.description = description
        self.relationship = relationship
        self.contents = contents
        self.creationDate = creationDate
        self.modificationDate = modificationDate
    }
}

/// Turns a PDF that `PDFSurface` wrote into a PDF/A-3b: adds an sRGB output intent with its ICC
/// profile, XMP metadata with the PDF/A identification (and any extension schema), attached
/// files listed in the catalog's `/AF` and `/EmbeddedFiles`, a matching information
/// dictionary, and a document `/ID`.
///
/// Cairo's objects are kept byte for byte; its cross-reference table and trailer are
/// replaced by one table that adds the new objects and points the catalog and information
/// dictionary at their new versions, so the file has a single revision with one trailer.
public enum PDFArchive {
    public static var defaultProducer: String {
        "cairo " + String(cString: cairo_version_string())
    }

    public static func makePDFA3(_ pdf: Data, info: PDFArchiveInfo, attachments: [PDFAttachment] = [],
                                 extensions: [XMPExtensionSchema] = []) throws(GraphicsError) -> Data {
        let source = [UInt8](pdf)
        let structure = try PDFFileStructure(source)
        guard let rootNumber = structure.trailer.reference("Root") else { throw .unsupportedPDF(reason: "no catalog") }
        var catalog = try structure.dictionary(ofObject: rootNumber, in: source)
        for key in ["Metadata", "OutputIntents", "AF", "Names"] where catalog[key] != nil {
            // Merging into what Cairo wrote there (links, outlines) is not needed for Billfold's documents.
            throw .unsupportedPDF(reason: "the catalog already has /\(key)")
        }

        var writer = ObjectWriter(prefix: Array(source[..<structure.crossReferenceOffset]), offsets: structure.offsets)
        let info = info.cleaned

        // Cairo leaves a TrueType CIDFont's CIDToGIDMap at its default, Identity (its subsets
        // number glyphs by CID); PDF/A wants it written (ISO 19005-2, 6.2.11.3.2).
        for number in structure.offsets.indices where structure.offsets[number] != nil && number != rootNumber {
            guard var font = try structure.dictionaryIfAny(ofObject: number, in: source),
                  font["Subtype"] == "/CIDFontType2", font["CIDToGIDMap"] == nil else { continue }
            font["CIDToGIDMap"] = "/Identity"
            writer.replace(number, with: font.text)
        }

        let profile = try writer.addStream(dictionary: ["N": "3", "Alternate": "/DeviceRGB"], contents: SRGBProfile.bytes,
                                           compressed: true)
        let outputIntent = writer.add("<<\n/Type /OutputIntent\n/S /GTS_PDFA1\n/OutputConditionIdentifier "
            + PDFSyntax.text(SRGBProfile.description) + "\n/Info " + PDFSyntax.text(SRGBProfile.description)
            + "\n/RegistryName (http://www.color.org)\n/DestOutputProfile \(profile) 0 R\n>>")
        // XMP must stay readable without a filter (ISO 19005-2, 6.6.2.1).
        let metadata = try writer.addStream(dictionary: ["Type": "/Metadata", "Subtype": "/XML"],
                                            contents: XMPPacket(info: info, extensions: extensions).bytes, compressed: false)

        var fileSpecifications: [(name: String, object: Int)] = []
        for attachment in attachments {
            fileSpecifications.append((attachment.fileName, try writer.add(attachment, timeZone: info.timeZone)))
        }

        catalog["Metadata"] = "\(metadata) 0 R"
        catalog["OutputIntents"] = "[\(outputIntent) 0 R]"
        if !fileSpecifications.isEmpty {
            catalog["AF"] = "[" + fileSpecifications.map { "\($0.object) 0 R" }.joined(separator: " ") + "]"
            // The name tree's keys must be sorted.
            let names = fileSpecifications.sorted { Array($0.name.utf16).lexicographicallyPrecedes(Array($1.name.utf16)) }
                .map { PDFSyntax.text($0.name) + " \($0.object) 0 R" }.joined(separator: " ")
            catalog["Names"] = "<< /EmbeddedFiles << /Names [" + names + "] >> >>"
            catalog["PageMode"] = "/UseAttachments"
        }
        writer.replace(rootNumber, with: catalog.text)

        // Cairo's information dictionary (with its own dates) gives way to one that matches the XMP.
        let infoNumber: Int
        if let existing = structure.trailer.reference("Info") {
            writer.replace(existing, with: informationDictionary(info))
            infoNumber = existing
        } else {
            infoNumber = writer.add(informationDictionary(info))
        }
        let identifier = "<" + PDFSyntax.hex(documentIdentifier(source, info: info)) + ">"
        var trailer = PDFDictionary()
        trailer["Size"] = "\(writer.offsets.count)"
        trailer["Root"] = "\(rootNumber) 0 R"
        trailer["Info"] = "\(infoNumber) 0 R"
        trailer["ID"] = "[\(identifier) \(identifier)]"
        return Data(writer.finish(trailer: trailer))
    }

    private static func informationDictionary(_ info: PDFArchiveInfo) -> String {
        var dictionary = PDFDictionary()
        if !info.title.isEmpty { dictionary["Title"] = PDFSyntax.text(info.title) }
        if !info.author.isEmpty { dictionary["Author"] = PDFSyntax.text(info.author) }
        if !info.subject.isEmpty { dictionary["Subject"] = PDFSyntax.text(info.subject) }
        if !info.keywords.isEmpty { dictionary["Keywords"] = PDFSyntax.text(info.keywords) }
        if !info.creator.isEmpty { dictionary["Creator"] = PDFSyntax.text(info.creator) }
        dictionary["Producer"] = PDFSyntax.text(info.producer)
        dictionary["CreationDate"] = "(" + PDFSyntax.date(info.creationDate, timeZone: info.timeZone) + ")"
        dictionary["ModDate"] = "(" + PDFSyntax.date(info.modificationDate, timeZone: info.timeZone) + ")"
        return dictionary.text
    }

    /// A file identifier made from the content and the moment it was written, so two
    /// different files never share one (ISO 32000-1, 14.4).
    private static func documentIdentifier(_ source: [UInt8], info: PDFArchiveInfo) -> [UInt8] {
        var input = source
        input += Array(PDFSyntax.date(info.modificationDate, timeZone: info.timeZone).utf8)
        return Checksum.md5(input)
    }
}

/// Appends objects after the kept part of a PDF and writes the cross-reference table.
private struct ObjectWriter {
    private(set) var bytes: [UInt8]
    private(set) var offsets: [Int?]

    init(prefix: [UInt8], offsets: [Int?]) {
        bytes = prefix
        self.offsets = offsets
        // Cairo ends its last object with a newline; make sure the next one starts on its own line.
        if bytes.last != 0x0A { bytes.append(0x0A) }
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
        let data = compressed ? try Deflate.compress(contents) : contents
        var entries = dictionary.sorted { $0.key < $1.key }.map { "/\($0.key) \($0.value)\n" }.joined()
        if compressed { entries += "/Filter /FlateDecode\n" }
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
        offsets[number] = bytes.count
        bytes += Array("\(number) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
    }

    /// The table (one section, 20-byte entries, free entries chained from object 0), the
    /// trailer and `startxref`.
    func finish(trailer: PDFDictionary) -> [UInt8] {
        let tableOffset = bytes.count
        var table = "xref\n0 \(offsets.count)\n"
        let free = offsets.indices.filter { $0 > 0 && offsets[$0] == nil }
        for (number, offset) in offsets.enumerated() {
            if let offset, number > 0 {
                table += String(format: "%010d 00000 n\r\n", offset)
            } else {
                let next = free.first { $0 > number } ?? 0
                table += String(format: "%010d %05d f\r\n", next, number == 0 ? 65535 : 1)
            }
        }
        table += "trailer\n" + trailer.text + "\nstartxref\n\(tableOffset)\n%%EOF\n"
        return bytes + Array(table.utf8)
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
