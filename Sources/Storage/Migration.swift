import CSQLite
import Foundation

/// One step in the schema history of one owner (a plugin). Versions count 1, 2, 3, … and a
/// shipped migration is never edited: a change is a new migration.
public struct Migration: Sendable {
    public let version: Int
    public let summary: String
    /// For table rebuilds (SQLite's 12-step ALTER): foreign keys are switched off around the
    /// transaction and `PRAGMA foreign_key_check` must pass before it commits.
    public let disablesForeignKeys: Bool
    let body: @Sendable (Database) throws -> Void

    public init(version: Int, summary: String = "", disablesForeignKeys: Bool = false,
                _ body: @escaping @Sendable (Database) throws -> Void) {
        self.version = version
        self.summary = summary
        self.disablesForeignKeys = disablesForeignKeys
        self.body = body
    }

    /// A migration that is a SQL script (several statements separated by semicolons).
    public init(version: Int, summary: String = "", disablesForeignKeys: Bool = false, sql: String) {
        self.init(version: version, summary: summary, disablesForeignKeys: disablesForeignKeys) { database in
            try database.executeScript(sql)
        }
    }
}

/// What `migrate` did.
public struct MigrationOutcome: Sendable, Equatable {
    public let owner: String
    public let fromVersion: Int
    public let toVersion: Int
    /// The copy taken before the first migration ran; nil when nothing ran or there was nothing to keep.
    public let backup: Backup?

    public var didMigrate: Bool { toVersion != fromVersion }
}

extension Database {
    /// The table that records each owner's schema version.
    public static let schemaVersionsTable = "billfold_schema_versions"

    /// The schema version `owner` is at; 0 when it has never migrated.
    public func schemaVersion(owner: String) throws -> Int {
        try withLock {
            guard try hasSchemaVersionsTable() else { return 0 }
            return try queryValue("SELECT version FROM \(Self.schemaVersionsTable) WHERE owner = ?", [owner],
                                  as: Int.self) ?? 0
        }
    }

    /// Brings `owner`'s tables up to the last of `migrations` (numbered 1…n in order).
    ///
    /// Each pending migration runs in its own transaction together with the version update, so
    /// a migration that fails leaves the database exactly as it was before that migration and
    /// throws `.migrationFailed`. Before the first pending migration a backup is taken (when
    /// the database is a file and holds anything). A database whose version for `owner` is
    /// newer than this list knows is refused with `.newerSchema` and not touched.
    @discardableResult
    public func migrate(owner: String, migrations: [Migration]) throws -> MigrationOutcome {
        guard migrations.enumerated().allSatisfy({ $0.offset + 1 == $0.element.version }) else {
            throw DatabaseError.nonSequentialMigrations(owner: owner)
        }
        return try withLock {
            guard transactionDepth == 0, !isInTransaction else {
                throw DatabaseError.migrationInsideTransaction(owner: owner)
            }
            let current = try schemaVersion(owner: owner)
            let latest = migrations.count
            if current > latest {
                throw DatabaseError.newerSchema(owner: owner, databaseVersion: current, supportedVersion: latest)
            }
            guard current < latest else {
                return MigrationOutcome(owner: owner, fromVersion: current, toVersion: current, backup: nil)
            }

            var backup: Backup?
            if !isInMemory, try holdsAnyRow() {
                backup = try makeBackup(reason: "before-\(owner)-v\(current + 1)")
            }
            // Single-line literals: xgettext reads these files as C and stumbles on """.
            try executeScript("CREATE TABLE IF NOT EXISTS \(Self.schemaVersionsTable) ("
                + "owner TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL, migrated_at TEXT NOT NULL)")
            for migration in migrations[current...] {
                try run(migration, owner: owner)
            }
            return MigrationOutcome(owner: owner, fromVersion: current, toVersion: latest, backup: backup)
        }
    }

    private func run(_ migration: Migration, owner: String) throws {
        if migration.disablesForeignKeys { try executeScript("PRAGMA foreign_keys=OFF") }
        defer {
            // Always back on, even after a failure; a later statement would surface a problem here.
            if migration.disablesForeignKeys { try? executeScript("PRAGMA foreign_keys=ON") }
        }
        do {
            try transaction(.immediate) {
                try migration.body(self)
                if migration.disablesForeignKeys,
                   let table = try queryValue("PRAGMA foreign_key_check", as: String.self) {
                    throw DatabaseError.foreignKeyViolation(table: table)
                }
                try execute("INSERT INTO \(Self.schemaVersionsTable) (owner, version, migrated_at) VALUES (?, ?, ?) "
                    + "ON CONFLICT (owner) DO UPDATE SET version = excluded.version, migrated_at = excluded.migrated_at",
                    [owner, migration.version, Date()])
            }
        } catch {
            clearStatementCache()
            throw DatabaseError.migrationFailed(owner: owner, version: migration.version,
                                                reason: error.localizedDescription)
        }
    }

    private func hasSchemaVersionsTable() throws -> Bool {
        try queryValue("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
                       [Self.schemaVersionsTable], as: Int.self) != nil
    }

    /// Whether any table other than the versions holds a row: a backup of empty tables (a first
    /// start, where each owner's migration finds the others' new tables) protects nothing.
    /// Full-text indexes' shadow tables are left out; the rows they index live in real tables.
    private func holdsAnyRow() throws -> Bool {
        let tables = try query("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ?",
                               [Self.schemaVersionsTable]).map { try $0.value(at: 0, as: String.self) }
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            if try queryValue("SELECT 1 FROM " + quoted + " LIMIT 1", as: Int.self) != nil { return true }
        }
        return false
    }
}
