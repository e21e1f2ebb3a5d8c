import Foundation

/// Why a file could not be written. The reason names a full disk, a read-only disk or a
/// missing permission as such.
public enum FileWriteError: Error, LocalizedError, Hashable, Sendable {
    /// The target exists and is a FIFO, a device, a socket or a folder: replacing it with a
    /// regular file would break what the person set up, so nothing is written.
    case notARegularFile(path: String, kind: String)
    /// The system refused; `code` is the errno value.
    case failed(path: String, code: Int32)

    public var errorDescription: String? {
        switch self {
        case .notARegularFile(let path, let kind):
            return String(format: tr("“%@” is %@, not a regular file, so it was left as it is. Choose a file name, or use --output - to write to standard output."),
                          path, kind)
        case .failed(let path, let code):
            return String(format: tr("“%@” could not be saved: %@."), path, FileProblem.reason(errno: code))
        }
    }

    /// The errno value when the system refused.
    public var code: Int32? {
        if case .failed(_, let code) = self { return code }
        return nil
    }
}

/// What kind of file `mode` describes, in words, for `notARegularFile`.
func fileKindDescription(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: return tr("a named pipe (FIFO)")
    case S_IFCHR: return tr("a character device")
    case S_IFBLK: return tr("a block device")
    case S_IFSOCK: return tr("a socket")
    case S_IFDIR: return tr("a folder")
    default: return tr("a special file")
    }
}
