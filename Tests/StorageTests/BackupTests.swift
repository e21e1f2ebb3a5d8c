import SeededRandom
import Foundation
import Storage
import Testing

@Suite struct BackupTests {
    private func makeDatabase(in directory: TemporaryDirectory, rows: Int = 50) throws -> Database {
        let database = try Database.open(path: directory.path("billfold.sqlite3"))
        try database.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        try database.transaction {
            for index in 0..<rows { try database.execute("INSERT INTO note (text) VALUES (?)", ["note \(index)"]) }
        }
        return database
    }

    @Test func backupsAreCompleteSelfContainedCopies() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        let backup = try database.makeBackup()
        #expect(backup.reason == "manual")
        #expect(backup.path.hasPrefix(directory.path("backups") + "/billfold-"))
        #expect(!FileManager.default.fileExists(atPath: backup.path + "-wal"))
        let copy = try Database.open(path: backup.path, options: .init(createIfMissing: false))
        #expect(try dump(copy) == dump(database))
        #expect(try copy.integrityCheck().isEmpty)

        try database.backup(to: directory.path("elsewhere.sqlite3"))
        let other = try Database.open(path: directory.path("elsewhere.sqlite3"))
        #expect(try dump(other) == dump(database))
    }

    @Test func dailyWeeklyAndMonthlyGenerationsAreKept() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        // 2023-11-14, a Tuesday; one backup a day for 400 days.
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var taken: [Backup] = []
        for day in 0..<400 {
            let backup = try #require(try database.backupIfDue(now: start.addingTimeInterval(Double(day) * 86_400 + 60)))
            #expect(backup.reason == "daily")
            taken.append(backup)
        }
        let kept = try database.backups()
        let expected = BackupRetention(daily: 7, weekly: 4, monthly: 12).kept(taken)
        #expect(Set(kept.map(\.path)) == expected)
        // The last 7 days, then the newest of earlier weeks and months: at most 7 + 4 + 12.
        #expect(kept.prefix(7).map(\.path) == taken.reversed().prefix(7).map(\.path))
        #expect(kept.count >= 7 + 12 - 1 && kept.count <= 7 + 4 + 12)
        let oldest = try #require(kept.last)
        #expect(taken.last!.createdAt.timeIntervalSince(oldest.createdAt) > 300 * 86_400)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("backups")).count == kept.count)
    }

    @Test func theNewestBackupIsKeptWhateverItsAge() {
        let old = Backup(path: "/b/old", createdAt: Date(timeIntervalSince1970: 0), reason: "daily")
        #expect(BackupRetention(daily: 0, weekly: 0, monthly: 0).kept([old]) == ["/b/old"])
    }

    @Test func theDailyBackupWaitsADay() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        let now = Date()
        #expect(try database.backupIfDue(now: now) != nil)
        #expect(try database.backupIfDue(now: now.addingTimeInterval(3_600)) == nil)
        #expect(try database.backupIfDue(now: now.addingTimeInterval(86_400 + 1)) != nil)
        #expect(try database.backups().count == 2)
    }

    @Test func restoringBringsBackTheOldContentsAndKeepsTheCurrentOnes() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        let before = try dump(database)
        let backup = try database.makeBackup(reason: "before big change")
        #expect(backup.reason == "before-big-change")
        try database.execute("DELETE FROM note WHERE id > 10")
        try database.execute("CREATE TABLE extra (x)")
        let changed = try dump(database)

        let kept = try database.restore(from: backup.path)
        #expect(try dump(database) == before)
        #expect(try database.integrityCheck().isEmpty)
        // The state just before the restore was kept beside the database, in case the restore was a mistake.
        #expect(kept.hasPrefix(directory.path("billfold.sqlite3.before-restore-")))
        let saved = try Database.open(path: kept, options: .init(createIfMissing: false))
        #expect(try dump(saved) == changed)
        // The restored database goes on working, cached statements included.
        try database.execute("INSERT INTO note (text) VALUES (?)", ["after restore"])
        #expect(try database.queryValue("SELECT count(*) FROM note", as: Int.self) == 51)
    }

    /// A restore killed between moving the library aside and moving the copy in left no
    /// library: the next start finishes it, and the old file's WAL goes beside its kept copy.
    @Test func aRestoreKilledBetweenItsRenamesIsFinishedAtTheNextStart() throws {
        let directory = try TemporaryDirectory()
        let library = directory.path("billfold.sqlite3")
        let database = try makeDatabase(in: directory)
        let backup = try database.makeBackup()
        let restored = try dump(database)
        try database.execute("DELETE FROM note WHERE id > 10")
        let current = try dump(database)
        database.close()
        // What the killed restore left: its checked copy (a pid above pid_max belongs to nobody),
        // the library under its kept name, and the library's WAL still at the old place.
        let copy = library + ".billfold-4194305-restoring"
        try FileManager.default.copyItem(atPath: backup.path, toPath: copy)
        let kept = library + ".before-restore-20261201T120000000Z"
        #expect(rename(library, kept) == 0)
        let strayJournal = Data("the old file's WAL".utf8)
        try strayJournal.write(to: URL(fileURLWithPath: library + "-wal"))

        #expect(try Database.finishInterruptedRestore(forDatabaseAt: library))
        let reopened = try Database.open(path: library, options: .init(createIfMissing: false))
        #expect(try dump(reopened) == restored)
        reopened.close()
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(FileManager.default.contents(atPath: kept + "-wal") == strayJournal)
        try FileManager.default.removeItem(atPath: kept + "-wal")
        let old = try Database.open(path: kept, options: .init(createIfMissing: false))
        #expect(try dump(old) == current)
        old.close()
        // With the library in place there is nothing to finish.
        #expect(try !Database.finishInterruptedRestore(forDatabaseAt: library))
    }

    /// When the kept file already has a WAL beside it, the stray one cannot be told apart:
    /// nothing moves and the start reports it rather than guess.
    @Test func aStrayWALWithNowhereToGoStopsTheStart() throws {
        let directory = try TemporaryDirectory()
        let library = directory.path("billfold.sqlite3")
        let copy = library + ".billfold-4194305-restoring"
        let kept = library + ".before-restore-20261201T120000000Z"
        for path in [copy, kept, kept + "-wal", library + "-wal", library + "-shm"] {
            try Data(path.utf8).write(to: URL(fileURLWithPath: path))
        }
        #expect(throws: DatabaseError.self) { try Database.finishInterruptedRestore(forDatabaseAt: library) }
        #expect(!FileManager.default.fileExists(atPath: library))
        for path in [copy, kept + "-wal", library + "-wal", library + "-shm"] {
            #expect(FileManager.default.contents(atPath: path) == Data(path.utf8), "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: kept + "-shm"))
    }

    /// A copy whose writer still runs is a restore in progress, and is not taken.
    @Test func aRestoreStillRunningIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let library = directory.path("billfold.sqlite3")
        let copy = library + ".billfold-\(getpid())-restoring"
        try Data("a restore in progress".utf8).write(to: URL(fileURLWithPath: copy))
        #expect(try !Database.finishInterruptedRestore(forDatabaseAt: library))
        #expect(!FileManager.default.fileExists(atPath: library))
        #expect(FileManager.default.fileExists(atPath: copy))
    }

    @Test func restoreRefusesMissingOrDamagedBackups() throws {
        let directory = try TemporaryDirectory()
        let database = try makeDatabase(in: directory)
        let before = try dump(database)
        #expect(throws: DatabaseError.backupNotFound(path: directory.path("nope.sqlite3"))) {
            try database.restore(from: directory.path("nope.sqlite3"))
        }
        let garbage = directory.path("garbage.sqlite3")
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: garbage))
        do {
            try database.restore(from: garbage)
            Issue.record("restored from garbage")
        } catch let error as DatabaseError {
            #expect(error.isCorruption)
        }
        #expect(try dump(database) == before)
        #expect(throws: DatabaseError.restoreInsideTransaction) {
            try database.transaction { try database.restore(from: garbage) }
        }
    }

    @Test func inMemoryDatabasesHaveNoBackups() throws {
        let database = try Database.inMemory()
        #expect(throws: DatabaseError.backupsUnavailable) { try database.makeBackup() }
        #expect(throws: DatabaseError.backupsUnavailable) { try database.backups() }
    }
}

