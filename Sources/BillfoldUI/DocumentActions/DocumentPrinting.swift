import Documents
import Foundation
import Graphics
import GtkKit

/// Where a page goes on the printable area: at its real size, centred, shrunk only when it
/// would not fit (as "shrink to printable area" does).
struct PrintPlacement: Equatable {
    let origin: Point
    let scale: Double

    init(page: Size, printable: Size) {
        let fit = min(printable.width / max(1, page.width), printable.height / max(1, page.height))
        scale = min(1, fit)
        origin = Point(x: max(0, (printable.width - page.width * scale) / 2),
                       y: max(0, (printable.height - page.height * scale) / 2))
    }
}

/// Print operations that draw the same pages the preview shows.
@MainActor
enum DocumentPrinting {
    /// An operation printing each page of `pdf` with Poppler (vectors, print annotations).
    static func operation(pdf: Data, jobName: String) throws(DocumentActionError) -> PrintOperation {
        let document: PDFDocument
        do {
            document = try PDFDocument(data: pdf)
        } catch {
            throw DocumentActionError.unreadablePDF(reason: error.localizedDescription)
        }
        let operation = PrintOperation(jobName: jobName)
        operation.pageCount = document.pageCount
        if let first = try? document.page(at: 0) {
            operation.setPaperSize(width: first.size.width, height: first.size.height)
        }
        operation.onDrawPage { page in
            guard let pdfPage = try? document.page(at: page.index) else { return }
            let placement = PrintPlacement(page: pdfPage.size, printable: Size(width: page.width, height: page.height))
            let context = DrawingContext(borrowing: page.context.pointer)
            pdfPage.render(in: context, at: placement.origin, scale: placement.scale, forPrinting: true)
        }
        return operation
    }

    /// An operation printing a laid-out document page by page, without a PDF in between.
    /// A page that cannot be drawn (a picture gone missing) is reported to `onError`.
    static func operation(document: PrintableDocument, jobName: String,
                          onError: @escaping @MainActor (DocumentError) -> Void) -> PrintOperation {
        let operation = PrintOperation(jobName: jobName)
        operation.pageCount = document.pageCount
        operation.setPaperSize(width: document.pageSize.width, height: document.pageSize.height)
        operation.onDrawPage { page in
            let placement = PrintPlacement(page: document.pageSize, printable: Size(width: page.width, height: page.height))
            let context = DrawingContext(borrowing: page.context.pointer)
            context.save()
            defer { context.restore() }
            context.translate(x: placement.origin.x, y: placement.origin.y)
            context.scale(x: placement.scale, y: placement.scale)
            do throws(DocumentError) {
                try document.drawPage(page.index, in: context)
            } catch {
                onError(error)
            }
        }
        return operation
    }
}
