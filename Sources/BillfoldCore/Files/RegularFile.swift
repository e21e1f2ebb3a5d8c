import Foundation

/// Reads a file only when it is a regular file of sane size, without ever blocking: a FIFO
/// or a device in its place is refused instead of freezing start-up in `open()`.
public enum RegularFile {
    public enum ReadError: Error, Hashable, Sendable {
        case missing
        case notARegularFile(kind: String)
        case tooLarge(byteCount: Int64)
        case failed(code: Int32)

        /// Why, in words.
        public var reason: String {
            switch self {
            case .missing: return tr("the file does not exist")
            case .notARegularFile(let kind): return String(format: tr("it is %@, not a regular file"), kind)
            case .tooLarge(let byteCount): return String(format: tr("it is too large (%@)"), ByteCountText.string(byteCount))
            case .failed(let code): return FileProblem.reason(errno: code)
            }
        }
    }

    /// The bytes of `path`, refused when it is not a regular file or is larger than `limit`.
    public static func read(_ path: String, limit: Int) throws(ReadError) -> Data {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw errno == ENOENT ? .missing : .failed(code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .failed(code: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(kind: fileKindDescription(info.st_mode)) }
        guard info.st_size <= limit else { throw .tooLarge(byteCount: Int64(info.st_size)) }
        var data = Data(count: limit + 1)
        var total = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            while total < buffer.count {
                let count = Glibc.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }
                total += count
            }
        }
        if failure != 0 { throw .failed(code: failure) }
        guard total <= limit else { throw .tooLarge(byteCount: Int64(total)) }
        return data.prefix(total)
    }
}
