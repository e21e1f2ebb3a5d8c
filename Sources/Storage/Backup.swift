import BillfoldCore
import CSQLite
import Foundation

/// A copy of the database taken with SQLite's online backup API.
public struct Backup: Sendable, Hashable {
    public let path: String
    public let createdAt: Date
    /// Why it was taken: "daily", "before-invoices-v3", "manual".
    public let reason: String

    public init(path: String, createdAt: Date, reason: String) {
        self.path = path
        self.createdAt = createdAt
        self.reason = reason
    }
}

/// How many automatic backups are kept: the newest of each of the last `daily` days, `weekly`
/// weeks and `monthly` months that have one, and always the newest backup whatever its age.
/// Backups made on request ("manual") are never pruned.
public struct BackupRetention: Sendable, Hashable {
    public var daily: Int
    public var weekly: Int
    public var monthly: Int

    public init(daily: Int = 7, weekly: Int = 4, monthly: Int = 12) {
        self.daily = daily
        self.weekly = weekly
        self.monthly = monthly
    }

    /// The paths of `backups` to keep.
    public func kept(_ backups: [Backup]) -> Set<String> {
        let newestFirst = backups.sorted { $0.createdAt > $1.createdAt }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var keep = Set<String>()
        if let newest = newestFirst.first { keep.insert(newest.path) }
        func keepNewest(per period: (Date) -> DateComponents, limit: Int) {
            var seen = Set<DateComponents>()
            for backup in newestFirst where seen.count < limit {
                if seen.insert(period(backup.createdAt)).inserted { keep.insert(backup.path) }
            }
        }
        keepNewest(per: { calendar.dateComponents([.year, .month, .day], from: $0) }, limit: daily)
        keepNewest(per: { calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: $0) }, limit: weekly)
        keepNewest(per: { calendar.dateComponents([.year, .month], from: $0) }, limit: monthly)
        return keep
    }
}

/// What a backup holds, for choosing one to restore.
public struct BackupSummary: Sendable, Hashable {
    public let backup: Backup
    public let byteCount: Int64
    /// Rows in each table asked about; a table the backup does not have counts 0.
    public let rowCounts: [String: Int]
    /// Nil when `PRAGMA quick_check` passed; otherwise what it found.
    public let problem: String?

    public var isSound: Bool { problem == nil }
}

extension Database {
    public static let backupRetention = BackupRetention()

    /// Copies the whole database to `destinationPath` while it stays in use. The copy is written
    /// beside the destination and renamed into place, so a crash never leaves half a backup.
    public func backup(to destinationPath: String) throws {
        try withLock {
            let source = try liveConnection()
            try Self.writeCopy(from: source, to: destinationPath, verify: true)
        }
    }

    /// Takes a backup into `backupDirectory` and prunes the older ones (`backupRetention`).
    ///
    /// The database is checked first (`PRAGMA quick_check`) and a damaged one is refused with
    /// `.corrupt`: a copy of damage must never push a good backup out. The check and the copy
    /// run on their own read-only connection, so this connection (and the window using it)
    /// is not held up; the copy is checked again before it gets its name.
    @discardableResult
    public func makeBackup(reason: String = "manual") throws -> Backup {
        try makeBackup(reason: reason, prune: true)
    }

    /// Takes the daily backup unless one (of any kind) is younger than `interval`. Call it at
    /// start-up and now and then while running; it returns the backup it took, if any.
    @discardableResult
    public func backupIfDue(now: Date = Date(), interval: TimeInterval = 86_400) throws -> Backup? {
        if let newest = try backups().first, now.timeIntervalSince(newest.createdAt) < interval {
            return nil
        }
        return try makeBackup(reason: "daily", prune: true, now: now)
    }

    /// This database's backups, newest first.
    public func backups() throws -> [Backup] {
        guard let backupDirectory, !isInMemory else { throw DatabaseError.backupsUnavailable }
        return try Self.listBackups(forDatabaseAt: path, in: backupDirectory)
    }

