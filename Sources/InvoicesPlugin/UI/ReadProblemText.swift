import BillfoldCore
import Foundation
import InvoicesCore

/// What a document's pane shows for a record it refers to: its name, or why it could not be
/// read. A read error never leaves a blank where the name belongs.
extension InvoiceRepository {
    func clientNameForDisplay(_ id: ClientID?) -> String {
        guard let id else { return "" }
        do {
            return try client(id)?.name ?? ""
        } catch {
            return String(format: tr("The client could not be read: %@"), error.localizedDescription)
        }
    }

    func invoiceNumberForDisplay(_ id: InvoiceID?) -> String? {
        guard let id else { return nil }
        do {
            return try invoice(id)?.number
        } catch {
            return String(format: tr("The invoice could not be read: %@"), error.localizedDescription)
        }
    }
}
