import BillfoldCore
import Plans

/// What the user's plan allows in Invoices: the one place the free plan's limits are applied,
/// for the window and the command line alike. Views and commands only act on its answer.
public struct InvoicePlan: Sendable {
    private let status: EntitlementStatus

    public init(status: EntitlementStatus) {
        self.status = status
    }

    /// The plan the Entitlements service reports; the free plan without one (the Billfold Pro
    /// plugin turned off).
    @MainActor
    public init(_ entitlements: (any Entitlements)?) {
        self.init(status: (entitlements ?? FreeTier()).status)
    }

    public static let free = InvoicePlan(status: .free)

    /// The most invoices the user may keep, or nil when unlimited.
    public var invoiceLimit: Int? { status.invoiceLimit }

    public func allowsNewInvoice(existingCount: Int) -> Bool {
        InvoiceRules.canCreateInvoice(existingCount: existingCount, limit: invoiceLimit)
    }

    /// Says how many invoices there are and how many the free plan holds, when another is not
    /// allowed; nil when it is.
    public func limitMessage(existingCount: Int) -> String? {
        guard let limit = invoiceLimit, !allowsNewInvoice(existingCount: existingCount) else { return nil }
        return String(format: trn("You have %d invoice.", "You have %d invoices.", existingCount), existingCount) + " "
            + String(format: trn("The free plan holds at most %d invoice.", "The free plan holds at most %d invoices.", limit), limit)
    }

    /// Throws `freeTierLimitReached` when another invoice is not allowed.
    public func checkNewInvoice(existingCount: Int) throws(InvoiceError) {
        guard allowsNewInvoice(existingCount: existingCount) else {
            throw .freeTierLimitReached(limit: invoiceLimit ?? EntitlementLimits.freeInvoices)
        }
    }

    /// Imported invoices count toward the limit like any other, whatever their status; an
    /// import that would pass it is refused whole, so no file is half imported.
    public func checkImport(adding count: Int, existingCount: Int) throws(InvoiceError) {
        guard count > 0, let limit = invoiceLimit, existingCount + count > limit else { return }
        throw .importOverLimit(limit: limit, existing: existingCount, adding: count)
    }

    /// Saving, printing and emailing an invoice as PDF (the preview stays free).
    public var allowsPDFExport: Bool { status.features.contains(.exportInvoicePDF) }

    /// Throws `pdfExportNeedsPro` when the plan does not include PDF export.
    public func checkPDFExport() throws(InvoiceError) {
        guard allowsPDFExport else { throw .pdfExportNeedsPro }
    }
}
