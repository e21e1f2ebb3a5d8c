import BillfoldCore
import CSQLite
import Foundation

/// Everything that can go wrong in Storage. SQLite's own failures carry its extended result
/// code and message; the rest say which value, owner or file is at fault.
public enum DatabaseError: Error, LocalizedError, Equatable, Sendable {
    /// SQLite refused a statement; `code` is the extended result code (e.g. 2067 for a UNIQUE violation).
    case sqlite(code: Int32, message: String, sql: String?)
    /// The file could not be opened at all (missing directory, no permission, …).
    case cannotOpen(path: String, code: Int32, message: String)
    /// Opening without creating, and there is no file.
    case notFound(path: String)
    /// The file or its directory cannot be written.
    case readOnly(path: String)
    /// The file is not a database or is damaged. Offer to restore a backup.
    case corrupt(path: String, details: String)
    /// The database was closed.
    case closed
    /// The data was written by a newer version of the application; it is left untouched.
    case newerSchema(owner: String, databaseVersion: Int, supportedVersion: Int)
    /// A migration list must be numbered 1, 2, 3, … in order.
    case nonSequentialMigrations(owner: String)
    /// A migration threw; it was rolled back and the database is as it was before it.
    case migrationFailed(owner: String, version: Int, reason: String)
    /// Migrations commit their own transactions, so they cannot run inside one.
    case migrationInsideTransaction(owner: String)
    /// A restore replaces the whole database, so it cannot run inside a transaction.
    case restoreInsideTransaction
    /// A migration left rows that break a foreign key in `table`.
    case foreignKeyViolation(table: String)
    /// `execute` and `query` take one statement; several go through `executeScript`.
    case multipleStatements(sql: String)
    /// A statement has `expected` positional parameters but `given` values were passed.
    case bindingCountMismatch(expected: Int, given: Int)
    /// A named parameter in the statement has no value.
    case missingParameter(String)
    /// A value was passed for a name that the statement does not have.
    case unknownParameter(String)
    case noSuchColumn(String)
    case unexpectedNull(column: String)
    case typeMismatch(column: String, expected: String, found: String)
    /// A stored text could not be read as the expected kind of value.
    case invalidValue(column: String, text: String, expected: String)
    /// In-memory databases have no backups.
    case backupsUnavailable
    case backupNotFound(path: String)
    /// Moving, renaming or creating a file failed.
    case fileOperationFailed(path: String, reason: String)
    /// The disk (or the user's quota) is full; nothing was changed.
    case diskFull(path: String)
    /// Another program holds a lock on the database.
    case locked(path: String)
    /// The file has no bytes at all while backups of it exist: it was emptied, not created.
    case emptyFile(path: String)
    /// A folder stands where the database file should be.
    case isFolder(path: String)
    /// A FIFO, device or socket stands where the database file should be; it is not opened.
    case notARegularFile(path: String)
    /// The folder that holds the database does not exist and cannot be made.
    case folderUnavailable(path: String, reason: String)
    /// The folder that holds the database cannot be written (SQLite keeps its journal there).
    case readOnlyFolder(path: String)
    /// A restore or backup needs more free space than the disk has.
    case notEnoughSpace(path: String, needed: Int64, available: Int64)

    /// SQLite's primary result code (SQLITE_BUSY = 5, SQLITE_CONSTRAINT = 19, …) when SQLite reported the error.
    public var sqliteCode: Int32? {
        switch self {
        case .sqlite(let code, _, _), .cannotOpen(_, let code, _): return code & 0xFF
        default: return nil
        }
    }

    /// The extended result code when SQLite reported the error.
    public var extendedSQLiteCode: Int32? {
        switch self {
        case .sqlite(let code, _, _), .cannotOpen(_, let code, _): return code
        default: return nil
        }
    }

    /// True when the file is damaged or not a database: the moment to offer a backup.
    public var isCorruption: Bool {
        if case .corrupt = self { return true }
        return sqliteCode == SQLITE_CORRUPT || sqliteCode == SQLITE_NOTADB
    }

    /// True when putting a backup in place can help: the file is damaged, not a database, or
    /// emptied. Every other problem (permissions, space, locks, a newer version) is fixed
    /// elsewhere, and a restore would only replace good data with older data.
    public var offersRestore: Bool {
        switch self {
        case .corrupt, .emptyFile: return true
        default: return isCorruption
        }
    }

    /// True when a UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint refused the change.
    public var isConstraintViolation: Bool { sqliteCode == SQLITE_CONSTRAINT }

    /// What happened, without the advice on how to restore: for the window, which lists the
    /// backups itself. Other cases say the same as `errorDescription`.
    public var problemDescription: String {
        switch self {
        case .corrupt(let path, let details):
            return String(format: tr("The database file %@ is damaged (%@)."), path, details)
        case .emptyFile(let path):
            return String(format: tr("The database file %@ is empty (0 bytes), although backups of it exist."), path)
        default:
            return errorDescription ?? ""
        }
    }

