import BillfoldCore
import CSQLite
import Foundation

/// A connection to Billfold's SQLite database: WAL journal, foreign keys enforced, a busy
/// timeout, cached prepared statements, transactions as closures, per-owner migrations and
/// backups.
///
/// Threads: a `Database` may be handed to a background task (it is `Sendable`), but it is one
/// connection, so it does one thing at a time: every call takes an internal recursive lock,
/// and `transaction` holds that lock for its whole closure. Another thread calling in meanwhile
/// waits until the transaction ends rather than slipping its statements into it. So keep
/// transactions on the main thread short, run bulk work on a background task, and never wait
/// inside a transaction for another thread that uses the same database.
public final class Database: @unchecked Sendable {
    public struct Options: Sendable {
        /// Create the file (and its directory) when it does not exist. When false, a missing
        /// file is `DatabaseError.notFound` rather than a silent new empty database.
        public var createIfMissing: Bool
        /// How long to wait for another process holding a write lock.
        public var busyTimeout: TimeInterval
        /// Run `PRAGMA integrity_check` on open and refuse a damaged file with `.corrupt`.
        public var verifyIntegrity: Bool
        /// Where backups go; nil means a `backups` directory beside the database file.
        public var backupDirectory: String?
        /// The most memory SQLite's page cache may take, in KiB. It only grows as pages are
        /// read; a larger one keeps a bulk import from spilling to the WAL and reading back.
        public var cacheSizeKiB: Int

        public init(createIfMissing: Bool = true, busyTimeout: TimeInterval = 5,
                    verifyIntegrity: Bool = false, backupDirectory: String? = nil,
                    cacheSizeKiB: Int = 32 * 1024) {
            self.createIfMissing = createIfMissing
            self.busyTimeout = busyTimeout
            self.verifyIntegrity = verifyIntegrity
            self.backupDirectory = backupDirectory
            self.cacheSizeKiB = cacheSizeKiB
        }
    }

    public enum TransactionKind: Sendable {
        /// Takes the write lock at the first write.
        case deferred
        /// Takes the write lock at once, so a writer never fails half-way with SQLITE_BUSY.
        case immediate
        /// Also keeps readers in other processes out.
        case exclusive

        var keyword: String {
            switch self {
            case .deferred: return "DEFERRED"
            case .immediate: return "IMMEDIATE"
            case .exclusive: return "EXCLUSIVE"
            }
        }
    }

    /// The file path, or ":memory:".
    public let path: String
    public let isInMemory: Bool
    /// Where `makeBackup` writes; nil for an in-memory database.
    public let backupDirectory: String?

    let lock = NSRecursiveLock()
    private var connection: OpaquePointer?
    private var statementCache: [String: Statement] = [:]
    var transactionDepth = 0
    private static let statementCacheLimit = 64

    private init(connection: OpaquePointer, path: String, isInMemory: Bool, backupDirectory: String?) {
        self.connection = connection
        self.path = path
        self.isInMemory = isInMemory
        self.backupDirectory = backupDirectory
    }

    deinit {
        close()
    }

