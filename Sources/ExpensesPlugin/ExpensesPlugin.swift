import BillfoldCore
import ExpensesCore
import Foundation
import Storage
import PluginAPI

/// Trips, their expenses and receipts, and the reimbursement report. Its tables live in the
/// app's database under the owner "expenses", receipt files in the data directory.
@MainActor
public final class Expenses: Plugin {
    /// The plugin's data, once activated.
    public private(set) var repository: ExpenseRepository?
    /// The page's view, once its page was first shown; tests drive it.
    public private(set) var view: ExpensesView?
    private let receiptStore: ReceiptStore?

    public init() { receiptStore = nil }

    /// For tests: receipts in `receiptStore` instead of the user's data directory.
    package init(receiptStore: ReceiptStore) { self.receiptStore = receiptStore }

    public var info: PluginInfo {
        PluginInfo(id: "expenses", name: tr("Expenses"),
                   summary: tr("Trips, receipts and reimbursement reports"),
                   iconName: "emoji-travel-symbolic")
    }

    /// Making the repository migrates the tables.
    public nonisolated static func prepareLibrary(_ database: Database) throws {
        _ = try ExpenseRepository(database: database, receipts: ReceiptStore(directory: AppPaths.receiptsDirectory))
    }

    public private(set) var page: PluginPage?

    public func activate(in context: PluginContext) throws {
        let store = receiptStore ?? ReceiptStore(
            directory: AppPaths.receiptsDirectory,
            cacheDirectory: AppPaths.cacheDirectory.appendingPathComponent("receipts", isDirectory: true))
        let repository = try ExpenseRepository(database: context.database(), receipts: store)
        self.repository = repository
        context.addShortcut("<Control>n", title: tr("New Trip")) { [weak self] in self?.view?.showNewTripDialog() }
        context.addShortcut("<Control>f", title: tr("Search Trips")) { [weak self] in self?.view?.focusSearch() }
        // Built when first shown, so starting the app costs nothing for it.
        page = PluginPage(title: info.name, iconName: info.iconName,
                          onShown: { [weak self] in self?.view?.focusSearch() },
                          build: { [weak self] in
                              let view = Self.makeView(repository: repository, context: context)
                              self?.view = view
                              return view.widget
                          })
    }

    private static func makeView(repository: ExpenseRepository, context: PluginContext) -> ExpensesView {
        // No undo can be open before the page exists: files of old deletions and unsaved forms can go.
        try? repository.purgeDeletedReceipts()
        return ExpensesView(repository: repository, context: context)
    }

    public func deactivate() {
        view?.endPendingUndos()
        view = nil
        repository = nil
        page = nil
    }
}
