import Documents
import Foundation
import Graphics

/// Factur-X 1.0.07 / ZUGFeRD 2.3, profile EN 16931: the invoice PDF the client reads, written as
/// a PDF/A-3b that carries the CII XML as `factur-x.xml` (an associated file with the
/// relationship Data) and says so in its XMP metadata with the Factur-X extension schema.
enum FacturXPDF {
    static let attachmentName = "factur-x.xml"

    /// The Factur-X XMP schema (Factur-X 1.0.07, section 6.2.2); its properties name the
    /// attached file, the document type, the schema version and the profile.
    static let extensionSchema = XMPExtensionSchema(
        name: "Factur-X PDFA Extension Schema",
        namespaceURI: "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#",
        prefix: "fx",
        properties: [
            .init(name: "DocumentFileName", value: attachmentName, description: "name of the embedded XML invoice file"),
            .init(name: "DocumentType", value: "INVOICE", description: "INVOICE"),
            .init(name: "Version", value: "1.0", description: "The actual version of the Factur-X XML schema"),
            .init(name: "ConformanceLevel", value: "EN 16931",
                  description: "The conformance level of the embedded Factur-X data"),
        ])

    /// The Factur-X PDF of `source` carrying `xml`, which must be its CII XML.
    static func render(_ source: InvoiceDocument, xml: Data, formatting: InvoiceTemplate.Formatting = .init(),
                       now: Date = Date()) throws(DocumentError) -> RenderedPDF {
        let attachment = PDFAttachment(fileName: attachmentName, mimeType: "text/xml",
                                       description: "Factur-X invoice (EN 16931)", relationship: .data,
                                       contents: xml, creationDate: now, modificationDate: now)
        let content = ArchivalContent(attachments: [attachment], extensions: [extensionSchema], modificationDate: now)
        return try InvoiceTemplate.document(source, formatting: formatting).renderArchivalPDF(content)
    }
}
