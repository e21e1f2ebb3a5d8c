import BillfoldCore
import BillfoldUI
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI

/// What the invoice and credit note panes share to save an e-invoice: the XRechnung file, and
/// a dialog that lists what a document not ready to be an e-invoice lacks.
@MainActor
final class EInvoiceSaving {
    private let context: PluginContext
    private let documentActions: DocumentActions

    /// The dialog while it is shown, and the list it showed last.
    private(set) weak var problemDialog: MessageDialog?
    private(set) var problemList = ""

    init(context: PluginContext, documentActions: DocumentActions) {
        self.context = context
        self.documentActions = documentActions
    }

    /// Asks where to save `xml` as `<number>.xml`. Free, as on the command line: an e-invoice is
    /// the data a client's system must get, not a Pro document.
    func saveXRechnung(_ xml: Data, suggestedName: String) {
        let kind = SavedFileKind(title: tr("Save XRechnung"), filterName: tr("XRechnung e-invoices"), fileExtension: "xml")
        documentActions.saveAs(xml, kind: kind, suggestedName: suggestedName) { [weak self] url in
            self?.context.showToast(String(format: tr("Saved “%@”"), url.lastPathComponent))
        }
    }

    /// An e-invoice that is not ready lists what is missing, in a dialog that holds the list;
    /// any other problem is a toast.
    func explain(_ error: any Error) {
        guard case .notReady(let issues) = error as? EInvoiceError else {
            context.showToast(error.localizedDescription)
            return
        }
        let dialog = MessageDialog(parent: context.window, heading: tr("Not Ready to Be an E-Invoice"),
                                   body: tr("Add what is missing, then try again:"))
        // A list reads from the left, not centred as a dialog's body is.
        let list = Label(issues.map { "• " + $0.message }.joined(separator: "\n"), wraps: true)
        list.xAlign = 0
        dialog.setExtraChild(list)
        dialog.addResponse("close", label: tr("_Close"))
        dialog.setDefaultResponse("close")
        dialog.setCloseResponse("close")
        problemDialog = dialog
        problemList = list.text
        dialog.present()
    }
}
