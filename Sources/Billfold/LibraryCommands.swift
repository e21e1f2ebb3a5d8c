import BillfoldCore
import Foundation
import AppLibrary
import CommandLineAPI
import Storage

/// `billfold backup list | create | restore NAME` and `billfold check`: the library's
/// backups and health from the command line, with the same rules as the window.
enum LibraryCommands {
    typealias Check = @Sendable (Database) throws -> [String]

    static func all(checks: [Check]) -> [CommandLineCommand] {
        [
            CommandLineCommand(name: "backup", usage: [
                "backup list            " + tr("List the backups with their date, size, contents and state"),
                "backup create          " + tr("Check the library and back it up now"),
                "backup restore NAME    " + tr("Put a backup in place; the current file is kept beside it"),
            ]) { arguments, environment in backup(arguments, environment) },
            CommandLineCommand(name: "check", usage: [
                "check                  " + tr("Check the library's integrity and that every receipt file is there and unchanged"),
            ]) { arguments, environment in check(arguments, environment, checks: checks) },
        ]
    }

    static func backup(_ arguments: [String], _ environment: CommandLineEnvironment) -> Int32 {
        do {
            try AppDatabase.prepareFolders()
            switch arguments.first {
            case "list" where arguments.count == 1:
                let summaries = try AppDatabase.backupSummaries()
                guard !summaries.isEmpty else {
                    say(String(format: tr("There are no backups in %@."), AppDatabase.backupDirectory))
                    return 0
                }
                let dates = DateFormatting()
                let rows = summaries.map { summary in
                    [URL(fileURLWithPath: summary.backup.path).lastPathComponent,
                     dates.mediumDateAndTimeString(from: summary.backup.createdAt),
                     AppDatabase.describe(summary)]
                }
                say(table([tr("Name"), tr("Made"), tr("Contents")], rows))
                return 0
            case "create" where arguments.count == 1:
                let backup = try environment.database().makeBackup(reason: "manual")
                say(String(format: tr("Saved the backup %@."), backup.path))
                return 0
            case "restore" where arguments.count == 2:
                let backup = try AppDatabase.backup(named: arguments[1])
                let kept = try AppDatabase.restore(backup)
                say(String(format: tr("Restored %@."), URL(fileURLWithPath: backup.path).lastPathComponent))
                if let kept { say(String(format: tr("The file it replaced was kept as %@."), kept)) }
                return 0
            default:
                environment.complain(tr("Usage: billfold backup list | create | restore NAME"))
                return 2
            }
        } catch {
            environment.complain(error.localizedDescription)
            return 1
        }
    }

    static func check(_ arguments: [String], _ environment: CommandLineEnvironment, checks: [Check]) -> Int32 {
        guard arguments.isEmpty else {
            environment.complain(tr("Usage: billfold check"))
            return 2
        }
        do {
            let database = try environment.database()
            var problems = try database.integrityCheck()
            for check in checks { problems += try check(database) }
            guard problems.isEmpty else {
                problems.forEach(environment.complain)
                environment.complain(String(format: trn("%d problem found.", "%d problems found.", problems.count), problems.count))
                return 1
            }
            say(tr("The library is sound and every receipt file is there and unchanged."))
            return 0
        } catch {
            environment.complain(error.localizedDescription)
            return 1
        }
    }

    /// Columns padded to their widest cell.
    private static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
