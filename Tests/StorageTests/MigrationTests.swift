import Foundation
import Storage
import Testing

private let invoiceMigrations: [Migration] = [
    Migration(version: 1, summary: "clients", sql: """
        CREATE TABLE client (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        """),
    Migration(version: 2, summary: "invoices", sql: """
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, client_id INTEGER NOT NULL REFERENCES client (id),
                              total_minor INTEGER NOT NULL);
        CREATE INDEX invoice_by_client ON invoice (client_id);
        """),
    Migration(version: 3, summary: "client email") { database in
        try database.execute("ALTER TABLE client ADD COLUMN email TEXT")
        try database.execute("UPDATE client SET email = lower(name) || '@example.org'")
    },
]

@Suite struct MigrationTests {
    @Test func migratesAFreshDatabaseAndRecordsTheVersion() throws {
        let database = try Database.inMemory()
        #expect(try database.schemaVersion(owner: "invoices") == 0)
        let outcome = try database.migrate(owner: "invoices", migrations: invoiceMigrations)
        #expect(outcome.fromVersion == 0 && outcome.toVersion == 3 && outcome.didMigrate)
        #expect(try database.schemaVersion(owner: "invoices") == 3)
        try database.execute("INSERT INTO client (name) VALUES ('Ada')")
        try database.execute("INSERT INTO invoice (client_id, total_minor) VALUES (1, 100)")

        let again = try database.migrate(owner: "invoices", migrations: invoiceMigrations)
        #expect(!again.didMigrate)
        #expect(try database.queryValue("SELECT count(*) FROM invoice", as: Int.self) == 1)
    }

