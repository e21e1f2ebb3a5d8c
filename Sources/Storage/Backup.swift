import BillfoldCore
import CSQLite
import Foundation

/// A copy of the database taken with SQLite's online backup API.
public struct Backup: Sendable, Hashable {
    public let path: String
    public let createdAt: Date
    /// Why it was taken: "daily", "before-invoices-v3", "before-restore", "manual".
    public let reason: String
}

extension Database {
    /// How many backups are kept; older ones are deleted after each new one.
    public static let backupsKept = 7

    /// Copies the whole database to `destinationPath` while it stays in use. The copy is written
    /// beside the destination and renamed into place, so a crash never leaves half a backup.
    public func backup(to destinationPath: String) throws {
        try withLock {
            let source = try liveConnection()
            try Self.writeCopy(from: source, to: destinationPath)
        }
    }

    /// Takes a backup into `backupDirectory` and deletes all but the newest `backupsKept`.
    @discardableResult
    public func makeBackup(reason: String = "manual") throws -> Backup {
        try makeBackup(reason: reason, prune: true)
    }

    /// Takes the daily backup unless one (of any kind) is younger than `interval`. Call it at
    /// start-up and now and then while running; it returns the backup it took, if any.
    @discardableResult
    public func backupIfDue(now: Date = Date(), interval: TimeInterval = 86_400) throws -> Backup? {
        try withLock {
            if let newest = try backups().first, now.timeIntervalSince(newest.createdAt) < interval {
                return nil
            }
            return try makeBackup(reason: "daily", prune: true, now: now)
        }
    }

    /// This database's backups, newest first.
    public func backups() throws -> [Backup] {
        guard let backupDirectory, !isInMemory else { throw DatabaseError.backupsUnavailable }
        return Self.backups(forDatabaseAt: path, in: backupDirectory)
    }

