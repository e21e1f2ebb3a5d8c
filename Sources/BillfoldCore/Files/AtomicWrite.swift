import Foundation

/// Writes a file whole or not at all, and never replaces something that is not a file.
///
/// The bytes go to an anonymous file in the target's folder (`O_TMPFILE`): a process killed
/// half-way leaves nothing behind, not even a hidden temporary file. Once complete and synced
/// it gets a name and is renamed over the target, so a reader sees the old file or the whole
/// new one. A symlink target is followed (the file it points to is replaced, the link stays);
/// an existing FIFO, device, socket or folder is refused.
public enum AtomicWrite {
    /// Calls `body` with a descriptor open for writing, then puts the file in place. `mode`
    /// is the new file's permissions; nil keeps an existing file's or uses 0666 less the umask.
    /// `durable: false` is for a cache, whose file can be made again: readers still see the
    /// old file or the whole new one, but nothing waits for the disk, so after a crash the
    /// file may be empty or short.
    public static func write(to url: URL, mode: mode_t? = nil, durable: Bool = true,
                             _ body: (_ descriptor: Int32) throws -> Void) throws {
        let target = try resolvedTarget(url.path)
        let directory = (target as NSString).deletingLastPathComponent
        let (descriptor, namedTemporary) = try openTemporary(in: directory.isEmpty ? "." : directory, for: target)
        var linkedName = namedTemporary
        do {
            try body(descriptor)
            var existing = stat()
            let permissions = mode ?? (stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o666 & ~currentUmask())
            guard fchmod(descriptor, permissions) == 0 else { throw FileWriteError.failed(path: target, code: errno) }
            // Flushed before it gets a name, so a crash leaves the old file or the whole new one.
            if durable, fsync(descriptor) != 0 { throw FileWriteError.failed(path: target, code: errno) }
            if linkedName == nil {
                let name = temporaryName(in: directory, for: target)
                guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 else {
                    throw FileWriteError.failed(path: target, code: errno)
                }
                linkedName = name
            }
            guard close(descriptor) == 0 else {
                throw FileWriteError.failed(path: target, code: errno)
            }
            guard rename(linkedName!, target) == 0 else { throw FileWriteError.failed(path: target, code: errno) }
        } catch {
            close(descriptor)
            if let linkedName { unlink(linkedName) }
            if let failure = error as? FileWriteError { throw failure }
            throw error
        }
        // Make the rename itself durable; a failure here cannot undo the write.
        guard durable else { return }
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Writes `data` whole or not at all.
    public static func write(_ data: Data, to url: URL, mode: mode_t? = nil, durable: Bool = true) throws(FileWriteError) {
        do {
            try write(to: url, mode: mode, durable: durable) { descriptor in
                try writeAll(data, to: descriptor, path: url.path)
            }
        } catch let error as FileWriteError {
            throw error
        } catch {
            throw .failed(path: url.path, code: EIO)
        }
    }

    /// Writes every byte of `data` to `descriptor`, retrying after interruptions.
    public static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(FileWriteError) {
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 { throw .failed(path: path, code: failure) }
    }

    /// The file a write to `path` must replace: symlinks followed, and refused when it exists
    /// but is not a regular file.
    public static func resolvedTarget(_ path: String) throws(FileWriteError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return current }
                throw .failed(path: path, code: errno)
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                return current
            case S_IFLNK:
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let length = readlink(current, &buffer, buffer.count - 1)
                guard length >= 0 else { throw .failed(path: path, code: errno) }
                let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                current = destination.hasPrefix("/")
                    ? destination
                    : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
            default:
                throw .notARegularFile(path: path, kind: fileKindDescription(info.st_mode))
            }
        }
        throw .failed(path: path, code: ELOOP)
    }

    /// Prefix of every named temporary file, with the writer's process id so that start-up
    /// cleaning can tell a leftover of a killed process from a write in progress.
    public static let temporaryMarker = ".billfold-"

    private static func temporaryName(in directory: String, for target: String) -> String {
        let name = (target as NSString).lastPathComponent
        let folder = directory.isEmpty ? "." : directory
        return "\(folder)/.\(name)\(temporaryMarker)\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// An anonymous file when the file system offers them, else a named one (returned too).
    private static func openTemporary(in directory: String, for target: String) throws(FileWriteError) -> (Int32, String?) {
        // O_TMPFILE is a compound macro Swift does not import: __O_TMPFILE | O_DIRECTORY.
        let anonymous: Int32 = 0o20000000 | O_DIRECTORY
        let descriptor = open(directory, anonymous | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 { return (descriptor, nil) }
        let reason = errno
        guard reason == EOPNOTSUPP || reason == EISDIR || reason == EINVAL else {
            throw .failed(path: target, code: reason)
        }
        let name = temporaryName(in: directory, for: target)
        let named = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard named >= 0 else { throw .failed(path: target, code: errno) }
        return (named, name)
    }

    /// The process's umask, read without changing it (setting it to read it races with threads).
    public static func currentUmask() -> mode_t {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
           let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) {
            return value
        }
        return 0o022
    }
}
