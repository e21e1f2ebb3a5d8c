import BillfoldCore
import Foundation
import Storage
import Testing

/// Damage, permissions, space, locks and versions, each met by the real binary. Every test
/// checks the exact message, that every committed row is still readable (from the library or
/// a backup), and that no good backup was deleted.
@Suite(.serialized) struct LibraryFaultTests {
    static let restoreHint = "Restore a backup: open Billfold, or run “billfold backup list” and “billfold backup restore NAME”."

    /// A filled library with one verified backup; returns its rows and the backup.
    private func libraryWithBackup(invoices: Int = 3_000) throws -> (Library, [String], Backup) {
        let library = try Library()
        try library.fill(invoices: invoices)
        let rows = try library.invoiceRows()
        let made = try library.run(["backup", "create"])
        #expect(made.status == 0, "\(made.errors)")
        let backup = try #require(library.backups().first)
        #expect(made.output == "Saved the backup \(backup.path).\n")
        return (library, rows, backup)
    }

    private func overwrite(_ path: String, at offset: UInt64, count: Int, seed: UInt64) throws {
        var state = seed
        let bytes = (0..<count).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    private func size(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.uint64Value ?? 0
    }

    /// Restores `backup` through the binary and checks every committed row came back.
    private func restore(_ backup: Backup, in library: Library, expecting rows: [String]) throws {
        let name = URL(fileURLWithPath: backup.path).lastPathComponent
        let listed = try library.run(["backup", "list"])
        #expect(listed.status == 0)
        #expect(listed.output.contains(name))
        #expect(listed.output.contains(" invoices · 0 trips · 0 expenses · verified"))
        let restored = try library.run(["backup", "restore", name])
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(restored.output.hasPrefix("Restored \(name).\nThe file it replaced was kept as \(library.databasePath).before-restore-"))
        #expect(try library.invoiceRows() == rows)
        #expect(Library.names(in: library.dataFolder).contains { $0.hasPrefix("billfold.sqlite3.before-restore-") })
    }

    @Test func bytesOverwrittenInsideALargeLibraryNeverPushOutAGoodBackup() throws {
        let (library, rows, backup) = try libraryWithBackup()
        let path = library.databasePath
        try overwrite(path, at: size(path) / 2 / 4096 * 4096 + 100, count: 64 * 1024, seed: 7)

        let listed = try library.run(["invoice", "list"])
        #expect(listed.status == 1)
        #expect(listed.output.isEmpty, "a damaged library must not print a list")
        #expect(listed.errors.hasPrefix("The database file \(path) is damaged ("))
        #expect(listed.errors.hasSuffix("). \(Self.restoreHint)\n"))
        // More refused backups than the seven daily ones that used to be kept.
        for _ in 0..<8 {
            let refused = try library.run(["backup", "create"])
            #expect(refused.status == 1)
            #expect(refused.errors.hasPrefix("The database file \(path) is damaged ("))
        }
        // The daily backup of eight launches on eight days, as the window takes it.
        let damaged = try Database.open(path: path, options: .init(backupDirectory: library.backupFolder.path))
        for day in 1...8 {
            #expect(throws: DatabaseError.self) { try damaged.backupIfDue(now: Date().addingTimeInterval(Double(day) * 86_400)) }
        }
        damaged.close()
        #expect(library.backups() == [backup])
        #expect(Library.names(in: library.backupFolder) == [URL(fileURLWithPath: backup.path).lastPathComponent])
        try restore(backup, in: library, expecting: rows)
    }

    @Test func aTruncatedLibraryIsDamageAndIsRestored() throws {
        let (library, rows, backup) = try libraryWithBackup(invoices: 500)
        let path = library.databasePath
        #expect(truncate(path, off_t(size(path) * 6 / 10 / 4096 * 4096)) == 0)
        let listed = try library.run(["invoice", "list"])
        #expect(listed.status == 1)
        #expect(listed.errors.hasPrefix("The database file \(path) is damaged ("))
        #expect(listed.errors.hasSuffix("). \(Self.restoreHint)\n"))
        #expect(library.backups() == [backup])
        try restore(backup, in: library, expecting: rows)
    }

    @Test func aZeroByteLibraryWithBackupsIsNotTakenAsNew() throws {
        let (library, rows, backup) = try libraryWithBackup(invoices: 50)
        let path = library.databasePath
        #expect(truncate(path, 0) == 0)
        let listed = try library.run(["invoice", "list"])
        #expect(listed.status == 1)
        #expect(listed.errors == "The database file \(path) is empty (0 bytes), although backups of it exist. \(Self.restoreHint)\n")
        #expect(size(path) == 0)
        #expect(library.backups() == [backup])
        try restore(backup, in: library, expecting: rows)

        // Without backups an empty file is simply a new library.
        let fresh = try Library()
        try FileManager.default.createDirectory(at: fresh.dataFolder, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: fresh.databasePath))
        try fresh.handOver()
        let empty = try fresh.run(["invoice", "list"])
        #expect(empty.status == 0, "\(empty.errors)")
        #expect(empty.output == "There are no invoices yet.\n")
    }

