import BillfoldCore
import Plans

/// What each plan includes, as the Billfold Pro page and the paywall list it.
public enum PlanComparison {
    public static var free: [String] {
        [
            tr("TipSplit"),
            tr("Expenses, trips and reimbursement reports"),
            String(format: trn("Up to %d invoice", "Up to %d invoices", EntitlementLimits.freeInvoices),
                   EntitlementLimits.freeInvoices),
            tr("Quotes and credit notes, which do not count toward the invoice limit"),
            tr("Invoice previews"),
        ]
    }

    /// What Pro adds on top of the free plan: one line per feature a licence unlocks.
    public static var proAdds: [String] { Feature.allCases.map(\.title) }

    /// How Pro is sold and what happens when a licence ends.
    public static var plans: String {
        String(format: tr("Monthly, annual or lifetime. A monthly or annual licence keeps working for %d days after it ends, so a renewal never leaves a gap."),
               EntitlementLimits.gracePeriodDays)
    }

    /// The promise that holds on every plan.
    public static var nothingLockedAway: String {
        tr("Nothing you make is ever locked away or deleted: without Pro, every invoice stays readable and previewable, and expenses and TipSplit are unaffected.")
    }
}