    /// The backups of the database at `databasePath`, newest first, without opening it: for
    /// offering a restore when the database itself cannot be opened. `directory` defaults to
    /// the `backups` directory beside the database, as `Options.backupDirectory` does. A
    /// folder that does not exist holds no backups; one that cannot be read is an error.
    public static func listBackups(forDatabaseAt databasePath: String, in directory: String? = nil) throws -> [Backup] {
        let directory = directory ?? defaultBackupDirectory(for: databasePath)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            if !FileManager.default.fileExists(atPath: directory) { return [] }
            throw DatabaseError.fileOperationFailed(path: directory, reason: error.localizedDescription)
        }
        let prefix = backupStem(databasePath) + "-"
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

    /// Size, row counts of `tables` and soundness of a backup, read on a read-only connection.
    public static func summary(of backup: Backup, counting tables: [String]) -> BackupSummary {
        var info = stat()
        let size = stat(backup.path, &info) == 0 ? Int64(info.st_size) : 0
        var counts: [String: Int] = [:]
        var problem: String?
        do {
            let connection = try openReadOnly(backup.path)
            defer { sqlite3_close_v2(connection) }
            problem = try check(connection, path: backup.path, thorough: false)
            for table in tables where problem == nil {
                counts[table] = try countRows(connection, table: table)
            }
        } catch DatabaseError.corrupt(_, let details) {
            problem = details
        } catch {
            problem = error.localizedDescription
        }
        return BackupSummary(backup: backup, byteCount: size, rowCounts: counts, problem: problem)
    }

    /// Replaces this database's contents with a backup while it stays open. The backup must pass
    /// `integrity_check`, and the current contents are first copied beside the database file
    /// ("<name>.before-restore-<time>"), never deleted; when that copy fails nothing changes.
    /// Returns where the current contents were kept.
    @discardableResult
    public func restore(from backupPath: String) throws -> String {
        try withLock {
            guard transactionDepth == 0, !isInTransaction else { throw DatabaseError.restoreInsideTransaction }
            guard !isInMemory else { throw DatabaseError.backupsUnavailable }
            let destination = try liveConnection()
            let source = try Self.openVerifiedBackup(backupPath)
            defer { sqlite3_close_v2(source) }
            try Self.requireSpace(forCopyOf: backupPath, besides: path, copies: 2)
            let kept = Self.keptName(for: path)
            try Self.writeCopy(from: destination, to: kept, verify: false)
            clearStatementCache()
            try Self.copy(from: source, to: destination, destinationPath: path)
            return kept
        }
    }

    @discardableResult
    public func restore(from backup: Backup) throws -> String {
        try restore(from: backup.path)
    }

    /// Restores the database file at `databasePath` from a backup without opening it: the way
    /// out when `open` reported damage. In order: the backup is checked, free space is checked,
    /// the copy is written beside the database and checked, and only then the current file
    /// (with its WAL) is renamed to "<name>.before-restore-<time>" — kept, never deleted — and
    /// the copy renamed into its place. Returns where the current file was kept, if there was one.
    @discardableResult
    public static func restore(databaseAt databasePath: String, from backupPath: String) throws -> String? {
        let source = try openVerifiedBackup(backupPath)
        defer { sqlite3_close_v2(source) }
        try requireSpace(forCopyOf: backupPath, besides: databasePath, copies: 1)
        let staged = databasePath + AtomicWrite.temporaryMarker + "\(getpid())-restoring"
        try writeCopy(from: source, to: staged, verify: true)
        let fileManager = FileManager.default
        var keptAt: String?
        if fileManager.fileExists(atPath: databasePath) {
            let target = keptName(for: databasePath)
            do {
                try move(databasePath, to: target)
                for suffix in ["-wal", "-shm", "-journal"] where fileManager.fileExists(atPath: databasePath + suffix) {
                    try move(databasePath + suffix, to: target + suffix)
                }
            } catch {
                unlink(staged)
                throw error
            }
            keptAt = target
        }
        try move(staged, to: databasePath)
        syncDirectory(of: databasePath)
        return keptAt
    }

