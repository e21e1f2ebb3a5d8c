import BillfoldCore
import CommandLineAPI
import Graphics
import Storage

/// `billfold trip|expense …` and `billfold check`'s receipt files: the expenses' part of the
/// command line, which runs without a display.
public enum ExpensesCommands: CommandLineModule {
    public static var commands: [CommandLineCommand] { [ExpensesCommandLine.shellCommand, ExpenseImportCommand.shellCommand] }

    public static func checkLibrary(_ database: Database) throws -> [String] {
        guard try database.queryValue("SELECT count(*) FROM sqlite_schema WHERE name = 'expenses_receipt'", as: Int.self) == 1 else {
            return []
        }
        return try ReceiptFileCheck.problems(in: database, store: ReceiptStore(directory: AppPaths.receiptsDirectory))
    }
}

extension ExpensesCommandLine {
    /// `billfold trip …` for the shell: the plugin's `commands` returns `[ExpensesCommandLine.shellCommand]`.
    public static let shellCommand = CommandLineCommand(name: command, usage: usageLines) { arguments, environment in
        // A report lays a PDF out: the fonts load while the library opens, on a heap of huge pages.
        if arguments.first == "report" {
            HugePageHeap.prepare()
            TextEngine.startLoadingFonts()
        }
        return withLibrary(environment) { run(arguments: arguments, database: $0, receipts: $1) }
    }
}

extension ExpenseImportCommand {
    /// `billfold expense …` for the shell.
    public static let shellCommand = CommandLineCommand(name: command, usage: usageLines) { arguments, environment in
        withLibrary(environment) { run(arguments: arguments, database: $0, receipts: $1) }
    }
}

/// Runs a command on the user's library: the database, and receipts read from
/// `AppPaths.receiptsDirectory` with scaled copies in the cache directory. A library that cannot
/// be opened is reported, with exit status 1.
private func withLibrary(_ environment: CommandLineEnvironment, _ body: (Database, ReceiptStore) -> Int32) -> Int32 {
    do {
        let database = try environment.database()
        return body(database, ReceiptStore(directory: AppPaths.receiptsDirectory,
                                           cacheDirectory: AppPaths.cacheDirectory.appendingPathComponent("receipts")))
    } catch {
        environment.complain(error.localizedDescription)
        return 1
    }
}
