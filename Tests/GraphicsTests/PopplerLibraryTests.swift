import Foundation
import Testing
@testable import Graphics

/// Poppler is opened with dlopen on first use; these check what happens when it cannot be.
@Suite struct PopplerLibraryTests {
    /// A one-page PDF saying "Receipt 42".
    private func receiptPDF() throws -> Data {
        let surface = try PDFSurface(pageSize: Size(width: 200, height: 100))
        let context = DrawingContext(surface: surface)
        TextEngine().layout("Receipt 42", format: TextFormat(font: FontDescription(size: 12)))
            .draw(in: context, at: Point(x: 10, y: 10), color: .black)
        context.showPage()
        return try surface.finishBytes()
    }

    @Test func aMissingLibraryIsATypedErrorThatSaysWhatToDo() throws {
        let missing = "libbillfold-missing-poppler.so.8"
        let library = Result { () throws(PDFError) in try PopplerLibrary(loading: missing) }
        let error = #expect(throws: PDFError.self) {
            try PDFDocument(data: receiptPDF(), password: nil, poppler: library)
        }
        guard case .popplerUnavailable(let reason) = error else {
            Issue.record("expected popplerUnavailable, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(missing))
        let message = try #require(error?.errorDescription)
        #expect(message.contains("Poppler"))
        #expect(message.contains(reason))
    }

    @Test func aLibraryWithoutPopplersFunctionsIsRefusedByName() {
        // GLib loads fine but has none of Poppler's functions: the first one missing is named.
        let error = #expect(throws: PDFError.self) { try PopplerLibrary(loading: "libglib-2.0.so.0") }
        guard case .popplerUnavailable(let reason) = error else {
            Issue.record("expected popplerUnavailable, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("poppler_"))
    }

    @Test func theSystemLibraryLoadsAndReadsAPDF() throws {
        let poppler = try PopplerLibrary.shared.get()
        let document = try PDFDocument(data: receiptPDF(), password: nil, poppler: .success(poppler))
        #expect(try document.page(at: 0).text().contains("Receipt 42"))
    }

    @Test func documentsOpenedAtOnceOnSeveralThreadsAllRead() async throws {
        let data = try receiptPDF()
        let texts = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask { try? PDFDocument(data: data).page(at: 0).text() }
            }
            var texts: [String?] = []
            for await text in group { texts.append(text) }
            return texts
        }
        #expect(texts.count == 8)
        #expect(texts.allSatisfy { $0?.contains("Receipt 42") == true })
    }
}