    public var errorDescription: String? {
        switch self {
        case .sqlite(let code, let message, _):
            return String(format: tr("The database refused the change: %@ (SQLite code %d)."), message, Int(code))
        case .cannotOpen(let path, let code, let message):
            return String(format: tr("The database file %@ could not be opened: %@ (SQLite code %d)."),
                          path, message, Int(code))
        case .notFound(let path):
            return String(format: tr("There is no database file at %@."), path)
        case .readOnly(let path):
            return String(format: tr("The database file %@ is read-only. Give your user permission to write it (chmod u+w), then open Billfold again. Nothing was changed."),
                          path)
        case .corrupt(let path, let details):
            return String(format: tr("The database file %@ is damaged (%@). Restore a backup: open Billfold, or run “billfold backup list” and “billfold backup restore NAME”."), path, details)
        case .diskFull(let path):
            return String(format: tr("The disk that holds %@ is full. Free some space, then try again. Nothing was changed."), path)
        case .locked(let path):
            return String(format: tr("The database file %@ is locked by another program (another copy of Billfold?). Close it, then try again. Nothing was changed."), path)
        case .emptyFile(let path):
            return String(format: tr("The database file %@ is empty (0 bytes), although backups of it exist. Restore a backup: open Billfold, or run “billfold backup list” and “billfold backup restore NAME”."), path)
        case .isFolder(let path):
            return String(format: tr("There is a folder at %@ where the database file should be. Move it away, then open Billfold again. Nothing was changed."), path)
        case .notARegularFile(let path):
            return String(format: tr("%@ is not a regular file (a named pipe or a device?), so it was not opened. Move it away, then open Billfold again. Nothing was changed."), path)
        case .folderUnavailable(let path, let reason):
            return String(format: tr("The folder %@ for the database does not exist and cannot be made (%@). Create it or check its permissions. Nothing was changed."), path, reason)
        case .readOnlyFolder(let path):
            return String(format: tr("The folder %@ that holds the database is read-only. Give your user permission to write it (chmod u+w), then open Billfold again. Nothing was changed."), path)
        case .notEnoughSpace(let path, let needed, let available):
            return String(format: tr("There is not enough free space for %@: it needs %@ and %@ are free. Free some space, then try again. Nothing was changed."),
                          path, ByteCountText.string(needed), ByteCountText.string(available))
        case .closed:
            return tr("The database is closed.")
        case .newerSchema(let owner, let databaseVersion, let supportedVersion):
            return String(format: tr("The %@ data was saved by a newer version of Billfold (format %d; this version reads up to %d). Update Billfold to open it."),
                          owner, databaseVersion, supportedVersion)
        case .nonSequentialMigrations(let owner):
            return String(format: tr("The migrations of %@ are not numbered 1, 2, 3, … in order."), owner)
        case .migrationFailed(let owner, let version, let reason):
            return String(format: tr("Updating the %@ data to format %d failed and was undone: %@"),
                          owner, version, reason)
        case .migrationInsideTransaction(let owner):
            return String(format: tr("The %@ data cannot be updated inside another transaction."), owner)
        case .restoreInsideTransaction:
            return tr("A backup cannot be restored while a change is being saved. Try again.")
        case .foreignKeyViolation(let table):
            return String(format: tr("Rows in %@ refer to records that do not exist."), table)
        case .multipleStatements:
            return tr("The SQL holds more than one statement; run it as a script.")
        case .bindingCountMismatch(let expected, let given):
            return String(format: tr("The statement takes %d values but %d were given."), expected, given)
        case .missingParameter(let name):
            return String(format: tr("No value was given for the parameter %@."), name)
        case .unknownParameter(let name):
            return String(format: tr("The statement has no parameter named %@."), name)
        case .noSuchColumn(let name):
            return String(format: tr("The result has no column named %@."), name)
        case .unexpectedNull(let column):
            return String(format: tr("The column %@ is empty where a value is required."), column)
        case .typeMismatch(let column, let expected, let found):
            return String(format: tr("The column %@ holds %@ where %@ was expected."), column, found, expected)
        case .invalidValue(let column, let text, let expected):
            return String(format: tr("The column %@ holds “%@”, which is not a valid %@."), column, text, expected)
        case .backupsUnavailable:
            return tr("A database kept only in memory has no backups.")
        case .backupNotFound(let path):
            return String(format: tr("There is no backup at %@."), path)
        case .fileOperationFailed(let path, let reason):
            return String(format: tr("The file %@ could not be written: %@"), path, reason)
        }
    }

    /// The error SQLite last reported on `handle`, named for what the person can do about it
    /// when it is a full disk, a read-only file or a lock.
    static func last(_ handle: OpaquePointer?, sql: String? = nil) -> DatabaseError {
        let code = handle.map { sqlite3_extended_errcode($0) } ?? SQLITE_ERROR
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let path = handle.flatMap { sqlite3_db_filename($0, "main") }.map { String(cString: $0) } ?? ""
        let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
        if !path.isEmpty, code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB {
            return .corrupt(path: path, details: message)
        }
        return classified(code: code, systemError: systemError, path: path)
            ?? .sqlite(code: code, message: message, sql: sql)
    }

    /// A file operation on `path` failed with `code` (errno).
    static func fileFailure(path: String, code: Int32) -> DatabaseError {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: return .diskFull(path: path)
        case EACCES, EPERM, EROFS:
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            return FileManager.default.fileExists(atPath: path) && access(folder, W_OK) == 0
                ? .readOnly(path: path) : .readOnlyFolder(path: folder)
        default: return .fileOperationFailed(path: path, reason: FileProblem.reason(errno: code))
        }
    }

    /// The precise error for a failure whose cause is outside the database (space, permissions,
    /// locks), or nil when SQLite's own message is the best there is.
    static func classified(code: Int32, systemError: Int32, path: String) -> DatabaseError? {
        guard !path.isEmpty else { return nil }
        let primary = code & 0xFF
        if primary == SQLITE_FULL || systemError == ENOSPC || systemError == EDQUOT || systemError == EFBIG {
            return .diskFull(path: path)
        }
        if primary == SQLITE_BUSY || primary == SQLITE_LOCKED { return .locked(path: path) }
        if primary == SQLITE_READONLY || systemError == EROFS || systemError == EACCES || systemError == EPERM {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if access(path, W_OK) == 0, access(folder, W_OK) != 0 { return .readOnlyFolder(path: folder) }
            return .readOnly(path: path)
        }
        return nil
    }
}
