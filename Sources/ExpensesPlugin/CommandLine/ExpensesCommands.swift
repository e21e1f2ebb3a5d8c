import BillfoldCore
import PluginAPI

extension ExpensesCommandLine {
    /// `billfold trip …` for the shell: the plugin's `commands` returns `[ExpensesCommandLine.shellCommand]`.
    /// Receipts are read from `AppPaths.receiptsDirectory`; scaled copies go to the cache directory.
    public static let shellCommand = CommandLineCommand(name: command, usage: usageLines) { arguments, environment in
        do {
            let database = try environment.database()
            return run(arguments: arguments, database: database,
                       receipts: ReceiptStore(directory: AppPaths.receiptsDirectory,
                                              cacheDirectory: AppPaths.cacheDirectory.appendingPathComponent("receipts")))
        } catch {
            environment.complain(error.localizedDescription)
            return 1
        }
    }
}

extension ExpenseImportCommand {
    /// `billfold expense …` for the shell, with receipts in `AppPaths.receiptsDirectory`.
    public static let shellCommand = CommandLineCommand(name: command, usage: usageLines) { arguments, environment in
        do {
            let database = try environment.database()
            return run(arguments: arguments, database: database,
                       receipts: ReceiptStore(directory: AppPaths.receiptsDirectory,
                                              cacheDirectory: AppPaths.cacheDirectory.appendingPathComponent("receipts")))
        } catch {
            environment.complain(error.localizedDescription)
            return 1
        }
    }
}
