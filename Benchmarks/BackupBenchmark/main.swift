// Backup benchmark: the daily backup of a 100 MB library while the main thread keeps using
// the app's connection, as the window does. Prints the backup's time and the longest stall
// of the main thread, for the backup as the app makes it (check and copy on a read-only
// connection of their own) and, for comparison, a copy on the app's own connection.
//
//   swift run -c release backup-benchmark [--megabytes N]
import Foundation
import Storage

let megabytes: Int = {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: "--megabytes"), index + 1 < arguments.count,
       let value = Int(arguments[index + 1]), value > 0 {
        return value
    }
    return 100
}()

func milliseconds(since start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// Runs `backup` on another thread while this (main) thread runs a small query every 2 ms;
/// returns the backup's time and the longest gap between two queries.
func measure(_ database: Database, _ backup: @escaping @Sendable () throws -> Void) throws -> (backup: Double, stall: Double, queries: Int) {
    let done = DispatchSemaphore(value: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    let elapsed = LockedValue(0.0)
    Thread.detachNewThread {
        do { try backup() } catch { FileHandle.standardError.write(Data("backup failed: \(error.localizedDescription)\n".utf8)) }
        elapsed.set(milliseconds(since: start))
        done.signal()
    }
    var longest = 0.0
    var queries = 0
    var last = DispatchTime.now().uptimeNanoseconds
    while done.wait(timeout: .now() + .milliseconds(2)) == .timedOut {
        _ = try database.queryValue("SELECT count(*) FROM entry WHERE label = ?", ["label \(queries % 1000)"], as: Int.self)
        queries += 1
        let now = DispatchTime.now().uptimeNanoseconds
        longest = max(longest, Double(now - last) / 1e6)
        last = now
    }
    return (elapsed.value, longest, queries)
}

final class LockedValue<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T { lock.withLock { stored } }
    func set(_ value: T) { lock.withLock { stored = value } }
}

let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("billfold-backup-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let path = folder.appendingPathComponent("billfold.sqlite3").path
let database = try Database.open(path: path)
try database.executeScript("CREATE TABLE entry (id INTEGER PRIMARY KEY, label TEXT NOT NULL, body TEXT NOT NULL); CREATE INDEX entry_label ON entry (label)")
// Rows of about 1 kB of text, with an index, until the file reaches the size asked for.
var state: UInt64 = 42
let alphabet = Array("abcdefghijklmnopqrstuvwxyz      ".utf8)
let rowsWanted = megabytes * 1_000
let fillStart = DispatchTime.now().uptimeNanoseconds
let insert = try database.prepare("INSERT INTO entry (label, body) VALUES (?, ?)")
for batch in stride(from: 0, to: rowsWanted, by: 10_000) {
    try database.transaction {
        for row in batch..<min(rowsWanted, batch + 10_000) {
            var bytes = [UInt8](repeating: 0, count: 1_000)
            for index in bytes.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[index] = alphabet[Int(state >> 59)]
            }
            try insert.execute(["label \(row % 1000)", String(decoding: bytes, as: UTF8.self)])
        }
    }
}
try database.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
print(String(format: "Library: %.1f MB, %d rows (filled in %.1f s)", Double(size) / 1e6, rowsWanted,
             milliseconds(since: fillStart) / 1000))
print("")
print("| backup                                        | time (ms) | longest main-thread stall (ms) | main-thread queries |")
print("|-----------------------------------------------|----------:|-------------------------------:|--------------------:|")
let ownConnection = try measure(database) { _ = try database.makeBackup(reason: "benchmark") }
print(String(format: "| checked + copied + verified, own connection   | %9.0f | %30.1f | %19d |",
             ownConnection.backup, ownConnection.stall, ownConnection.queries))
// What the machine itself costs: a thread that only burns CPU for as long as the backup took.
let busy = try measure(database) {
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(ownConnection.backup * 1e6)
    var spin: UInt64 = 0
    while DispatchTime.now().uptimeNanoseconds < end { spin &+= 1 }
}
print(String(format: "| none: a thread spinning as long (baseline)    | %9.0f | %30.1f | %19d |",
             busy.backup, busy.stall, busy.queries))
let copyPath = folder.appendingPathComponent("copy.sqlite3").path
let appConnection = try measure(database) { try database.backup(to: copyPath) }
print(String(format: "| copy on the app's connection (for comparison) | %9.0f | %30.1f | %19d |",
             appConnection.backup, appConnection.stall, appConnection.queries))
