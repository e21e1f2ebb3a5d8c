import BillfoldCore
import CommandLineAPI
import Foundation
import Graphics
import Storage

/// `billfold invoice|client|report|quote|credit-note …`: the invoices' commands, which run
/// without a display.
public enum InvoicesCommands: CommandLineModule {
    public static var commands: [CommandLineCommand] {
        [
            CommandLineCommand(name: "invoice", usage: InvoicesCommandLine.usage) { arguments, environment in
                prepareForExport(arguments)
                let database: Database
                do {
                    database = try environment.database()
                } catch {
                    environment.complain(error.localizedDescription)
                    return 1
                }
                return InvoicesCommandLine.run(arguments: arguments, database: database,
                                               plan: InvoicePlan(status: environment.plan()))
            },
            CommandLineCommand(name: "client", usage: ExchangeCommandLine.clientUsage) { arguments, environment in
                guard let database = openDatabase(environment) else { return 1 }
                return ExchangeCommandLine.runClient(arguments: arguments, database: database,
                                                     plan: InvoicePlan(status: environment.plan()))
            },
            CommandLineCommand(name: "report", usage: ExchangeCommandLine.reportUsage) { arguments, environment in
                guard let database = openDatabase(environment) else { return 1 }
                return ExchangeCommandLine.runReport(arguments: arguments, database: database)
            },
        ] + [QuotesCommandLine.Kind.quote, .creditNote].map { kind in
            CommandLineCommand(name: kind.command, usage: QuotesCommandLine.usage(kind)) { arguments, environment in
                prepareForExport(arguments)
                guard let database = openDatabase(environment) else { return 1 }
                return QuotesCommandLine.run(kind, arguments: arguments, database: database,
                                             plan: InvoicePlan(status: environment.plan()))
            }
        }
    }

    /// An export lays its PDF out: the font configuration loads on a thread of its own while
    /// the library opens and the document loads, and the first layout no longer waits for it;
    /// the heap the document fills is on huge pages.
    private static func prepareForExport(_ arguments: [String]) {
        guard arguments.first == "export" else { return }
        HugePageHeap.prepare()
        TextEngine.startLoadingFonts()
    }

    private static func openDatabase(_ environment: CommandLineEnvironment) -> Database? {
        do {
            return try environment.database()
        } catch {
            environment.complain(error.localizedDescription)
            return nil
        }
    }
}
