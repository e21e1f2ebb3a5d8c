import BillfoldCore
import Foundation
import Plans
import AppLibrary
import CommandLineAPI

/// Billfold's command line: options, and the subcommands plugins offer, which need no display.
struct CommandLineInterface {
    let commands: [CommandLineCommand]
    /// The user's plan, read only when a command asks for it.
    var plan: @Sendable () -> EntitlementStatus = { .free }

    /// Handles the arguments if they ask for something other than the window; returns the exit
    /// status then, or nil to start the app.
    func run(_ arguments: [String]) -> Int32? {
        guard let first = arguments.first else { return nil }
        switch first {
        case "--version", "-v":
            print("billfold \(AppInfo.version)")
            return 0
        case "--help", "-h", "help":
            print(usage)
            return 0
        default:
            if let command = commands.first(where: { $0.name == first }) {
                let environment = CommandLineEnvironment(openDatabase: { try AppDatabase.open().get() }, plan: plan)
                return command.run(Array(arguments.dropFirst()), environment)
            }
            let message = String(format: tr("Unknown command or option “%@”."), first)
            FileHandle.standardError.write(Data((message + "\n\n" + usage + "\n").utf8))
            return 2
        }
    }

    var usage: String {
        var lines = [
            tr("Usage: billfold [OPTION | COMMAND]"),
            "",
            tr("Without arguments, opens the Billfold window."),
            "",
            tr("Options:"),
            "  --version      " + tr("Show the version and exit"),
            "  --help         " + tr("Show this help and exit"),
        ]
        if !commands.isEmpty {
            lines += ["", tr("Commands:")]
            lines += commands.flatMap(\.usage).map { "  billfold " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
