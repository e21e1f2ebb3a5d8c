import BillfoldCore
import Foundation

/// Billfold's command line: options and subcommands that need no display.
enum CommandLineInterface {
    /// Handles the arguments if they ask for something other than the window; returns the exit
    /// status then, or nil to start the app.
    static func run(_ arguments: [String]) -> Int32? {
        guard let first = arguments.first else { return nil }
        switch first {
        case "--version", "-v":
            print("billfold \(AppInfo.version)")
            return 0
        case "--help", "-h", "help":
            print(usage)
            return 0
        default:
            let message = String(format: tr("Unknown command or option “%@”."), first)
            FileHandle.standardError.write(Data((message + "\n\n" + usage + "\n").utf8))
            return 2
        }
    }

    static var usage: String {
        [
            tr("Usage: billfold [OPTION | COMMAND]"),
            "",
            tr("Without arguments, opens the Billfold window."),
            "",
            tr("Options:"),
            "  --version      " + tr("Show the version and exit"),
            "  --help         " + tr("Show this help and exit"),
        ].joined(separator: "\n")
    }
}
