import BillfoldCore
import CSQLite
import Foundation
import Plans
import Licensing
import InvoicesBenchmarkData
import InvoicesCore
import Storage
import Testing

/// A library in a folder of its own, and the real `billfold` binary run against it the way a
/// person runs it: through the XDG folders, with the exit status and the exact text it prints.
final class Library {
    let root: URL
    /// True when the binary runs as `nobody` (the tests run as root, who bypasses permissions).
    let dropsPrivileges: Bool

    init() throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("billfold-fault-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        dropsPrivileges = getuid() == 0
        if dropsPrivileges { chmod(root.path, 0o777) }
    }

    deinit {
        _ = try? Self.shell("chmod -R u+rwX '\(root.path)' 2>/dev/null; rm -rf '\(root.path)'")
    }

    var dataFolder: URL { root.appendingPathComponent("data/billfold", isDirectory: true) }
    var databasePath: String { dataFolder.appendingPathComponent("billfold.sqlite3").path }
    var backupFolder: URL { dataFolder.appendingPathComponent("backups", isDirectory: true) }
    var configFolder: URL { root.appendingPathComponent("config/billfold", isDirectory: true) }

    var environment: [String: String] {
        [
            "HOME": root.path, "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            // Debug builds trust this key; the licence below is signed with it.
            "BILLFOLD_TEST_LICENSE_PUBLIC_KEY": ProLicence.publicKeyLine,
        ]
    }

    /// Fills the library with `invoices` invoices through the storage layer, closes it, and
    /// hands the files to the user the binary runs as.
    func fill(invoices: Int) throws {
        try FileManager.default.createDirectory(at: dataFolder, withIntermediateDirectories: true)
        let database = try Database.open(path: databasePath)
        try fill(InvoiceRepository(database: database), invoices: invoices)
        try database.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        database.close()
        try installProLicence()
        try handOver()
    }

    /// PDF export is Billfold Pro's, on the command line too: the library's user has a licence.
    func installProLicence() throws {
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try Data(ProLicence.text.utf8).write(to: configFolder.appendingPathComponent("license." + LicenseVerifier.fileExtension))
    }

    private func fill(_ repository: InvoiceRepository, invoices: Int) throws {
        try InvoicesBenchmarkData.fill(repository, invoices: invoices)
    }

    /// Gives every file to the user the binary runs as.
    func handOver() throws {
        if dropsPrivileges { _ = try Self.shell("chown -R nobody:nogroup '\(root.path)'") }
    }

    /// What a library or backup file holds, one line per invoice, read on a read-only
    /// connection so that reading a backup does not change it.
    func invoiceRows(at path: String? = nil) throws -> [String] {
        var connection: OpaquePointer?
        defer {
            sqlite3_close_v2(connection)
            // Root may have made the SHM file; the binary runs as another user.
            try? handOver()
        }
        guard sqlite3_open_v2(path ?? databasePath, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw RowsUnreadable(message: connection.map { String(cString: sqlite3_errmsg($0)) } ?? "")
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, "SELECT * FROM invoices_invoice ORDER BY id", -1, &statement, nil) == SQLITE_OK else {
            throw RowsUnreadable(message: String(cString: sqlite3_errmsg(connection)))
        }
        var rows: [String] = []
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
            }.joined(separator: "|"))
            step = sqlite3_step(statement)
        }
        guard step == SQLITE_DONE else { throw RowsUnreadable(message: String(cString: sqlite3_errmsg(connection))) }
        return rows
    }

    struct RowsUnreadable: Error { let message: String }

    func backups() -> [Backup] {
        do {
            return try Database.listBackups(forDatabaseAt: databasePath, in: backupFolder.path)
        } catch {
            Issue.record("the backup folder cannot be read: \(error)")
            return []
        }
    }

    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
        let killed: Bool
    }

    /// Runs `billfold arguments…`; `prefix` goes before it (e.g. `prlimit --fsize=…`).
    @discardableResult
    func run(_ arguments: [String], prefix: [String] = [], extraEnvironment: [String: String] = [:],
             umask mask: String? = nil, killAfter delay: Double? = nil) throws -> Outcome {
        var command = prefix + [Self.binary.path] + arguments
        if dropsPrivileges { command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + command }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // SIGXFSZ ignored, as an editor or a shell would: a write past RLIMIT_FSIZE is EFBIG then.
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        process.arguments = ["-c", "trap '' XFSZ; " + (mask.map { "umask \($0); " } ?? "") + "exec " + quoted]
        process.environment = environment.merging(extraEnvironment) { $1 }
        process.currentDirectoryURL = root
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        if let delay {
            usleep(UInt32(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       errors: String(decoding: errorData, as: UTF8.self),
                       killed: process.terminationReason == .uncaughtSignal)
    }

    /// The binary is built beside the test bundle (this target depends on it).
    static var binary: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("billfold")
    }

    @discardableResult
    static func shell(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

/// A lifetime Pro licence signed with a key made for this test run.
enum ProLicence {
    private static let key = try! LicenseSigningKey.generate()
    static let publicKeyLine = key.publicKey.base64
    static let text: String = {
        let licence = try! License(id: "fault-tests", licenseeName: "Fault Tests", licenseeEmail: "faults@example.com",
                                   plan: .lifetime, issuedAt: Date(timeIntervalSince1970: 1_735_689_600), expiresAt: nil,
                                   features: Set(Feature.allCases))
        return SignedLicense(signing: licence, with: key).armoredText
    }()
}
