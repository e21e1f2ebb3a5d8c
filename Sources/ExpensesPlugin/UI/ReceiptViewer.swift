import BillfoldCore
import BillfoldUI
import ExpensesCore
import Foundation
import GObjectCore
import GtkKit

/// A receipt at a size to read it, in a window of its own: a photo decoded and scaled on a
/// background task (the JPEG decoder scales while decoding, so a 50-megapixel photo never sits in
/// memory whole), or every page of a PDF receipt in the document preview (an XML e-invoice as a
/// page laid out from it).
@MainActor
final class ReceiptViewer: AdwaitaWindow {
    let picture = PixelPicture()
    let message = Label("", style: "dim-label")
    private let stack = Stack()
    /// Set for a PDF receipt.
    private(set) var document: DocumentPreview?
    /// True until the picture is shown or its problem is.
    private(set) var isLoading = true

    /// Longest side of the picture shown, in pixels: sharp on a large screen, small in memory.
    nonisolated static let pixelSize = 2048

    init(reference: ReceiptReference, name: String, store: ReceiptStore, parent: Window?) {
        super.init()
        makeDialog(title: name, over: parent, width: 720, height: 820)
        let header = HeaderBar(title: WindowTitle(name))
        let spinner = Label(tr("Loading…"), style: "dim-label")
        message.setMargins(24)
        message.setJustification(.center)
        picture.expandsHorizontally = true
        picture.expandsVertically = true
        picture.accessibleLabel = String(format: tr("Receipt: %@"), name)
        stack.add(spinner, named: "loading")
        stack.add(picture, named: "picture")
        stack.add(message, named: "message")
        stack.expandsVertically = true
        stack.visibleChildName = "loading"
        self.content = Box(.vertical, children: [header, stack])

        guard reference.kind.isImage else {
            let document = DocumentPreview()
            self.document = document
            stack.add(document.widget, named: "document")
            stack.visibleChildName = "document"
            isLoading = false
            if reference.kind == .xml {
                // A bare e-invoice is shown as a page laid out from it; one that cannot be read says why.
                document.generate {
                    let invoice = try EInvoiceFile.read(try store.data(for: reference), kind: .xml)
                    return try EInvoiceTemplate(invoice: invoice).document().renderPDF().data
                }
            } else {
                document.generate { try store.data(for: reference) }
            }
            return
        }
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) { () -> Result<ReceiptThumbnail, ReceiptError> in
                Result { () throws(ReceiptError) in try store.thumbnail(for: reference, maxPixelSize: Self.pixelSize) }
            }.value
            guard let self else { return }
            self.isLoading = false
            switch result {
            case .success(let image):
                self.picture.setPixels(width: image.width, height: image.height, rowStride: image.rowStride,
                                       hasAlpha: image.hasAlpha, pixels: image.pixels)
                self.stack.visibleChildName = "picture"
            case .failure(let error):
                self.message.text = error.localizedDescription
                self.stack.visibleChildName = "message"
            }
        }
    }

}