    /// The backups of the database at `databasePath`, newest first, without opening it: for
    /// offering a restore when the database itself cannot be opened. `directory` defaults to
    /// the `backups` directory beside the database, as `Options.backupDirectory` does.
    public static func backups(forDatabaseAt databasePath: String, in directory: String? = nil) -> [Backup] {
        let directory = directory ?? URL(fileURLWithPath: databasePath).deletingLastPathComponent()
            .appendingPathComponent("backups", isDirectory: true).path
        let prefix = backupStem(databasePath) + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name -> Backup? in
            guard name.hasPrefix(prefix), name.hasSuffix(".sqlite3") else { return nil }
            let rest = name.dropFirst(prefix.count).dropLast(".sqlite3".count)
            let stampLength = 19
            guard rest.count > stampLength + 1,
                  let date = BackupStamp.date(from: String(rest.prefix(stampLength))),
                  rest.dropFirst(stampLength).first == "-" else { return nil }
            let reason = String(rest.dropFirst(stampLength + 1))
            return Backup(path: URL(fileURLWithPath: directory).appendingPathComponent(name).path,
                          createdAt: date, reason: reason)
        }
        .sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.path > $1.path }
    }

    /// Replaces this database's contents with a backup while it stays open. The backup must pass
    /// `integrity_check`. The current contents are first saved as a "before-restore" backup when
    /// they can still be read.
    public func restore(from backupPath: String) throws {
        try withLock {
            guard transactionDepth == 0, !isInTransaction else { throw DatabaseError.restoreInsideTransaction }
            let destination = try liveConnection()
            let source = try Self.openVerifiedBackup(backupPath)
            defer { sqlite3_close_v2(source) }
            if !isInMemory, backupDirectory != nil {
                // The current file may be unreadable, which is the usual reason to restore; a
                // failed safety copy must not stand in the way. Not pruned, so the backup being
                // restored cannot be deleted by it.
                _ = try? makeBackup(reason: "before-restore", prune: false)
            }
            clearStatementCache()
            try Self.copy(from: source, to: destination, destinationPath: path)
        }
    }

    public func restore(from backup: Backup) throws {
        try restore(from: backup.path)
    }

    /// Restores the database file at `databasePath` from a backup without opening it: the way
    /// out when `open` reported `.corrupt`. The damaged file (and its WAL) is kept beside it as
    /// "<name>.damaged-<time>" in case anything can be rescued; that path is returned.
    @discardableResult
    public static func restore(databaseAt databasePath: String, from backupPath: String) throws -> String? {
        let source = try openVerifiedBackup(backupPath)
        defer { sqlite3_close_v2(source) }
        let fileManager = FileManager.default
        var movedTo: String?
        if fileManager.fileExists(atPath: databasePath) {
            let target = databasePath + ".damaged-" + BackupStamp.string(from: Date())
            try move(databasePath, to: target)
            for suffix in ["-wal", "-shm", "-journal"] where fileManager.fileExists(atPath: databasePath + suffix) {
                try move(databasePath + suffix, to: target + suffix)
            }
            movedTo = target
        }
        try writeCopy(from: source, to: databasePath)
        return movedTo
    }

    // MARK: - Internals

    func makeBackup(reason: String, prune: Bool, now: Date = Date()) throws -> Backup {
        try withLock {
            guard let backupDirectory, !isInMemory else { throw DatabaseError.backupsUnavailable }
            do {
                try FileManager.default.createDirectory(atPath: backupDirectory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw DatabaseError.fileOperationFailed(path: backupDirectory, reason: error.localizedDescription)
            }
            let label = Self.sanitized(reason)
            let base = Self.backupStem(path) + "-" + BackupStamp.string(from: now) + "-" + label
            var name = base + ".sqlite3"
            var counter = 2
            while FileManager.default.fileExists(atPath: backupDirectory + "/" + name) {
                name = base + "-\(counter).sqlite3"
                counter += 1
            }
            let destination = URL(fileURLWithPath: backupDirectory).appendingPathComponent(name).path
            try Self.writeCopy(from: try liveConnection(), to: destination)
            if prune {
                for old in try backups().dropFirst(Self.backupsKept) {
                    for suffix in ["", "-wal", "-shm", "-journal"] {
                        try? FileManager.default.removeItem(atPath: old.path + suffix)
                    }
                }
            }
            let timestamp = BackupStamp.date(from: BackupStamp.string(from: now)) ?? now
            return Backup(path: destination, createdAt: timestamp,
                          reason: String(name.dropFirst(Self.backupStem(path).count + 21).dropLast(".sqlite3".count)))
        }
    }

    private static func backupStem(_ databasePath: String) -> String {
        URL(fileURLWithPath: databasePath).deletingPathExtension().lastPathComponent
    }

    private static func sanitized(_ reason: String) -> String {
        let allowed = reason.lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
        }
        let text = String(allowed)
        return text.isEmpty ? "manual" : text
    }

    /// Writes a full copy of `source` to `destinationPath` through a temporary file and a rename.
    private static func writeCopy(from source: OpaquePointer, to destinationPath: String) throws {
        let temporary = destinationPath + ".partial"
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: temporary + suffix)
        }
        var destination: OpaquePointer?
        let status = sqlite3_open_v2(temporary, &destination,
                                     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let destination else {
            let error = DatabaseError.cannotOpen(path: temporary, code: status,
                                                 message: String(cString: sqlite3_errstr(status)))
            sqlite3_close_v2(destination)
            throw error
        }
        do {
            // Nobody reads the temporary file before the rename, so syncing each of its writes
            // buys nothing (it cost eight fsyncs, a visible pause at start-up): one fsync of the
            // finished file below makes the copy durable before its name appears.
            try runPragma(destination, "PRAGMA synchronous=OFF")
            try copy(from: source, to: destination, destinationPath: destinationPath)
            // A backup is one self-contained file: no WAL beside it.
            try runPragma(destination, "PRAGMA journal_mode=DELETE")
        } catch {
            sqlite3_close_v2(destination)
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        sqlite3_close_v2(destination)
        do {
            try synchronize(temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        try move(temporary, to: destinationPath)
    }

    /// Flushes the file's contents to the disk (fsync).
    private static func synchronize(_ path: String) throws {
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw DatabaseError.fileOperationFailed(path: path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        do {
            try handle.synchronize()
        } catch {
            throw DatabaseError.fileOperationFailed(path: path, reason: error.localizedDescription)
        }
    }

    /// Copies every page of `source`'s main database into `destination`'s with the online backup API.
    private static func copy(from source: OpaquePointer, to destination: OpaquePointer, destinationPath: String) throws {
        guard let backup = sqlite3_backup_init(destination, "main", source, "main") else {
            throw DatabaseError.last(destination)
        }
        var status: Int32
        var waits = 0
        repeat {
            status = sqlite3_backup_step(backup, -1)
            if status == SQLITE_BUSY || status == SQLITE_LOCKED {
                // Another process holds a lock; wait a little, up to about ten seconds.
                waits += 1
                if waits > 500 { break }
                sqlite3_sleep(20)
            }
        } while status == SQLITE_OK || status == SQLITE_BUSY || status == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE, finish == SQLITE_OK else {
            let code = status == SQLITE_DONE ? finish : status
            throw DatabaseError.sqlite(code: code, message: String(cString: sqlite3_errstr(code)),
                                       sql: "backup to \(destinationPath)")
        }
    }

    private static func openVerifiedBackup(_ backupPath: String) throws -> OpaquePointer {
        guard FileManager.default.fileExists(atPath: backupPath) else {
            throw DatabaseError.backupNotFound(path: backupPath)
        }
        var source: OpaquePointer?
        let status = sqlite3_open_v2(backupPath, &source, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let source else {
            sqlite3_close_v2(source)
            throw DatabaseError.cannotOpen(path: backupPath, code: status, message: String(cString: sqlite3_errstr(status)))
        }
        sqlite3_extended_result_codes(source, 1)
        var statement: OpaquePointer?
        var problems: [String] = []
        var failure: DatabaseError?
        if sqlite3_prepare_v2(source, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK {
            var step = sqlite3_step(statement)
            while step == SQLITE_ROW {
                let line = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
                if line != "ok" { problems.append(line) }
                step = sqlite3_step(statement)
            }
            if step != SQLITE_DONE { failure = .last(source) }
        } else {
            failure = .last(source)
        }
        sqlite3_finalize(statement)
        if failure != nil || !problems.isEmpty {
            sqlite3_close_v2(source)
            let details = failure?.sqliteMessage ?? problems.prefix(3).joined(separator: "; ")
            throw DatabaseError.corrupt(path: backupPath, details: details)
        }
        return source
    }

    private static func runPragma(_ connection: OpaquePointer, _ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(connection, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw DatabaseError.sqlite(code: status, message: message.map { String(cString: $0) } ?? "", sql: sql)
        }
    }

    private static func move(_ source: String, to destination: String) throws {
        // rename(2) replaces the destination atomically, which FileManager.moveItem refuses to do.
        guard rename(source, destination) == 0 else {
            throw DatabaseError.fileOperationFailed(path: destination, reason: String(cString: strerror(errno)))
        }
    }
}

/// Backup file names carry their UTC creation time, "20240301T093000123Z", so they sort and
/// date themselves without trusting file modification times.
enum BackupStamp {
    static func string(from date: Date) -> String {
        // "2024-03-01T09:30:00.123Z" → "20240301T093000123Z"
        String(DateText.string(from: date).filter { $0 != "-" && $0 != ":" && $0 != "." })
    }

    static func date(from stamp: String) -> Date? {
        let characters = Array(stamp)
        guard characters.count == 19, characters[8] == "T", characters[18] == "Z" else { return nil }
        func part(_ range: Range<Int>) -> String { String(characters[range]) }
        let day = [part(0..<4), part(4..<6), part(6..<8)].joined(separator: "-")
        let time = [part(9..<11), part(11..<13), part(13..<15)].joined(separator: ":")
        let text = day + "T" + time + "." + part(15..<18) + "Z"
        return DateText.date(from: text)
    }
}