@Suite struct CorruptionTests {
    @Test func aFileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("billfold.sqlite3")
        var generator = SeededGenerator(seed: 13)
        let garbage = Data((0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: path))
        do {
            _ = try Database.open(path: path)
            Issue.record("opened garbage")
        } catch let error as DatabaseError {
            guard case .corrupt(let reported, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reported == path)
            #expect(error.isCorruption)
            #expect(error.localizedDescription.contains("backup"))
        }
        // Never replaced by a fresh empty database.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func damagedPagesAreFoundByTheIntegrityCheck() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("billfold.sqlite3")
        do {
            let database = try Database.open(path: path)
            try database.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            try database.execute("CREATE INDEX note_by_text ON note (text)")
            try database.transaction {
                for index in 0..<5_000 {
                    try database.execute("INSERT INTO note (text) VALUES (?)", ["note number \(index)"])
                }
            }
            database.close()   // checkpoints the WAL into the file
        }
        // Scribble over the middle pages, keeping page 1 (the header and schema) intact.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = try handle.seekToEnd()
        #expect(size > 16 * 4096)
        try handle.seek(toOffset: 4 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) / 2))
        try handle.close()

        do {
            _ = try Database.open(path: path, options: .init(verifyIntegrity: true))
            Issue.record("a damaged file passed the integrity check")
        } catch let error as DatabaseError {
            #expect(error.isCorruption)
        }
    }

    @Test func aDamagedDatabaseIsRestoredWithoutOpeningIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("billfold.sqlite3")
        var expected: [String] = []
        do {
            let database = try Database.open(path: path)
            try database.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            try database.execute("INSERT INTO note (text) VALUES ('safe')")
            try database.makeBackup(reason: "daily")
            expected = try dump(database)
            database.close()
        }
        try Data(repeating: 0x00, count: 4096).write(to: URL(fileURLWithPath: path))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        #expect(throws: DatabaseError.self) { try Database.open(path: path) }

        let backups = try Database.listBackups(forDatabaseAt: path)
        #expect(backups.map(\.reason) == ["daily"])
        let damaged = try #require(try Database.restore(databaseAt: path, from: backups[0].path))
        #expect(FileManager.default.fileExists(atPath: damaged))
        #expect(FileManager.default.fileExists(atPath: damaged + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        let restored = try Database.open(path: path, options: .init(verifyIntegrity: true))
        #expect(try dump(restored) == expected)
    }
}
