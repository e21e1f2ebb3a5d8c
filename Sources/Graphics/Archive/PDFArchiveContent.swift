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
