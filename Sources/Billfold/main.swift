import BillfoldCore
import CommandLineAPI
import EntitlementsCore
import ExpensesCore
import Foundation
import InvoicesCore
import Plans

// The command line's half of each plugin. It loads no GTK: a command starts in half the time.
let modules: [any CommandLineModule.Type] = [
    InvoicesCommands.self,
    ExpensesCommands.self,
    LicenseCommands.self,
]

Localization.setUp(localeDirectory: AppInfo.localeDirectory)

/// The plan of the first module that has one. A loop, not `lazy.compactMap(…).first`, which
/// runs the transform twice and so read and verified the licence twice.
@MainActor func firstPlan() -> EntitlementStatus {
    for module in modules {
        if let plan = module.commandLinePlan() { return plan }
    }
    return .free
}

let commandLine = CommandLineInterface(
    commands: LibraryCommands.all(checks: modules.map { module in { try module.checkLibrary($0) } })
        + modules.flatMap { $0.commands },
    plan: { MainActor.assumeIsolated { firstPlan() } })
if let status = commandLine.run(Array(CommandLine.arguments.dropFirst())) {
    exit(status)
}

// No command: the window, which is its own program beside this one.
let app = AppInfo.executableDirectory + "/billfold-app"
var argv: [UnsafeMutablePointer<CChar>?] = ([app] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
execv(app, &argv)
let message = String(format: tr("The Billfold window could not be started (%@): %@"), app, String(cString: strerror(errno)))
FileHandle.standardError.write(Data((message + "\n").utf8))
exit(1)
