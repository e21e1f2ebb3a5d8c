import Foundation

/// Where a command-line export goes: `--output -` is standard output, anything else a file
/// written by `AtomicWrite` (symlinks followed, special files refused).
public enum OutputTarget: Hashable, Sendable {
    case standardOutput
    case file(URL)

    public init(argument: String) {
        self = argument == "-" ? .standardOutput : .file(URL(fileURLWithPath: argument).standardizedFileURL)
    }

    /// How messages name it.
    public var displayName: String {
        switch self {
        case .standardOutput: return tr("standard output")
        case .file(let url): return url.path
        }
    }

    /// Writes `data` there whole: atomically to a file, in full to standard output.
    public func write(_ data: Data) throws(FileWriteError) {
        switch self {
        case .standardOutput:
            try AtomicWrite.writeAll(data, to: STDOUT_FILENO, path: displayName)
        case .file(let url):
            try AtomicWrite.write(data, to: url)
        }
    }
}