    @Test func aReadOnlyLibraryIsNamedAndLeftAlone() throws {
        let (library, rows, backup) = try libraryWithBackup(invoices: 50)
        let path = library.databasePath
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        chmod(path, 0o444)
        for arguments in [["invoice", "list"], ["backup", "create"]] {
            let outcome = try library.run(arguments)
            #expect(outcome.status == 1)
            #expect(outcome.errors == "The database file \(path) is read-only. Give your user permission to write it (chmod u+w), then open Billfold again. Nothing was changed.\n")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(library.backups() == [backup])
        chmod(path, 0o600)
        #expect(try library.invoiceRows() == rows)
    }

    @Test func aReadOnlyFolderIsNamedAndLeftAlone() throws {
        let (library, rows, backup) = try libraryWithBackup(invoices: 50)
        chmod(library.dataFolder.path, 0o555)
        let outcome = try library.run(["invoice", "list"])
        #expect(outcome.status == 1)
        #expect(outcome.errors == "The folder \(library.dataFolder.path) that holds the database is read-only. Give your user permission to write it (chmod u+w), then open Billfold again. Nothing was changed.\n")
        // Private (no group or other bits), and still read-only: the owner's choice is kept.
        #expect(Library.mode(library.dataFolder.path) == 0o500)
        #expect(library.backups() == [backup])
        chmod(library.dataFolder.path, 0o700)
        #expect(try library.invoiceRows() == rows)
    }

    @Test func aLibraryLockedByAnotherProgramIsNamed() throws {
        let (library, rows, backup) = try libraryWithBackup(invoices: 50)
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        locker.arguments = ["-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('PRAGMA locking_mode=EXCLUSIVE')
            c.execute('BEGIN EXCLUSIVE')
            print('locked', flush=True)
            time.sleep(60)
            """, library.databasePath]
        let pipe = Pipe()
        locker.standardOutput = pipe
        try locker.run()
        defer { kill(locker.processIdentifier, SIGKILL); locker.waitUntilExit() }
        _ = pipe.fileHandleForReading.availableData   // "locked"
        let outcome = try library.run(["invoice", "list"])
        #expect(outcome.status == 1)
        #expect(outcome.errors == "The database file \(library.databasePath) is locked by another program (another copy of Billfold?). Close it, then try again. Nothing was changed.\n")
        kill(locker.processIdentifier, SIGKILL)
        locker.waitUntilExit()
        #expect(library.backups() == [backup])
        #expect(try library.invoiceRows() == rows)
    }

    @Test func aNewerSchemaIsRefusedAndLeftAlone() throws {
        let (library, rows, backup) = try libraryWithBackup(invoices: 50)
        let database = try Database.open(path: library.databasePath)
        let supported = try #require(try database.queryValue("SELECT version FROM billfold_schema_versions WHERE owner = 'invoices'", as: Int.self))
        try database.execute("UPDATE billfold_schema_versions SET version = 99 WHERE owner = 'invoices'")
        database.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: library.databasePath))
        let outcome = try library.run(["invoice", "list"])
        #expect(outcome.status == 1)
        #expect(outcome.errors == "The invoices data was saved by a newer version of Billfold (format 99; this version reads up to \(supported)). Update Billfold to open it.\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: library.databasePath)) == before)
        #expect(library.backups() == [backup])
        #expect(try library.invoiceRows() == rows)
    }

    @Test func aMissingFolderOrAFolderInTheFilesPlaceIsNamed() throws {
        let library = try Library()
        let blocker = library.root.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let database = blocker.appendingPathComponent("billfold.sqlite3").path
        let missing = try library.run(["invoice", "list"], extraEnvironment: ["BILLFOLD_DATABASE": database])
        #expect(missing.status == 1)
        #expect(missing.errors == "The folder \(blocker.path) for the database does not exist and cannot be made (a part of the path is not a folder). Create it or check its permissions. Nothing was changed.\n")

        try FileManager.default.createDirectory(atPath: library.databasePath, withIntermediateDirectories: true)
        try library.handOver()
        let folder = try library.run(["invoice", "list"])
        #expect(folder.status == 1)
        #expect(folder.errors == "There is a folder at \(library.databasePath) where the database file should be. Move it away, then open Billfold again. Nothing was changed.\n")
    }

    /// A full disk: a 24 MB tmpfs in a mount namespace of its own when the system allows it
    /// (root), otherwise RLIMIT_FSIZE in the child, which makes every write past the limit fail
    /// with EFBIG as a full disk fails with ENOSPC.
    @Test func aFullDiskChangesNothingAndIsNamed() throws {
        let (library, rows, backup) = try libraryWithBackup(invoices: 500)
        let number = try #require(try firstInvoiceNumber(library))
        let output = library.root.appendingPathComponent("out.pdf").path
        // On the tmpfs, in its own mount namespace: a disk that is full, then one with 640 kB free.
        if getuid() == 0, (try? Library.shell("unshare -m true && echo yes")) == "yes\n" {
            // Everything happens inside the namespace: the tmpfs is gone when it ends.
            let script = """
                set -u
                cp -a '\(library.dataFolder.path)' /tmp/billfold-full-$$
                mount -t tmpfs -o size=24m,mode=0777 tmpfs '\(library.root.path)/data'
                cp -a /tmp/billfold-full-$$ '\(library.dataFolder.path)' && rm -rf /tmp/billfold-full-$$
                chown -R nobody:nogroup '\(library.root.path)/data'
                mkdir '\(library.root.path)/out' && mount -t tmpfs -o size=16k,mode=0777 tmpfs '\(library.root.path)/out'
                dd if=/dev/zero of='\(library.root.path)/out/filler' bs=4k 2>/dev/null
                dd if=/dev/zero of='\(library.root.path)/data/filler' bs=4k 2>/dev/null
                run() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- '\(Library.binary.path)' "$@"; echo "status $?"; }
                echo '--- full'; run backup create 2>&1
                truncate -s -640k '\(library.root.path)/data/filler'
                echo '--- nearly full'; run backup create 2>&1
                echo '--- export'; run invoice export '\(number)' --output '\(library.root.path)/out/invoice.pdf' 2>&1
                ls -a '\(library.root.path)/out'
                echo '--- backups'; ls '\(library.backupFolder.path)'
                echo '--- leftovers'; ls -a '\(library.dataFolder.path)' | grep -c billfold- ; true
                rm '\(library.root.path)/data/filler'
                echo '--- list'; run invoice list | tail -n 2
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["-m", "/bin/sh", "-c", script]
            process.environment = library.environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let database = library.databasePath
            #expect(text.contains("--- full\nThe disk that holds \(database) is full. Free some space, then try again. Nothing was changed.\nstatus 1\n"), "\(text)")
            #expect(text.contains("--- nearly full\nThe disk that holds \(library.backupFolder.path)/billfold-"), "\(text)")
            #expect(text.contains("-manual.sqlite3 is full. Free some space, then try again. Nothing was changed.\nstatus 1\n--- export"), "\(text)")
            #expect(text.contains("--- export\n“\(library.root.path)/out/invoice.pdf” could not be saved: the disk is full.\nstatus 1\n.\n..\nfiller\n"), "\(text)")
            #expect(text.contains("--- backups\n\(URL(fileURLWithPath: backup.path).lastPathComponent)\n--- leftovers\n0\n"), "\(text)")
            #expect(text.contains("status 0\n"), "the library reads again once there is space: \(text)")
        } else {
            let limit = ["prlimit", "--fsize=\(size(library.databasePath) / 4)"]
            let refused = try library.run(["backup", "create"], prefix: limit)
            #expect(refused.status == 1)
            #expect(refused.errors.hasPrefix("The disk that holds "))
            let export = try library.run(["invoice", "export", number, "--output", output], prefix: ["prlimit", "--fsize=2048"])
            #expect(export.status == 1)
            #expect(export.errors == "“\(output)” could not be saved: the file is larger than this disk or the system allows.\n")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        #expect(library.backups() == [backup])
        #expect(try library.invoiceRows() == rows)
    }

    @Test func killedBackupsAndRestoresLoseNothingAndLeaveNothing() throws {
        let (library, rows, backup) = try libraryWithBackup()
        for step in 0..<8 {
            let outcome = try library.run(["backup", "create"], killAfter: 0.02 + Double(step) * 0.03)
            _ = outcome
            for made in library.backups() {
                #expect(try library.invoiceRows(at: made.path) == rows, "a backup that has its name is complete")
            }
        }
        for step in 0..<8 {
            _ = try library.run(["backup", "restore", URL(fileURLWithPath: backup.path).lastPathComponent],
                                killAfter: 0.02 + Double(step) * 0.03)
            // A kill between the restore's two renames leaves no library until the next start
            // finishes the restore; what anyone sees through Billfold is the old or the restored file.
            #expect(try library.run(["backup", "list"]).status == 0)
            #expect(try library.invoiceRows() == rows, "the library is the old or the restored file, never half")
        }
        #expect(library.backups().contains(backup))
        // The next start removes what the killed processes left.
        #expect(try library.run(["backup", "list"]).status == 0)
        let leftovers = (Library.names(in: library.dataFolder) + Library.names(in: library.backupFolder))
            .filter { $0.contains(AtomicWrite.temporaryMarker) }
        #expect(leftovers.isEmpty, "\(leftovers)")
        for kept in Library.names(in: library.dataFolder) where kept.hasPrefix("billfold.sqlite3.before-restore-") && !kept.hasSuffix("-wal") && !kept.hasSuffix("-shm") {
            #expect(try library.invoiceRows(at: library.dataFolder.appendingPathComponent(kept).path) == rows)
        }
    }

    @Test func theLibraryAndItsBackupsArePrivateWhateverTheUmask() throws {
        let library = try Library()
        try FileManager.default.createDirectory(at: library.dataFolder, withIntermediateDirectories: true)
        chmod(library.dataFolder.path, 0o755)
        try library.handOver()
        let made = try library.run(["backup", "create"], umask: "000")
        #expect(made.status == 0, "\(made.errors)")
        #expect(Library.mode(library.dataFolder.path) == 0o700)
        #expect(Library.mode(library.backupFolder.path) == 0o700)
        #expect(Library.mode(library.databasePath) == 0o600)
        for backup in library.backups() { #expect(Library.mode(backup.path) == 0o600) }
        // An existing library made with a lax umask becomes private when opened.
        chmod(library.databasePath, 0o644)
        _ = try library.run(["invoice", "list"], umask: "000")
        #expect(Library.mode(library.databasePath) == 0o600)
    }

    @Test func leftoversOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let library = try Library()
        try library.fill(invoices: 5)
        try FileManager.default.createDirectory(at: library.backupFolder, withIntermediateDirectories: true)
        // A pid above the kernel's largest (pid_max is at most 4194304) belongs to nobody.
        let dead = "4194305"
        #expect(kill(pid_t(dead)!, 0) != 0)
        let live = "\(getpid())"
        let files = [
            library.dataFolder.appendingPathComponent(".out.pdf.billfold-\(dead)-1.tmp"),
            library.dataFolder.appendingPathComponent("billfold.sqlite3.billfold-\(dead)-restoring"),
            library.backupFolder.appendingPathComponent("billfold-20240101T000000000Z-daily.sqlite3.billfold-\(dead)-partial"),
            library.backupFolder.appendingPathComponent("billfold-20240101T000000000Z-daily.sqlite3.billfold-\(dead)-partial-journal"),
        ]
        let kept = library.dataFolder.appendingPathComponent(".other.pdf.billfold-\(live)-1.tmp")
        for file in files + [kept] { try Data("x".utf8).write(to: file) }
        try library.handOver()
        #expect(try library.run(["backup", "list"]).status == 0)
        for file in files { #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)") }
        #expect(FileManager.default.fileExists(atPath: kept.path))
    }

    @Test func aFIFOInTheLibrarysPlaceIsNotOpened() throws {
        let library = try Library()
        try FileManager.default.createDirectory(at: library.dataFolder, withIntermediateDirectories: true)
        #expect(mkfifo(library.databasePath, 0o600) == 0)
        try library.handOver()
        // Opening a FIFO for reading would wait for a writer forever; this must return.
        let outcome = try library.run(["invoice", "list"])
        #expect(outcome.status == 1)
        #expect(outcome.errors == "\(library.databasePath) is not a regular file (a named pipe or a device?), so it was not opened. Move it away, then open Billfold again. Nothing was changed.\n")
    }

    @Test func checkFindsAMissingOrChangedReceiptFile() throws {
        let library = try Library()
        try library.fill(invoices: 10)
        #expect(try library.run(["trip", "list"]).status == 0)   // the Expenses tables
        let receipts = library.root.appendingPathComponent("data/billfold/receipts")
        try FileManager.default.createDirectory(at: receipts, withIntermediateDirectories: true)
        let bytes = Data("%PDF-1.4 receipt".utf8)
        let digest = try Library.shell("printf '%s' '%PDF-1.4 receipt' | sha256sum | cut -c1-64").trimmingCharacters(in: .whitespacesAndNewlines)
        let file = receipts.appendingPathComponent("\(digest).pdf")
        try bytes.write(to: file)
        let database = try Database.open(path: library.databasePath)
        try database.execute("INSERT INTO expenses_receipt (digest, kind, byte_count, original_name, added_at) VALUES (?, 'pdf', ?, 'r.pdf', '2024-01-01T00:00:00.000Z')",
                             [digest, bytes.count])
        database.close()
        try library.handOver()

        let sound = try library.run(["check"])
        #expect(sound.status == 0, "\(sound.errors)")
        #expect(sound.output == "The library is sound and every receipt file is there and unchanged.\n")
        try Data("%PDF-1.4 changed".utf8).write(to: file)
        try library.handOver()
        let changed = try library.run(["check"])
        #expect(changed.status == 1)
        #expect(changed.errors == "The receipt file \(file.path) has changed since it was attached.\n1 problem found.\n")
        // There but unreadable is said as such, not as missing.
        try bytes.write(to: file)
        try library.handOver()
        chmod(file.path, 0)
        let unreadable = try library.run(["check"])
        #expect(unreadable.status == 1)
        #expect(unreadable.errors == "The receipt file \(file.path) could not be read: permission denied (the file or its folder is read-only).\n1 problem found.\n")
        try FileManager.default.removeItem(at: file)
        let missing = try library.run(["check"])
        #expect(missing.status == 1)
        #expect(missing.errors == "The receipt file \(file.path) is missing.\n1 problem found.\n")
    }

    @Test func theWALAndSHMArePrivateWhateverTheUmask() throws {
        let library = try Library()
        let previous = umask(0)
        defer { umask(previous) }
        let database = try Database.open(path: library.databasePath)
        try database.execute("CREATE TABLE note (text TEXT)")
        try database.execute("INSERT INTO note VALUES ('x')")
        for suffix in ["", "-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: library.databasePath + suffix))
            #expect(Library.mode(library.databasePath + suffix) == 0o600, "\(suffix)")
        }
        #expect(Library.mode(library.dataFolder.path) == 0o700)
        database.close()
    }

    private func firstInvoiceNumber(_ library: Library) throws -> String? {
        let database = try Database.open(path: library.databasePath)
        defer { database.close() }
        return try database.queryValue("SELECT number FROM invoices_invoice WHERE number IS NOT NULL AND number != '' ORDER BY id LIMIT 1", as: String.self)
    }
}

@Suite struct LeftoverNameTests {
    @Test func onlyBillfoldsOwnTemporaryNamesCount() {
        for name in [".out.pdf.billfold-123-4567.tmp", "b.sqlite3.billfold-123-partial", "b.sqlite3.billfold-123-partial-journal",
                     "b.sqlite3.billfold-123-partial-wal", "b.sqlite3.billfold-123-partial-shm",
                     "billfold.sqlite3.billfold-123-restoring", ".incoming-.billfold-123-0F3A8E9C-1B2D-4C5E-8F90-A1B2C3D4E5F6"] {
            #expect(LeftoverFiles.isTemporary(name), "\(name)")
        }
        for name in ["taxes.billfold-2024.sqlite3", "notes.billfold-12-final.txt", "billfold-20240101T000000000Z-daily.sqlite3",
                     ".x.billfold-12-.tmp"] {
            #expect(!LeftoverFiles.isTemporary(name), "\(name)")
        }
    }
}
