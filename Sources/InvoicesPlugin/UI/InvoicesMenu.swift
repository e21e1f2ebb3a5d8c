import BillfoldCore
import Foundation
import GObjectCore
import GtkKit
import InvoicesCore
import PluginAPI

/// The Invoices page's menu: the two reports, and clients and invoices in and out as CSV.
@MainActor
final class InvoicesMenu {
    let button: MenuButton
    let actions = ActionGroup()
    private let repository: InvoiceRepository
    private let context: PluginContext
    /// After an import, so the list shows what came in.
    var onImported: (@MainActor () -> Void)?
    /// The Clients and Recurring Invoices windows, which the page opens.
    var onClients: (@MainActor () -> Void)?
    var onRecurring: (@MainActor () -> Void)?

    private(set) weak var reportWindow: InvoiceReportWindow?
    private(set) weak var importDialog: CSVImportDialog?
    /// The open or save dialog shown last, for tests.
    private(set) var chooser: FileChooser?
    private static var lastFolder: String?

    init(repository: InvoiceRepository, context: PluginContext) {
        self.repository = repository
        self.context = context
        // The list's other windows come first: as header icons beside Sort and New Invoice they
        // made a 360 px window 390 px wide.
        let windows = Menu()
        windows.append(tr("Clients"), action: "invoices.clients")
        windows.append(tr("Recurring Invoices"), action: "invoices.recurring")
        let reports = Menu()
        reports.append(tr("_Receivables"), action: "invoices.receivables")
        reports.append(tr("Revenue _Summary"), action: "invoices.revenue")
        let imports = Menu()
        imports.append(tr("Import _Clients from CSV…"), action: "invoices.import-clients")
        imports.append(tr("_Import Invoices from CSV…"), action: "invoices.import-invoices")
        let exports = Menu()
        exports.append(tr("Export C_lients as CSV…"), action: "invoices.export-clients")
        exports.append(tr("_Export Invoices as CSV…"), action: "invoices.export-invoices")
        let menu = Menu()
        [windows, reports, imports, exports].forEach(menu.appendSection)
        button = MenuButton(iconName: "view-more-symbolic", menu: menu, accessibleLabel: tr("Reports, Import and Export"))

        actions.add(SimpleAction(name: "clients") { [weak self] in self?.onClients?() })
        actions.add(SimpleAction(name: "recurring") { [weak self] in self?.onRecurring?() })
        actions.add(SimpleAction(name: "receivables") { [weak self] in self?.openReport(.receivables) })
        actions.add(SimpleAction(name: "revenue") { [weak self] in self?.openReport(.revenue) })
        actions.add(SimpleAction(name: "import-clients") { [weak self] in self?.chooseImport(.clients) })
        actions.add(SimpleAction(name: "import-invoices") { [weak self] in self?.chooseImport(.invoices) })
        actions.add(SimpleAction(name: "export-clients") { [weak self] in self?.export(.clients) })
        actions.add(SimpleAction(name: "export-invoices") { [weak self] in self?.export(.invoices) })
    }

    @discardableResult
    func openReport(_ kind: InvoiceReportWindow.Kind) -> InvoiceReportWindow {
        let window = InvoiceReportWindow(kind: kind, repository: repository, context: context)
        reportWindow = window
        window.present()
        return window
    }

    /// Asks for a CSV file, then shows what importing it would do.
    @discardableResult
    func chooseImport(_ content: CSVContent) -> FileChooser {
        let chooser = FileChooser(title: content == .clients ? tr("Import Clients from CSV") : tr("Import Invoices from CSV"),
                                  parent: context.window, acceptLabel: tr("_Open"),
                                  filters: [FileFilter(name: tr("CSV files"), suffixes: ["csv", "txt"])])
        self.chooser = chooser
        chooser.open { [weak self] path in
            guard let self, let path else { return }
            self.openImport(content, path: path)
        }
        return chooser
    }

    /// Reads `path` and shows the preview; a file that cannot be read says why and opens nothing.
    @discardableResult
    func openImport(_ content: CSVContent, path: String) -> CSVImportDialog? {
        let file: CSVImportFile
        do {
            let data: Data
            do {
                data = try RegularFile.read(path, limit: CSVImportFile.maximumSize)
            } catch {
                throw CSVImportError.unreadable(path: URL(fileURLWithPath: path).lastPathComponent, reason: error.reason)
            }
            file = try CSVImportFile(data: data)
        } catch {
            context.showToast(error.localizedDescription)
            return nil
        }
        let dialog = CSVImportDialog(content: content, file: file, fileName: URL(fileURLWithPath: path).lastPathComponent,
                                     repository: repository, plan: InvoicePlan(context.entitlements), parent: context.window)
        dialog.onImported = { [weak self] result in
            guard let self else { return }
            self.context.showToast(String(format: tr("Imported %@."), CSVImportPreview.describe(result, content: content, skipped: 0)))
            self.onImported?()
        }
        importDialog = dialog
        dialog.present()
        return dialog
    }

    /// Asks where to save, then writes every client or invoice as CSV off the main thread.
    @discardableResult
    func export(_ content: CSVContent) -> FileChooser {
        let chooser = FileChooser(saveTitle: content == .clients ? tr("Export Clients as CSV") : tr("Export Invoices as CSV"),
                                  parent: context.window, acceptLabel: tr("_Export"),
                                  suggestedName: (content == .clients ? tr("clients") : tr("invoices")) + ".csv",
                                  folder: Self.lastFolder ?? UserDirectories.documents,
                                  filters: [FileFilter(name: tr("CSV files"), suffixes: ["csv"])])
        self.chooser = chooser
        chooser.open { [weak self] path in
            guard let self, let path else { return }
            self.write(content, to: URL(fileURLWithPath: path))
        }
        return chooser
    }

    func write(_ content: CSVContent, to url: URL) {
        let repository = repository
        Task { [weak self] in
            let outcome = await Task.detached {
                Result {
                    switch content {
                    case .clients: try OutputTarget.file(url).write(Data(try repository.clientsCSV().utf8))
                    case .invoices: try OutputTarget.file(url).writeInPieces { try repository.writeInvoicesCSV($0) }
                    }
                }
            }.value
            guard let self else { return }
            switch outcome {
            case .success:
                Self.lastFolder = url.deletingLastPathComponent().path
                self.context.showToast(String(format: tr("Exported to %@"), url.lastPathComponent))
            case .failure(let error):
                self.context.showToast(error.localizedDescription)
            }
        }
    }
}
