import Foundation
import Plans
import Storage

/// A subcommand a plugin adds to `billfold` (e.g. `billfold invoice list`). It runs without a
/// display, before GTK starts.
public struct CommandLineCommand: Sendable {
    /// The first argument that selects it, e.g. "invoice".
    public let name: String
    /// One line per form for `--help`, e.g. "invoice export NUMBER --output FILE.pdf".
    public let usage: [String]
    /// Runs with the arguments after `name`; returns the exit status.
    public let run: @Sendable (_ arguments: [String], _ environment: CommandLineEnvironment) -> Int32

    public init(name: String, usage: [String],
                run: @escaping @Sendable (_ arguments: [String], _ environment: CommandLineEnvironment) -> Int32) {
        self.name = name
        self.usage = usage
        self.run = run
    }
}

/// What a command gets from the shell: the app's database, opened on first use, and the
/// user's plan, so the command line obeys it as the window does.
public struct CommandLineEnvironment: Sendable {
    private let openDatabase: @Sendable () throws -> Database
    private let readPlan: @Sendable () -> EntitlementStatus

    public init(openDatabase: @escaping @Sendable () throws -> Database,
                plan: @escaping @Sendable () -> EntitlementStatus = { .free }) {
        self.openDatabase = openDatabase
        readPlan = plan
    }

    public func database() throws -> Database { try openDatabase() }

    /// The plan the installed licence gives; the free plan without one.
    public func plan() -> EntitlementStatus { readPlan() }

    /// Writes a line to standard error.
    public func complain(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
