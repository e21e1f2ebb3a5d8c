import Documents
import Foundation
import GObjectCore
import Graphics
import GtkKit

/// PDFs made with Documents, and windows to show widgets in.
enum Fixtures {
    /// A PDF of `pages` A4 pages, each headed "Page N" over a few paragraphs.
    static func pdf(pages: Int, paper: PaperSize = .a4) throws -> Data {
        var document = Document(pageSetup: PageSetup(paper: paper),
                                metadata: DocumentMetadata(title: "Preview fixture", author: "Tests"))
        document.footer = RunningText(trailing: .pageNumber)
        var blocks: [Block] = []
        for page in 1...max(1, pages) {
            if page > 1 { blocks.append(.pageBreak) }
            blocks.append(.heading(Heading("Page \(page)")))
            blocks.append(.paragraph(Paragraph(String(repeating: "Consulting and design work for the quarter. ", count: 12))))
        }
        document.blocks = blocks
        return try document.renderPDF().data
    }

    static func temporaryDirectory(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("billfold-ui-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// A window of a fixed size showing one widget, drawn before the test looks at it.
@MainActor
final class TestWindow {
    let window = AdwaitaWindow()

    init(content: Widget, width: Int = 600, height: Int = 500) {
        window.setDefaultSize(width: width, height: height)
        window.content = content
        window.present()
        settle()
    }

    /// Lets GTK lay out and paint: iterates until a frame has been painted after everything queued.
    func settle() {
        var painted = false
        if window.afterNextPaint({ painted = true }) {
            MainLoop.run(until: { painted }, timeout: 5)
        }
        // Anything a paint queued (pages becoming visible) gets its own frame.
        painted = false
        if window.afterNextPaint({ painted = true }) {
            MainLoop.run(until: { painted }, timeout: 5)
        }
        while MainLoop.iterate() {}
    }

    func close() { window.destroy() }
}
