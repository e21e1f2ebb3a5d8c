import BillfoldCore
import EntitlementsPlugin
import ExpensesPlugin
import Foundation
import InvoicesPlugin
import PluginAPI
import TipSplitPlugin

// The one place that lists Billfold's plugins, in sidebar order.
let pluginTypes: [any Plugin.Type] = [
    Invoices.self,
    Expenses.self,
    TipSplit.self,
    BillfoldPro.self,
]

Localization.setUp(localeDirectory: AppInfo.localeDirectory)

// ICU's locale data loads on another core while GTK starts.
LocaleWarmUp.start()
let status = MainActor.assumeIsolated {
    BillfoldApplication(pluginTypes: pluginTypes).run()
}
exit(status)
