import BillfoldCore
import EntitlementsPlugin
import ExpensesPlugin
import Foundation
import GtkKit
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
// Before any other thread: it changes the environment for a moment.
MainActor.assumeIsolated { Display.openWithoutGLForCairoRendering() }

// ICU's locale data loads on another core while GTK starts.
LocaleWarmUp.start()
let status = MainActor.assumeIsolated {
    BillfoldApplication(pluginTypes: pluginTypes).run()
}
exit(status)
