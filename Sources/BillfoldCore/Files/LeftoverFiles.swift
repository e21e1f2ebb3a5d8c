import Foundation

/// Temporary files of writes that a crash or `kill -9` interrupted. Their names carry the
/// writer's process id (`AtomicWrite.temporaryMarker` + pid), so a file of a process that is
/// still running is never touched.
public enum LeftoverFiles {
    /// Removes leftovers in `directories` (not below them); returns the paths removed.
    @discardableResult
    public static func removeLeftovers(in directories: [URL]) -> [String] {
        var removed: [String] = []
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names {
                guard let pid = writerProcess(of: name), !isRunning(pid) else { continue }
                let path = directory.appendingPathComponent(name).path
                if unlink(path) == 0 { removed.append(path) }
            }
        }
        return removed
    }

    /// Whether `name` is one of Billfold's temporary files (of any writer, running or not).
    public static func isTemporary(_ name: String) -> Bool { writerProcess(of: name) != nil }

    /// Whether `name` is one of Billfold's temporary files and its writer is no longer running.
    public static func isAbandoned(_ name: String) -> Bool {
        guard let pid = writerProcess(of: name) else { return false }
        return !isRunning(pid)
    }

    /// The process id in a temporary file's name, or nil when the name is not one of ours.
    /// Only the exact endings Billfold writes count (".billfold-<pid>-partial" and the journals
    /// SQLite keeps beside it, "-restoring", "-<number>.tmp", "-<UUID>"), so a person's
    /// "taxes.billfold-2024.sqlite3" is never touched.
    static func writerProcess(of name: String) -> pid_t? {
        guard let marker = name.range(of: AtomicWrite.temporaryMarker, options: .backwards) else { return nil }
        let rest = name[marker.upperBound...]
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let pid = pid_t(digits) else { return nil }
        let tail = rest.dropFirst(digits.count)
        guard tail.first == "-" else { return nil }
        let ending = String(tail.dropFirst())
        let isNumberedTemporary = ending.hasSuffix(".tmp") && !ending.dropLast(4).isEmpty
            && ending.dropLast(4).allSatisfy { $0.isASCII && $0.isNumber }
        // A copy of a library in WAL mode is in WAL mode until the copy is switched back.
        let known = ["partial", "partial-journal", "partial-wal", "partial-shm", "restoring"].contains(ending)
            || isNumberedTemporary
            || UUID(uuidString: ending) != nil
        return known ? pid : nil
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }
}
