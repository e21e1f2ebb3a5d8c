// The child process of the crash test in StorageTests: it commits numbered batches, says so on
// standard output after each commit, then opens one large write transaction that it never
// commits, and waits there to be killed with SIGKILL.
//
//   StorageCrashWriter <database path> <batches to commit>
import Foundation
import Storage

let rowsPerBatch = 200
let uncommittedRows = 8_000

/// A payload that can be recomputed from its row's key, so the test can check every byte.
func payload(batch: Int, row: Int, size: Int) -> Data {
    var state = UInt64(truncatingIfNeeded: batch &* 1_000_003 &+ row)
    var bytes = [UInt8](repeating: 0, count: size)
    for index in bytes.indices {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func run() -> Int32 {
    let arguments = CommandLine.arguments
    guard arguments.count == 3, let batches = Int(arguments[2]) else {
        FileHandle.standardError.write(Data("usage: StorageCrashWriter <database> <batches>\n".utf8))
        return 2
    }
    do {
        // A small page cache makes the open transaction spill its pages into the WAL long before
        // it ends, which is the state worth killing.
        let database = try Database.open(path: arguments[1], options: .init(cacheSizeKiB: 1024))
        try database.executeScript("""
            CREATE TABLE IF NOT EXISTS entry (
                id INTEGER PRIMARY KEY,
                batch INTEGER NOT NULL,
                row INTEGER NOT NULL,
                payload BLOB NOT NULL,
                UNIQUE (batch, row)
            )
            """)
        let first = (try database.queryValue("SELECT max(batch) FROM entry", as: Int.self) ?? 0) + 1
        let insert = try database.prepare("INSERT INTO entry (batch, row, payload) VALUES (?, ?, ?)")
        for batch in first..<(first + batches) {
            try database.transaction {
                for row in 0..<rowsPerBatch {
                    try insert.execute([batch, row, payload(batch: batch, row: row, size: 512)])
                }
            }
            say("committed \(batch)")
        }
        try database.transaction {
            for row in 0..<uncommittedRows {
                try insert.execute([-1, row, payload(batch: -1, row: row, size: 4096)])
                if row == 2_000 { say("writing") }
            }
            say("waiting")
            // Hold the transaction open until the parent kills us; give up if it never does.
            Thread.sleep(forTimeInterval: 120)
        }
        return 3
    } catch {
        FileHandle.standardError.write(Data("\(error.localizedDescription)\n".utf8))
        return 1
    }
}

exit(run())