    /// Finishes a restore killed after it moved the library aside and before it moved the copy
    /// in. Without this the next start would find no library, make an empty one and remove the
    /// copy as a leftover. The copy ("<name>.billfold-<pid>-restoring") is complete and checked
    /// once it has that name. A WAL or journal the old file left behind first goes beside the
    /// old file's kept copy: applied to the restored file, it would damage it. Call it before
    /// leftovers are removed; returns whether it finished a restore.
    @discardableResult
    public static func finishInterruptedRestore(forDatabaseAt databasePath: String) throws -> Bool {
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: databasePath) else { return false }
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        let name = URL(fileURLWithPath: databasePath).lastPathComponent
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: folder.path)
        } catch {
            return false   // no folder yet (a first start); an unreadable one fails to open next, with its reason
        }
        let copies = names.filter {
            $0.hasPrefix(name + AtomicWrite.temporaryMarker) && $0.hasSuffix("-restoring") && LeftoverFiles.isAbandoned($0)
        }
        guard let copy = copies.max(by: { modificationTime(folder.appendingPathComponent($0).path)
                                          < modificationTime(folder.appendingPathComponent($1).path) }) else { return false }
        let journalSuffixes = ["-wal", "-shm", "-journal"]
        let strays = journalSuffixes.filter { fileManager.fileExists(atPath: databasePath + $0) }
        if !strays.isEmpty {
            // The restore names the old file's copy just before it moves the journals: the newest one.
            let keptPrefix = name + ".before-restore-"
            let kept = names.filter { $0.hasPrefix(keptPrefix) && !journalSuffixes.contains(where: $0.hasSuffix) }.max()
            let target = kept.map { folder.appendingPathComponent($0).path } ?? keptName(for: databasePath)
            if let taken = strays.first(where: { fileManager.fileExists(atPath: target + $0) }) {
                throw DatabaseError.fileFailure(path: target + taken, code: EEXIST)
            }
            for suffix in strays { try move(databasePath + suffix, to: target + suffix) }
        }
        try move(folder.appendingPathComponent(copy).path, to: databasePath)
        syncDirectory(of: databasePath)
        return true
    }

    private static func modificationTime(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec : 0
    }

    /// Removes what a killed backup or restore left beside the database and in the backup
    /// folder (files named with the process id of a writer that is no longer running).
    @discardableResult
    public static func removeLeftovers(forDatabaseAt databasePath: String, backupDirectory: String? = nil) -> [String] {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        let backups = URL(fileURLWithPath: backupDirectory ?? defaultBackupDirectory(for: databasePath))
        return LeftoverFiles.removeLeftovers(in: [folder, backups])
    }

    // MARK: - Internals

    func makeBackup(reason: String, prune: Bool, now: Date = Date()) throws -> Backup {
        guard let backupDirectory, !isInMemory else { throw DatabaseError.backupsUnavailable }
        Self.backupLock.lock()
        defer { Self.backupLock.unlock() }
        try Self.makePrivateDirectory(backupDirectory)
        let source = try Self.openReadOnly(path)
        defer { sqlite3_close_v2(source) }
        if let problem = try Self.check(source, path: path, thorough: false) {
            throw DatabaseError.corrupt(path: path, details: problem)
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
        try Self.writeCopy(from: source, to: destination, verify: true)
        if prune {
            // Backups the person asked for are theirs to delete; the generations thin out the automatic ones.
            let all = try backups().filter { $0.reason != "manual" }
            let keep = Self.backupRetention.kept(all)
            for old in all where !keep.contains(old.path) {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    unlink(old.path + suffix)
                }
            }
        }
        let timestamp = BackupStamp.date(from: BackupStamp.string(from: now)) ?? now
        return Backup(path: destination, createdAt: timestamp,
                      reason: String(name.dropFirst(Self.backupStem(path).count + 21).dropLast(".sqlite3".count)))
    }

    /// One backup at a time per process, so two never pick the same name; it is not the
    /// connection's lock, so queries go on while a backup is written.
    private static let backupLock = NSLock()

    static func defaultBackupDirectory(for databasePath: String) -> String {
        URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("backups", isDirectory: true).path
    }

    private static func backupStem(_ databasePath: String) -> String {
        URL(fileURLWithPath: databasePath).deletingPathExtension().lastPathComponent
    }

    /// "billfold.sqlite3.before-restore-20240301T093000123Z": what a restore put aside.
    private static func keptName(for databasePath: String) -> String {
        databasePath + ".before-restore-" + BackupStamp.string(from: Date())
    }

    private static func sanitized(_ reason: String) -> String {
        let allowed = reason.lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
        }
        let text = String(allowed)
        return text.isEmpty ? "manual" : text
    }

    static func makePrivateDirectory(_ directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw DatabaseError.fileOperationFailed(path: directory, reason: error.localizedDescription)
        }
        // Backups are private whatever mode an existing folder was made with.
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & 0o077 != 0 { chmod(directory, info.st_mode & 0o700) }
    }

    /// Refuses when the folder of `databasePath` has less free space than `copies` copies of
    /// `backupPath` and a margin.
    private static func requireSpace(forCopyOf backupPath: String, besides databasePath: String, copies: Int64) throws {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent().path
        let size = (try? FileManager.default.attributesOfItem(atPath: backupPath)[.size] as? NSNumber)?.int64Value ?? 0
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return }   // the copy itself reports what is wrong
        let available = Int64(info.f_bavail) * Int64(info.f_frsize)
        let needed = size * copies + 1_048_576
        if available < needed { throw DatabaseError.notEnoughSpace(path: databasePath, needed: needed, available: available) }
    }

    /// Writes a full copy of `source` to `destinationPath` through a temporary file (0600) and
    /// a rename. With `verify`, the copy must pass `quick_check` before it gets its name.
    static func writeCopy(from source: OpaquePointer, to destinationPath: String, verify: Bool) throws {
        let temporary = destinationPath + AtomicWrite.temporaryMarker + "\(getpid())-partial"
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
        // Made first, private: SQLite gives its journal the same mode.
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DatabaseError.fileFailure(path: destinationPath, code: errno)
        }
        Glibc.close(descriptor)
        var destination: OpaquePointer?
        let status = sqlite3_open_v2(temporary, &destination, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let destination else {
            let error = DatabaseError.cannotOpen(path: temporary, code: status,
                                                 message: String(cString: sqlite3_errstr(status)))
            sqlite3_close_v2(destination)
            unlink(temporary)
            throw error
        }
        sqlite3_extended_result_codes(destination, 1)
        func discard() {
            for suffix in ["", "-journal"] { unlink(temporary + suffix) }
        }
        do {
            // Nobody reads the temporary file before the rename, so syncing each of its writes
            // buys nothing: one fsync of the finished file below makes it durable.
            try runPragma(destination, "PRAGMA synchronous=OFF")
            limitCache(destination)
            try copy(from: source, to: destination, destinationPath: destinationPath)
            // A backup is one self-contained file: no WAL beside it.
            try runPragma(destination, "PRAGMA journal_mode=DELETE")
            if verify, let problem = try check(destination, path: destinationPath, thorough: false) {
                throw DatabaseError.corrupt(path: destinationPath, details: problem)
            }
        } catch {
            sqlite3_close_v2(destination)
            discard()
            throw error
        }
        sqlite3_close_v2(destination)
        do {
            try synchronize(temporary)
            try move(temporary, to: destinationPath)
        } catch {
            discard()
            throw error
        }
        syncDirectory(of: destinationPath)
    }

    /// Flushes the file's contents to the disk (fsync).
    private static func synchronize(_ path: String) throws {
        let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw DatabaseError.fileFailure(path: path, code: errno) }
        defer { Glibc.close(descriptor) }
        guard fsync(descriptor) == 0 else { throw DatabaseError.fileFailure(path: path, code: errno) }
    }

    /// Makes a rename in the folder of `path` durable.
    private static func syncDirectory(of path: String) {
        let descriptor = Glibc.open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        Glibc.close(descriptor)
    }

    /// Copies every page of `source`'s main database into `destination`'s with the online backup API.
    static func copy(from source: OpaquePointer, to destination: OpaquePointer, destinationPath: String) throws {
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
            if let precise = DatabaseError.classified(code: code, systemError: sqlite3_system_errno(destination),
                                                      path: destinationPath) {
                throw precise
            }
            if code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB {
                throw DatabaseError.corrupt(path: destinationPath, details: String(cString: sqlite3_errstr(code)))
            }
            throw DatabaseError.sqlite(code: code, message: String(cString: sqlite3_errstr(code)),
                                       sql: "backup to \(destinationPath)")
        }
    }

    /// A read-only connection of its own: for checks and copies that must not wait for, or
    /// hold up, the app's connection.
    static func openReadOnly(_ path: String) throws -> OpaquePointer {
        var connection: OpaquePointer?
        let status = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let connection else {
            sqlite3_close_v2(connection)
            throw DatabaseError.cannotOpen(path: path, code: status, message: String(cString: sqlite3_errstr(status)))
        }
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, 5_000)
        limitCache(connection)
        return connection
    }

    /// Copies and checks read each page once, so a big page cache buys nothing; it would only
    /// leave its memory with the worker thread's allocator after the connection closes. The
    /// pragma reads the schema: on a damaged file it fails, and the check that follows says why.
    static func limitCache(_ connection: OpaquePointer) {
        sqlite3_exec(connection, "PRAGMA cache_size=-256", nil, nil, nil)
    }

    /// `quick_check` (or, `thorough`, `integrity_check`): nil when sound, else what it found.
    static func check(_ connection: OpaquePointer, path: String, thorough: Bool) throws -> String? {
        var statement: OpaquePointer?
        var problems: [String] = []
        let sql = thorough ? "PRAGMA integrity_check" : "PRAGMA quick_check"
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else {
            return try failure(connection, path: path)
        }
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW {
            let line = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
            if line != "ok" { problems.append(line) }
            step = sqlite3_step(statement)
        }
        if step != SQLITE_DONE { return try failure(connection, path: path) }
        // One row may hold many lines, the first a header; a person needs the gist, not pages of it.
        let lines = problems.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("***") }
        return lines.isEmpty ? nil : lines.prefix(2).joined(separator: "; ")
    }

    /// A check that could not run: damage is its answer; anything else (a lock, an I/O error
    /// that is not damage) is thrown as itself.
    private static func failure(_ connection: OpaquePointer, path: String) throws -> String {
        let error = DatabaseError.last(connection)
        if case .corrupt(_, let details) = error { return details }
        if error.isCorruption { return error.sqliteMessage ?? error.localizedDescription }
        if case .sqlite(let code, _, _) = error, code & 0xFF == SQLITE_IOERR {
            return String(cString: sqlite3_errmsg(connection))
        }
        throw error
    }

    /// Rows in `table`; 0 when the backup predates the table. A read failure is thrown, never
    /// counted as no rows.
    private static func countRows(_ connection: OpaquePointer, table: String) throws -> Int {
        func integer(_ sql: String, _ text: String? = nil) throws -> Int {
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else { throw DatabaseError.last(connection) }
            if let text { bf_sqlite3_bind_text(statement, 1, text, -1) }
            guard sqlite3_step(statement) == SQLITE_ROW else { throw DatabaseError.last(connection) }
            return Int(sqlite3_column_int64(statement, 0))
        }
        guard try integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table) > 0 else { return 0 }
        return try integer("SELECT count(*) FROM \"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
    }

    static func openVerifiedBackup(_ backupPath: String) throws -> OpaquePointer {
        guard FileManager.default.fileExists(atPath: backupPath) else {
            throw DatabaseError.backupNotFound(path: backupPath)
        }
        let source = try openReadOnly(backupPath)
        do {
            if let problem = try check(source, path: backupPath, thorough: true) {
                throw DatabaseError.corrupt(path: backupPath, details: problem)
            }
        } catch {
            sqlite3_close_v2(source)
            throw error
        }
        return source
    }

    private static func runPragma(_ connection: OpaquePointer, _ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(connection, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            let path = sqlite3_db_filename(connection, "main").map { String(cString: $0) } ?? ""
            if let precise = DatabaseError.classified(code: sqlite3_extended_errcode(connection),
                                                      systemError: sqlite3_system_errno(connection), path: path) {
                throw precise
            }
            throw DatabaseError.sqlite(code: status, message: message.map { String(cString: $0) } ?? "", sql: sql)
        }
    }

    static func move(_ source: String, to destination: String) throws {
        // rename(2) replaces the destination atomically, which FileManager.moveItem refuses to do.
        guard rename(source, destination) == 0 else {
            throw DatabaseError.fileFailure(path: destination, code: errno)
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
