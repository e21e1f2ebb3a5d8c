import Foundation
import Graphics

/// Information stored in the PDF (shown by viewers under Properties).
public struct DocumentMetadata: Sendable, Hashable {
    public var title: String
    public var author: String
    public var subject: String
    public var keywords: String
    public var creator: String
    public var creationDate: Date

    public init(title: String = "", author: String = "", subject: String = "", keywords: String = "",
                creator: String = "Billfold", creationDate: Date = Date()) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.creationDate = creationDate
    }
}

/// A document described as blocks; the layout engine flows them onto pages. A plain value:
/// build it anywhere and render it on a background task.
public struct Document: Sendable {
    public var pageSetup: PageSetup
    public var metadata: DocumentMetadata
    public var header: RunningText?
    public var footer: RunningText?
    public var blocks: [Block]

    /// By default the footer carries "Page N of M" at the trailing edge.
    public init(pageSetup: PageSetup = PageSetup(), metadata: DocumentMetadata = DocumentMetadata(),
                header: RunningText? = nil, footer: RunningText? = RunningText(trailing: .pageNumber),
                blocks: [Block] = []) {
        self.pageSetup = pageSetup
        self.metadata = metadata
        self.header = header
        self.footer = footer
        self.blocks = blocks
    }
}
