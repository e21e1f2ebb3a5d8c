import Foundation
import Graphics

/// What an archival PDF (PDF/A-3b) carries beyond its pages: attached files, such as an
/// e-invoice's XML, and XMP metadata that describes them.
public struct ArchivalContent: Sendable {
    public var attachments: [PDFAttachment]
    public var extensions: [XMPExtensionSchema]
    /// When the file is written; the document's metadata gives when it was created.
    public var modificationDate: Date

    public init(attachments: [PDFAttachment] = [], extensions: [XMPExtensionSchema] = [], modificationDate: Date = Date()) {
        self.attachments = attachments
        self.extensions = extensions
        self.modificationDate = modificationDate
    }
}

extension Document {
    /// The document as a PDF/A-3b: Cairo draws the pages, `PDFArchive` adds the output intent,
    /// the XMP metadata, the attachments and the file identifier.
    public func renderArchivalPDF(_ content: ArchivalContent = ArchivalContent()) throws(DocumentError) -> RenderedPDF {
        do {
            let surface = try PDFSurface(pageSize: pageSetup.pageSize, archival: true)
            let pageCount = try drawPDF(on: surface)
            let info = PDFArchiveInfo(title: metadata.title, author: metadata.author, subject: metadata.subject,
                                      keywords: metadata.keywords, creator: metadata.creator,
                                      creationDate: metadata.creationDate, modificationDate: content.modificationDate)
            let data = try PDFArchive.makePDFA3(try surface.finishBytes(), info: info, attachments: content.attachments,
                                                extensions: content.extensions)
            return RenderedPDF(data: data, pageCount: pageCount)
        } catch let error as DocumentError {
            throw error
        } catch let error as GraphicsError {
            throw DocumentError.output(error)
        } catch {
            throw DocumentError.output(.cairo(message: error.localizedDescription))
        }
    }
}
