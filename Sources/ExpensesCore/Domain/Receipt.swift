import BillfoldCore
import Foundation

/// The kinds of file a receipt can be, told apart by their first bytes, never by the name.
public enum ReceiptKind: String, CaseIterable, Hashable, Sendable, Codable {
    case jpeg, png, webp, pdf
    /// An e-invoice as bare XML (XRechnung, CII or UBL): shown as a page laid out from it.
    case xml

    /// The extension of the stored file.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .webp: return "webp"
        case .pdf: return "pdf"
        case .xml: return "xml"
        }
    }

    public var mimeType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .pdf: return "application/pdf"
        case .xml: return "application/xml"
        }
    }

    /// A picture (as opposed to a PDF, whose pages are drawn as vectors, or XML laid out as a page).
    public var isImage: Bool { self == .jpeg || self == .png || self == .webp }

    /// For file chooser filters and drag and drop.
    public static var mimeTypes: [String] { allCases.map(\.mimeType) }

    /// "JPEG", "PNG", "WebP", "PDF": format names are not translated.
    public var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .pdf: return "PDF"
        case .xml: return "XML"
        }
    }
}

/// Points at a stored receipt file: `<sha256>.<ext>` in the receipts directory. Equal content
/// gives an equal reference, which is how the same file attached twice is stored once.
public struct ReceiptReference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// SHA-256 of the file, 64 lowercase hexadecimal digits.
    public let digest: String
    public let kind: ReceiptKind

    /// Nil unless `digest` is 64 hexadecimal digits (upper case is accepted and lowered).
    public init?(digest: String, kind: ReceiptKind) {
        let lowered = digest.lowercased()
        guard lowered.utf8.count == 64,
              lowered.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        self.digest = lowered
        self.kind = kind
    }

    /// Reads a stored file name such as "3f…9a.jpg".
    public init?(fileName: String) {
        let parts = fileName.split(separator: ".")
        guard parts.count == 2,
              let kind = ReceiptKind.allCases.first(where: { $0.fileExtension == parts[1] }) else { return nil }
        self.init(digest: String(parts[0]), kind: kind)
    }

    public var fileName: String { "\(digest).\(kind.fileExtension)" }
    public var description: String { fileName }
}

/// What is known about a stored receipt without decoding it.
public struct ReceiptInfo: Hashable, Sendable, Codable {
    public let reference: ReceiptReference
    public let byteCount: Int64
    /// Pixel size as stored (before any EXIF turn); nil for PDFs.
    public let pixelWidth: Int?
    public let pixelHeight: Int?
    /// The name of the file it was first imported from, for showing to people.
    public let originalName: String

    public init(reference: ReceiptReference, byteCount: Int64, pixelWidth: Int?, pixelHeight: Int?,
                originalName: String) {
        self.reference = reference
        self.byteCount = byteCount
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.originalName = originalName
    }

    public var kind: ReceiptKind { reference.kind }
}

/// What importing a file did.
public struct ReceiptImport: Hashable, Sendable {
    public let info: ReceiptInfo
    /// True when a file with the same content was already stored; nothing was copied.
    public let wasAlreadyStored: Bool

    public var reference: ReceiptReference { info.reference }
}

/// Whether a referenced receipt can be shown.
public enum ReceiptStatus: Hashable, Sendable {
    case available(URL)
    /// The file is gone from the receipts directory (deleted by hand, a restored backup
    /// without its files…). The expense keeps its reference; the UI shows a warning.
    case missing
}

public enum ReceiptError: Error, LocalizedError, Hashable, Sendable {
    /// Not a JPEG, PNG, WebP or PDF file, whatever its name says.
    case unsupportedType(fileName: String)
    /// The first bytes say `kind`, but what follows is not a valid file of that kind.
    case damaged(fileName: String, kind: ReceiptKind)
    case empty(fileName: String)
    case tooLarge(fileName: String, byteCount: Int64)
    /// The picture has more pixels than `ReceiptStore.maximumPixelCount`.
    case tooManyPixels(fileName: String, width: Int, height: Int)
    case unreadable(fileName: String, reason: String)
    case cannotStore(reason: String)
    case missing(ReceiptReference)
    /// No image decoder for this kind is installed (WebP needs gdk-pixbuf's WebP loader).
    case noDecoder(ReceiptKind)
    /// A PDF receipt has no picture to scale; its pages are drawn from the PDF itself.
    case notAnImage

    public var errorDescription: String? {
        switch self {
        case .unsupportedType(let name):
            return String(format: tr("“%@” is not a JPEG, PNG or WebP picture or a PDF. Save the receipt in one of these formats and attach it again."), name)
        case .damaged(let name, let kind):
            return String(format: tr("“%@” looks like a %@ file but is damaged. Take the photo or export the file again."), name, kind.displayName)
        case .empty(let name):
            return String(format: tr("“%@” is empty."), name)
        case .tooLarge(let name, let byteCount):
            return String(format: tr("“%@” is too large (%@). Receipts can be up to 100 MB."), name,
                          ByteCountFormatter.string(fromByteCount: byteCount, countStyle: .file))
        case .tooManyPixels(let name, let width, let height):
            return String(format: tr("“%@” is %d × %d pixels; receipts can have up to 100 megapixels. Save a smaller copy and attach it again."),
                          name, width, height)
        case .unreadable(let name, let reason):
            return String(format: tr("“%@” could not be read: %@"), name, reason)
        case .cannotStore(let reason):
            return String(format: tr("The receipt could not be saved: %@. Check the free disk space."), reason)
        case .missing:
            return tr("The receipt file is missing from Billfold’s data folder. Attach the receipt again.")
        case .noDecoder(let kind):
            return String(format: tr("%@ pictures cannot be shown on this system because no decoder for them is installed."), kind.displayName)
        case .notAnImage:
            return tr("A PDF receipt has no picture to show; open the PDF instead.")
        }
    }
}
