import BillfoldCore
import Foundation
import PluginAPI
import TipSplitPlugin

// The one place that lists Billfold's plugins, in sidebar order.
let pluginTypes: [any Plugin.Type] = [
    TipSplit.self,
]

Localization.setUp(localeDirectory: AppInfo.localeDirectory)

let arguments = Array(CommandLine.arguments.dropFirst())
if let status = CommandLineInterface.run(arguments) {
    exit(status)
}

let status = MainActor.assumeIsolated {
    BillfoldApplication(pluginTypes: pluginTypes).run()
}
exit(status)
