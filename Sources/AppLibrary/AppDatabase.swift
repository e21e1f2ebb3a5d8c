import BillfoldCore
import Foundation
import Storage

/// Opens the one database every plugin keeps its tables in, keeps its backups, and restores
/// one when the person asks to.
public enum AppDatabase {
    public static var path: String { AppPaths.databaseFile.path }
    public static var backupDirectory: String { AppPaths.backupDirectory.path }
    /// What a backup summary counts, so a person can tell backups apart: invoices, trips, expenses.
    public static let countedTables = ["invoices_invoice", "expenses_trip", "expenses_expense"]

    /// Opens (or creates) the database; any problem is reported precisely, never "fixed" by
    /// replacing the file. Leftovers of killed writes are removed first.
    public static func open() -> Result<Database, any Error> {
        Result {
            try prepareFolders()
            return try Database.open(path: path, options: .init(backupDirectory: backupDirectory))
        }
    }

    /// The app's own folders are private (no access for group or others) whatever mode they
    /// were made with, a restore that was killed half-way is finished, and what a killed
    /// export, backup or restore left in them is removed. The owner's own bits are left alone:
    /// a folder made read-only stays read-only.
    public static func prepareFolders() throws {
        try Database.finishInterruptedRestore(forDatabaseAt: path)
        let data = AppPaths.dataDirectory
        for folder in [data, AppPaths.backupDirectory, AppPaths.receiptsDirectory, AppPaths.configDirectory] {
            var info = stat()
            if stat(folder.path, &info) == 0, info.st_mode & 0o077 != 0 { chmod(folder.path, info.st_mode & 0o700) }
        }
        LeftoverFiles.removeLeftovers(in: [data, AppPaths.receiptsDirectory, AppPaths.configDirectory])
        Database.removeLeftovers(forDatabaseAt: path, backupDirectory: backupDirectory)
    }

    /// The daily backup, off the main thread once the window is up, so it never delays the
    /// first frame. A backup that cannot be made (a damaged database, a full disk) is logged
    /// and reported through `onFailure`, never dropped.
    public static func backUpIfDue(_ database: Database,
                            onFailure: @escaping @MainActor @Sendable (_ message: String, _ error: any Error) -> Void) {
        Task.detached(priority: .background) {
            do {
                _ = try database.backupIfDue()
            } catch {
                let message = String(format: tr("The daily backup was not made: %@"), error.localizedDescription)
                FileHandle.standardError.write(Data(("billfold: " + message + "\n").utf8))
                await MainActor.run { onFailure(message, error) }
            }
        }
    }

    /// Every backup, newest first, with its size, counts and soundness. Reads each file: call
    /// it off the main thread.
    public static func backupSummaries() throws -> [BackupSummary] {
        try Database.listBackups(forDatabaseAt: path, in: backupDirectory)
            .map { Database.summary(of: $0, counting: countedTables) }
    }

    /// The backup named `name` (a file name in the backup folder, or a path).
    public static func backup(named name: String) throws -> Backup {
        let backups = try Database.listBackups(forDatabaseAt: path, in: backupDirectory)
        let wanted = URL(fileURLWithPath: name).lastPathComponent
        guard let backup = backups.first(where: { URL(fileURLWithPath: $0.path).lastPathComponent == wanted }) else {
            throw DatabaseError.backupNotFound(path: URL(fileURLWithPath: backupDirectory).appendingPathComponent(wanted).path)
        }
        return backup
    }

    /// Puts `backup` in place; the current file is kept beside it. Returns where.
    public static func restore(_ backup: Backup) throws -> String? {
        try Database.restore(databaseAt: path, from: backup.path)
    }

    /// "68.4 MB · 3 000 invoices · 12 trips · 140 expenses · verified", for a list to choose from.
    public static func describe(_ summary: BackupSummary) -> String {
        let numbers = NumberFormatting()
        let invoices = summary.rowCounts["invoices_invoice"] ?? 0
        let trips = summary.rowCounts["expenses_trip"] ?? 0
        let expenses = summary.rowCounts["expenses_expense"] ?? 0
        var parts = [ByteCountText.string(summary.byteCount)]
        if summary.isSound {
            parts.append(String(format: trn("%@ invoice", "%@ invoices", invoices), numbers.string(from: invoices)))
            parts.append(String(format: trn("%@ trip", "%@ trips", trips), numbers.string(from: trips)))
            parts.append(String(format: trn("%@ expense", "%@ expenses", expenses), numbers.string(from: expenses)))
            parts.append(tr("verified"))
        } else {
            parts.append(String(format: tr("damaged: %@"), summary.problem ?? ""))
        }
        return parts.joined(separator: " · ")
    }
}
