import SeededRandom
import Foundation
import Storage
import Testing

/// Kills a child process with SIGKILL while it is in the middle of a large write transaction
/// (see Tests/Support/StorageCrashWriter) and checks what survives.
@Suite(.serialized) struct CrashTests {
    private static let rowsPerBatch = 200

    /// The helper is built next to the test binary because this target depends on it.
    private static func writerExecutable() -> URL? {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = testBinary.deletingLastPathComponent().appendingPathComponent("StorageCrashWriter")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// The same bytes the writer stores, so every committed byte can be checked.
    private static func payload(batch: Int, row: Int, size: Int) -> Data {
        var state = UInt64(truncatingIfNeeded: batch &* 1_000_003 &+ row)
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return Data(bytes)
    }

    private static func fileSize(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    enum KillMoment: CaseIterable {
        case asSoonAsWritingStarts
        case aWhileIntoTheTransaction
        case afterEverythingIsWrittenButNotCommitted
    }

    @Test func aKilledWriterLosesNothingCommittedAndLeavesASoundFile() throws {
        guard let writer = Self.writerExecutable() else {
            Issue.record("StorageCrashWriter was not built next to the test binary")
            return
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("crash.sqlite3")
        var committedBatches = 0
        var generator = SeededGenerator(seed: 21)

        for moment in KillMoment.allCases {
            let child = Process()
            child.executableURL = writer
            child.arguments = [path, "5"]
            let output = Pipe()
            child.standardOutput = output
            child.standardError = FileHandle.nullDevice
            try child.run()
            let reader = LineReader(fileDescriptor: output.fileHandleForReading.fileDescriptor)

            var reachedMoment = false
            while let line = reader.nextLine(timeout: 120) {
                if line.hasPrefix("committed ") {
                    committedBatches = Int(line.dropFirst("committed ".count)) ?? -1
                } else if line == "writing", moment != .afterEverythingIsWrittenButNotCommitted {
                    if moment == .aWhileIntoTheTransaction {
                        usleep(UInt32.random(in: 50_000...400_000, using: &generator))
                    }
                    reachedMoment = true
                    break
                } else if line == "waiting" {
                    reachedMoment = true
                    break
                }
            }
            if !reachedMoment { child.terminate() }
            let walSize = Self.fileSize(path + "-wal")
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            #expect(reachedMoment, "the writer stopped before \(moment)")
            #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL,
                    "the writer was not killed \(moment)")
            if moment == .afterEverythingIsWrittenButNotCommitted {
                // Uncommitted pages had spilled into the WAL: the case recovery must get right.
                #expect(walSize > 8 * 1024 * 1024, "WAL held only \(walSize) bytes when killed")
            }

            let database = try Database.open(path: path, options: .init(createIfMissing: false, verifyIntegrity: true))
            #expect(try database.integrityCheck().isEmpty)
            #expect(try database.queryValue("SELECT count(*) FROM entry WHERE batch < 0", as: Int.self) == 0)
            #expect(try database.queryValue("SELECT count(*) FROM entry", as: Int.self)
                    == committedBatches * Self.rowsPerBatch)
            #expect(try database.queryValue("SELECT count(DISTINCT batch) FROM entry", as: Int.self) == committedBatches)
            var checked = 0
            try database.query("SELECT batch, row, payload FROM entry") { row in
                let batch: Int = try row[0]
                let index: Int = try row[1]
                let payload: Data = try row[2]
                if payload != Self.payload(batch: batch, row: index, size: 512) {
                    Issue.record("batch \(batch) row \(index) came back changed")
                }
                checked += 1
            }
            #expect(checked == committedBatches * Self.rowsPerBatch)
            database.close()
        }
        #expect(committedBatches == 15)
    }
}

/// Reads lines from a pipe with a timeout, so a child that hangs fails the test instead of hanging it.
private final class LineReader {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    func nextLine(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(remaining * 1000))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fileDescriptor, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}
