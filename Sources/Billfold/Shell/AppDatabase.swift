import BillfoldCore
import Foundation
import Storage

/// Opens the one database every plugin keeps its tables in, and restores it from a backup when
/// the person asks to.
enum AppDatabase {
    static var path: String { AppPaths.databaseFile.path }

    /// Opens (or creates) the database; a damaged or unreadable file is reported, never replaced.
    static func open() -> Result<Database, any Error> {
        Result {
            try AppPaths.createDirectory(AppPaths.databaseFile.deletingLastPathComponent())
            return try Database.open(path: path, options: .init(backupDirectory: AppPaths.backupDirectory.path))
        }
    }

    /// The daily backup, off the main thread once the window is up, so it never delays the
    /// first frame. Migrations make their own backup before they change anything.
    static func backUpIfDue(_ database: Database) {
        Task.detached(priority: .background) { _ = try? database.backupIfDue() }
    }

    static var latestBackup: Backup? {
        Database.backups(forDatabaseAt: path, in: AppPaths.backupDirectory.path).first
    }

    /// Puts the newest backup in place; the damaged file is moved aside, not deleted.
    static func restoreLatestBackup() throws -> Backup? {
        guard let backup = latestBackup else { return nil }
        _ = try Database.restore(databaseAt: path, from: backup.path)
        return backup
    }
}