    /// Opens (or creates) the database at `path`, and says precisely why when it cannot:
    /// damage (`.corrupt`), a file emptied while backups exist (`.emptyFile`), a read-only file
    /// or folder, a full disk, a lock held by another program, a folder in the file's place or
    /// a folder that cannot be made. Nothing is created, moved or replaced in any of these.
    /// The file, its WAL and SHM are private (0600) whatever the umask.
    public static func open(path: String, options: Options = Options()) throws -> Database {
        let fileManager = FileManager.default
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let backups = options.backupDirectory ?? defaultBackupDirectory(for: path)
        var isFolder: ObjCBool = false
        if fileManager.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw DatabaseError.isFolder(path: path) }
            // Opening a FIFO would block start-up; a device is no database either.
            var info = stat()
            let statted = stat(path, &info) == 0
            if statted, info.st_mode & S_IFMT != S_IFREG { throw DatabaseError.notARegularFile(path: path) }
            // The size from the same call: FileManager's attributes also read the owner's and the
            // group's names from the system's user database, at every start.
            if statted, info.st_size == 0 {
                // A backup folder that cannot be read may hold backups: the empty file is not
                // taken as a new library then either.
                let hasBackups: Bool
                do { hasBackups = try !listBackups(forDatabaseAt: path, in: backups).isEmpty } catch { hasBackups = true }
                if hasBackups { throw DatabaseError.emptyFile(path: path) }
            }
        } else {
            guard options.createIfMissing else { throw DatabaseError.notFound(path: path) }
            let failure = makeFolders(folder)
            if failure != 0 {
                throw DatabaseError.folderUnavailable(path: folder, reason: FileProblem.reason(errno: failure))
            }
            // Made here, private, so SQLite's WAL and SHM (which copy its mode) are private too.
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0, errno != EEXIST { throw DatabaseError.fileFailure(path: path, code: errno) }
            if descriptor >= 0 { Glibc.close(descriptor) }
        }
        try checkHeader(path)
        // Root may write anything, so these ask the system rather than read the mode bits.
        if access(path, W_OK) != 0 {
            throw errno == EROFS || errno == EACCES || errno == EPERM
                ? DatabaseError.readOnly(path: path) : DatabaseError.fileFailure(path: path, code: errno)
        }
        if access(folder, W_OK) != 0, !fileManager.fileExists(atPath: path + "-wal") {
            throw DatabaseError.readOnlyFolder(path: folder)
        }
        makePrivate(path)
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if options.createIfMissing { flags |= SQLITE_OPEN_CREATE }
        let database = try connect(path: path, flags: flags, isInMemory: false, backupDirectory: backups)
        do {
            try database.configure(options)
        } catch let error as DatabaseError where error.isCorruption {
            database.close()
            if case .corrupt = error { throw error }
            throw DatabaseError.corrupt(path: path, details: error.sqliteMessage ?? error.localizedDescription)
        } catch {
            database.close()
            throw error
        }
        makePrivate(path)
        return database
    }

    /// Takes group and other permissions off the database and its WAL and SHM.
    private static func makePrivate(_ path: String) {
        for suffix in ["", "-wal", "-shm"] {
            var info = stat()
            if stat(path + suffix, &info) == 0, info.st_mode & 0o077 != 0 {
                chmod(path + suffix, info.st_mode & 0o700)
            }
        }
    }

    /// `mkdir -p` with new folders 0700; returns 0 or the errno that stopped it, so the
    /// message can say "a part of the path is not a folder" rather than a generic failure.
    private static func makeFolders(_ path: String) -> Int32 {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR ? 0 : ENOTDIR }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path {
            let failure = makeFolders(parent)
            if failure != 0 { return failure }
        }
        return mkdir(path, 0o700) == 0 || errno == EEXIST ? 0 : errno
    }

    /// Refuses a file that is not an SQLite database before SQLite opens it: closing a connection
    /// to such a file would otherwise delete a WAL beside it that might still be rescued.
    private static func checkHeader(_ path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }   // SQLite reports why
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard !header.isEmpty else { return }   // an empty file is a new database
        guard header == Data("SQLite format 3\u{0}".utf8) else {
            throw DatabaseError.corrupt(path: path, details: tr("the file is not an SQLite database"))
        }
    }

    /// A private database that lives in memory until it is closed; for tests and scratch work.
    public static func inMemory() throws -> Database {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_MEMORY
        let database = try connect(path: ":memory:", flags: flags, isInMemory: true, backupDirectory: nil)
        try database.configure(Options())
        return database
    }

    private static func connect(path: String, flags: Int32, isInMemory: Bool, backupDirectory: String?) throws -> Database {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let code = handle.map { sqlite3_extended_errcode($0) } ?? status
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
                ?? String(cString: sqlite3_errstr(status))
            let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(handle)
            if !isInMemory, let precise = DatabaseError.classified(code: code, systemError: systemError, path: path) {
                throw precise
            }
            throw DatabaseError.cannotOpen(path: path, code: code, message: message)
        }
        sqlite3_extended_result_codes(handle, 1)
        return Database(connection: handle, path: path, isInMemory: isInMemory, backupDirectory: backupDirectory)
    }

    private func configure(_ options: Options) throws {
        let connection = try liveConnection()
        sqlite3_busy_timeout(connection, Int32(clamping: Int((options.busyTimeout * 1000).rounded())))
        // Reading the schema first makes a file that is not a database fail here, before any write.
        _ = try queryValue("SELECT count(*) FROM sqlite_schema", as: Int64.self)
        if !isInMemory {
            if sqlite3_db_readonly(connection, "main") == 1 { throw DatabaseError.readOnly(path: path) }
            _ = try queryValue("PRAGMA journal_mode=WAL", as: String.self)
            // FULL syncs the WAL on every commit: a committed invoice survives a power cut too.
            try executeScript("PRAGMA synchronous=FULL")
        }
        try executeScript("PRAGMA foreign_keys=ON")
        // A negative cache_size is in KiB rather than pages.
        try executeScript("PRAGMA cache_size=-\(max(64, options.cacheSizeKiB))")
        if options.verifyIntegrity {
            let problems = try integrityCheck()
            if !problems.isEmpty {
                throw DatabaseError.corrupt(path: path, details: problems.prefix(3).joined(separator: "; "))
            }
        }
    }

    /// Finalizes the cached statements and closes the connection. Later calls throw `.closed`.
    public func close() {
        withLock {
            for statement in statementCache.values { statement.finalize() }
            statementCache.removeAll()
            if let connection { sqlite3_close_v2(connection) }
            connection = nil
        }
    }

    public var isOpen: Bool { withLock { connection != nil } }

    // MARK: - Statements

    /// Runs one statement with positional values (`?`) and returns how many rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ bindings: [(any SQLBindable)?] = []) throws -> Int {
        try withCachedStatement(sql) { statement in
            try statement.bind(bindings)
            try statement.runToEnd()
            return changesLocked
        }
    }

    /// Runs one statement with named values (`:name`; keys may omit the prefix).
    @discardableResult
    public func execute(_ sql: String, named bindings: [String: (any SQLBindable)?]) throws -> Int {
        try withCachedStatement(sql) { statement in
            try statement.bind(named: bindings)
            try statement.runToEnd()
            return changesLocked
        }
    }

    /// Runs several statements separated by semicolons, without values (schema scripts).
    public func executeScript(_ sql: String) throws {
        try withLock {
            let connection = try liveConnection()
            var message: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(connection, sql, nil, nil, &message)
            defer { sqlite3_free(message) }
            guard status == SQLITE_OK else {
                let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
                let code = sqlite3_extended_errcode(connection)
                if !isInMemory, code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB {
                    throw DatabaseError.corrupt(path: path, details: text)
                }
                if !isInMemory, let precise = DatabaseError.classified(code: code, systemError: sqlite3_system_errno(connection),
                                                                       path: path) {
                    throw precise
                }
                throw DatabaseError.sqlite(code: code, message: text, sql: sql)
            }
        }
    }

    /// Calls `body` with each result row, in order, read column by column (see `ColumnReader`).
    public func queryColumns(_ sql: String, named bindings: [String: (any SQLBindable)?] = [:],
                             _ body: (ColumnReader) throws -> Void) throws {
        try withCachedStatement(sql) { statement in
            try statement.bind(named: bindings)
            try statement.forEachRow(body)
        }
    }

    /// Calls `body` for each result row, in order.
    public func query(_ sql: String, _ bindings: [(any SQLBindable)?] = [], _ body: (Row) throws -> Void) throws {
        try withCachedStatement(sql) { statement in
            try statement.bind(bindings)
            try statement.forEachRow(body)
        }
    }

    public func query(_ sql: String, named bindings: [String: (any SQLBindable)?], _ body: (Row) throws -> Void) throws {
        try withCachedStatement(sql) { statement in
            try statement.bind(named: bindings)
            try statement.forEachRow(body)
        }
    }

    /// All result rows.
    public func query(_ sql: String, _ bindings: [(any SQLBindable)?] = []) throws -> [Row] {
        var rows: [Row] = []
        try query(sql, bindings) { rows.append($0) }
        return rows
    }

    public func query(_ sql: String, named bindings: [String: (any SQLBindable)?]) throws -> [Row] {
        var rows: [Row] = []
        try query(sql, named: bindings) { rows.append($0) }
        return rows
    }

    /// The first column of every row as integers (NULL as 0), such as the ids of a long list,
    /// without the cost of a `Row` per result.
    public func queryIntegers(_ sql: String, named bindings: [String: (any SQLBindable)?]) throws -> [Int64] {
        try withCachedStatement(sql) { statement in
            try statement.bind(named: bindings)
            return try statement.integersOfFirstColumn()
        }
    }

    /// The first column of the first row; nil when there is no row or the value is NULL.
    /// `try db.queryValue("SELECT sum(total) FROM invoice", as: Int64.self) ?? 0`
    public func queryValue<T: SQLColumnDecodable>(_ sql: String, _ bindings: [(any SQLBindable)?] = [],
                                                  as type: T.Type = T.self) throws -> T? {
        try withCachedStatement(sql) { statement in
            try statement.bind(bindings)
            guard try statement.step() else { return nil }
            let row = try statement.currentRow()
            if case .null = row.values.first ?? .null { return nil }
            return try row.value(at: 0, as: T.self)
        }
    }

    /// A statement to run many times (a bulk import); cheaper than looking up the cache per row.
    public func prepare(_ sql: String) throws -> Statement {
        try withLock { try Statement(database: self, connection: try liveConnection(), sql: sql) }
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        withLock { connection.map { sqlite3_last_insert_rowid($0) } ?? 0 }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { withLock { changesLocked } }

    // MARK: - Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (the
    /// error is rethrown). Nested calls become savepoints, so an inner failure that the caller
    /// catches undoes only the inner part.
    @discardableResult
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try withLock {
            let connection = try liveConnection()
            if transactionDepth == 0 {
                try executeScript("BEGIN \(kind.keyword)")
                transactionDepth = 1
                defer { transactionDepth = 0 }
                let result: T
                do {
                    result = try body()
                    try executeScript("COMMIT")
                } catch {
                    // SQLite may already have rolled back (e.g. on SQLITE_FULL); the first error is the one to report.
                    if sqlite3_get_autocommit(connection) == 0 { try? executeScript("ROLLBACK") }
                    throw error
                }
                return result
            }
            let savepoint = "billfold_savepoint_\(transactionDepth)"
            try executeScript("SAVEPOINT \(savepoint)")
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            let result: T
            do {
                result = try body()
            } catch {
                if sqlite3_get_autocommit(connection) == 0 {
                    try? executeScript("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
                }
                throw error
            }
            try executeScript("RELEASE \(savepoint)")
            return result
        }
    }

    /// True between BEGIN and COMMIT, whether opened by `transaction` or by hand.
    public var isInTransaction: Bool {
        withLock { connection.map { sqlite3_get_autocommit($0) == 0 } ?? false }
    }

    // MARK: - Health

    /// SQLite's `PRAGMA integrity_check`: the problems it found, empty when the file is sound.
    public func integrityCheck() throws -> [String] {
        var problems: [String] = []
        try query("PRAGMA integrity_check") { row in
            let line: String = try row[0]
            if line != "ok" { problems.append(line) }
        }
        return problems
    }

    // MARK: - Internals

    @discardableResult
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    func liveConnection() throws -> OpaquePointer {
        guard let connection else { throw DatabaseError.closed }
        return connection
    }

    var isOpenLocked: Bool { connection != nil }
    var changesLocked: Int { connection.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// Finalizes cached statements, e.g. after a restore replaced the schema under them.
    func clearStatementCache() {
        withLock {
            for statement in statementCache.values where !statement.isInUse { statement.finalize() }
            statementCache = statementCache.filter { $0.value.isInUse }
        }
    }

    private func withCachedStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        try withLock {
            let connection = try liveConnection()
            let statement: Statement
            var temporary = false
            if let cached = statementCache[sql], cached.handle != nil {
                if cached.isInUse {
                    // The same SQL is already running further up the stack (a query inside a query).
                    statement = try Statement(database: self, connection: connection, sql: sql)
                    temporary = true
                } else {
                    statement = cached
                }
            } else {
                statement = try Statement(database: self, connection: connection, sql: sql)
                if statementCache.count >= Self.statementCacheLimit,
                   let idle = statementCache.first(where: { !$0.value.isInUse })?.key {
                    statementCache.removeValue(forKey: idle)?.finalize()
                }
                statementCache[sql] = statement
            }
            statement.isInUse = true
            defer {
                statement.isInUse = false
                if let handle = statement.handle { sqlite3_reset(handle) }
                if temporary { statement.finalize() }
            }
            return try body(statement)
        }
    }
}

extension DatabaseError {
    var sqliteMessage: String? {
        if case .sqlite(_, let message, _) = self { return message }
        return nil
    }
}
