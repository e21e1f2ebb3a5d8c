import Plans
import Storage

/// What a feature module offers `billfold` on the command line. It runs without a display:
/// the command line loads no GTK, so each module's core (domain, documents, commands) answers
/// here, and its plugin adds the window's part.
public protocol CommandLineModule: SendableMetatype {
    /// Subcommands of `billfold` this module offers.
    static var commands: [CommandLineCommand] { get }

    /// What `billfold check` asks of this module beyond the database's integrity (e.g. that
    /// every file the data refers to is there and unchanged): one line per problem found.
    static func checkLibrary(_ database: Database) throws -> [String]

    /// The plan for the command line; only the module that keeps the licence answers.
    @MainActor static func commandLinePlan() -> EntitlementStatus?
}

extension CommandLineModule {
    public static var commands: [CommandLineCommand] { [] }
    public static func checkLibrary(_ database: Database) throws -> [String] { [] }
    @MainActor public static func commandLinePlan() -> EntitlementStatus? { nil }
}
