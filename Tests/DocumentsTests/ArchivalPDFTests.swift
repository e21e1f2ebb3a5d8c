import Foundation
import Graphics
import PDFInspection
import Testing
@testable import Documents

/// PDF/A-3b output, read back by pikepdf (qpdf) rather than by the code that wrote it.
@Suite struct ArchivalPDFTests {
    static let attachment = PDFAttachment(
        fileName: "data.xml", mimeType: "text/xml", description: "Machine-readable data", relationship: .data,
        contents: Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<data>Grüße (1) \\ 2</data>\n".utf8),
        creationDate: Date(timeIntervalSince1970: 1_714_550_400), modificationDate: Date(timeIntervalSince1970: 1_714_554_000))

    static let schema = XMPExtensionSchema(name: "Example schema", namespaceURI: "urn:example:schema#", prefix: "ex",
                                           properties: [.init(name: "Kind", value: "SAMPLE & <more>", description: "What it is")])

    /// A document with a non-ASCII title and a logo, written as PDF/A-3b and inspected.
    private func inspectSample(attachments: [PDFAttachment] = [attachment]) throws -> (report: [String: Any], pdf: RenderedPDF) {
        var document = SampleDocuments.invoice(rows: 60)
        document.metadata.title = "Rechnung für Müller (2024)"
        document.blocks.insert(.image(ImageBlock(.data(try Fixtures.png()), maxWidth: 80, maxHeight: 40)), at: 0)
        // Characters outside WinAnsi make Cairo write a CIDFont too.
        document.blocks.append(.paragraph(Paragraph("Σ ≈ € 12 → ½ · Łódź")))
        let content = ArchivalContent(attachments: attachments, extensions: [Self.schema],
                                      modificationDate: Date(timeIntervalSince1970: 1_714_557_600))
        let pdf = try document.renderArchivalPDF(content)
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("archive.pdf")
        try pdf.data.write(to: url)
        return (try PDFInspection.inspect(url), pdf)
    }

    @Test func theFileIsSoundAndHasAnIdentifier() throws {
        let (report, pdf) = try inspectSample()
        #expect((report["check"] as? [String]) == [])
        let id = try #require(report["id"] as? [String])
        #expect(id.count == 2 && id.allSatisfy { $0.count == 32 })
        #expect(report["encrypted"] as? Bool == false)
        #expect(report["page_count"] as? Int == pdf.pageCount)
        #expect(pdf.pageCount > 1)
        // Poppler still reads it, pages and metadata.
        let readBack = try ReadBack(pdf)
        #expect(readBack.pageCount == pdf.pageCount)
        #expect(readBack.document.title == "Rechnung für Müller (2024)")
    }

    @Test func xmpNamesPDFA3bAndAgreesWithTheInformationDictionary() throws {
        let (report, _) = try inspectSample()
        let xmp = try #require(report["xmp"] as? [String: Any])
        #expect(xmp["pdfaid:part"] as? String == "3")
        #expect(xmp["pdfaid:conformance"] as? String == "B")
        #expect(xmp["dc:title"] as? String == "Rechnung für Müller (2024)")
        #expect(xmp["dc:creator"] as? [String] == ["Ada Lovelace Consulting"])
        #expect(xmp["xmp:CreatorTool"] as? String == "Billfold")
        #expect(xmp["ex:Kind"] as? String == "SAMPLE & <more>")
        #expect(report["metadata_filtered"] as? Bool == false)
        let packet = try #require(report["xmp_packet"] as? String)
        #expect(packet.contains("<pdfaSchema:namespaceURI>urn:example:schema#</pdfaSchema:namespaceURI>"))
        #expect(packet.contains("<pdfaProperty:name>Kind</pdfaProperty:name>"))
        #expect(!packet.contains("encoding=") && !packet.contains("bytes="))

        let info = try #require(report["info"] as? [String: String])
        #expect(info["Title"] == "Rechnung für Müller (2024)")
        #expect(info["Author"] == "Ada Lovelace Consulting")
        #expect(info["Producer"] == xmp["pdf:Producer"] as? String)
        // Same instants in both places (pikepdf gives XMP dates as written).
        let created = try #require(info["CreationDate"])
        let xmpCreated = try #require(xmp["xmp:CreateDate"] as? String)
        #expect(created.hasPrefix("D:") && Self.instant(pdf: created) == Self.instant(xmp: xmpCreated))
        #expect(Self.instant(pdf: created) == Date(timeIntervalSince1970: 1_714_550_400))
        let modified = try #require(info["ModDate"])
        #expect(Self.instant(pdf: modified) == Self.instant(xmp: try #require(xmp["xmp:ModifyDate"] as? String)))
    }

