import BillfoldCore
import Foundation

/// Writing a document to disk so that a failure never leaves a half-written file: the bytes go
/// to a temporary file beside the target, are flushed, and only then renamed over it.
public enum DocumentFile {
    /// Writes `data` to `url` atomically (`AtomicWrite`). The file gets the permissions a new
    /// file would (0666 less the umask); a file it replaces keeps its own; a symlink is followed.
    public static func write(_ data: Data, to url: URL) throws(DocumentActionError) {
        do {
            try AtomicWrite.write(data, to: url)
        } catch .failed(let path, let code) {
            throw DocumentActionError.writing(path, errno: code)
        } catch {
            throw DocumentActionError.writeFailed(fileName: url.lastPathComponent, reason: error.localizedDescription)
        }
    }

    /// The process's umask, read without changing it.
    static func currentUmask() -> mode_t { AtomicWrite.currentUmask() }

    /// `name` made safe as a file name: no folder separators or control characters, never
    /// empty or hidden, ending in `.pdf`.
    public static func pdfFileName(_ name: String) -> String { fileName(name, extension: "pdf") }

    /// `name` made safe as a file name, ending in `.<fileExtension>`.
    public static func fileName(_ name: String, extension fileExtension: String) -> String {
        var cleaned = String(name.unicodeScalars.map { scalar -> Character in
            scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control ? "-" : Character(scalar)
        }).trimmingCharacters(in: .whitespacesAndNewlines)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        if cleaned.isEmpty { cleaned = "document" }
        if !cleaned.lowercased().hasSuffix("." + fileExtension) { cleaned += "." + fileExtension }
        return cleaned
    }
}

/// What a Save As saves: the chooser's title, the files it lists, the name's extension.
public struct SavedFileKind: Sendable {
    public let title: String
    public let filterName: String
    public let fileExtension: String

    public init(title: String, filterName: String, fileExtension: String) {
        self.title = title
        self.filterName = filterName
        self.fileExtension = fileExtension
    }

    public static var pdf: SavedFileKind {
        SavedFileKind(title: tr("Save PDF"), filterName: tr("PDF documents"), fileExtension: "pdf")
    }
}
