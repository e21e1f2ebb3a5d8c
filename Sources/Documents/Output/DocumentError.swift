import BillfoldCore
import Foundation
import Graphics

/// Why a document could not be produced, with a message a person can act on.
public enum DocumentError: Error, LocalizedError, Sendable {
    /// A picture in the document could not be read.
    case image(ImageError)
    /// A PDF placed in the document could not be read.
    case embeddedPDF(PDFError)
    /// Writing the PDF (or its temporary file) failed.
    case output(GraphicsError)
    /// The file could not be written where asked (full disk, read-only, a FIFO in the way…).
    case fileWrite(FileWriteError)
    /// A page number outside the document was asked for.
    case pageOutOfRange(index: Int, pageCount: Int)

    /// Puts the detail into a translated sentence. (String(format:) with a Swift string
    /// argument is not portable to Linux Foundation, so the one %s is replaced here.)
    private static func fill(_ template: String, _ detail: String) -> String {
        template.replacingOccurrences(of: "%s", with: detail)
    }

    public var errorDescription: String? {
        switch self {
        case .image(let error):
            // Translators: %s is the reason, already translated or from the image decoder.
            Self.fill(tr("An image in the document cannot be used: %s"), error.localizedDescription)
        case .embeddedPDF(let error):
            Self.fill(tr("A PDF attached to the document cannot be used: %s"), error.localizedDescription)
        case .output(let error):
            Self.fill(tr("The PDF could not be saved: %s"), error.localizedDescription)
        case .fileWrite(let error):
            error.localizedDescription
        case .pageOutOfRange(let index, let pageCount):
            String(format: trn("Page %d does not exist; the document has %d page.",
                               "Page %d does not exist; the document has %d pages.", pageCount), index + 1, pageCount)
        }
    }
}
