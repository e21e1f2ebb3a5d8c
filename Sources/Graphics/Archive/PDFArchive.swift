import CCairo
import Foundation

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
