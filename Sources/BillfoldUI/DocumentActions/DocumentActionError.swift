import BillfoldCore
import Foundation

/// Why saving, printing, opening or emailing a document failed, said so a person can act on it.
public enum DocumentActionError: Error, LocalizedError, Equatable, Sendable {
    /// The disk (or the user's quota) is full.
    case noSpace(fileName: String)
    case permissionDenied(folder: String)
    case folderMissing(folder: String)
    case writeFailed(fileName: String, reason: String)
    /// The bytes handed over are not a readable PDF.
    case unreadablePDF(reason: String)
    case printFailed(reason: String)
    case openFailed(reason: String)
    /// Neither the desktop's Email portal nor `xdg-email` can open a mail app.
    case noEmailApp
    case emailFailed(reason: String)

    /// Fills the one `%@` of a translated sentence.
    private static func fill(_ template: String, _ value: String) -> String {
        template.replacingOccurrences(of: "%@", with: value)
    }

    public var errorDescription: String? {
        switch self {
        case .noSpace(let fileName):
            Self.fill(tr("There is not enough space on the disk to save “%@”. Free some space or choose another place."), fileName)
        case .permissionDenied(let folder):
            Self.fill(tr("You cannot save in “%@”. Choose a folder you are allowed to write to."), folder)
        case .folderMissing(let folder):
            Self.fill(tr("The folder “%@” does not exist any more. Choose another place."), folder)
        case .writeFailed(let fileName, let reason):
            Self.fill(tr("“%@” could not be saved"), fileName) + ": " + reason
        case .unreadablePDF(let reason):
            tr("The document cannot be read") + ": " + reason
        case .printFailed(let reason):
            tr("The document could not be printed") + ": " + reason
        case .openFailed(let reason):
            tr("No app could open the document") + ": " + reason
        case .noEmailApp:
            tr("No email app is set up. Save the PDF and attach it to a message in your email app.")
        case .emailFailed(let reason):
            tr("The email app could not be opened") + ": " + reason
        }
    }

    /// The error for a failed write of `path`, from the system's `errno`.
    static func writing(_ path: String, errno code: Int32) -> DocumentActionError {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        switch code {
        case ENOSPC, EDQUOT:
            return .noSpace(fileName: url.lastPathComponent)
        case EACCES, EPERM, EROFS:
            return .permissionDenied(folder: folder)
        case ENOENT, ENOTDIR:
            return .folderMissing(folder: folder)
        default:
            return .writeFailed(fileName: url.lastPathComponent, reason: FileProblem.reason(errno: code))
        }
    }
}
