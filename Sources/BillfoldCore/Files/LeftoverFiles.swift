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

    /// The process id in a temporary file's name, or nil when the name is not one of ours.
    static func writerProcess(of name: String) -> pid_t? {
        guard let marker = name.range(of: AtomicWrite.temporaryMarker) else { return nil }
        let digits = name[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return pid_t(digits)
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }
}
