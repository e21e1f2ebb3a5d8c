import Foundation
import Graphics
@testable import Documents

/// A rendered PDF read back with Poppler.
struct ReadBack {
    let document: PDFDocument
    let pages: [PDFPage]

    init(_ data: Data) throws {
        let document = try PDFDocument(data: data)
        self.document = document
        pages = try (0..<document.pageCount).map { try document.page(at: $0) }
    }

    init(_ rendered: RenderedPDF) throws {
        try self.init(rendered.data)
    }

    var pageCount: Int { pages.count }

    /// All words on all pages, joined without whitespace (for checking long text survived whole).
    var compactText: String {
        pages.map { $0.textRuns().map(\.text).joined() }.joined()
    }
}

/// Removes whitespace and the bidi controls Poppler wraps around right-to-left runs.
func compact(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter {
        !$0.properties.isWhitespace && !(0x200E...0x200F).contains($0.value) && !(0x202A...0x202E).contains($0.value)
            && !(0x2066...0x2069).contains($0.value)
    }))
}

/// A temporary directory removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("documents-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
