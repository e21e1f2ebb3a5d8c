import BillfoldCore
import CommandLineAPI
import Foundation
import Storage

/// `billfold invoice|client|report|quote|credit-note …`: the invoices' commands, which run
/// without a display.
public enum InvoicesCommands: CommandLineModule {
    public static var commands: [CommandLineCommand] {
        [
            CommandLineCommand(name: "invoice", usage: InvoicesCommandLine.usage) { arguments, environment in
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
                guard let database = openDatabase(environment) else { return 1 }
                return QuotesCommandLine.run(kind, arguments: arguments, database: database,
                                             plan: InvoicePlan(status: environment.plan()))
            }
        }
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
