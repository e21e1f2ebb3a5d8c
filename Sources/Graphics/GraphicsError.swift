import CCairo
import Foundation

/// A failure of Cairo or of writing its output.
public enum GraphicsError: Error, LocalizedError, Equatable, Sendable {
    /// Cairo refused an operation; `message` is Cairo's own description.
    case cairo(message: String)
    /// The output could not be written (disk full, permission denied, missing folder).
    /// `code` is the errno when the system refused (ENOSPC, EACCES, …), else 0.
    case writeFailed(path: String, reason: String, code: Int32 = 0)
    /// A PDF could not be made into a PDF/A: it is built in a way the archive writer does not read.
    case unsupportedPDF(reason: String)

    public var errorDescription: String? {
        switch self {
        case .cairo(let message):
            "Drawing failed: \(message)."
        case .writeFailed(let path, let reason, _):
            "Could not write “\(path)”: \(reason)."
        case .unsupportedPDF(let reason):
            "Could not make an archival PDF (PDF/A) of this document: \(reason)."
        }
    }

    static func check(_ status: cairo_status_t) throws(GraphicsError) {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw GraphicsError.cairo(message: String(cString: cairo_status_to_string(status)))
    }
}