    @Test func picksUpWhereItLeftOff() throws {
        let database = try Database.inMemory()
        try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2)))
        try database.execute("INSERT INTO client (name) VALUES ('Grace')")
        let outcome = try database.migrate(owner: "invoices", migrations: invoiceMigrations)
        #expect(outcome.fromVersion == 2 && outcome.toVersion == 3)
        #expect(try database.queryValue("SELECT email FROM client", as: String.self) == "grace@example.org")
    }

    @Test func ownersHaveTheirOwnVersions() throws {
        let database = try Database.inMemory()
        try database.migrate(owner: "invoices", migrations: invoiceMigrations)
        try database.migrate(owner: "expenses", migrations: [
            Migration(version: 1, sql: "CREATE TABLE trip (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"),
        ])
        #expect(try database.schemaVersion(owner: "invoices") == 3)
        #expect(try database.schemaVersion(owner: "expenses") == 1)
        #expect(try database.schemaVersion(owner: "tipsplit") == 0)
    }

    @Test func aMigrationFailingHalfWayLeavesTheDatabaseExactlyAsBefore() throws {
        let database = try Database.inMemory()
        try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2)))
        try database.execute("INSERT INTO client (name) VALUES ('Ada'), ('Grace')")
        try database.execute("INSERT INTO invoice (client_id, total_minor) VALUES (1, 1999), (2, 5000)")
        let before = try dump(database)

        let failing = Migration(version: 3, summary: "breaks after doing a lot") { database in
            try database.execute("ALTER TABLE client ADD COLUMN email TEXT")
            try database.execute("UPDATE client SET email = 'x'")
            try database.execute("CREATE TABLE payment (id INTEGER PRIMARY KEY, amount INTEGER)")
            try database.execute("INSERT INTO payment (amount) VALUES (1), (2)")
            try database.execute("DELETE FROM invoice WHERE client_id = 2")
            try database.execute("DROP INDEX invoice_by_client")
            throw ExpectedFailure()
        }
        do {
            try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2)) + [failing])
            Issue.record("the failing migration was applied")
        } catch let error as DatabaseError {
            guard case .migrationFailed(let owner, let version, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(owner == "invoices" && version == 3)
            #expect(error.localizedDescription.contains("invoices"))
        }
        #expect(try dump(database) == before)
        #expect(try database.schemaVersion(owner: "invoices") == 2)
        #expect(!database.isInTransaction)
    }

    @Test func aSQLErrorHalfWayThroughAScriptIsUndoneToo() throws {
        let database = try Database.inMemory()
        try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(1)))
        try database.execute("INSERT INTO client (name) VALUES ('Ada')")
        let before = try dump(database)
        let broken = Migration(version: 2, sql: """
            CREATE TABLE invoice (id INTEGER PRIMARY KEY);
            INSERT INTO invoice DEFAULT VALUES;
            UPDATE client SET name = 'changed';
            INSERT INTO no_such_table VALUES (1);
            """)
        #expect(throws: DatabaseError.self) {
            try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(1)) + [broken])
        }
        #expect(try dump(database) == before)
    }

    @Test func aNewerDatabaseIsRefusedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let database = try Database.open(path: directory.path("app.sqlite3"))
        try database.migrate(owner: "invoices", migrations: invoiceMigrations)
        try database.execute("INSERT INTO client (name) VALUES ('Ada')")
        let backupsBefore = try database.backups()
        let before = try dump(database)

        #expect(throws: DatabaseError.newerSchema(owner: "invoices", databaseVersion: 3, supportedVersion: 2)) {
            try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2)))
        }
        #expect(try dump(database) == before)
        #expect(try database.backups() == backupsBefore)
        let message = DatabaseError.newerSchema(owner: "invoices", databaseVersion: 3, supportedVersion: 2)
            .localizedDescription
        #expect(message.contains("newer version") && message.contains("3") && message.contains("2"))
    }

    @Test func migrationListsMustCountFromOne() throws {
        let database = try Database.inMemory()
        for list in [[invoiceMigrations[1]], [invoiceMigrations[0], invoiceMigrations[2]], invoiceMigrations.reversed()] {
            #expect(throws: DatabaseError.nonSequentialMigrations(owner: "invoices")) {
                try database.migrate(owner: "invoices", migrations: list)
            }
        }
        #expect(try database.schemaVersion(owner: "invoices") == 0)
    }

    @Test func migrationsCannotRunInsideATransaction() throws {
        let database = try Database.inMemory()
        #expect(throws: DatabaseError.migrationInsideTransaction(owner: "invoices")) {
            try database.transaction { try database.migrate(owner: "invoices", migrations: invoiceMigrations) }
        }
    }

    @Test func aBackupIsTakenBeforeMigratingAFileThatHoldsData() throws {
        let directory = try TemporaryDirectory()
        let database = try Database.open(path: directory.path("app.sqlite3"))
        // Nothing to keep yet: no backup of an empty file, nor of one whose tables are all empty
        // (a first start, where a second owner finds the first one's new tables). A full-text
        // index's own bookkeeping rows are not data.
        #expect(try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2))).backup == nil)
        let trips = [Migration(version: 1, summary: "trips", sql: "CREATE TABLE trip (id INTEGER PRIMARY KEY, name TEXT); CREATE VIRTUAL TABLE trip_search USING fts5 (name);")]
        #expect(try database.migrate(owner: "expenses", migrations: trips).backup == nil)
        #expect(try database.backups().isEmpty)
        try database.execute("INSERT INTO client (name) VALUES ('Ada')")

        let outcome = try database.migrate(owner: "invoices", migrations: invoiceMigrations)
        let backup = try #require(outcome.backup)
        #expect(backup.reason == "before-invoices-v3")
        #expect(try database.backups() == [backup])

        let copy = try Database.open(path: backup.path, options: .init(createIfMissing: false))
        #expect(try copy.schemaVersion(owner: "invoices") == 2)
        #expect(try copy.queryValue("SELECT name FROM client", as: String.self) == "Ada")
        #expect(try copy.integrityCheck().isEmpty)
    }

    @Test func tableRebuildsRunWithForeignKeysOffAndAreChecked() throws {
        let database = try Database.inMemory()
        try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2)))
        try database.execute("INSERT INTO client (name) VALUES ('Ada')")
        try database.execute("INSERT INTO invoice (client_id, total_minor) VALUES (1, 100)")

        // SQLite's 12-step rebuild: new table, copy, drop, rename — with the parent dropped in between.
        let rebuild = Migration(version: 3, summary: "rebuild client", disablesForeignKeys: true, sql: """
            CREATE TABLE client_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT);
            INSERT INTO client_new (id, name) SELECT id, name FROM client;
            DROP TABLE client;
            ALTER TABLE client_new RENAME TO client;
            """)
        try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2)) + [rebuild])
        #expect(try database.queryValue("SELECT count(*) FROM invoice JOIN client ON client.id = invoice.client_id",
                                        as: Int.self) == 1)
        #expect(try database.queryValue("PRAGMA foreign_keys", as: Int.self) == 1)

        // A rebuild that loses a parent row is refused and undone.
        let before = try dump(database)
        let lossy = Migration(version: 4, disablesForeignKeys: true, sql: """
            CREATE TABLE client_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT);
            DROP TABLE client;
            ALTER TABLE client_new RENAME TO client;
            """)
        do {
            try database.migrate(owner: "invoices", migrations: Array(invoiceMigrations.prefix(2)) + [rebuild, lossy])
            Issue.record("a foreign key violation was committed")
        } catch let error as DatabaseError {
            guard case .migrationFailed(_, 4, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reason.contains("invoice"))
        }
        #expect(try dump(database) == before)
        #expect(try database.queryValue("PRAGMA foreign_keys", as: Int.self) == 1)
    }
}
