import Foundation

/// Writing a document to disk so that a failure never leaves a half-written file: the bytes go
/// to a temporary file beside the target, are flushed, and only then renamed over it.
public enum DocumentFile {
    /// Writes `data` to `url` atomically. The file gets the permissions a new file would
    /// (0666 less the umask); a file it replaces keeps its own.
    public static func write(_ data: Data, to url: URL) throws(DocumentActionError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(url.lastPathComponent).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw DocumentActionError.writing(path, errno: errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 {
            var existing = stat()
            let mode = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o666 & ~currentUmask()
            fchmod(fd, mode)
            // Flushed before the rename, so a crash leaves the old file or the whole new one.
            if fsync(fd) != 0 { failure = errno }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw DocumentActionError.writing(path, errno: failure)
        }
        // Make the rename itself durable; a failure here cannot undo the write.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// The process's umask, read without changing it (setting it to read it races with threads).
    static func currentUmask() -> mode_t {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
           let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) {
            return value
        }
        return 0o022
    }

    /// `name` made safe as a file name: no folder separators or control characters, never
    /// empty or hidden, ending in `.pdf`.
    public static func pdfFileName(_ name: String) -> String {
        var cleaned = String(name.unicodeScalars.map { scalar -> Character in
            scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control ? "-" : Character(scalar)
        }).trimmingCharacters(in: .whitespacesAndNewlines)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        if cleaned.isEmpty { cleaned = "document" }
        if !cleaned.lowercased().hasSuffix(".pdf") { cleaned += ".pdf" }
        return cleaned
    }
}