    @Test func theOutputIntentCarriesAnSRGBProfile() throws {
        let (report, _) = try inspectSample()
        let intents = try #require(report["output_intents"] as? [[String: Any]])
        #expect(intents.count == 1)
        #expect(intents.first?["S"] as? String == "/GTS_PDFA1")
        #expect(intents.first?["identifier"] as? String == "sRGB IEC61966-2.1")
        let profile = try #require(intents.first?["profile"] as? [String: Any])
        #expect(profile["N"] as? Int == 3)
        #expect(profile["signature"] as? String == "acsp")
        #expect(profile["class"] as? String == "mntr")
        #expect(profile["space"] as? String == "RGB ")
        #expect(profile["version"] as? Int == 2)
        #expect(profile["declared_size"] as? Int == profile["size"] as? Int)
    }

    @Test func theAttachmentIsAnAssociatedFile() throws {
        let (report, _) = try inspectSample()
        let files = try #require(report["associated_files"] as? [[String: Any]])
        #expect(files.count == 1)
        let file = try #require(files.first)
        #expect(file["F"] as? String == "data.xml")
        #expect(file["UF"] as? String == "data.xml")
        #expect(file["relationship"] as? String == "/Data")
        #expect(file["subtype"] as? String == "/text#2Fxml" || file["subtype"] as? String == "/text/xml")
        #expect(file["size"] as? Int == Self.attachment.contents.count)
        #expect(file["actual_size"] as? Int == Self.attachment.contents.count)
        #expect(file["contents"] as? String == String(decoding: Self.attachment.contents, as: UTF8.self))
        #expect(Self.instant(pdf: file["mod_date"] as? String ?? "") == Self.attachment.modificationDate)
        #expect((file["checksum"] as? String)?.count == 32)
        #expect(report["embedded_file_names"] as? [String] == ["data.xml"])
    }

    @Test func everyFontIsEmbeddedAndNoImageAsksForInterpolation() throws {
        let (report, _) = try inspectSample()
        let fonts = try #require(report["fonts"] as? [[String: Any]])
        #expect(!fonts.isEmpty)
        for font in fonts { #expect(font["embedded"] as? Bool == true, "\(font)") }
        // PDF/A wants a TrueType CIDFont's CIDToGIDMap written out.
        let cidFonts = fonts.filter { $0["subtype"] as? String == "/Type0+/CIDFontType2" }
        #expect(!cidFonts.isEmpty)
        for font in cidFonts { #expect(font["cid_to_gid_map"] as? String == "/Identity", "\(font)") }
        #expect(report["interpolated_images"] as? Int == 0)
    }

    @Test func withoutAttachmentsThereIsNoAttachmentList() throws {
        let (report, _) = try inspectSample(attachments: [])
        #expect((report["associated_files"] as? [Any])?.isEmpty == true)
        #expect((report["output_intents"] as? [Any])?.count == 1)
        #expect((report["check"] as? [String]) == [])
    }

    @Test func aFileAlreadyArchivedIsRefusedRatherThanMerged() throws {
        let archived = try SampleDocuments.invoice(rows: 3).renderArchivalPDF().data
        #expect(throws: GraphicsError.unsupportedPDF(reason: "the catalog already has /Metadata")) {
            try PDFArchive.makePDFA3(archived, info: PDFArchiveInfo(creationDate: Date()))
        }
    }

    @Test func aPDFOfAnotherMakeIsRefusedWithAReason() throws {
        #expect(throws: GraphicsError.self) {
            try PDFArchive.makePDFA3(Data("not a pdf".utf8), info: PDFArchiveInfo(creationDate: Date()))
        }
    }

    /// `D:20240501093000+02'00'` as an instant.
    static func instant(pdf text: String) -> Date? {
        var value = text.hasPrefix("D:") ? String(text.dropFirst(2)) : text
        value = value.replacingOccurrences(of: "'", with: "")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = value.hasSuffix("Z") ? "yyyyMMddHHmmss'Z'" : "yyyyMMddHHmmssZ"
        return formatter.date(from: value)
    }

    static func instant(xmp text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }
}
