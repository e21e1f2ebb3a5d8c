import BillfoldCore
import Foundation
import GtkKit
import InvoicesCore
import PluginAPI
import Storage

/// Clients, invoices, payments and the invoice PDF. Its tables live in the app's database under
/// the owner "invoices"; its command line works without a display.
@MainActor
public final class Invoices: Plugin {
    /// The plugin's data, once activated; views and view-models query it.
    public private(set) var repository: InvoiceRepository?

    public init() {}

    public var info: PluginInfo {
        PluginInfo(id: "invoices", name: tr("Invoices"),
                   summary: tr("Clients, invoices, payments and PDF invoices"),
                   iconName: "x-office-document-symbolic")
    }

    /// Making the repository migrates the tables.
    public nonisolated static func prepareLibrary(_ database: Database) throws {
        _ = try InvoiceRepository(database: database)
    }

    public private(set) var page: PluginPage?
    /// The page's view, kept for as long as the page is shown.
    package private(set) var invoicesPage: InvoicesPage?
    /// Invoices, quotes and credit notes, as the page shows them.
    private(set) var documentsView: InvoicesDocumentsView?
    private var context: PluginContext?

    public func activate(in context: PluginContext) throws {
        let repository = try InvoiceRepository(database: context.database())
        self.repository = repository
        self.context = context
        context.services.register(ProfileIdentity(repository: repository), as: (any BusinessIdentity).self)
        issueDueRecurringInvoices(context: context, repository: repository)
        // Built when first shown: most starts open another page.
        page = PluginPage(title: tr("Invoices"), iconName: info.iconName,
                          onShown: { [weak self] in self?.invoicesPage?.pageShown() },
                          build: { [weak self] in
                              let view = InvoicesDocumentsView(context: context, repository: repository)
                              self?.documentsView = view
                              self?.invoicesPage = view.invoices
                              return view.widget
                          })
    }

    /// On start-up, every recurring invoice that fell due while Billfold was closed is issued,
    /// once per period; what happened, or why something waits, is said in a toast. It runs once
    /// every plugin is active, so the plan is the one the Billfold Pro plugin publishes.
    private func issueDueRecurringInvoices(context: PluginContext, repository: InvoiceRepository) {
        Task { @MainActor [weak self] in
            let message: String?
            do {
                message = try repository.issueDueRecurringInvoices(plan: InvoicePlan(context.entitlements)).summary
            } catch {
                message = String(format: tr("Recurring invoices could not be issued: %@"), error.localizedDescription)
            }
            guard let message else { return }
            self?.invoicesPage?.reload(dataChanged: true)
            context.showToast(message)
        }
    }

    public func makePreferencesPage() -> PreferencesPage? {
        guard let repository else { return nil }
        let view = BusinessProfileView(repository: repository) { [weak context] in context?.window }
        view.onSaved = { [weak self] in self?.invoicesPage?.profileChanged() }
        let page = view.makePage()
        // The page keeps its view; the view holds only the page's rows, so nothing cycles.
        page.attach(view, forKey: "billfold-business-profile")
        return page
    }

    public func deactivate() {
        context = nil
        repository = nil
        page = nil
        invoicesPage = nil
        documentsView = nil
    }
}

/// The business profile's name for other plugins, read when asked so it is always current.
@MainActor
final class ProfileIdentity: BusinessIdentity {
    private let repository: InvoiceRepository

    init(repository: InvoiceRepository) { self.repository = repository }

    var name: String { (try? repository.profile().name) ?? "" }
    var currency: Currency? { try? repository.profile().defaultCurrency }
}
